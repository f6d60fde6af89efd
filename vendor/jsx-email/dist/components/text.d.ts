import type { BaseProps, JsxEmailComponent } from '../types.d.ts';
export interface TextProps extends BaseProps<'p'> {
}
export declare const Text: JsxEmailComponent<TextProps>;
