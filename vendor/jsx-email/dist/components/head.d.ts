import type { BaseProps, JsxEmailComponent } from '../types.d.ts';
export interface HeadProps extends BaseProps<'head'> {
    enableFormatDetection?: boolean;
}
export declare const Head: JsxEmailComponent<HeadProps>;
