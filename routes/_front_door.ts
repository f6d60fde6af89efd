/**
 * The app's one middleware in front of the sessions: everything every request goes through
 * before its route, in one async frame instead of seven layers of Hono's compose. In order:
 *
 * 1. the request context (routes/_middleware.ts `requestContextPhases`): the variables, the
 *    request id; after the answer, Cache-Control for an answer that depends on the session,
 *    the request id, the log line, the metrics; and `c.json` made to finish its answers with
 *    every header below (routes/_json_response.ts);
 * 2. the security headers on every answer (`addSecurityHeaders`);
 * 3. admission control (routes/_admission.ts), before anything that can cost a KV call or a
 *    query;
 * 4. compression (routes/_compression.ts `compressAnswer`);
 * 5. for a request that may change something (any method but GET, HEAD and OPTIONS, or any
 *    request with a body): the body limit, the CSRF check and the JSON check (`changeChecks`);
 * 6. `inner`, when given: the middleware after these, run in the same frame (the app's is the
 *    sessions middleware, routes/_auth.ts `sessions`), which answers only through `next`.
 *
 * Each used to be its own middleware, in that order. Hono's compose gives every layer its own
 * async frame, and turns an error thrown in a layer into the error page at that layer, so that
 * the layers outside it still add their headers to the page: `answerError` does that here, for
 * each step that can throw.
 */
import type { Context, MiddlewareHandler, Next } from "hono";
import { bodyLimit } from "hono/body-limit";
import { every } from "hono/combine";
import type { AppDeps, AppEnv } from "./_env.ts";
import { onError } from "./_errors.tsx";
import { addSecurityHeaders, csrf, MAX_BODY_BYTES, requestContextPhases } from "./_middleware.ts";
import { admissionGate, admitted, isExempt, refuse } from "./_admission.ts";
import { compressAnswer } from "./_compression.ts";
import { wellFormedJson } from "./_json.ts";
import { finishJsonAnswers } from "./_json_response.ts";
import { isFileUploadRequest } from "../lib/survey_file_types.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The middleware (see the file's comment). */
export function frontDoor(
  deps: AppDeps,
  inner?: (c: Context<AppEnv>, next: Next) => Promise<void>,
): MiddlewareHandler<AppEnv> {
  const context = requestContextPhases(deps);
  const gate = admissionGate(deps);
  const checks = changeChecks(deps);
  // `inner` answers through `next` and `c.res`, never by what it returns (its type says so).
  const enter = inner ?? ((_c: Context<AppEnv>, next: Next) => next());
  return async (c, next) => {
    const start = context.enter(c);
    finishJsonAnswers(c);
    const entered = isExempt(c.req.path) ? undefined : admitted(gate, c);
    if (entered === undefined || entered === true || await entered) {
      try {
        try {
          if (SAFE_METHODS.has(c.req.method) && c.req.raw.body === null) await enter(c, next);
          else await checks(c, () => enter(c, next));
        } catch (error) {
          await answerError(c, error);
        }
        try {
          await compressAnswer(c);
        } catch (error) {
          await answerError(c, error);
        }
      } finally {
        if (entered !== undefined) gate.leave();
      }
    } else {
      c.res = refuse(c);
    }
    try {
      addSecurityHeaders(c);
    } catch (error) {
      await answerError(c, error);
    }
    context.leave(c, start);
  };
}

/**
 * The checks of a request that may change something, in order, then `next`: the body limit
 * (64 KB of JSON; a file upload streams up to 25 MB and enforces that limit itself,
 * routes/files.ts), the CSRF check (`csrf`) and the JSON check (`wellFormedJson`). A GET, HEAD
 * or OPTIONS request without a body passes all three as it is.
 */
function changeChecks(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const jsonBodyLimit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => c.json({ message: "Request body is too large" }, 413),
  });
  const limit: MiddlewareHandler<AppEnv> = (c, next) =>
    isFileUploadRequest(c.req.method, c.req.path) ? next() : jsonBodyLimit(c, next);
  return every(limit, csrf(deps), wellFormedJson);
}

/**
 * What Hono's compose does with an error thrown in a layer: the app's error page for it
 * (`onError`) becomes the answer. Anything thrown that is not an Error goes on up, as there.
 */
async function answerError(c: Context<AppEnv>, error: unknown): Promise<void> {
  if (!(error instanceof Error)) throw error;
  c.error = error;
  c.res = await onError(error, c);
}
