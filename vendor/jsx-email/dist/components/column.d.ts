import type { BaseProps, JsxEmailComponent } from '../types.d.ts';
export interface ColumnProps extends BaseProps<'td'> {
    bgColor?: string;
    bgImage?: string;
}
export declare const Column: JsxEmailComponent<ColumnProps>;
