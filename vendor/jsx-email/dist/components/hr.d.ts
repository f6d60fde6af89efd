import type { BaseProps, JsxEmailComponent } from '../types.d.ts';
export interface HrProps extends BaseProps<'hr'> {
}
export declare const Hr: JsxEmailComponent<HrProps>;
