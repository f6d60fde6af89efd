/**
 * Issue 23's floor beside the framework dashboards: the least a Deno server does per view of a
 * client's /client-dashboard that is remembered and unchanged, with none of Meridian's framework
 * (no Hono, no middleware, no router): `Deno.serve`, the session cookie read from Meridian's own
 * Deno KV file (`readSession`: hashed, one KV read; `touchSession` once a minute, as Meridian's
 * middleware), the client and the page in Meridian's one statement (`listClientSurveysWithEvents`
 * with `withClient`, so the snapshot check too, on a pool set up as db/client.ts sets up
 * Meridian's), the session's timeouts judged, the data compared with what was sent last
 * (`sameData`) and the kept bytes sent with Meridian's headers and a fresh request id.
 *
 * It renders nothing: a view whose data changed (or its first) takes the page from Meridian's
 * own server, with the same cookie, and keeps those bytes. So it is a floor only while nothing
 * changes: the bench measures it quiet, never under BENCH_CHURN. What it answers is Meridian's
 * page byte for byte, so the markup checks hold trivially.
 *
 * What it tells: Meridian's quiet dashboard as a multiple of this floor is what Meridian's own
 * code costs over the runtime, the KV read and the statement every such view needs; the floor as
 * a multiple of Astro's dashboard is how far any server on this stack can go below Astro's (issue
 * 23 asks Meridian for ≤ 0.33× Astro's).
 *
 *   (started by bench/signed_in_pages.ts with BENCH_FLOOR_DASHBOARD=1; run as a program it is
 *   the server, configured by the environment that `startFloorDashboard` gives it)
 */
import type { SnapshotCheck } from "../db/snapshot_cache.ts";
import { freePort, spawnServer, startTaskEnv, startTaskV8Flags } from "./_server.ts";
import type { DashboardSetup } from "./_dashboard_shared.ts";
import { DENO_RUN } from "../tests/_deno.ts";
import { serverCommand } from "./_instructions.ts";

/** The floor's Postgres backends' application_name, so their CPU counts as the floor's. */
export const FLOOR_APPLICATION_NAME = "meridian_floor_dashboard";

const ROOT = new URL("../", import.meta.url);
/** BENCH_FLOOR_PROFILE=DIR: the floor runs under `--cpu-prof` and writes its profile there. */
const PROFILE_DIR = Deno.env.get("BENCH_FLOOR_PROFILE");
/** BENCH_FLOOR_BALLAST=1: the floor holds Meridian's whole app in its heap (`loadMeridian`). */
const BALLAST = Deno.env.get("BENCH_FLOOR_BALLAST") === "1";
/**
 * BENCH_FLOOR_HONO=1: the floor answers through a bare Hono app, its one route the same handler
 * (`new Hono().get("/client-dashboard", …)` served by `app.fetch`): the least a server on this
 * stack does, Hono included, since the stack keeps Hono. Hono then adds what every Hono app pays
 * per request (its Context and request, the router's match); Meridian as a multiple of this
 * floor is what Meridian's own code costs over the stack.
 */
const HONO = Deno.env.get("BENCH_FLOOR_HONO") === "1";

/**
 * Starts the floor on Meridian's database and KV file (`kvPath`, Meridian's server's own), taking
 * first views from `meridianUrl`. With the start task's V8 flags and environment.
 */
export async function startFloorDashboard(
  setup: DashboardSetup,
  { kvPath, meridianUrl, extraArgs = [], callgrindDir }: {
    kvPath: string;
    meridianUrl: string;
    /** Runtime flags after the start task's (`--inspect=…` for `--alloc`). */
    extraArgs?: string[];
    /** Under callgrind, its dumps written here (bench/_instructions.ts). */
    callgrindDir?: string;
  },
): Promise<{ url: string; pid: number; description: string; stop(): Promise<void> }> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const command = serverCommand(Deno.execPath(), [
    ...DENO_RUN,
    ...await startTaskV8Flags(ROOT),
    ...(PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : []),
    ...extraArgs,
    new URL(import.meta.url).pathname,
  ], callgrindDir);
  const server = await spawnServer(
    new Deno.Command(command.program, {
      args: command.args,
      cwd: ROOT.pathname,
      env: {
        ...await startTaskEnv(ROOT),
        NODE_ENV: "production",
        FLOOR_PORT: String(port),
        FLOOR_KV_PATH: kvPath,
        FLOOR_MERIDIAN_URL: meridianUrl,
        FLOOR_HEADERS: JSON.stringify(setup.headers),
        FLOOR_PAGE_SIZE: String(setup.pageSize),
        DATABASE_URL: setup.databaseUrl,
        PGAPPNAME: FLOOR_APPLICATION_NAME,
        ...(BALLAST ? { FLOOR_BALLAST: "1" } : {}),
        ...(HONO ? { FLOOR_HONO: "1" } : {}),
      },
      stdout: "null",
      stderr: "inherit",
    }),
    `${url}/healthz`,
    command.readyTimeoutMs,
  );
  return {
    url,
    pid: server.pid,
    description: `${
      HONO ? "a bare Hono app on Deno.serve" : "Deno.serve"
    }, Meridian's KV read and statement, the kept bytes (quiet only)`,
    stop: () => server.stop(),
  };
}

/** A page as sent last: what it showed, and its bytes. */
interface Kept {
  shell: unknown[];
  data: unknown[];
  bytes: Uint8Array<ArrayBuffer>;
}

