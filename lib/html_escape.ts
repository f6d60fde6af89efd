/**
 * HTML escaping exactly as React's server renderer escapes text and attribute values, for the
 * few lists written as strings next to React markup (components/UsMap.tsx markers, the
 * surveyor directory's rows): the page stays byte-for-byte what React alone would send.
 * Browser-safe.
 */

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#x27;",
};
const SPECIAL = /["'&<>]/;

/**
 * `text` with `& < > " '` replaced as React replaces them (`&#x27;` for the apostrophe), so it
 * is safe as element text and inside a double-quoted attribute.
 */
export function escapeHtml(text: string): string {
  // Most values hold none of them: no replace and no copy then.
  if (!SPECIAL.test(text)) return text;
  return text.replace(/["'&<>]/g, (ch) => ESCAPES[ch]);
}
