/**
 * GET /sw.js, and the worker's rules run in-process: static/sw.js is evaluated against a small
 * fake of a service worker's global scope (event listeners, CacheStorage, fetch), so each
 * caching rule is checked by what a technician would get back, online and offline. The
 * browser itself is exercised in tests/e2e/offline_reload_test.ts.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import {
  CLEAR_MESSAGE,
  FIELD_CACHE_PREFIX,
  FIELD_PAGES_CACHE_PREFIX,
  KEEP_MESSAGE,
  SERVICE_WORKER_URL,
} from "../../islands/_offline.ts";

const SOURCE = await Deno.readTextFile(new URL("../../static/sw.js", import.meta.url));
const ORIGIN = "https://meridian.test";
const JOB = `${ORIGIN}/technician-survey-detail/5b0a3c3e-8f8e-4c55-9a57-2f4f1f0d9a01`;
const DASHBOARD = `${ORIGIN}/technician-dashboard`;

test("[service worker] /sw.js is served as JavaScript, revalidated on every check, to anyone", async () => {
  const t = await createTestApp();
  assertEquals(SERVICE_WORKER_URL, "/sw.js");
  const technician = await createSignedInUser(t, { role: "technician" });
  for (const cookie of [undefined, technician.cookie]) {
    const res = await t.request("GET", "/sw.js", { cookie });
    assertEquals(res.status, 200);
    assertMatch(res.headers.get("content-type") ?? "", /^text\/javascript\b/);
    // Not `private, no-store` even with a session: the same bytes for everyone, always checked.
    assertEquals(res.headers.get("cache-control"), "no-cache");
    assertEquals(res.headers.get("set-cookie"), null);
    assertEquals(await res.text(), SOURCE);
  }
  t.close();
});

test("[service worker] the worker and the pages agree on cache names and messages", () => {
  assertStringIncludes(SOURCE, `const PREFIX = "${FIELD_CACHE_PREFIX}";`);
  assertStringIncludes(SOURCE, "const PAGES = `${PREFIX}pages-${VERSION}`;");
  assertEquals(FIELD_PAGES_CACHE_PREFIX, `${FIELD_CACHE_PREFIX}pages-`);
  assertStringIncludes(SOURCE, `const KEEP_MESSAGE = "${KEEP_MESSAGE}";`);
  assertStringIncludes(SOURCE, `const CLEAR_MESSAGE = "${CLEAR_MESSAGE}";`);
  assertMatch(SOURCE, /const VERSION = "v\d+";/);
});

test("[service worker] every endpoint it watches for a change of account exists", async () => {
  const t = await createTestApp();
  const routes = new Set(t.app.routes.map(({ method, path }) => `${method} ${path}`));
  for (
    const route of [
      "POST /api/login",
      "POST /api/logout",
      "POST /api/register",
      "POST /api/surveyor/join",
      "POST /api/surveyors/join",
      "POST /api/admin/impersonate/:userId",
      "POST /api/admin/return",
      "GET /auth",
    ]
  ) {
    assert(routes.has(route), `${route} is gone: update SESSION_CHANGES in static/sw.js`);
  }
  t.close();
});

// --- The worker in a fake scope -----------------------------------------------------------

type Handler = (event: FakeEvent) => void;

/** A fetch or message event: records respondWith and waitUntil. */
class FakeEvent {
  response?: Promise<Response>;
  pending: Promise<unknown>[] = [];
  constructor(readonly request?: Request & { mode: string }, readonly data?: unknown) {}
  respondWith(response: Promise<Response>) {
    this.response = response;
  }
  waitUntil(promise: Promise<unknown>) {
    this.pending.push(promise);
  }
}

/** CacheStorage and Cache, in memory, keyed by URL, in insertion order. */
class FakeCaches {
  stores = new Map<string, Map<string, Response>>();
  open(name: string) {
    let store = this.stores.get(name);
    if (!store) this.stores.set(name, store = new Map());
    const entries = store;
    const url = (req: Request | string) => typeof req === "string" ? req : req.url;
    return Promise.resolve({
      match: (req: Request | string) => Promise.resolve(entries.get(url(req))?.clone()),
      put: async (req: Request | string, res: Response) => {
        entries.set(url(req), new Response(await res.arrayBuffer(), res));
      },
      delete: (req: Request | string) => Promise.resolve(entries.delete(url(req))),
      keys: () => Promise.resolve([...entries.keys()].map((u) => new Request(u))),
    });
  }
  keys() {
    return Promise.resolve([...this.stores.keys()]);
  }
  delete(name: string) {
    return Promise.resolve(this.stores.delete(name));
  }
  /** The URLs kept in caches whose name starts with `prefix`. */
  urls(prefix: string): string[] {
    return [...this.stores].filter(([name]) => name.startsWith(prefix))
      .flatMap(([, store]) => [...store.keys()]);
  }
}

