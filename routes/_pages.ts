import type { ReactElement } from "react";
import type { AppContext, AppDeps } from "./_env.ts";
import { type EncodedPage, encodePage } from "./_page_encoding.ts";
import { encodePageOffThread } from "./_page_encoder.ts";
import { type PageMeta, renderPage } from "../components/render.tsx";
import { logRequest, requestIdFor, securityHeaderList } from "./_middleware.ts";
import { requestMetrics } from "../lib/metrics.ts";
import { nameRequestSpan, tagRequestSpan } from "../lib/telemetry.ts";
import { htmlResponse } from "./_html_response.ts";

/** Substring of the session cookie's name (plain or with the `__Host-` prefix). */
const SESSION_COOKIE_MARK = "meridian_session=";

type CachedPage = EncodedPage;

const caches = new WeakMap<AppDeps, Map<string, CachedPage>>();

/**
 * A page cached under a key naming the data it was built from (issue 24's local pages: the
 * versions of what they show). `currentKey` reads the key now, after the request arrived;
 * the page is served only while the two agree.
 */
interface KeyedPage extends CachedPage {
  key: string;
  /** The key now: a string when known without waiting (no read), else after a read. */
  currentKey: () => string | Promise<string>;
  /** The route pattern, for metrics and spans (one per page would be thousands). */
  route: string;
}

/** Most keyed pages kept per app (least recently served dropped first): ~40 KB each. */
export const KEYED_PAGE_CACHE_MAX = 1_000;

const keyedCaches = new WeakMap<AppDeps, Map<string, KeyedPage>>();

/** Keyed pages being built (encoded off the main thread), by path. */
const keyedBuilds = new WeakMap<AppDeps, Map<string, { key: string; page: Promise<KeyedPage> }>>();

function keyedBuildsFor(deps: AppDeps): Map<string, { key: string; page: Promise<KeyedPage> }> {
  let builds = keyedBuilds.get(deps);
  if (!builds) keyedBuilds.set(deps, builds = new Map());
  return builds;
}

function keyedCacheFor(deps: AppDeps): Map<string, KeyedPage> {
  let cache = keyedCaches.get(deps);
  if (!cache) keyedCaches.set(deps, cache = new Map());
  return cache;
}

function cacheFor(deps: AppDeps): Map<string, CachedPage> {
  let cache = caches.get(deps);
  if (!cache) caches.set(deps, cache = new Map());
  return cache;
}

function pageHeaders(page: CachedPage): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=UTF-8",
    "Cache-Control": "no-cache",
    "ETag": page.etag,
    "Vary": "Accept-Encoding, Cookie",
  };
}

function respond(page: CachedPage, req: Request, headers: Record<string, string>): Response {
  if (req.headers.get("if-none-match") === page.etag) {
    return new Response(null, { status: 304, headers });
  }
  const isHead = req.method === "HEAD";
  if (/\bgzip\b/.test(req.headers.get("accept-encoding") ?? "")) {
    headers["Content-Encoding"] = "gzip";
    return new Response(isHead ? null : page.gzip, { headers });
  }
  return new Response(isHead ? null : page.html, { headers });
}

/**
 * Serves a public page. For signed-out visitors the HTML does not depend on the request, so
 * it is rendered once per app and kept in memory (gzip when accepted, ETag for 304s); later
 * hits are answered by `servePageCache` before routing. Signed-in users get a fresh render.
 */
export function publicPage(
  c: AppContext,
  meta: PageMeta,
  body: (user: AppContext["var"]["user"]) => ReactElement,
): Response {
  const user = c.var.user;
  if (user) {
    c.header("Cache-Control", "private, no-store");
    return htmlResponse(c, renderPage(c, meta, body(user)));
  }
  const cache = cacheFor(c.var.deps);
  let page = cache.get(c.req.path);
  if (!page) {
    page = encodePage(renderPage(c, meta, body(null)), 9);
    cache.set(c.req.path, page);
  }
  return respond(page, c.req.raw, pageHeaders(page));
}

/**
 * Serves a public page built from data that changes (issue 24's local pages). For
 * signed-out visitors the page is rendered once per `key` and kept in memory (at most
 * KEYED_PAGE_CACHE_MAX pages per app, least recently served dropped); `servePageCache`
 * answers later hits after `currentKey()` — read after the request arrived — still equals
 * `key`, else the request reaches the route, which builds the page again. The caller reads
 * `key` before it reads the data, so a change during the build only costs a rebuild. The page
 * is encoded and gzipped off the main thread (routes/_page_encoder.ts), so the next one renders
 * meanwhile; requests for a page while it is encoded wait for it. Signed-in users get a fresh
 * render.
 */
