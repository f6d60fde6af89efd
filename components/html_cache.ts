/**
 * Server HTML of small, often repeated pieces of a page (a dashboard card's header, facts,
 * progress tracker and price breakdown; an available lead's card on /leads), remembered by a
 * key that spells out everything the piece shows.
 *
 * React renders every element of a page on every request; a client's dashboard of ten requests
 * is mostly trackers and breakdowns that read the same from one view to the next. A piece
 * rendered once is put back as a string (`dangerouslySetInnerHTML` on its wrapper), so a
 * repeat costs building its key and a lookup. The key must hold every value the markup
 * depends on (the caller derives it from the same values it renders), so a piece can never
 * show stale data: changed data is a new key. The pieces hold no islands (an `<Island>` needs
 * the page's collector, which a separate render does not have, and throws).
 */
import type { ReactElement } from "react";
import { renderToString } from "./react_server.ts";

/**
 * `render()`'s HTML by key, at most `maxEntries` kept, the least recently used dropped first.
 * `identifierPrefix` is React's, for a piece rendered as an island's root (components/Island.tsx).
 */
export type HtmlCache = (
  key: string,
  render: () => ReactElement,
  options?: { identifierPrefix?: string },
) => string;

/**
 * A cache of its own for one kind of piece, sized for it: at most `maxEntries` kept, and at
 * most `maxChars` characters of keys and HTML together (for pieces whose size varies: a whole
 * island of 1 KB or of 35 KB), the least recently used dropped first. A piece larger than the
 * budget on its own is rendered, not kept, and drops nothing.
 */
export function htmlCache(maxEntries: number, maxChars = Infinity): HtmlCache {
  const remember = lru<string>(maxEntries, maxChars, (html) => html.length);
  return (key, render, options) =>
    remember(key, () => flattened(renderToString(render(), options)));
}

/**
 * Like `htmlCache`, for the several pieces of one thing that sit apart in its markup (a
 * dashboard card's header, facts and breakdown, around the tracker and the proposals): one key
 * built and looked up for all of them, not one per piece. `render` gives the pieces in order;
 * the HTML comes back in the same order.
 */
export type HtmlPartsCache = (key: string, render: () => ReactElement[]) => readonly string[];

/** An `HtmlPartsCache` of its own, bounded as `htmlCache` is. */
export function htmlPartsCache(maxEntries: number, maxChars = Infinity): HtmlPartsCache {
  const remember = lru<readonly string[]>(
    maxEntries,
    maxChars,
    (parts) => parts.reduce((n, part) => n + part.length, 0),
  );
  return (key, render) =>
    remember(key, () => Object.freeze(render().map((part) => flattened(renderToString(part)))));
}

// What `make()` gave for a key, at most `maxEntries` kept and `maxChars` characters of keys and
// values (as `size` counts a value), the least recently used dropped first.
function lru<V>(maxEntries: number, maxChars: number, size: (value: V) => number) {
  const made = new Map<string, V>();
  let chars = 0;
  return (key: string, make: () => V): V => {
    let value = made.get(key);
    if (value === undefined) {
      value = make();
      const added = key.length + size(value);
      if (added > maxChars) return value;
      chars += added;
    } else made.delete(key);
    made.set(key, value);
    while (made.size > maxEntries || chars > maxChars) {
      const [oldest, kept] = made.entries().next().value!;
      made.delete(oldest);
      chars -= oldest.length + size(kept);
    }
    return value;
  };
}

/**
 * `html` flattened in place. React builds its output by concatenation, a rope of hundreds of
 * pieces per card that every later join of the page walks again: joining twenty cached lead
 * cards took ~0.5 ms as ropes and ~0.03 ms flat. Converting a string to a number flattens it
 * (the `flatstr` package's trick); the value is unused.
 */
function flattened(html: string): string {
  Number(html);
  return html;
}

/**
 * The dashboard cards' progress trackers, each well under 2 KB: at most a couple of MB. (With
 * `cachedCardParts`, the 500 cards the four pieces' single cache of 2,000 held before.)
 */
export const cachedHtml: HtmlCache = htmlCache(500);

/** The dashboard cards' header, facts and breakdown, by card: under 5 KB each, ~3 MB at most. */
export const cachedCardParts: HtmlPartsCache = htmlPartsCache(500);

/**
 * A request page's progress, request and quote cards' bodies, by request and viewer kind:
 * 2–6 KB each, at most some 3 MB.
 */
export const cachedSurveyPageParts: HtmlPartsCache = htmlPartsCache(300, 3_000_000);