/** A request as a browser hands it to a worker (Deno's Request has no navigate mode). */
function withMode(req: Request, mode: string): Request & { mode: string } {
  return Object.defineProperty(req, "mode", { value: mode });
}

type Network = (req: Request) => Response | Promise<Response>;

/** A basic (same-origin) response as a browser's fetch gives it to a worker. */
function basic(body: string, init: ResponseInit = {}): Response {
  return asBasic(new Response(body, init));
}

/** Deno's responses are "default"; a browser's same-origin ones, and their clones, "basic". */
function asBasic(res: Response): Response {
  const clone = res.clone.bind(res);
  Object.defineProperty(res, "type", { value: "basic" });
  Object.defineProperty(res, "clone", { value: () => asBasic(clone()) });
  return res;
}

function html(body: string, status = 200): Response {
  return basic(body, { status, headers: { "content-type": "text/html; charset=utf-8" } });
}

/** Loads static/sw.js into a fresh fake scope whose network is `network` (throws = offline). */
function loadWorker(network: { current: Network | "offline" }) {
  const handlers = new Map<string, Handler>();
  const caches = new FakeCaches();
  const requests: string[] = [];
  const scope = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, handler: Handler) => handlers.set(type, handler),
    skipWaiting: () => Promise.resolve(),
    clients: { claim: () => Promise.resolve() },
  };
  const fetchFn = (input: Request | string, init?: RequestInit) => {
    const req = input instanceof Request ? input : new Request(input, init);
    requests.push(`${req.method} ${new URL(req.url).pathname}`);
    if (network.current === "offline") return Promise.reject(new TypeError("Failed to fetch"));
    return Promise.resolve(network.current(req));
  };
  new Function("self", "caches", "fetch", SOURCE)(scope, caches, fetchFn);

  async function dispatch(event: FakeEvent, type: string) {
    handlers.get(type)!(event);
    const response = await event.response;
    await Promise.all(event.pending);
    return response;
  }
  return {
    caches,
    requests,
    /** A navigation (typing the URL, a link, a reload): the worker's answer or undefined. */
    navigate: (url: string) =>
      dispatch(
        new FakeEvent(withMode(new Request(url), "navigate")),
        "fetch",
      ),
    /** A subresource or API request from a page. */
    request: (url: string, init: RequestInit = {}) =>
      dispatch(new FakeEvent(withMode(new Request(url, init), "cors")), "fetch"),
    message: (data: unknown) => dispatch(new FakeEvent(undefined, data), "message"),
    activate: () => dispatch(new FakeEvent(), "activate"),
  };
}

test("[service worker] a job page opened online is shown offline; never-opened ones get the offline page", async () => {
  const network: { current: Network | "offline" } = {
    current: () => html("<h1>Boundary Survey</h1><p>Checklist</p>"),
  };
  const sw = loadWorker(network);
  await sw.activate();
  const online = await sw.navigate(JOB);
  assertEquals(await online!.text(), "<h1>Boundary Survey</h1><p>Checklist</p>");

  network.current = "offline";
  const offline = await sw.navigate(JOB);
  assertEquals(offline!.status, 200);
  assertEquals(await offline!.text(), "<h1>Boundary Survey</h1><p>Checklist</p>");

  const never = await sw.navigate(`${ORIGIN}/technician-survey-detail/another-job`);
  assertEquals(never!.status, 503);
  assertMatch(never!.headers.get("content-type") ?? "", /^text\/html/);
  assertMatch(never!.headers.get("content-security-policy") ?? "", /default-src 'none'/);
  const text = await never!.text();
  assertStringIncludes(text, "This job page was never opened on this device");
  assertStringIncludes(text, 'href="/technician-survey-detail/another-job">Try again</a>');
});

