/**
 * End-to-end harness: the whole app on a real port, driven by playwright-core in Debian's
 * Chromium. Without a browser the tests are reported as ignored by name, unless
 * REQUIRE_E2E=1, when a missing browser fails them.
 *
 * With E2E_INSTANCES=2 (CI's multi-instance stage, on Postgres) each test instead runs two
 * real server processes (`deno run -A main.ts`, NODE_ENV=production, TRUST_PROXY=1) on the
 * test's database and one shared KV file, behind nginx as a round-robin load balancer, and
 * the browser talks to nginx. `t` still reaches the same database and KV file, so fixtures
 * and assertions work unchanged; after a passing test, nginx's access log must show that
 * every instance answered some of its requests.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { createTestApp, type TestApp } from "../_helpers.ts";
import { APP_JOB_HANDLERS, startJobWorker } from "../../lib/jobs.ts";
import {
  type Cluster,
  E2E_INSTANCES,
  freePort,
  NGINX_PATH,
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
  browser: Browser;
  /** A fresh page that records console errors and page errors. */
  newPage(): Promise<Page>;
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

/**
 * E2E_INSTANCES server processes behind nginx (tests/e2e/_multi_instance.ts). The test's
 * own app is built first: it empties the database and creates the KV file the servers then
 * open, and its PUBLIC_URL is nginx's, as theirs is.
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
  const nginxPort = freePort();
  const baseUrl = `http://127.0.0.1:${nginxPort}`;
  const kvDir = await Deno.makeTempDir({ prefix: "meridian-e2e-kv-" });
  const kvPath = `${kvDir}/kv.sqlite3`;
  let t: TestApp | undefined;
  let cluster: Cluster | undefined;
  const stop = async () => {
    await cluster?.stop();
    t?.close();
    await Deno.remove(kvDir, { recursive: true }).catch(() => {});
  };
  try {
    t = await createTestApp({ env: { PUBLIC_URL: baseUrl, ...env }, kvPath });
    cluster = await startCluster({
      instances: E2E_INSTANCES,
      nginxPort,
      env: { KV_PATH: kvPath, ...env },
    });
  } catch (err) {
    await stop();
    throw err;
  }
  const running = cluster;
  return {
    t,
    baseUrl,
    diagnosis: () => running.diagnosis(),
    async verify() {
      // Stopped first: only then does nginx's access log surely hold the last request.
      const codes = await running.stop();
      const counts = await running.requestsPerInstance();
      if (counts.some((n) => n === 0)) {
        throw new Error(
          `nginx sent requests to only some instances (requests per instance: ${
            counts.join(", ")
          }): the test did not run across instances`,
        );
      }
      // An instance that crashed, or could not shut down cleanly, fails the test too.
      const bad = running.instances.filter((_, i) => codes[i] !== 0);
      if (bad.length) {
        throw new Error(
          `an instance exited with ${codes.join(", ")}:\n${bad.map((i) => i.output()).join("\n")}`,
        );
      }
    },
    stop,
  };
}

/**
 * Registers an end-to-end test. The app is served on port 0 with `env` applied (or, with
 * E2E_INSTANCES=2, as server processes behind nginx, where AUTO_DISPATCH defaults to "0": a
 * test of automatic dispatch sets it to "1" and starts `startTestJobWorker`); the browser is
 * launched headless with the flags this machine needs.
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
      const { t, baseUrl, verify, diagnosis, stop } = isMulti
        ? await serveAcrossInstances(env)
        : await serveInProcess(env);
      try {
        const browser = await chromium.launch({
          executablePath: CHROMIUM_PATH,
          headless: true,
          args: [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
          ],
        });
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
          });
        } catch (err) {
          const more = await diagnosis();
          if (more && err instanceof Error) err.message += `\n${more}`;
          throw err;
        } finally {
          await context.close();
          await browser.close();
        }
        await verify();
      } finally {
        await stop();
      }
    },
  });
}
