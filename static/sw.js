/**
 * Meridian's service worker: keeps a technician's job pages readable on a site with no signal.
 *
 * Served at /sw.js (routes/service_worker.ts) so its scope is the whole origin; registered only
 * by the technician pages (islands/OfflineSupport.tsx). It decides about very few requests and
 * lets every other one go to the network untouched:
 *
 * - Navigations to /technician-dashboard and /technician-survey-detail/{id}: network first.
 *   Online the technician always gets the server's current page (crew notes, status and
 *   checklist change while they drive out); the latest 200 text/html copy of each URL is kept.
 *   Offline the kept copy is shown, or a small page saying this job page was never opened on
 *   this device. The checklist island on a kept copy reads its queued edits from IndexedDB and
 *   sends them when the browser is back online, exactly as on a fresh page.
 * - Hashed bundles (/static/build/name-HASH.js|css|svg): cache first. A hashed name changes
 *   whenever its bytes do, so a stored copy is never stale, and a kept page needs the very
 *   bundles it was rendered with to hydrate offline.
 * - Other static files (/static/css/*, the icon): the stored copy at once, refreshed from the
 *   network behind it. Their names do not change with their bytes (the server has them
 *   revalidated hourly), so keeping the first copy forever would serve a stale file.
 * - Nothing else is stored: no API answer (the checklist keeps its own outbox, and a stale
 *   answer served as fresh would be a lie), no other page (other roles' pages have no use on
 *   site and hold other people's data).
 *
 * A kept page belongs to whoever was signed in when it was fetched, so kept pages are dropped
 * whenever the account on this browser may change: sign-out (islands/SignOutButton.tsx clears
 * them itself too), sign-in, registration, impersonation and its end (seen here as the request
 * goes by), opening the sign-in pages with signal, and any online answer for a kept URL that is not the page (a redirect to sign-in,
 * a 404 once the job is reassigned) drops that URL.
 */

/** Bump when what is stored, or how, changes: `activate` deletes every other version. */
const VERSION = "v1";
/** Shared with islands/_offline.ts (FIELD_CACHE_PREFIX), which clears it on sign-out. */
const PREFIX = "meridian-field-";
const PAGES = `${PREFIX}pages-${VERSION}`;
const ASSETS = `${PREFIX}assets-${VERSION}`;
/** A crew's open jobs and recent visits fit easily; older pages go first. */
const MAX_PAGES = 40;
/** About five builds' worth of bundles; the oldest stored go first. */
const MAX_ASSETS = 300;
/** How many pages one "keep offline" message may fetch (the dashboard's next jobs). */
const MAX_KEEP = 12;

/** The technician's pages: the dashboard and a job's field page (no query string variants). */
const FIELD_PAGE = /^\/(?:technician-dashboard|technician-survey-detail\/[^/]+)$/;
/** esbuild's content-hashed output, as routes/static.ts marks it immutable. */
const HASHED_ASSET = /^\/static\/build\/[^/]+-[A-Z0-9]{8,}\.(?:js|css|svg)$/i;
/** Unhashed static files a page may use (not the build manifest, which no page loads). */
const STATIC_FILE = /^\/static\/(?!build\/)[^?]+$/;
/** Requests after which a different account may be signed in on this browser. */
const SESSION_CHANGES = [
  /^\/api\/login$/,
  /^\/api\/logout$/,
  /^\/api\/register$/,
  /^\/api\/surveyor\/join$/,
  /^\/api\/surveyors\/join$/,
  /^\/api\/admin\/impersonate\/[^/]+$/,
  /^\/api\/admin\/return$/,
];
/**
 * Pages where someone signs in: /auth and below (an OAuth provider's return, which starts a
 * session on a GET). Reaching one with signal drops the kept pages too.
 */
const SIGN_IN_PAGE = /^\/auth(?:\/|$)/;

/** Messages from the pages (islands/_offline.ts). */
const KEEP_MESSAGE = "meridian:keep-offline";
const CLEAR_MESSAGE = "meridian:clear-offline";

/**
 * Incremented whenever kept pages are dropped: a page fetch that started before a sign-out
 * must not store the previous account's page after the cache was emptied.
 */
let generation = 0;

self.addEventListener("install", () => {
  // Nothing to precache (the offline page is built here): take over without waiting for
  // every tab of the old version to close, so a fix reaches crews at once.
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== PAGES && name !== ASSETS) await caches.delete(name);
    }
    // The page that registered us becomes controlled now, so its next requests are seen.
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const data = event.data;
  if (data?.type === CLEAR_MESSAGE) event.waitUntil(clearPages());
  else if (data?.type === KEEP_MESSAGE && Array.isArray(data.urls)) {
    event.waitUntil(keepOffline(data.urls.slice(0, MAX_KEEP)));
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    // Cleared as the request leaves, whatever its outcome: a failed sign-in costs at most a
    // refetch of pages the next time there is signal, while waiting for the answer would
    // mean carrying the request through this worker.
    if (SESSION_CHANGES.some((pattern) => pattern.test(url.pathname))) {
      event.waitUntil(clearPages());
    }
    return;
  }
  if (request.mode === "navigate" && FIELD_PAGE.test(url.pathname) && url.search === "") {
    event.respondWith(networkFirst(event, url));
  } else if (request.mode === "navigate" && SIGN_IN_PAGE.test(url.pathname)) {
    event.respondWith(clearedAfter(request));
  } else if (HASHED_ASSET.test(url.pathname)) {
    event.respondWith(cacheFirst(request));
  } else if (STATIC_FILE.test(url.pathname)) {
    event.respondWith(staleWhileRevalidate(event));
  }
});

