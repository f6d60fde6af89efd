import type { BaseProps, JsxEmailComponent } from '../types.js';
export interface BodyProps extends BaseProps<'body'> {
}
export declare const Body: JsxEmailComponent<BodyProps>;
