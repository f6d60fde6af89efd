/**
 * End-to-end harness: the whole app on a real port, driven by playwright-core in Debian's
 * Chromium. Without a browser the tests are reported as ignored by name, unless
 * REQUIRE_E2E=1, when a missing browser fails them.
 *
 * The end-to-end files share one isolate (tests/_run.ts), and one Chromium serves all their
 * tests: each test gets fresh browser contexts, its own cookies, storage, cache and service
 * workers, and every context is closed when the test ends, so no test sees another's browser
 * state. Run alone, a file has the isolate and the browser to itself.
 *
 * With E2E_INSTANCES=2 (CI's multi-instance stage, on Postgres) the app is instead two real
 * server processes (`deno run -A main.ts`, NODE_ENV=production, TRUST_PROXY=1) on the test
 * database and one KV file, behind nginx as a round-robin load balancer, and the browser
 * talks to nginx. The servers are started once per environment and kept for the next tests
 * with the same `env`, whichever file they are in; between tests the database is emptied as
 * usual and the KV file too, so each test starts from the state a fresh pair would see. `t` still
 * reaches the same database and KV file, so fixtures and assertions work unchanged. After a
 * passing test nginx's access log must show that every instance answered some of that test's
 * requests and that both are still running; when the servers stop (after the last test,
 * before servers with another `env`, or after a failure) each must exit cleanly.
 */
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { createTestApp, type TestApp } from "../_helpers.ts";
import { sessionFor } from "../_auth.ts";
import type { User } from "../../db/users.ts";
import { APP_JOB_HANDLERS, startJobWorker } from "../../lib/jobs.ts";
import {
  type Cluster,
  E2E_INSTANCES,
  freePort,
  NGINX_PATH,
  NginxPortTakenError,
  nginxPresent,
  startCluster,
} from "./_multi_instance.ts";

/** Where Debian installs Chromium; CHROMIUM_PATH overrides. */
export const CHROMIUM_PATH = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";

function browserPresent(): boolean {
  try {
    return Deno.statSync(CHROMIUM_PATH).isFile;
  } catch {
    return false;
  }
}

const hasBrowser = browserPresent();
const requireE2e = Deno.env.get("REQUIRE_E2E") === "1";

/** A served app plus a browser page pointed at it. */
export interface E2eContext {
  t: TestApp;
  baseUrl: string;
  /** The shared browser: a context made on it is closed when the test ends. */
  browser: Browser;
  /** A fresh page that records console errors and page errors. */
  newPage(): Promise<Page>;
  /**
   * A page in a context of its own, signed in as `user` (a session opened in KV, as
   * `sessionFor` does), recording page errors and, unless `recordConsole` is false, console
   * errors.
   */
  signedInPage(
    user: Pick<User, "id" | "role">,
    options?: { recordConsole?: boolean },
  ): Promise<Page>;
  /** Console and page errors seen so far, per page. */
  consoleErrors: string[];
}

/**
 * Starts the durable job worker as main.ts runs it, for a test whose flow waits on a job
 * (automatic dispatch); returns its stop function. Across instances the servers already run
 * theirs and the test must see them do the work, so none is added in the test's process.
 */
export function startTestJobWorker(t: TestApp, intervalMs = 200): () => Promise<void> {
  if (E2E_INSTANCES > 1) return () => Promise.resolve();
  return startJobWorker(t.deps, { handlers: APP_JOB_HANDLERS, intervalMs });
}

/**
 * Waits until the island holding `inner` has hydrated: islands/_boot.ts marks an island's
 * `[data-island]` wrapper `data-hydrated` once React owns it and has taken over what was typed
 * or chosen before (presses held meanwhile are replayed right after, in the same task). The
 * wrapper is the nearest one around `inner`, which may be found from anywhere (a card holding
 * the island too). Use it before interacting with an island that must be live, rather than
 * waiting for the network to go quiet (that timed out in CI); not for an island hydrated on
 * `interaction` that nothing has touched yet, which waits for the touch.
 */
