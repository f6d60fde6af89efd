/**
 * The markup check of the framework dashboards beside Meridian's (bench/signed_in_pages.ts):
 * each page reduced to what its visitor gets (`visibleMarkup`), so that two renderers' ways of
 * spelling the same page compare equal and anything else does not.
 */
/** A page reduced to what the visitor gets, for comparing Meridian's with Astro's or Next's. */
export interface VisibleMarkup {
  /** The markup with each island as `<island NAME hydrate="…">…</island>` and no scripts. */
  markup: string;
  /** Each island's props, in page order, as JSON with sorted keys. */
  props: string[];
  /**
   * For comparing with Next.js, which has no island wrapper: `markup` with each island's
   * wrapper left out (its own markup kept), React's useId values masked as `<id>` and the
   * document's <head> elements in sorted order (`nextMarkup`).
   */
  plain: string;
}

/** Where two strings first differ: a few characters of each from there. */
export function firstDifference(a: string, b: string, names = ["a", "b"]): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const at = Math.max(0, i - 30);
  return `at ${i}: ${names[0]} "${a.slice(at, i + 50)}", ${names[1]} "${b.slice(at, i + 50)}"`;
}

function sortedJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v) =>
      v && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
        : v,
  );
}

/** Astro's island props attribute (astro/runtime/server/serialize.js) back to plain values. */
function astroProps(value: unknown): unknown {
  if (!Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, astroProps(v)]));
  }
  const [type, inner] = value as [number, unknown];
  if (type === 1) return (inner as unknown[]).map(astroProps); // an array
  if (type === 0 && inner && typeof inner === "object") return astroProps(inner); // an object
  if (type === 0) return inner;
  throw new Error(`Astro prop of type ${type} not handled`);
}

function unescapeAttribute(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** Index just past the element opened at `start` (its `tag` counted for nesting). */
function elementEnd(html: string, start: number, tag: string): number {
  const pattern = new RegExp(`<(/?)${tag}\\b[^>]*>`, "g");
  pattern.lastIndex = start;
  let depth = 0;
  for (let m = pattern.exec(html); m; m = pattern.exec(html)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) return pattern.lastIndex;
  }
  throw new Error(`<${tag}> at ${start} is not closed`);
}

/** React's useId values inside an island start with its root's prefix; masked as `<prefix>`. */
function maskPrefix(inner: string, prefix: string): string {
  return prefix
    ? inner.replace(/="([^"]*)"/g, (_m, v: string) => `="${v.replaceAll(prefix, "<prefix>")}"`)
    : inner;
}

/**
 * What both servers send a visitor, with the ways two renderers spell the same page made
 * alike: each island wrapper (Meridian's `<div data-island data-id data-src data-hydrate>`
 * followed by its props script, Astro's `<astro-island uid prefix component-url renderer-url
 * props ssr client opts await-children>`) becomes `<island NAME hydrate="…">` around the
 * island's own markup, whose React useId prefix (`i0-`, `r0`) is masked and whose props are
 * compared apart, decoded from either spelling (Astro's end marker `<!--astro:end-->` dropped);
 * every other `<script>`, `<style>` and `<link rel="modulepreload">` is dropped (the island
 * loaders: Meridian's module scripts and preloads, Astro's inline runtime and its
 * `astro-island{display:contents}`); React's `<!-- -->` text separators are dropped and numeric
 * character references decoded (React writes `'` as `&#x27;`, Astro as `&#39;`, Meridian's
 * renderer characters above U+00FF as references); whitespace runs become one space and a space
 * next to a tag is dropped (Astro's compressHTML leaves one where a template breaks a line;
 * Meridian's React output has none between tags). Ids, times and asset names are not masked:
 * both servers read the same rows and link the same stylesheet.
 */
