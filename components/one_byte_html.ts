/**
 * Text for HTML with every character above U+00FF written as a numeric character reference
 * (`—` as `&#8212;`), built so that V8 keeps it a one-byte string: what the patched server
 * renderer does to React's text (components/react_server.ts), for the HTML the app writes
 * itself (island props, the document's head). The browser reads the same characters.
 */
const WIDE_CHAR = /[\u0100-\uffff]/;

/** `html` (already escaped) as a one-byte string: references for characters above U+00FF. */
export function oneByteHtml(html: string): string {
  if (!WIDE_CHAR.test(html)) return html;
  // From character codes, not from slices of `html`: a slice of a two-byte string is two-byte.
  const codes: number[] = [];
  for (let i = 0; i < html.length; i++) {
    const code = html.charCodeAt(i);
    if (code <= 0xff) {
      codes.push(code);
      continue;
    }
    const point = html.codePointAt(i)!;
    if (point > 0xffff) i++;
    const ref = `&#${point};`;
    for (let j = 0; j < ref.length; j++) codes.push(ref.charCodeAt(j));
  }
  let out = "";
  for (let k = 0; k < codes.length; k += 4096) {
    out += String.fromCharCode(...codes.slice(k, k + 4096));
  }
  return out;
}
