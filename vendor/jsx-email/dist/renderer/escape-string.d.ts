/**
 * Note: Parts of this file are derived from [React](https://github.com/facebook/react).
 * @license MIT
 */
/**
 * Escapes special characters and HTML entities in a given html string.
 *
 * This is a slightly modified version of React's
 * [`escapeHtml`](https://github.com/facebook/react/blob/dddfe688206dafa5646550d351eb9a8e9c53654a/packages/react-dom-bindings/src/server/escapeTextForBrowser.js#L53)
 *
 * @param string HTML string to escape for later insertion
 */
export declare function escapeString(string: string): string;
