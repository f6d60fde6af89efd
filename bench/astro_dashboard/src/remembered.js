// Meridian's remembered pages (routes/_remembered_pages.ts) in Astro's terms, so this side does
// per request what Meridian does: a reload whose data (the objects Meridian's snapshot-cached db
// functions return, the same while nothing was written) and shell (the user as read for this
// request, with the unread count) are the same as at the last view answers with the bytes sent
// then. The page asks `keptPage` before it renders; on a miss it leaves what to keep in
// `Astro.locals.keep` and the middleware keeps the rendered bytes (`keepPage`). The same bounds:
// 300 pages and 4 MB, least recently used first. Compared with Meridian's own `sameData`
// (components/html_cache.ts), which the page passes in: only .astro files import "@meridian/…"
// (`deno check` reads this one).

const MAX_ENTRIES = 300;
const MAX_BYTES = 4_000_000;
const kept = new Map();
let keptBytes = 0;

/**
 * The bytes kept for `slot` if its shell and data are the same as now by `sameData`, else
 * undefined.
 */
export function keptPage(slot, shell, data, sameData) {
  const known = kept.get(slot);
  if (!known || !sameData(known.data, data) || !sameData(known.shell, shell)) return undefined;
  kept.delete(slot);
  kept.set(slot, known);
  return known.bytes;
}

/** Keeps `bytes`, the page rendered for `slot` from `shell` and `data`. */
export function keepPage(slot, shell, data, bytes) {
  const known = kept.get(slot);
  if (known) {
    kept.delete(slot);
    keptBytes -= known.bytes.byteLength;
  }
  if (bytes.byteLength > MAX_BYTES) return;
  kept.set(slot, { shell: structuredClone(shell), data, bytes });
  keptBytes += bytes.byteLength;
  while (kept.size > MAX_ENTRIES || keptBytes > MAX_BYTES) {
    const [oldest, old] = kept.entries().next().value;
    kept.delete(oldest);
    keptBytes -= old.bytes.byteLength;
  }
}
