import type { BaseProps, JsxEmailComponent } from '../types.d.ts';
export interface HtmlProps extends BaseProps<'html'> {
    enableVML?: boolean;
}
export declare const Html: JsxEmailComponent<HtmlProps>;
