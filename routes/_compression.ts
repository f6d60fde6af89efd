/**
 * Response compression: gzip or deflate as the client's `Accept-Encoding` prefers, with the same
 * decisions and headers as Hono's `compress()` (at least 1 KB, compressible types only, never
 * over `no-transform`, never a 206 or a HEAD; `Vary: Accept-Encoding` on every response it
 * could have compressed; a strong ETag made weak).
 *
 * Why not Hono's `compress()`: it compresses every answer through a `CompressionStream` at zlib's
 * default level (6), and adds `Vary` with `c.header()` once the answer is built, which makes a
 * new Response whose body is the old one's as a stream. Every browser asks for gzip, so every
 * page a browser loaded went through a JavaScript stream and a new deflate state:
 * bench/signed_in_pages.ts with `BENCH_ACCEPT_ENCODING="gzip, deflate, br, zstd"` measured
 * twice the CPU per request of the same pages fetched without it (`GET /api/user` 0.43 → 0.82
 * ms, /leads 2.73 → 5.03 ms, server plus Postgres), and an answer of unknown length (every
 * rendered one) was compressed even under the 1 KB threshold.
 *
 * Here the app's own answers, HTML and JSON, which it always builds as one string
 * (`renderToString`, `JSON.stringify`), are read whole and compressed in one synchronous call
 * at level 1 (`COMPRESS_LEVEL`); under 1 KB they are sent as they are. Other types (a file,
 * server-sent events, anything streamed) keep the stream.
 */
import { deflateSync, gzipSync } from "node:zlib";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { parseAccept } from "hono/utils/accept";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/utils/compress";
import type { AppEnv } from "./_env.ts";
import { isFinishedResponse } from "./_finished_response.ts";

const COMPRESS_THRESHOLD_BYTES = 1024;
const COMPRESS_ENCODINGS = ["gzip", "deflate"] as const;
type Encoding = (typeof COMPRESS_ENCODINGS)[number];
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/i;
const VARIES_ON_ACCEPT_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i;

/**
 * zlib's level for the app's HTML and JSON: 1, nginx's default. CPU per call, bytes read and
 * compressed in one process on this app's pages (55 KB: the landing page and /for-surveyors
 * together; 9 KB), median of six rounds: level 1 168 µs and 57 µs, level 2 348 µs and 103 µs,
 * a CompressionStream (level 6) 905 µs and 262 µs. Level 2 leaves a page 20–25 % smaller than
 * level 1 (55 KB: 11.3 KB instead of 14.1 KB).
 */
export const COMPRESS_LEVEL = 1;

/**
 * Content types of the answers the app builds as one string, read whole before compressing:
 * a streamed answer of one of these types would be held in memory here (none is streamed).
 */
const WHOLE_BODY_TYPE = /^(?:text\/html|application\/json)\b/i;

/** gzip or deflate as the client's `Accept-Encoding` prefers (q-values, `*`), else undefined. */
function selectEncoding(header: string | undefined): Encoding | undefined {
  if (header === undefined) return undefined;
  const accepts = parseAccept(header);
  const wildcardQ = accepts.find((a) => a.type === "*")?.q;
  let best: { encoding: Encoding; q: number } | undefined;
  for (const encoding of COMPRESS_ENCODINGS) {
    const explicit = accepts.find((a) => a.type.toLowerCase() === encoding);
    const q = explicit ? explicit.q : wildcardQ ?? 0;
    if (q === 1) return encoding;
    if (q > 0 && (!best || q > best.q)) best = { encoding, q };
  }
  return best?.encoding;
}

/** The middleware (see the file's comment). */
export function compression() {
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    await compressAnswer(c);
  });
}

/**
 * The middleware's work on the answer `c.res`, for a middleware that does more around the same
 * `next()` (routes/_front_door.ts).
 */
