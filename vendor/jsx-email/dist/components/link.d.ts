import type { BaseProps, JsxEmailComponent } from '../types.d.ts';
type RootProps = BaseProps<'a'>;
export interface LinkProps extends RootProps {
}
export declare const Link: JsxEmailComponent<LinkProps>;
export {};