test("[service worker] online, the server's page always wins over the kept copy", async () => {
  let version = 1;
  const network: { current: Network | "offline" } = { current: () => html(`v${version}`) };
  const sw = loadWorker(network);
  await sw.navigate(JOB);
  version = 2;
  assertEquals(await (await sw.navigate(JOB))!.text(), "v2");
  network.current = "offline";
  assertEquals(await (await sw.navigate(JOB))!.text(), "v2");
});

test("[service worker] only 200 text/html pages are kept, and a refusal drops the kept copy", async () => {
  const network: { current: Network | "offline" } = { current: () => html("job") };
  const sw = loadWorker(network);
  await sw.navigate(JOB);
  // Reassigned: the server's 404 page replaces nothing offline later.
  network.current = () => html("Survey not found", 404);
  assertEquals((await sw.navigate(JOB))!.status, 404);
  network.current = "offline";
  assertEquals((await sw.navigate(JOB))!.status, 503);

  // Not HTML, or a redirect to sign in: shown online, never kept.
  network.current = () => basic("{}", { headers: { "content-type": "application/json" } });
  await sw.navigate(DASHBOARD);
  network.current = () => basic("", { status: 302, headers: { location: "/auth" } });
  await sw.navigate(DASHBOARD);
  assertEquals(sw.caches.urls(FIELD_PAGES_CACHE_PREFIX), []);

  // A server error keeps the copy and shows it (the server restarting is not a refusal).
  network.current = () => html("dashboard");
  await sw.navigate(DASHBOARD);
  network.current = () => html("Bad gateway", 502);
  assertEquals(await (await sw.navigate(DASHBOARD))!.text(), "dashboard");
});

test("[service worker] API answers, other roles' pages and query variants are left to the network", async () => {
  const network: { current: Network | "offline" } = { current: () => html("page") };
  const sw = loadWorker(network);
  for (
    const url of [
      `${ORIGIN}/surveyor-dashboard`,
      `${ORIGIN}/survey/5b0a3c3e-8f8e-4c55-9a57-2f4f1f0d9a01`,
      `${ORIGIN}/admin/surveys`,
      `${ORIGIN}/technician-dashboard?page=2`,
    ]
  ) {
    assertEquals(await sw.navigate(url), undefined, url);
  }
  for (
    const url of [
      `${ORIGIN}/api/surveys/5b0a3c3e-8f8e-4c55-9a57-2f4f1f0d9a01/checklist`,
      `${ORIGIN}/api/notifications`,
      `${ORIGIN}/static/build/manifest.json`,
      "https://maps.example.com/tile.png",
    ]
  ) {
    assertEquals(await sw.request(url), undefined, url);
  }
  assertEquals(
    await sw.request(`${ORIGIN}/api/surveys/x/checklist/answers`, { method: "POST", body: "{}" }),
    undefined,
  );
  assertEquals(sw.caches.urls(FIELD_CACHE_PREFIX), []);
});

test("[service worker] hashed bundles are fetched once and then served from the device", async () => {
  const network: { current: Network | "offline" } = {
    current: () => basic("export{}", { headers: { "content-type": "text/javascript" } }),
  };
  const sw = loadWorker(network);
  const bundle = `${ORIGIN}/static/build/SurveyChecklist-ABCD1234.js`;
  await sw.request(bundle);
  network.current = "offline";
  assertEquals(await (await sw.request(bundle))!.text(), "export{}");
  assertEquals(sw.requests.filter((r) => r.includes("SurveyChecklist")).length, 1);
});

