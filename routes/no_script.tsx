/**
 * Where an island form lands when it is submitted without JavaScript (`CheckedForm`'s action,
 * islands/_fields.tsx): with scripts disabled or blocked, or an island whose chunk never
 * arrived. Its own address has no POST and would answer "Page not found" with what was typed
 * gone; this page says what happened and links back. The body is never read, so nothing typed
 * (a password included) is echoed, stored or logged.
 */
import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";
import { renderPage } from "../components/render.tsx";
import { NeedsJavaScriptPage } from "../components/ErrorPages.tsx";
import { NEEDS_JAVASCRIPT_PATH } from "../islands/_fields.tsx";
import { acceptedOrigins } from "../lib/public_url.ts";
import { htmlResponse } from "./_html_response.ts";

/**
 * The path (and query) of the page the form was on, from `Referer`; "/" when there is none or
 * it is another site's. Only a path is returned, so the link can only lead within this site.
 */
export function backPath(referer: string | undefined, origins: ReadonlySet<string>): string {
  if (!referer) return "/";
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return "/";
  }
  if (!origins.has(url.origin) || url.pathname === NEEDS_JAVASCRIPT_PATH) return "/";
  // "//host" would be read as another site's address.
  return url.pathname.replace(/^\/+/, "/") + url.search;
}

/** `POST /needs-javascript`: 400 and a page saying the form needs JavaScript, with a way back. */
export const noScript = new Hono<AppEnv>().post(NEEDS_JAVASCRIPT_PATH, (c) => {
  const back = backPath(c.req.header("referer"), acceptedOrigins(c.var.deps.config));
  c.header("Cache-Control", "no-store");
  return htmlResponse(
    c,
    renderPage(
      c,
      // The link back may carry the page's token (a set-password link): no third-party script.
      { title: "This form needs JavaScript", noindex: true, hasSecretInUrl: true },
      <NeedsJavaScriptPage back={back} user={c.var.user} />,
    ),
    400,
  );
});
