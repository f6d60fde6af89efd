// Meridian's trimmed entry: the components lib/mail uses and the renderer (see README.md).
/* @ts-self-types="./index.d.ts" */
export * from './components/body.js';
export * from './components/column.js';
export * from './components/container.js';
export * from './components/head.js';
export * from './components/heading.js';
export * from './components/hr.js';
export * from './components/html.js';
export * from './components/link.js';
export * from './components/preview.js';
export * from './components/row.js';
export * from './components/section.js';
export * from './components/text.js';
export * from './renderer/render.js';
export * from './types.js';
