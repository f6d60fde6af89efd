import type { BaseProps, JsxEmailComponent } from '../types.js';
export interface HrProps extends BaseProps<'hr'> {
}
export declare const Hr: JsxEmailComponent<HrProps>;