export async function compressAnswer(c: Context<AppEnv>): Promise<void> {
  // A finished answer (routes/_finished_response.ts) was encoded as this would encode it.
  if (isFinishedResponse(c)) return;
  let res = c.res;
  let headers = res.headers;
  const length = headers.get("Content-Length");
  const type = headers.get("Content-Type");
  const cacheControl = headers.get("Cache-Control");
  if (
    res.status === 206 || headers.has("Content-Encoding") ||
    headers.has("Transfer-Encoding") || c.req.method === "HEAD" ||
    (length && Number(length) < COMPRESS_THRESHOLD_BYTES) ||
    !type || !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type) ||
    (cacheControl && NO_TRANSFORM.test(cacheControl))
  ) return;
  // Set in place: a new Response here would turn a string body into a stream (59 µs of CPU
  // per request on the client dashboard when Hono's compress() did it).
  const vary = headers.get("Vary");
  if (vary !== "*" && !(vary && VARIES_ON_ACCEPT_ENCODING.test(vary))) {
    const value = vary ? `${vary}, Accept-Encoding` : "Accept-Encoding";
    try {
      headers.set("Vary", value);
    } catch {
      // Immutable headers (a fetch() answer passed through, Response.redirect): a copy.
      res = new Response(res.body, res);
      replaceResponse(c, res);
      headers = res.headers;
      headers.set("Vary", value);
    }
  }
  const encoding = selectEncoding(c.req.header("Accept-Encoding"));
  if (!encoding || !res.body) return;
  if (WHOLE_BODY_TYPE.test(type)) {
    const bytes = await res.bytes();
    if (bytes.byteLength < COMPRESS_THRESHOLD_BYTES) {
      replaceResponse(c, new Response(bytes, res));
      return;
    }
    replaceResponse(c, compressed(compressWhole(bytes, encoding), res, encoding));
    return;
  }
  const body = res.body.pipeThrough(new CompressionStream(encoding));
  replaceResponse(c, compressed(body, res, encoding));
}

/**
 * Remembered pages' compressed forms, by the kept bytes they were made from (held while the page
 * is: routes/_remembered_pages.ts), one per encoding.
 */
const keptCompressed = new WeakMap<
  Uint8Array,
  Partial<Record<Encoding, Uint8Array<ArrayBuffer>>>
>();

/**
 * The encoding the middleware would give `bytes`, the whole body of an answer of a compressible
 * type to `c`'s request: none for a HEAD request or under the threshold, else the client's
 * choice.
 */
export function wholeBodyEncoding(c: Context<AppEnv>, bytes: Uint8Array): Encoding | undefined {
  return c.req.method === "HEAD" || bytes.byteLength < COMPRESS_THRESHOLD_BYTES
    ? undefined
    : selectEncoding(c.req.header("Accept-Encoding"));
}

/**
 * A remembered page's HTML (`bytes`, kept and sent again unchanged) compressed with `encoding`,
 * once per kept page and encoding rather than at every view: every browser asks for gzip, and
 * compressing a 50 KB page at level 1 costs about as much as the rest of a remembered view
 * (bench/signed_in_pages.ts with `BENCH_ACCEPT_ENCODING`).
 */
export function keptCompressedForm(
  bytes: Uint8Array<ArrayBuffer>,
  encoding: Encoding,
): Uint8Array<ArrayBuffer> {
  let forms = keptCompressed.get(bytes);
  if (!forms) keptCompressed.set(bytes, forms = {});
  return forms[encoding] ??= compressWhole(bytes, encoding);
}

/** `bytes` compressed with `encoding` in one call at `COMPRESS_LEVEL`. */
export function compressWhole(bytes: Uint8Array, encoding: Encoding): Uint8Array<ArrayBuffer> {
  return encoding === "gzip"
    ? gzipSync(bytes, { level: COMPRESS_LEVEL })
    : deflateSync(bytes, { level: COMPRESS_LEVEL });
}

/**
 * `c.res = res`, with `res` carrying every header already: Hono's setter would otherwise wrap
 * `res` in yet another Response, its body as a stream (a body of bytes is sent by Deno in one
 * write, a stream chunk by chunk through JavaScript), and copy the old answer's headers over
 * its own (the old Content-Length and strong ETag among them).
 */
function replaceResponse(c: Context<AppEnv>, res: Response): void {
  c.res = undefined;
  c.res = res;
}

/** `res` with `body`, compressed with `encoding`, in its place. */
function compressed(body: BodyInit, res: Response, encoding: Encoding): Response {
  const out = new Response(body, res);
  out.headers.delete("Content-Length");
  out.headers.set("Content-Encoding", encoding);
  const etag = out.headers.get("ETag");
  if (etag && !etag.startsWith("W/")) out.headers.set("ETag", `W/${etag}`);
  return out;
}
