import type { BaseProps, JsxEmailComponent } from '../types.js';
export interface HeadProps extends BaseProps<'head'> {
    enableFormatDetection?: boolean;
}
export declare const Head: JsxEmailComponent<HeadProps>;
