import type { BaseProps, JsxEmailComponent } from '../types.d.ts';
export interface PreviewProps extends BaseProps<'div'> {
}
export declare const renderWhiteSpace: (text: string) => import("react/jsx-runtime").JSX.Element | null;
export declare const Preview: JsxEmailComponent<PreviewProps>;
