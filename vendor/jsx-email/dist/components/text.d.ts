import type { BaseProps, JsxEmailComponent } from '../types.js';
export interface TextProps extends BaseProps<'p'> {
}
export declare const Text: JsxEmailComponent<TextProps>;
