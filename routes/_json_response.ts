/**
 * JSON answers finished by `c.json` itself (routes/_finished_response.ts): the answer is built
 * once, in one `new Response`, with every header the front door would add after it, instead of
 * being built by Hono and then given ten headers more (the security headers, the request id,
 * Cache-Control, Vary), which made Deno build its headers twice.
 *
 * `c.json(value)` and `c.json(value, status)` are finished when nothing set a header or a
 * status on the context (a cookie, a route's own Cache-Control, `c.status`): those, and a call
 * with headers or a `ResponseInit` of its own, go to Hono's `c.json` as before, and the front
 * door adds its headers after, as to any answer. The body is compressed as the front door would
 * compress it (routes/_compression.ts): gzip or deflate as asked, from 1 KB.
 */
import type { Context } from "hono";
import type { AppEnv } from "./_env.ts";
import { compressWhole, wholeBodyEncoding } from "./_compression.ts";
import { finishedAnswer } from "./_html_response.ts";
import { canFinish } from "./_finished_response.ts";

const JSON_TYPE = "application/json";
const encoder = new TextEncoder();

/**
 * UTF-8 takes at most three bytes per UTF-16 unit: a text shorter than this is under the 1 KB
 * compression threshold without being encoded to tell.
 */
const SURELY_SMALL_CHARS = Math.floor((1024 - 1) / 3);

/**
 * Makes `c.json` finish its answers (see the file's comment), for the request behind `c`, whose
 * request context is set (routes/_middleware.ts `requestContextPhases`).
 */
export function finishJsonAnswers(c: Context<AppEnv>): void {
  const json = c.json;
  const status = c.status;
  let hasStatus = false;
  c.status = (code) => {
    hasStatus = true;
    status(code);
  };
  c.json = ((value: unknown, arg?: unknown, headers?: unknown) => {
    if (
      hasStatus || headers !== undefined || (arg !== undefined && typeof arg !== "number") ||
      !canFinish(c)
    ) {
      return (json as (...args: unknown[]) => Response)(value, arg, headers);
    }
    const text = JSON.stringify(value);
    if (text === undefined) return (json as (...args: unknown[]) => Response)(value, arg);
    return finishedJson(c, text, (arg as number | undefined) ?? 200);
  }) as typeof c.json;
}

/** `text` as the finished JSON answer with `status`, compressed as the front door would. */
function finishedJson(c: Context<AppEnv>, text: string, status: number): Response {
  if (text.length <= SURELY_SMALL_CHARS || c.req.method === "HEAD") {
    return finishedAnswer(c, text, status, JSON_TYPE, undefined);
  }
  const bytes = encoder.encode(text);
  const encoding = wholeBodyEncoding(c, bytes);
  return encoding
    ? finishedAnswer(c, compressWhole(bytes, encoding), status, JSON_TYPE, encoding)
    : finishedAnswer(c, bytes, status, JSON_TYPE, undefined);
}
