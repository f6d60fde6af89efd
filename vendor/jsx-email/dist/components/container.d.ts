import type { BaseProps, JsxEmailComponent } from '../types.d.ts';
export interface ContainerProps extends Omit<BaseProps<'table'>, 'align' | 'cellPadding' | 'cellSpacing' | 'width'> {
    alignment?: 'center' | 'left' | 'right';
    containerWidth?: number;
}
export declare const Container: JsxEmailComponent<ContainerProps>;
