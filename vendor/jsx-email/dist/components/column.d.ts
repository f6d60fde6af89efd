import type { BaseProps, JsxEmailComponent } from '../types.js';
export interface ColumnProps extends BaseProps<'td'> {
    bgColor?: string;
    bgImage?: string;
}
export declare const Column: JsxEmailComponent<ColumnProps>;
