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

const finished = new WeakSet<Response>();

/** `res`, marked as finished: the middleware adds nothing to it. */
export function markFinished(res: Response): Response {
  finished.add(res);
  return res;
}

/**
 * Whether `res` is a finished answer. An answer made from it (`c.header` after the route, Hono's
 * HEAD answer) is not, and gets the middleware's headers as any other.
 */
export function isFinishedResponse(res: Response): boolean {
  return finished.has(res);
}
