import type { BaseProps, JsxEmailComponent } from '../types.d.ts';
export interface BodyProps extends BaseProps<'body'> {
}
export declare const Body: JsxEmailComponent<BodyProps>;