export function visibleMarkup(html: string): VisibleMarkup {
  if (html.includes("self.__next_f")) return nextMarkup(html);
  const props: string[] = [];
  let out = "";
  let plain = "";
  let i = 0;
  const island =
    /<div data-island="([^"]+)" data-id="([^"]*)"[^>]*? data-hydrate="([^"]+)"[^>]*>|<astro-island\b([^>]*)>/g;
  for (let m = island.exec(html); m; m = island.exec(html)) {
    out += html.slice(i, m.index);
    plain += html.slice(i, m.index);
    const isAstro = m[4] !== undefined;
    const end = elementEnd(html, m.index, isAstro ? "astro-island" : "div");
    const closing = isAstro ? "</astro-island>".length : "</div>".length;
    let inner = html.slice(m.index + m[0].length, end - closing);
    let name: string, hydrate: string, prefix: string;
    i = end;
    if (isAstro) {
      const attr = (n: string) =>
        unescapeAttribute(new RegExp(`\\b${n}="([^"]*)"`).exec(m![4])?.[1] ?? "");
      name = JSON.parse(attr("opts")).name;
      hydrate = attr("client");
      prefix = attr("prefix");
      props.push(sortedJson(astroProps(JSON.parse(attr("props") || "{}"))));
      inner = inner.replace(/<template data-astro-template[^>]*>[\s\S]*?<\/template>/g, "");
    } else {
      [name, prefix, hydrate] = [m[1], m[2], m[3]];
      const script = /^<script type="application\/json">([\s\S]*?)<\/script>/.exec(html.slice(i));
      if (script) {
        props.push(sortedJson(JSON.parse(script[1])));
        i += script[0].length;
      }
    }
    out += `<island ${name} hydrate="${hydrate}">${maskPrefix(inner, prefix)}</island>`;
    plain += inner;
    island.lastIndex = i;
  }
  out += html.slice(i);
  plain += html.slice(i);
  return { markup: spoken(out), props, plain: plainMarkup(spoken(plain)) };
}

/**
 * The common part of `visibleMarkup`: scripts, styles and script preloads dropped, React's and
 * Astro's comment markers dropped, character references decoded, whitespace next to tags
 * dropped.
 */
function spoken(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "")
    .replace(/<style\b[^>]*>[\s\S]*?<\/style>/g, "")
    .replace(/<link rel="modulepreload"[^>]*>/g, "")
    .replace(/<!-- -->|<!--astro:end-->/g, "")
    .replace(
      /&#(x[0-9a-f]+|\d+);/gi,
      (_m, code: string) =>
        String.fromCodePoint(code[0] === "x" ? parseInt(code.slice(1), 16) : Number(code)),
    )
    .replace(/\s+/g, " ").replace(/> /g, ">").replace(/ </g, "<");
}

/** Meridian's islands by name (islands/*.tsx): the client components Next's payload is read for. */
const ISLAND_NAMES = new Set(
  [...Deno.readDirSync(new URL("../islands/", import.meta.url))]
    .filter((f) => f.isFile && /^[A-Z]\w*\.tsx$/.test(f.name))
    .map((f) => f.name.slice(0, -".tsx".length)),
);

/** Void elements: written `<meta …/>` by React, `<meta …>` by Meridian's head. */
const VOID = "area|base|br|col|embed|hr|img|input|link|meta|source|track|wbr";

/**
 * What `visibleMarkup` does last for a comparison with Next.js: React's useId values (Meridian's
 * `i0-_r_0_`, Astro's `r0_R_…_`, Next's `_R_…_`: each renderer numbers them its own way) masked
 * as `<id>`; void elements' `/>` written `>` and `charSet` as `charset` (React's spelling of the
 * head Meridian writes as text); the <head> elements sorted (Next's metadata API writes them in
 * its own order).
 */
function plainMarkup(markup: string): string {
  const masked = markup
    .replace(
      /="[^"]*(?:«[^»"]*»|_(?:[\w-]*-)?[rR]_[0-9a-zA-Z]*_|:(?:[\w-]*-)?[rR][0-9a-zA-Z]*:)[^"]*"/g,
      '="<id>"',
    )
    .replace(new RegExp(`<(${VOID})\\b([^>]*?)\\s*/>`, "g"), "<$1$2>")
    .replace(/<meta charSet=/g, "<meta charset=");
  return masked.replace(/<head>([\s\S]*?)<\/head>/, (_m, inner: string) => {
    const elements = inner.match(/<title>[\s\S]*?<\/title>|<[^>]+>/g) ?? [];
    return `<head>${elements.sort().join("")}</head>`;
  });
}

/** One row of a React Flight payload: its tag (`I` a client reference, `` a model) and value. */
interface FlightRow {
  tag: string;
  value: unknown;
}

/**
 * Next's RSC payload, from the `self.__next_f.push([1, "…"])` scripts of its HTML, as rows by
 * id (react-server-dom-webpack's format: `id:TAG JSON\n`, or `id:T<hex byte length>,text`).
 */
