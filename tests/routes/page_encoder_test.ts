/**
 * The page encoder (routes/_page_encoder.ts): a page encoded in the worker is the page, its gzip
 * unpacks to the same bytes, and its ETag is the one the main thread would give; many pages at
 * once (more than the worker holds) all come back right.
 */
import { gunzipSync } from "node:zlib";
import { assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { encodePageOffThread } from "../../routes/_page_encoder.ts";
import { encodePage } from "../../routes/_page_encoding.ts";

const decoder = new TextDecoder();

test("[page encoder] pages encoded off the main thread are the pages, with the main thread's ETag, however many at once", async () => {
  // Text that is not Latin-1 too (React writes "—" and "–" as they are).
  const pages = Array.from(
    { length: 40 },
    (_, i) => `<!DOCTYPE html><p>Page ${i} — $1,200–$1,500 &amp; more</p>`.repeat(50 + i),
  );
  const encoded = await Promise.all(pages.map((text) => encodePageOffThread(text, 2)));
  for (const [i, page] of encoded.entries()) {
    assertEquals(decoder.decode(page.html), pages[i]);
    assertEquals(decoder.decode(gunzipSync(page.gzip)), pages[i]);
    assertEquals(page.etag, encodePage(pages[i], 2).etag);
  }
});