export async function keyedPublicPage(
  c: AppContext,
  meta: PageMeta,
  { key, currentKey, finish = (html) => html }: {
    key: string;
    currentKey: () => string | Promise<string>;
    /** Applied to the signed-out page's HTML before it is kept (e.g. `withSignedOutLayout`). */
    finish?: (html: string) => string;
  },
  body: (user: AppContext["var"]["user"]) => ReactElement,
): Promise<Response> {
  const user = c.var.user;
  if (user) {
    c.header("Cache-Control", "private, no-store");
    return htmlResponse(c, renderPage(c, meta, body(user)));
  }
  const deps = c.var.deps;
  const cache = keyedCacheFor(deps);
  const path = c.req.path;
  let page = cache.get(path);
  if (!page || page.key !== key) {
    // Requests for a page being built wait for it rather than build it again.
    const builds = keyedBuildsFor(deps);
    let build = builds.get(path);
    if (!build || build.key !== key) {
      const text = finish(renderPage(c, meta, body(null)));
      const route = c.req.routePath;
      const thisBuild = {
        key,
        page: (async (): Promise<KeyedPage> => ({
          // Level 2: these pages are built by the thousand (a crawl). On a 17 KB town page
          // level 6 took 0.5 ms for 4,500 bytes, level 2 0.15 ms for 4,800 (level 1: 6,000).
          // Off the main thread when it can (routes/_page_encoder.ts).
          ...await encodePageOffThread(text, 2),
          key,
          currentKey,
          route,
        }))(),
      };
      const done = () => {
        if (builds.get(path) === thisBuild) builds.delete(path);
      };
      thisBuild.page.then((built) => {
        done();
        cache.delete(path);
        cache.set(path, built);
        if (cache.size > KEYED_PAGE_CACHE_MAX) cache.delete(cache.keys().next().value!);
      }, done);
      builds.set(path, build = thisBuild);
    }
    page = await build.page;
  }
  return respond(page, c.req.raw, pageHeaders(page));
}

/**
 * A fetch wrapper that answers signed-out GET/HEAD requests for already-rendered public pages
 * straight from memory, with the same security headers, request id and log line the
 * middleware stack would add; everything else goes to `dispatch`. This keeps the landing page
 * close to the speed of a bare server.
 */
export function servePageCache<E>(
  deps: AppDeps,
  dispatch: (req: Request, env?: E) => Response | Promise<Response>,
) {
  const cache = cacheFor(deps);
  const keyed = keyedCacheFor(deps);
  const securityFor = securityHeaderList(deps);
  const log = deps.config.LOG_REQUESTS;
  const metrics = requestMetrics(deps);
  // Header lists per (page, encoding, security variant), built once: building a Headers
  // object from scratch is a large share of a cached response's cost.
  const headerLists = new WeakMap<CachedPage, Map<string, [string, string][]>>();
  const listFor = (page: CachedPage, gzip: boolean, security: [string, string][]) => {
    let lists = headerLists.get(page);
    if (!lists) headerLists.set(page, lists = new Map());
    const key = `${gzip}${security.length}`;
    let list = lists.get(key);
    if (!list) {
      list = [...Object.entries(pageHeaders(page)), ...security];
      if (gzip) list.push(["Content-Encoding", "gzip"]);
      lists.set(key, list);
    }
    return list;
  };
  // A full answer (GET, 200) per (page, encoding, security variant), built once and cloned per
  // request, which then only gets its X-Request-Id. A clone copies the header list as it is;
  // a new Response validates every header and copies the body (bytes then headers, 16 KB town
  // page, 10 headers, same machine: 22 µs of server CPU a request cloned, 28.5 µs built).
  const templates = new WeakMap<CachedPage, Map<string, Response>>();
  const templateFor = (page: CachedPage, gzip: boolean, security: [string, string][]) => {
    let byVariant = templates.get(page);
    if (!byVariant) templates.set(page, byVariant = new Map());
    const key = `${gzip}${security.length}`;
    let template = byVariant.get(key);
    if (!template) {
      template = new Response(gzip ? page.gzip : page.html, {
        headers: listFor(page, gzip, security),
      });
      byVariant.set(key, template);
    }
    return template;
  };
  return (req: Request, env?: E): Response | Promise<Response> => {
    if (req.method !== "GET" && req.method !== "HEAD") return dispatch(req, env);
    const cookie = req.headers.get("cookie");
    if (cookie && cookie.includes(SESSION_COOKIE_MARK)) return dispatch(req, env);
    const url = req.url;
    const pathStart = url.indexOf("/", url.indexOf("//") + 2);
    const queryStart = url.indexOf("?", pathStart);
    const path = url.slice(pathStart, queryStart === -1 ? undefined : queryStart);
    const page = cache.get(path);
    if (page) return answer(req, path, path, page, performance.now());
    const keyedPage = keyed.get(path);
    if (!keyedPage) return dispatch(req, env);
    const start = performance.now();
    const serveKeyed = (key: string) => {
      if (key !== keyedPage.key) return dispatch(req, env);
      // Least recently served first out: a hit moves the page to the end.
      if (keyed.get(path) === keyedPage) {
        keyed.delete(path);
        keyed.set(path, keyedPage);
      }
      return answer(req, path, keyedPage.route, keyedPage, start);
    };
    let key: string | Promise<string>;
    try {
      key = keyedPage.currentKey();
    } catch {
      return dispatch(req, env);
    }
    return typeof key === "string"
      ? serveKeyed(key)
      : key.then(serveKeyed, () => dispatch(req, env));
  };

  function answer(
    req: Request,
    path: string,
    route: string,
    page: CachedPage,
    start: number,
  ): Response {
    const requestId = requestIdFor(req);
    tagRequestSpan(requestId);
    nameRequestSpan(req.method, route);
    const gzip = /\bgzip\b/.test(req.headers.get("accept-encoding") ?? "");
    const security = securityFor(req);
    let res: Response;
    const isNotModified = req.headers.get("if-none-match") === page.etag;
    if (isNotModified || req.method === "HEAD") {
      const headers = listFor(page, gzip, security).slice();
      headers.push(["X-Request-Id", requestId]);
      res = new Response(null, { status: isNotModified ? 304 : 200, headers });
    } else {
      res = templateFor(page, gzip, security).clone();
      res.headers.set("X-Request-Id", requestId);
    }
    if (log) logRequest(req.method, path, res.status, start, requestId);
    metrics.observe({
      method: req.method,
      route,
      status: res.status,
      seconds: (performance.now() - start) / 1000,
    });
    return res;
  }
}