function flightRows(html: string): Map<string, FlightRow> {
  let payload = "";
  const push = /self\.__next_f\.push\(\[1,("(?:[^"\\]|\\.)*")\]\)/g;
  for (const m of html.matchAll(push)) payload += JSON.parse(m[1]);
  const rows = new Map<string, FlightRow>();
  const bytes = new TextEncoder().encode(payload);
  const decoder = new TextDecoder();
  let at = 0;
  while (at < bytes.length) {
    const colon = bytes.indexOf(0x3a, at);
    if (colon < 0) break;
    const id = decoder.decode(bytes.subarray(at, colon));
    let tagEnd = colon + 1;
    while (tagEnd < bytes.length && /[A-Z]/.test(String.fromCharCode(bytes[tagEnd]))) tagEnd++;
    const tag = decoder.decode(bytes.subarray(colon + 1, tagEnd));
    if (tag === "T") {
      const comma = bytes.indexOf(0x2c, tagEnd);
      const length = parseInt(decoder.decode(bytes.subarray(tagEnd, comma)), 16);
      rows.set(id, { tag, value: decoder.decode(bytes.subarray(comma + 1, comma + 1 + length)) });
      at = comma + 1 + length;
      continue;
    }
    let end = bytes.indexOf(0x0a, tagEnd);
    if (end < 0) end = bytes.length;
    const text = decoder.decode(bytes.subarray(tagEnd, end));
    let value: unknown = text;
    try {
      value = text ? JSON.parse(text) : null;
    } catch {
      // A row that is not JSON (none the props need): kept as its text.
    }
    rows.set(id, { tag, value });
    at = end + 1;
  }
  return rows;
}

/**
 * The props of each of Meridian's islands in Next's RSC payload, in page order: the elements
 * `["$", "$L<id>", key, props]` whose client reference (row `<id>`, tag `I`) exports an island
 * by its name, walked depth first from row 0, props decoded as the browser decodes them
 * (`$$…` a string starting with `$`, `$undefined` left out, `$<id>` and `$<id>:path` other
 * rows, `$D…` a date as its ISO text).
 */
function nextIslandProps(rows: Map<string, FlightRow>): string[] {
  const islandOf = (type: unknown): string | undefined => {
    if (typeof type !== "string" || !type.startsWith("$L")) return undefined;
    const row = rows.get(type.slice(2));
    // The export's name, or a reference to a row holding it (a string used twice).
    const name = row?.tag === "I" ? decode((row.value as unknown[])[2]) : undefined;
    return typeof name === "string" && ISLAND_NAMES.has(name) ? name : undefined;
  };
  const decode = (value: unknown): unknown => {
    if (typeof value === "string" && value.startsWith("$")) {
      if (value.startsWith("$$")) return value.slice(1);
      if (value === "$undefined") return undefined;
      if (value.startsWith("$D")) return value.slice(2);
      const ref = /^\$([0-9a-f]+)((?::[^:]+)*)$/.exec(value);
      if (ref) {
        let target = rows.get(ref[1])?.value;
        for (const key of ref[2].split(":").slice(1)) {
          target = (target as Record<string, unknown>)?.[key];
        }
        return decode(target);
      }
      return value;
    }
    if (Array.isArray(value)) return value.map(decode);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v)]));
    }
    return value;
  };
  const props: string[] = [];
  const seen = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === "string") {
      const ref = /^\$[LQ@]?([0-9a-f]+)$/.exec(value);
      if (ref && !seen.has(ref[1]) && rows.get(ref[1])?.tag === "") {
        seen.add(ref[1]);
        walk(rows.get(ref[1])!.value);
      }
      return;
    }
    if (Array.isArray(value)) {
      if (value[0] === "$" && value.length === 4 && islandOf(value[1])) {
        props.push(sortedJson(decode(value[3])));
        return;
      }
      for (const item of value) walk(item);
      return;
    }
    if (value && typeof value === "object") { for (const v of Object.values(value)) walk(v); }
  };
  seen.add("0");
  walk(rows.get("0")?.value);
  return props;
}

/**
 * `visibleMarkup` of a Next.js page: its islands are client components rendered in place
 * (no wrapper: `markup` is `plain`), their props read from the RSC payload
 * (`nextIslandProps`); then, besides what `spoken` drops, Next's own additions are dropped:
 * the RSC payload scripts (`self.__next_f.push`, with every other script), its script preloads
 * (`<link rel="preload" as="script">`), React's preload of the stylesheet the page links
 * (`<link rel="preload" href="…" as="style">`, the stylesheet's own link kept), Suspense boundary comments (`<!--$-->`, `<!--/$-->`)
 * and the empty `<div hidden="">` its streamed-metadata outlet leaves in <body>.
 */
function nextMarkup(html: string): VisibleMarkup {
  const props = nextIslandProps(flightRows(html));
  const cleaned = html
    .replace(/<link rel="preload" as="script"[^>]*>|<link rel="preload" [^>]*as="style"[^>]*>/g, "")
    .replace(/<!--\/?\$[?!]?-->/g, "");
  const plain = plainMarkup(spoken(cleaned)).replace(/<div hidden="">\s*<\/div>/g, "");
  return { markup: plain, props, plain };
}
