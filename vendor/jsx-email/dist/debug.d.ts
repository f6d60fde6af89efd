import d from 'debug';
export declare const debug: {
    cli: d.Debugger;
    elements: d.Debugger;
};
export { d };
