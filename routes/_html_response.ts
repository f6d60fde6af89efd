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
import type { AppEnv } from "./_env.ts";
import { compressWhole, keptCompressedForm, wholeBodyEncoding } from "./_compression.ts";
import { canFinish, markFinished } from "./_finished_response.ts";
import {
  isSessionDependent,
  securityHeadersOf,
  SESSION_DEPENDENT_CACHE_CONTROL,
} from "./_middleware.ts";

const encoder = new TextEncoder();
const HTML_TYPE = "text/html; charset=UTF-8";

/** `html` as a `text/html; charset=UTF-8` answer with `status`, as `c.html` makes it. */
export function htmlResponse(
  c: Context<AppEnv>,
  html: string,
  status: ContentfulStatusCode = 200,
): Response {
  return finishedHtml(c, toHtmlBytes(html), status);
}

/**
 * A page's HTML bytes as its answer with `status`: compressed as the compression middleware
 * would compress them (routes/_compression.ts; with `kept`, bytes a remembered page sends again,
 * their compressed form is kept with them), and finished (routes/_finished_response.ts) with
 * every header the middleware would add: Vary, Cache-Control for an answer that depends on the
 * session, the security headers and the request id. Made through `c.body` instead, and given
 * those headers by the middleware as any answer, when something set a header on the context
 * (a cookie, a route's own Cache-Control) or the app has no request context (a test's).
 */
export function finishedHtml(
  c: Context<AppEnv>,
  bytes: Uint8Array<ArrayBuffer>,
  status: ContentfulStatusCode = 200,
  kept = false,
): Response {
  const isFinished = canFinish(c);
  // Left to the compression middleware, as any answer.
  if (!isFinished && !kept) return c.body(bytes, status, { "Content-Type": HTML_TYPE });
  const encoding = wholeBodyEncoding(c, bytes);
  const body = !encoding
    ? bytes
    : kept
    ? keptCompressedForm(bytes, encoding)
    : compressWhole(bytes, encoding);
  if (!isFinished) {
    if (!encoding) return c.body(bytes, status, { "Content-Type": HTML_TYPE });
    // Added to the route's own Vary, never in its place: a page that varies on the cookie and
    // lost that would be cached for one visitor and shown to another.
    c.header("Vary", "Accept-Encoding", { append: true });
    return c.body(body, status, { "Content-Type": HTML_TYPE, "Content-Encoding": encoding });
  }
  return finishedAnswer(c, body, status, HTML_TYPE, encoding);
}

/**
 * `body` (of `type`, compressible, and encoded with `encoding` if any) as the finished answer to
 * `c` (routes/_finished_response.ts) with `status` and every header the front door would add:
 * Vary on what was asked (but for a HEAD, which the compression leaves), Cache-Control for an
 * answer that depends on the session, the security headers and the request id.
 */
export function finishedAnswer(
  c: Context<AppEnv>,
  body: BodyInit,
  status: number,
  type: string,
  encoding: string | undefined,
): Response {
  const headers: [string, string][] = [["Content-Type", type]];
  if (encoding) headers.push(["Content-Encoding", encoding]);
  if (c.req.method !== "HEAD") headers.push(["Vary", "Accept-Encoding"]);
  if (isSessionDependent(c)) headers.push(["Cache-Control", SESSION_DEPENDENT_CACHE_CONTROL]);
  headers.push(...securityHeadersOf(c), ["X-Request-Id", c.var.requestId]);
  return markFinished(c, new Response(body, { status, headers }));
}

/** A page's HTML as the bytes `htmlResponse` sends (a remembered page keeps them). */
export function toHtmlBytes(html: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(html);
}
