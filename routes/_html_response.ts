/**
 * A rendered page as the answer: its HTML sent as UTF-8 bytes, not as the string.
 *
 * Why not `c.html(html)`: Deno holds a string body on the JavaScript heap until the answer is
 * written out, and under load that is after the next young-generation collection, so every
 * page's whole HTML (a 48 KB copy for /leads, the page flattened into one string) survived it
 * and was moved to the old generation, to be collected only by a full mark-compact. The bytes
 * are made here at once (the same UTF-8 encoding Deno would do) and live outside the heap; the
 * string dies young. Measured with `bench/signed_in_pages.ts --survivors`, counting only what
 * survives a young collection: /leads 121 → 75 KB per request, the 10-request dashboard 117 →
 * 66 KB, /admin-dashboard 93 → 46 KB; on /leads at 32 connections the young collections
 * copied half as much (495 → 263 MB in 5 s) and paused the server 15–23% less (V8's
 * `--trace-gc-nvp`).
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

const encoder = new TextEncoder();

/** `html` as a `text/html; charset=UTF-8` answer with `status`, as `c.html` makes it. */
export function htmlResponse(
  c: Context,
  html: string,
  status: ContentfulStatusCode = 200,
): Response {
  return c.body(toHtmlBytes(html), status, { "Content-Type": "text/html; charset=UTF-8" });
}

/** A page's HTML as the bytes `htmlResponse` sends (a remembered page keeps them). */
export function toHtmlBytes(html: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(html);
}
