import type { PlainTextOptions, RenderOptions } from '../types.d.ts';
export declare const jsxEmailTags: string[];
export declare const renderPlainText: (component: React.ReactElement, options?: PlainTextOptions) => Promise<string>;
export declare const render: (component: React.ReactElement, options?: RenderOptions) => Promise<string>;
