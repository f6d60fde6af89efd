/**
 * Text for HTML with every character above U+00FF written as a numeric character reference
 * (`—` as `&#8212;`), built so that V8 keeps it a one-byte string: what the patched server
 * renderer does to React's text (components/react_server.ts), for the HTML the app writes
 * itself (island props, the document's head). The browser reads the same characters.
 */
const WIDE_CHAR = /[\u0100-\uffff]/;

/** `html` (already escaped) as a one-byte string: references for characters above U+00FF. */
export function oneByteHtml(html: string): string {
  return oneByte(html, (point) => `&#${point};`);
}

/**
 * JSON (`JSON.stringify`'s) as a one-byte string: each character above U+00FF as `\uXXXX`
 * escapes (two for a character beyond U+FFFF, its surrogate pair), which `JSON.parse` reads
 * back as the same character (for JSON in a `<script>`, where the browser decodes no character
 * references).
 */
export function oneByteJson(json: string): string {
  return oneByte(json, (point) => {
    if (point <= 0xffff) return unicodeEscape(point);
    const offset = point - 0x10000;
    return unicodeEscape(0xd800 + (offset >> 10)) + unicodeEscape(0xdc00 + (offset & 0x3ff));
  });
}

function unicodeEscape(unit: number): string {
  return `\\u${unit.toString(16).padStart(4, "0")}`;
}

// `text` with each character above U+00FF (by code point) as `escape` writes it, built from
// character codes, not from slices of `text`: a slice of a two-byte string is two-byte.
function oneByte(text: string, escape: (point: number) => string): string {
  if (!WIDE_CHAR.test(text)) return text;
  const codes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0xff) {
      codes.push(code);
      continue;
    }
    const point = text.codePointAt(i)!;
    if (point > 0xffff) i++;
    const written = escape(point);
    for (let j = 0; j < written.length; j++) codes.push(written.charCodeAt(j));
  }
  let out = "";
  for (let k = 0; k < codes.length; k += 4096) {
    out += String.fromCharCode(...codes.slice(k, k + 4096));
  }
  return out;
}