export async function waitForIsland(inner: Locator): Promise<void> {
  await inner.locator("xpath=ancestor::*[@data-island][1][@data-hydrated]").waitFor();
}

/** The app a test drives, where the browser finds it, and how to take it down. */
interface Served {
  t: TestApp;
  baseUrl: string;
  /** Throws when the run did not really use what it set up (an instance nginx never used). */
  verify(): Promise<void>;
  /** What to add to a failed test's error (across instances: the servers' side of it). */
  diagnosis(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * The in-process app on port 0. The CSRF check compares Origin with PUBLIC_URL, so the app
 * is built once the port is known and told it is served there.
 */
async function serveInProcess(env: Record<string, string>): Promise<Served> {
  let serveApp: (req: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response> = () =>
    new Response("starting", { status: 503 });
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    (req, info) => serveApp(req, info),
  );
  const baseUrl = `http://127.0.0.1:${server.addr.port}`;
  const t = await createTestApp({ env: { PUBLIC_URL: baseUrl, ...env } })
    .catch(async (err) => {
      await server.shutdown();
      throw err;
    });
  serveApp = t.app.fetch;
  return {
    t,
    baseUrl,
    verify: () => Promise.resolve(),
    diagnosis: () => Promise.resolve(""),
    async stop() {
      await server.shutdown();
      t.close();
    },
  };
}

/** The running servers, kept for the next test with the same `env`. */
interface SharedCluster {
  /** The environment they were started with, as a comparable string. */
  key: string;
  cluster: Cluster;
  baseUrl: string;
  kvDir: string;
  kvPath: string;
}

let sharedCluster: SharedCluster | undefined;

/**
 * Stops the servers (nginx, then each instance with SIGTERM) and removes their KV
 * file; throws when an instance did not exit with 0 (it crashed, or could not shut down
 * cleanly).
 */
async function stopSharedCluster(): Promise<void> {
  const running = sharedCluster;
  sharedCluster = undefined;
  if (!running) return;
  const codes = await running.cluster.stop();
  await Deno.remove(running.kvDir, { recursive: true }).catch(() => {});
  const bad = running.cluster.instances.filter((_, i) => codes[i] !== 0);
  if (bad.length) {
    throw new Error(
      `an instance exited with ${codes.join(", ")}:\n${bad.map((i) => i.output()).join("\n")}`,
    );
  }
}

/** Deletes every KV entry: the next test starts with an empty KV, as a fresh one. */
async function clearKv(kv: Deno.Kv): Promise<void> {
  const keys: Deno.KvKey[] = [];
  for await (const entry of kv.list({ prefix: [] })) keys.push(entry.key);
  for (let i = 0; i < keys.length; i += 500) {
    const op = kv.atomic();
    for (const key of keys.slice(i, i + 500)) op.delete(key);
    await op.commit();
  }
}

/**
 * E2E_INSTANCES server processes behind nginx (tests/e2e/_multi_instance.ts), the
 * running ones when their `env` is the test's. The test's own app is built first: it empties
 * the database (and, for servers already running, the KV file is emptied too); for new
 * servers it creates the KV file they then open, and its PUBLIC_URL is nginx's, as theirs is.
 */
async function serveAcrossInstances(testEnv: Record<string, string>): Promise<Served> {
  // In-process no job worker runs unless a test starts one, so a request's dispatch job is
  // queued and never done; the servers always run theirs, and would dispatch requests under
  // tests that set their state by hand. Automatic dispatch is off unless a test turns it on.
  const env = { AUTO_DISPATCH: "0", ...testEnv };
  if (!Deno.env.get("DATABASE_URL")) {
    throw new Error(
      "E2E_INSTANCES needs DATABASE_URL: embedded PGlite has one writer, so instances cannot share it",
    );
  }
  if (!nginxPresent()) throw new Error(`E2E_INSTANCES needs nginx at ${NGINX_PATH}`);
  const key = JSON.stringify(Object.entries(env).sort(([a], [b]) => a < b ? -1 : 1));
  if (
    sharedCluster &&
    (sharedCluster.key !== key || !sharedCluster.cluster.instances.every((i) => i.isRunning()))
  ) {
    await stopSharedCluster().catch((err) => {
      throw new Error(`the servers of the earlier tests: ${err.message}`);
    });
  }
  let t: TestApp | undefined;
  if (sharedCluster) {
    t = await createTestApp({
      env: { PUBLIC_URL: sharedCluster.baseUrl, ...env },
      kvPath: sharedCluster.kvPath,
    });
    try {
      await clearKv(t.kv);
    } catch (err) {
      t.close();
      throw err;
    }
  } else {
    // nginx's port is picked free before the instances start; if another process takes it in
    // the meantime, nginx cannot listen: start again on another port (its PUBLIC_URL with it).
    for (let attempt = 1; !sharedCluster; attempt++) {
      const nginxPort = freePort();
      const baseUrl = `http://127.0.0.1:${nginxPort}`;
      const kvDir = await Deno.makeTempDir({ prefix: "meridian-e2e-kv-" });
      const kvPath = `${kvDir}/kv.sqlite3`;
      try {
        t = await createTestApp({ env: { PUBLIC_URL: baseUrl, ...env }, kvPath });
        const cluster = await startCluster({
          instances: E2E_INSTANCES,
          nginxPort,
          env: { KV_PATH: kvPath, ...env },
        });
        sharedCluster = { key, cluster, baseUrl, kvDir, kvPath };
      } catch (err) {
        t?.close();
        t = undefined;
        await Deno.remove(kvDir, { recursive: true }).catch(() => {});
        if (!(err instanceof NginxPortTakenError) || attempt === 3) throw err;
      }
    }
  }
  if (!t || !sharedCluster) throw new Error("the servers did not start");
  const { cluster, baseUrl } = sharedCluster;
  const logStart = (await cluster.nginx.accessLog()).length;
  /** Requests each instance answered through nginx since this test began. */
  const requestsThisTest = async () => {
    const lines = (await cluster.nginx.accessLog()).slice(logStart);
    return cluster.instances.map((i) =>
      lines.filter((line) => line.upstream === `127.0.0.1:${i.port}`).length
    );
  };
  return {
    t,
    baseUrl,
    diagnosis: () => cluster.diagnosis(),
    async verify() {
      const down = cluster.instances.filter((i) => !i.isRunning());
      if (down.length) {
        throw new Error(
          `an instance stopped during the test:\n${down.map((i) => i.output()).join("\n")}`,
        );
      }
      // nginx writes a request's line just after sending its answer, so the test's last
      // lines can lag its last response by a moment.
      let counts = await requestsThisTest();
      for (let i = 0; i < 20 && counts.some((n) => n === 0); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        counts = await requestsThisTest();
      }
      if (counts.some((n) => n === 0)) {
        throw new Error(
          `nginx sent requests to only some instances (requests per instance: ${
            counts.join(", ")
          }): the test did not run across instances`,
        );
      }
    },
    stop() {
      t.close();
      return Promise.resolve();
    },
  };
}

const BROWSER_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let sharedBrowser: Promise<Browser> | undefined;

/** The isolate's Chromium, launched on first use and again if it went away. */
async function sharedBrowserFor(): Promise<Browser> {
  const running = await sharedBrowser?.catch(() => undefined);
  if (running?.isConnected()) return running;
  sharedBrowser = chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: BROWSER_ARGS,
  }).then(withWaitLimit);
  return await sharedBrowser;
}

