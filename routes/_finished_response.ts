/**
 * Finished answers: built by a route in one `new Response` with every header they are sent with
 * (routes/_html_response.ts `finishedHtml`), which the middleware then leaves as they are.
 *
 * Why: Deno (2.9) prepares the native form of a Response made from bytes or a string, status
 * and headers with the body, when it is made, and writes the answer from that form. The first
 * read of `response.headers` drops it and builds a Headers object, which every later `set`
 * validates again and from which the server then builds the answer a second time. The
 * middleware used to add ten headers to every page after its route built it (the security
 * headers, the request id, Cache-Control, Vary), so every page paid for its headers twice.
 */

import type { Context } from "hono";
import type { AppEnv } from "./_env.ts";

/**
 * `res`, noted as the finished answer to `c`'s request: the middleware adds nothing to it. Noted
 * on the request rather than in a WeakSet of answers: adding to a WeakSet cost 1 % of a
 * remembered dashboard view's CPU (a CPU profile: 134 ms in 13 s).
 */
export function markFinished(c: Context<AppEnv>, res: Response): Response {
  c.set("finishedResponse", res);
  return res;
}

/**
 * Whether `c`'s answer is the finished one. An answer made from it (`c.header` after the route,
 * Hono's HEAD answer) is not, and gets the middleware's headers as any other.
 */
export function isFinishedResponse(c: Context<AppEnv>): boolean {
  const finished = c.var.finishedResponse;
  return finished !== undefined && finished === c.res;
}

/**
 * Whether an answer to `c` may be finished by its route: the request has its context (the front
 * door's, or a test app's `requestContext`), nothing set a header on the context (a cookie, a
 * route's own caching: those answers are built by Hono, and given the middleware's headers
 * after), and no answer was made yet.
 */
export function canFinish(c: Context<AppEnv>): boolean {
  return c.var.requestId !== undefined && !c.var.hasContextHeaders && !c.finalized;
}
