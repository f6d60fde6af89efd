import { HTTPException } from "hono/http-exception";
import type { ErrorHandler, NotFoundHandler } from "hono";
import type { ZodError } from "zod";
import type { AppEnv } from "./_env.ts";
import { renderPage } from "../components/render.tsx";
import { NotFoundPage, ServerErrorPage } from "../components/ErrorPages.tsx";
import {
  RETRY_AFTER_SECONDS,
  UNAVAILABLE_MESSAGE,
  unavailableDependency,
} from "../lib/unavailable.ts";
import { htmlResponse } from "./_html_response.ts";

/** Turns zod issues into `{field: message}`, first message per field. */
export function fieldErrors(error: ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.join(".") || "_";
    errors[field] ??= issue.message;
  }
  return errors;
}

/**
 * zValidator hook: invalid input becomes `400 {message, errors}`. The message is the first
 * issue's text so a toast can show it directly.
 */
// deno-lint-ignore no-explicit-any
export function onInvalid(result: any, c: any) {
  if (!result.success) {
    const errors = fieldErrors(result.error);
    const first = Object.entries(errors)[0];
    const message = first ? (first[0] === "_" ? first[1] : `${first[1]}`) : "Invalid request";
    return c.json({ message, errors }, 400);
  }
}

function wantsHtml(accept: string | undefined, path: string): boolean {
  return !path.startsWith("/api/") && (accept ?? "").includes("text/html");
}

/** Maps thrown errors to responses: HTTPException keeps its status, the rest become 500. */
export const onError: ErrorHandler<AppEnv> = (err, c) => {
  const requestId = c.get("requestId");
  if (err instanceof HTTPException) {
    const status = err.status;
    if (err.res) return err.res;
    const message = err.message || "Request failed";
    if (status === 404 && wantsHtml(c.req.header("accept"), c.req.path)) {
      return htmlResponse(
        c,
        renderPage(
          c,
          { title: "Page not found", noindex: true },
          <NotFoundPage user={c.var.user} />,
        ),
        404,
      );
    }
    return c.json({ message }, status);
  }
  const down = unavailableDependency(err);
  if (down) {
    // One short line, not a stack: during an outage every request lands here.
    console.error(`[${requestId}] ${c.req.method} ${c.req.path} 503: ${down} unavailable`);
    return c.json({ message: UNAVAILABLE_MESSAGE }, 503, {
      "Retry-After": String(RETRY_AFTER_SECONDS),
      "Cache-Control": "no-store",
    });
  }
  console.error(`[${requestId}] ${c.req.method} ${c.req.path}`, err);
  if (wantsHtml(c.req.header("accept"), c.req.path)) {
    return htmlResponse(
      c,
      renderPage(
        c,
        { title: "Something went wrong", noindex: true },
        <ServerErrorPage requestId={requestId} />,
      ),
      500,
    );
  }
  return c.json({ message: "Something went wrong. Please try again.", requestId }, 500);
};

/** Unknown paths: the 404 page for browsers, JSON for the API. */
export const notFound: NotFoundHandler<AppEnv> = (c) => {
  if (c.req.path.startsWith("/api/")) return c.json({ message: "Not found" }, 404);
  return htmlResponse(
    c,
    renderPage(c, { title: "Page not found", noindex: true }, <NotFoundPage user={c.var.user} />),
    404,
  );
};
