import d from 'debug';
export const debug = {
    cli: d('jsx-email:cli'),
    elements: d('jsx-email:elements')
};
export { d };