// The server's own modules are imported when it starts, not with this module: the bench that
// starts it imports this module before it sets NODE_ENV, and React (which components/ imports)
// picks its build at its first import.
async function serveFloor() {
  const { listClientSurveysWithEvents } = await import("../db/surveys.ts");
  const { postgresPool } = await import("../db/client.ts");
  const { setSnapshotCheck } = await import("../db/snapshot_cache.ts");
  const { sameData } = await import("../components/html_cache.ts");
  const { readSession, SESSION_COOKIE_NAME, sessionExpiry, sessionTimeouts, touchSession } =
    await import("../lib/sessions.ts");
  const { parse: parseCookies } = await import("hono/utils/cookie");
  const env = (name: string) => {
    const value = Deno.env.get(name);
    if (!value) throw new Error(`${name} is not set`);
    return value;
  };
  const meridianUrl = env("FLOOR_MERIDIAN_URL");
  const headers: [string, string][] = JSON.parse(env("FLOOR_HEADERS"));
  const pageSize = Number(env("FLOOR_PAGE_SIZE"));
  const sql = postgresPool(env("DATABASE_URL"));
  const check = Deno.env.get("SNAPSHOT_CHECK");
  if (check) setSnapshotCheck(sql, check as SnapshotCheck);
  const kvOpening = Deno.openKv(env("FLOOR_KV_PATH"));
  // Kept reachable (the health answer reads it), so the collector never drops it.
  const ballast = Deno.env.get("FLOOR_BALLAST") === "1"
    ? await loadMeridian(sql, await kvOpening)
    : undefined;
  const kept = new Map<string, Kept>();
  const html: [string, string][] = [["content-type", "text/html; charset=UTF-8"]];
  const answer = (body: Uint8Array<ArrayBuffer> | null, status: number, more: [string, string][]) =>
    new Response(body, {
      status,
      headers: [...headers, ...more, ["x-request-id", crypto.randomUUID()]],
    });

  const handle = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    if (url.pathname === "/healthz") return new Response(ballast ? "ok, with ballast" : "ok");
    if (url.pathname !== "/client-dashboard" || url.search) {
      return new Response(null, { status: 404 });
    }
    const kv = await kvOpening;
    const raw = parseCookies(req.headers.get("cookie") ?? "", SESSION_COOKIE_NAME)[
      SESSION_COOKIE_NAME
    ];
    const login = () => answer(null, 302, [["location", "/login?returnTo=%2Fclient-dashboard"]]);
    const now = Date.now();
    const session = raw ? await readSession(kv, raw) : null;
    if (!session) return login();
    const clientId = session.record.userId;
    const { client, surveys, total, events, proposals, leadExpiredAt } =
      await listClientSurveysWithEvents(sql, {
        clientId,
        viewer: { id: clientId, role: "client" },
        page: 1,
        pageSize,
        withClient: true,
      });
    if (!client || client.disabledAt || client.role !== "client") return login();
    const timeouts = sessionTimeouts(session.record, client.role);
    if (sessionExpiry(session.record, timeouts, now)) return login();
    await touchSession(kv, session, timeouts, now);
    const shell = [client];
    const data = [1, surveys, total, events, proposals, leadExpiredAt];
    const last = kept.get(clientId);
    if (last && sameData(last.shell, shell) && sameData(last.data, data)) {
      return answer(last.bytes, 200, html);
    }
    // Rendering is not the floor's part: Meridian's server renders, the floor keeps the bytes.
    const page = await fetch(`${meridianUrl}/client-dashboard`, {
      headers: { cookie: req.headers.get("cookie")! },
    });
    const bytes = new Uint8Array(await page.arrayBuffer());
    if (page.status === 200) kept.set(clientId, { shell, data, bytes });
    return answer(bytes, page.status, html);
  };
  const serve = { port: Number(env("FLOOR_PORT")), hostname: "127.0.0.1", onListen() {} };
  if (Deno.env.get("FLOOR_HONO") === "1") {
    const { Hono } = await import("hono");
    const app = new Hono();
    app.get("/client-dashboard", (c) => handle(c.req.raw));
    app.get("/healthz", (c) => handle(c.req.raw));
    Deno.serve(serve, app.fetch);
  } else {
    Deno.serve(serve, handle);
  }
}

/**
 * With FLOOR_BALLAST=1 the floor holds what Meridian's process holds and its own does not: every
 * module (React, the routes, the components), the app built from its dependencies and the
 * offline ZIP index, then the start-up garbage dropped as main.ts drops it. Its heap is then
 * Meridian's size, so the floor tells what a view costs in a heap that size, whatever code runs.
 */
async function loadMeridian(sql: unknown, kv: Deno.Kv) {
  const { createApp } = await import("../main.ts");
  const { loadConfig } = await import("../lib/config.ts");
  const { ensureBuild } = await import("../lib/assets.ts");
  const { configuredProviders } = await import("../lib/providers.ts");
  const { warmOfflineIndex } = await import("../lib/geo/offline.ts");
  const { collectStartupGarbage } = await import("../lib/memory.ts");
  type Sql = Parameters<typeof configuredProviders>[1];
  const config = loadConfig(Deno.env.toObject());
  const app = createApp({
    config,
    sql: sql as Sql,
    kv,
    assets: await ensureBuild(),
    ...configuredProviders(config, sql as Sql),
  });
  await warmOfflineIndex();
  collectStartupGarbage();
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  const { heapUsed, rss } = Deno.memoryUsage();
  console.error(
    `  the floor holds Meridian's app: heap ${mb(heapUsed)} MB, resident ${mb(rss)} MB`,
  );
  return app;
}

if (import.meta.main) {
  // Exits on SIGTERM rather than being killed by it, so that a CPU profile is written.
  Deno.addSignalListener("SIGTERM", () => Deno.exit(0));
  await serveFloor();
}
