import type { ReactElement } from "react";
import { gzipSync } from "node:zlib";
import type { AppContext, AppDeps } from "./_env.ts";
import { type PageMeta, renderPage } from "../components/render.tsx";

interface CachedPage {
  html: string;
  gzip: Uint8Array<ArrayBuffer>;
  etag: string;
}

const caches = new WeakMap<AppDeps, Map<string, CachedPage>>();

function cacheFor(deps: AppDeps): Map<string, CachedPage> {
  let cache = caches.get(deps);
  if (!cache) caches.set(deps, cache = new Map());
  return cache;
}

/**
 * Serves a public page. For signed-out visitors the HTML does not depend on the request, so
 * it is rendered once per app and served from memory (gzip when accepted, ETag for 304s).
 * Signed-in users get a fresh render with their header.
 */
export function publicPage(
  c: AppContext,
  meta: PageMeta,
  body: (user: AppContext["var"]["user"]) => ReactElement,
): Response {
  const user = c.var.user;
  if (user) {
    c.header("Cache-Control", "private, no-store");
    return c.html(renderPage(c, meta, body(user)));
  }
  const cache = cacheFor(c.var.deps);
  const key = meta.path ?? c.req.path;
  let page = cache.get(key);
  if (!page) {
    const html = renderPage(c, meta, body(null));
    const bytes = new TextEncoder().encode(html);
    const gzip = new Uint8Array(gzipSync(bytes, { level: 9 }));
    let hash = 0;
    for (let i = 0; i < bytes.length; i++) hash = (hash * 31 + bytes[i]) | 0;
    page = { html, gzip, etag: `"p${(hash >>> 0).toString(36)}${bytes.length.toString(36)}"` };
    cache.set(key, page);
  }
  const headers = {
    "Content-Type": "text/html; charset=UTF-8",
    "Cache-Control": "no-cache",
    "ETag": page.etag,
    "Vary": "Accept-Encoding, Cookie",
  };
  if (c.req.header("if-none-match") === page.etag) return c.body(null, 304, headers);
  if (/\bgzip\b/.test(c.req.header("accept-encoding") ?? "")) {
    return c.body(page.gzip, 200, { ...headers, "Content-Encoding": "gzip" });
  }
  return c.body(page.html, 200, headers);
}
