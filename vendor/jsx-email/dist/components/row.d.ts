import type { BaseProps, JsxEmailComponent } from '../types.d.ts';
export interface RowProps extends BaseProps<'table'> {
}
export declare const Row: JsxEmailComponent<RowProps>;
