import type { Root } from 'hast';
export declare const getMovePlugin: () => Promise<() => (tree: Root) => void>;
