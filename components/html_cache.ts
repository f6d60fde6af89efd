/**
 * Server HTML of small, often repeated pieces of a page (a dashboard card's header, facts,
 * progress tracker and price breakdown), remembered by a key that spells out everything the
 * piece shows.
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
import { renderToString } from "react-dom/server";

/**
 * Pieces kept, the oldest dropped first: four per dashboard card (header, tracker, facts,
 * breakdown), each well under 2 KB, so at most a few MB.
 */
const MAX_ENTRIES = 2000;
const rendered = new Map<string, string>();

/** The HTML of `render()`, rendered once per `key` while remembered. */
export function cachedHtml(key: string, render: () => ReactElement): string {
  let html = rendered.get(key);
  if (html === undefined) {
    html = renderToString(render());
    if (rendered.size >= MAX_ENTRIES) rendered.delete(rendered.keys().next().value!);
    rendered.set(key, html);
  }
  return html;
}
