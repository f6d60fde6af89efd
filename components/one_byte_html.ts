/**
 * Text for HTML with every character above U+00FF written as a numeric character reference
 * (`—` as `&#8212;`), built so that V8 keeps it a one-byte string: what the patched server
 * renderer does to React's text (components/react_server.ts), for the HTML the app writes
 * itself (island props, the document's head). The browser reads the same characters.
 */
const WIDE_CHAR = /[\u0100-\uffff]/;

/** `html` (already escaped) as a one-byte string: references for characters above U+00FF. */
export function oneByteHtml(html: string): string {
  return oneByte(html, (_unit, text, i) => {
    const point = text.codePointAt(i)!;
    return { escape: `&#${point};`, units: point > 0xffff ? 2 : 1 };
  });
}

/**
 * JSON (`JSON.stringify`'s) as a one-byte string: each UTF-16 unit above U+00FF as a `\uXXXX`
 * escape, which `JSON.parse` reads back as the same character (for JSON in a `<script>`, where
 * the browser decodes no character references).
 */
export function oneByteJson(json: string): string {
  return oneByte(
    json,
    (unit) => ({ escape: `\\u${unit.toString(16).padStart(4, "0")}`, units: 1 }),
  );
}

// `text` with each character above U+00FF replaced by what `escape` writes for the unit at `i`
// (spanning `units` units), built from character codes, not from slices of `text`: a slice of
// a two-byte string is two-byte.
function oneByte(
  text: string,
  escape: (unit: number, text: string, i: number) => { escape: string; units: number },
): string {
  if (!WIDE_CHAR.test(text)) return text;
  const codes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0xff) {
      codes.push(code);
      continue;
    }
    const written = escape(code, text, i);
    i += written.units - 1;
    for (let j = 0; j < written.escape.length; j++) codes.push(written.escape.charCodeAt(j));
  }
  let out = "";
  for (let k = 0; k < codes.length; k += 4096) {
    out += String.fromCharCode(...codes.slice(k, k + 4096));
  }
  return out;
}