test("[service worker] kept pages are dropped on sign-out, sign-in, impersonation and the sign-in page", async () => {
  const network: { current: Network | "offline" } = { current: () => html("job") };
  const sw = loadWorker(network);
  const changes: (() => Promise<unknown>)[] = [
    () => sw.request(`${ORIGIN}/api/logout`, { method: "POST" }),
    () => sw.request(`${ORIGIN}/api/login`, { method: "POST", body: "{}" }),
    () => sw.request(`${ORIGIN}/api/register`, { method: "POST", body: "{}" }),
    () => sw.request(`${ORIGIN}/api/surveyor/join`, { method: "POST", body: "{}" }),
    () => sw.request(`${ORIGIN}/api/admin/impersonate/some-user`, { method: "POST" }),
    () => sw.request(`${ORIGIN}/api/admin/return`, { method: "POST" }),
    () => sw.navigate(`${ORIGIN}/auth?returnTo=%2Ftechnician-dashboard`),
    () => sw.navigate(`${ORIGIN}/auth/google/callback?code=c&state=s`),
    () => sw.message({ type: CLEAR_MESSAGE }),
  ];
  for (const [i, change] of changes.entries()) {
    network.current = () => html("job");
    await sw.navigate(JOB);
    assertEquals(sw.caches.urls(FIELD_PAGES_CACHE_PREFIX), [JOB], `before change ${i}`);
    await change();
    assertEquals(sw.caches.urls(FIELD_PAGES_CACHE_PREFIX), [], `after change ${i}`);
  }
  // Opening the sign-in page without signal drops nothing.
  await sw.navigate(JOB);
  network.current = "offline";
  await sw.navigate(`${ORIGIN}/auth`).catch(() => undefined);
  assertEquals(sw.caches.urls(FIELD_PAGES_CACHE_PREFIX), [JOB]);
});

test("[service worker] the dashboard's next jobs are kept on request, only technician pages", async () => {
  const served: string[] = [];
  const network: { current: Network | "offline" } = {
    current: (req) => {
      served.push(new URL(req.url).pathname);
      return html(`page ${new URL(req.url).pathname}`);
    },
  };
  const sw = loadWorker(network);
  await sw.message({
    type: KEEP_MESSAGE,
    urls: [
      "/technician-dashboard",
      "/technician-survey-detail/a",
      "/technician-survey-detail/b",
      "/surveyor-dashboard",
      "https://elsewhere.example/technician-dashboard",
      "/api/surveys",
    ],
  });
  assertEquals(served, [
    "/technician-dashboard",
    "/technician-survey-detail/a",
    "/technician-survey-detail/b",
  ]);
  network.current = "offline";
  assertEquals(
    await (await sw.navigate(`${ORIGIN}/technician-survey-detail/b`))!.text(),
    "page /technician-survey-detail/b",
  );
});

test("[service worker] a page fetched while the account signs out is not kept", async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => release = resolve);
  const network: { current: Network | "offline" } = {
    current: async () => {
      await gate;
      return html("previous account's job");
    },
  };
  const sw = loadWorker(network);
  const navigation = sw.navigate(JOB);
  await sw.message({ type: CLEAR_MESSAGE });
  release();
  await navigation;
  assertEquals(sw.caches.urls(FIELD_PAGES_CACHE_PREFIX), []);
});

test("[service worker] activating a new version deletes the old version's caches only", async () => {
  const network: { current: Network | "offline" } = { current: () => html("x") };
  const sw = loadWorker(network);
  await sw.caches.open(`${FIELD_CACHE_PREFIX}pages-v0`);
  await sw.caches.open("someone-elses-cache");
  await sw.navigate(JOB);
  await sw.activate();
  const names = await sw.caches.keys();
  assert(!names.includes(`${FIELD_CACHE_PREFIX}pages-v0`));
  assert(names.includes("someone-elses-cache"));
  assertEquals(sw.caches.urls(FIELD_PAGES_CACHE_PREFIX), [JOB]);
});

test("[service worker] a kept page's hashed bundles are stored with it, for a checklist that works offline", async () => {
  const boot = "/static/build/_boot-AAAA1111.js";
  const island = "/static/build/SurveyChecklist-BBBB2222.js";
  const css = "/static/build/app-CCCC3333.css";
  const network: { current: Network | "offline" } = {
    current: (req) =>
      new URL(req.url).pathname.startsWith("/static/")
        ? basic(`/* ${new URL(req.url).pathname} */`)
        : html(
          `<link rel="stylesheet" href="${css}"><script type="module" src="${boot}"></script>` +
            `<div data-island="SurveyChecklist" data-src="${island}"></div>` +
            `<a href="/static/build/manifest.json">not a bundle</a>`,
        ),
  };
  const sw = loadWorker(network);
  await sw.message({ type: KEEP_MESSAGE, urls: ["/technician-survey-detail/a"] });
  assertEquals(
    sw.caches.urls(`${FIELD_CACHE_PREFIX}assets-`).sort(),
    [boot, css, island].map((p) => `${ORIGIN}${p}`).sort(),
  );
  network.current = "offline";
  assertEquals(await (await sw.request(`${ORIGIN}${island}`))!.text(), `/* ${island} */`);
});