/** The server's page when it answers; the kept copy, or the offline page, when it cannot. */
async function networkFirst(event, url) {
  const cache = await caches.open(PAGES);
  const started = generation;
  let response;
  try {
    response = await fetch(event.request);
  } catch {
    return (await cache.match(url.href)) ?? offlinePage(url);
  }
  // A server error (a restart, an overloaded proxy) says nothing about the page: on a weak
  // connection the kept copy is more useful than an error page.
  if (response.status >= 500) return (await cache.match(url.href)) ?? response;
  event.waitUntil(remember(cache, url.href, response.clone(), started));
  return response;
}

/**
 * The sign-in page as the network answers it, once kept pages are dropped. Offline the fetch
 * fails as it would without this worker, and nothing is dropped: a technician who taps
 * "Sign in" without signal keeps their jobs.
 */
async function clearedAfter(request) {
  const response = await fetch(request);
  await clearPages();
  return response;
}

/**
 * Fetches the pages a technician is about to need (the one on screen when it was loaded
 * before this worker controlled it, the dashboard's next jobs) and keeps each, in turn so the
 * server sees one request at a time. Offline attempts simply fail and keep what is there.
 */
async function keepOffline(urls) {
  const cache = await caches.open(PAGES);
  for (const raw of urls) {
    if (typeof raw !== "string") continue;
    const url = new URL(raw, self.location.origin);
    if (url.origin !== self.location.origin || !FIELD_PAGE.test(url.pathname) || url.search) {
      continue;
    }
    const started = generation;
    try {
      const response = await fetch(url.href, {
        credentials: "same-origin",
        redirect: "manual",
        headers: { accept: "text/html" },
      });
      if (response.status < 500) await remember(cache, url.href, response, started);
    } catch {
      return;
    }
  }
}

/**
 * Keeps `response` as the copy of `href` when it is the page itself (200, text/html, from
 * this origin); any other answer from the server (redirect to sign-in, 403, 404) means this
 * browser may no longer show it, so the copy is dropped.
 */
async function remember(cache, href, response, started) {
  const isPage = response.status === 200 && response.type === "basic" &&
    (response.headers.get("content-type") ?? "").startsWith("text/html");
  if (!isPage) {
    await cache.delete(href);
    return;
  }
  const body = await response.text();
  if (started !== generation) return;
  // Deleted first so the copy moves to the end of the cache's order: the oldest go first.
  await cache.delete(href);
  await cache.put(href, new Response(body, { status: 200, headers: response.headers }));
  await trim(cache, MAX_PAGES);
  await keepBundles(body);
}

/**
 * Stores the hashed bundles a kept page names (its stylesheet, the boot script, each island's
 * chunk and preloads) that are not stored yet. A page kept before it was ever shown on this
 * device (the dashboard's next jobs), or shown before this worker controlled it, would
 * otherwise open offline without its checklist working.
 */
async function keepBundles(html) {
  const cache = await caches.open(ASSETS);
  // Up to a fragment: a map names its outline as `…/us-states-HASH.svg#land`.
  const paths = new Set(html.match(/\/static\/build\/[^"'\s<>#]+/g) ?? []);
  for (const path of paths) {
    if (!HASHED_ASSET.test(path)) continue;
    const url = new URL(path, self.location.origin).href;
    if (await cache.match(url)) continue;
    try {
      const response = await fetch(url);
      if (response.status === 200 && response.type === "basic") await cache.put(url, response);
    } catch {
      return;
    }
  }
  await trim(cache, MAX_ASSETS);
}

/** A stored bundle, else the network's (kept when it is a 200 from this origin). */
async function cacheFirst(request) {
  const cache = await caches.open(ASSETS);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.status === 200 && response.type === "basic") {
    await cache.put(request, response.clone());
    await trim(cache, MAX_ASSETS);
  }
  return response;
}

/** The stored copy if any (refreshed in the background), else the network's. */
async function staleWhileRevalidate(event) {
  const cache = await caches.open(ASSETS);
  const hit = await cache.match(event.request);
  const refresh = fetch(event.request).then(async (response) => {
    if (response.status === 200 && response.type === "basic") {
      await cache.put(event.request, response.clone());
      await trim(cache, MAX_ASSETS);
    }
    return response;
  });
  if (!hit) return refresh;
  event.waitUntil(refresh.catch(() => undefined));
  return hit;
}

/** Deletes the oldest entries beyond `max` (a cache lists its entries in insertion order). */
async function trim(cache, max) {
  const keys = await cache.keys();
  for (const key of keys.slice(0, Math.max(0, keys.length - max))) await cache.delete(key);
}

/** Drops every kept page (bundles hold no account data and stay). */
async function clearPages() {
  generation++;
  for (const name of await caches.keys()) {
    if (name.startsWith(`${PREFIX}pages-`)) await caches.delete(name);
  }
}

/** Shown offline for a technician page with no kept copy. Self-contained: no bundle needed. */
function offlinePage(url) {
  const here = escapeHtml(url.pathname);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>No connection — Meridian</title>
<style>
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933;background:#f7f8fa}
main{max-width:32rem;margin:0 auto;padding:2rem 1.25rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem}
a{color:#0b5cad}
.actions{display:flex;flex-wrap:wrap;gap:1rem;margin-top:1.5rem}
</style>
</head>
<body>
<main>
<h1>No connection</h1>
<p>This job page was never opened on this device, so there is no copy of it to show without
a connection.</p>
<p>Open your jobs while you have signal and they stay available here offline.</p>
<p class="actions"><a href="${here}">Try again</a><a href="/technician-dashboard">Your jobs</a></p>
</main>
</body>
</html>
`;
  return new Response(html, {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      // As strict as the site's own policy: this page needs no script and no other origin.
      "Content-Security-Policy":
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    },
  });
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
