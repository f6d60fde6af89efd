import type { BaseProps, JsxEmailComponent } from '../types.d.ts';
export interface SectionProps extends Omit<BaseProps<'table'>, 'cellPadding' | 'cellSpacing'> {
}
export declare const Section: JsxEmailComponent<SectionProps>;
