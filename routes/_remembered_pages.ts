/**
 * A signed-in page's whole answer (its HTML as UTF-8 bytes) remembered by everything it shows,
 * so a reload that finds its data unchanged sends the bytes it sent last instead of rendering
 * the page again (issue 23).
 *
 * A remembered page's data comes back from its snapshot cache (db/snapshot_cache.ts) as the very
 * objects it read last while none of its tables has been written, and those objects are never
 * changed once read. So the page's data is compared by identity first (`sameData`: `===`, then
 * value by value for plain objects, arrays, Maps and Sets): a reload with
 * nothing written compares a few references. The shell (the user as read for this request, the
 * bell's unread count, whether an admin is viewing as the user, the title, the nav entry and the
 * status) is compared value by value: it is read afresh at every request, and a changed name or
 * a new notification is another page. Anything else the render reads must be the same for every
 * request of the process (the build's assets, the configuration) or be part of `data`; a page
 * whose render reads the clock cannot be remembered this way, unless its data bounds it (the
 * client dashboard's lead expiries are its snapshot cache's `validUntil`, after which the data
 * is read again, as new objects).
 *
 * Why the bytes and not only the string: a reload of the empty client dashboard spent most of
 * its JavaScript time rendering and encoding a page that had not changed (React's render of the
 * layout, the head, `TextEncoder`: 131 KB allocated per view against 43 KB for `GET /api/user`;
 * bench/signed_in_pages.ts --alloc). The bytes are sent as they are: Deno reads a `Uint8Array`
 * body without detaching or changing it (tests/routes/remembered_pages_test.ts sends one many
 * times).
 *
 * Bounded: at most `maxEntries` pages and `maxBytes` bytes, the least recently used dropped
 * first; a page larger than the budget alone is sent, not kept. One version per slot: a slot
 * names the page and its viewer (a client's dashboard and page number), never data. Each kept
 * page holds the data it was drawn from and a copy of its shell, and both count in the budget
 * with its bytes, as `approximateHeapBytes` estimates them when the page is kept: the data is
 * counted whole even while its snapshot cache holds the same objects, so the budget bounds what
 * this store alone keeps alive once those caches have dropped them.
 */
import { sameData } from "../components/html_cache.ts";
import { approximateHeapBytes } from "../lib/heap_size.ts";

/** What a remembered page was rendered from, and what it sent. */
interface Kept {
  shell: unknown;
  data: unknown;
  bytes: Uint8Array<ArrayBuffer>;
  /** What it counts in the budget: its bytes, with its shell and data as estimated. */
  size: number;
}

/**
 * The bytes `render()` gives for `slot`, or the ones it gave last for the same `shell` and
 * `data` (see above). `shell` is copied when kept (`structuredClone`, on a render only), so a
 * caller changing its objects later cannot make a kept page look current; `data` is kept by
 * reference and must not change once read.
 */
export type RememberedPages = (
  slot: string,
  shell: unknown,
  data: unknown,
  render: () => Uint8Array<ArrayBuffer>,
) => Uint8Array<ArrayBuffer>;

/** A store of remembered pages of its own (see above). */
export function rememberedPages(maxEntries: number, maxBytes: number): RememberedPages {
  const kept = new Map<string, Kept>();
  let bytes = 0;
  return (slot, shell, data, render) => {
    const known = kept.get(slot);
    if (known) {
      kept.delete(slot);
      if (sameData(known.data, data) && sameData(known.shell, shell)) {
        kept.set(slot, known);
        observer?.(slot, true);
        return known.bytes;
      }
      bytes -= known.size;
    }
    observer?.(slot, false);
    const page = render();
    const copy = structuredClone(shell);
    const size = page.byteLength + approximateHeapBytes([copy, data]);
    if (size > maxBytes) return page;
    kept.set(slot, { shell: copy, data, bytes: page, size });
    bytes += size;
    while (kept.size > maxEntries || bytes > maxBytes) {
      const [oldest, old] = kept.entries().next().value!;
      kept.delete(oldest);
      bytes -= old.size;
    }
    return page;
  };
}

let observer: ((slot: string, reused: boolean) => void) | undefined;

/**
 * Tests only: `fn` is told each remembered page's slot and whether its kept bytes were sent
 * (true) or it was rendered (false); undefined stops it.
 */
export function observeRememberedPages(fn: typeof observer): void {
  observer = fn;
}