/**
 * How long a test's waits (`waitFor`, clicks, navigations) wait before failing: Playwright's
 * default is 30 s. On a nested virtual machine where a context switch is dear (GET /api/user
 * cost 0.68 ms of CPU there against 0.15 ms elsewhere) and CI runs the two suites side by side
 * on two cores, an inline registration (argon2id, a new session, the next step) once took
 * longer than 30 s and failed a run that passed alone in 15 s. A wait for what never comes
 * still fails, later.
 */
const WAIT_LIMIT_MS = 90_000;

/** `browser` with every context it makes (the harness's and the tests' own) given WAIT_LIMIT_MS. */
function withWaitLimit(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser["newContext"]>) => {
    const context = await newContext(...args);
    context.setDefaultTimeout(WAIT_LIMIT_MS);
    return context;
  };
  return browser;
}

// After the module's last test (the end-to-end files share one isolate, tests/_run.ts, so
// after the last of them): the browser closes and the servers stop (a server that does not
// exit cleanly fails the run).
Deno.test.afterAll(async () => {
  const browser = await sharedBrowser?.catch(() => undefined);
  sharedBrowser = undefined;
  await browser?.close();
  await stopSharedCluster();
});

/**
 * Registers an end-to-end test. The app is served on port 0 with `env` applied (or, with
 * E2E_INSTANCES=2, as server processes behind nginx, where AUTO_DISPATCH defaults to "0": a
 * test of automatic dispatch sets it to "1" and starts `startTestJobWorker`); the shared
 * browser, launched headless with the flags this machine needs, gives the test a fresh
 * context, and every context is closed when the test ends.
 */
