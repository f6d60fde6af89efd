// Meridian's trimmed entry: the components lib/mail uses and the renderer (see README.md).
export * from './components/body.d.ts';
export * from './components/column.d.ts';
export * from './components/container.d.ts';
export * from './components/head.d.ts';
export * from './components/heading.d.ts';
export * from './components/hr.d.ts';
export * from './components/html.d.ts';
export * from './components/link.d.ts';
export * from './components/preview.d.ts';
export * from './components/row.d.ts';
export * from './components/section.d.ts';
export * from './components/text.d.ts';
export * from './renderer/render.d.ts';
export * from './types.d.ts';
