import type { BaseProps, JsxEmailComponent } from '../types.js';
export interface RowProps extends BaseProps<'table'> {
}
export declare const Row: JsxEmailComponent<RowProps>;