export function e2e(
  name: string,
  fn: (ctx: E2eContext) => Promise<void>,
  { env = {} }: { env?: Record<string, string> } = {},
): void {
  const isMulti = E2E_INSTANCES > 1;
  const ignore = !hasBrowser && !requireE2e;
  Deno.test({
    name: `[e2e] ${name}`,
    ignore,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      if (!hasBrowser) throw new Error(`REQUIRE_E2E=1 but no browser at ${CHROMIUM_PATH}`);
      // The browser starts while the app does (the first test waits for both).
      const launching = sharedBrowserFor();
      launching.catch(() => {});
      const { t, baseUrl, verify, diagnosis, stop } = isMulti
        ? await serveAcrossInstances(env)
        : await serveInProcess(env);
      let passed = false;
      try {
        const browser = await launching;
        const consoleErrors: string[] = [];
        const context = await browser.newContext({ baseURL: baseUrl });
        try {
          await fn({
            t,
            baseUrl,
            browser,
            consoleErrors,
            async newPage() {
              const page = await context.newPage();
              page.on("console", (msg) => {
                if (msg.type() === "error") consoleErrors.push(`${page.url()}: ${msg.text()}`);
              });
              page.on("pageerror", (err) => consoleErrors.push(`${page.url()}: ${err.message}`));
              return page;
            },
            async signedInPage(user, { recordConsole = true } = {}) {
              const own = await browser.newContext({ baseURL: baseUrl });
              const [name, value] = (await sessionFor(t, user)).split("=");
              await own.addCookies([{ name, value, url: baseUrl }]);
              const page = await own.newPage();
              if (recordConsole) {
                page.on("console", (msg) => {
                  if (msg.type() === "error") consoleErrors.push(`${page.url()}: ${msg.text()}`);
                });
              }
              page.on("pageerror", (err) => consoleErrors.push(`${page.url()}: ${err.message}`));
              return page;
            },
          });
        } catch (err) {
          const more = await diagnosis();
          if (more && err instanceof Error) err.message += `\n${more}`;
          throw err;
        } finally {
          // The test's own contexts (browser.newContext) too: the next test starts clean.
          await Promise.all(browser.contexts().map((c) => c.close()));
        }
        await verify();
        passed = true;
      } finally {
        await stop();
        // After a failure the next test gets new servers, whatever state this one left.
        if (!passed) await stopSharedCluster().catch(() => {});
      }
    },
  });
}
