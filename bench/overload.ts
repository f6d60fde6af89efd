/**
 * Overload (issue 20): how the production server (main.ts, NODE_ENV=production) behaves past
 * what it can serve. First, in-process, what a refusal costs next to a served request
 * (`refusalCost`). Then, over HTTP, for each endpoint
 *
 *   - `GET /api/user` signed in (a KV session read and a user query per request),
 *   - `POST /api/calculate-price` signed out (a quote: validation, the pricing query, JSON),
 *
 * it first measures the throughput in a closed loop (BENCH_CAPACITY_CONNECTIONS connections,
 * default 8, each sending its next request when the last is answered) and takes 75 % of it as
 * the sustainable rate R; then it offers R, 2R and 4R (open loop, evenly paced, see `openLoop`)
 * for BENCH_OVERLOAD_SECONDS each (default 15), and prints per run the status counts,
 * p50/p99 of the served (2xx) answers and of the refusals, socket errors and timeouts, and
 * /readyz probed every 250 ms meanwhile. After 4R, R again for a few seconds: the server
 * recovers by itself. The server's log is scanned for 500s and "unavailable" 503s.
 *
 *   deno run -A bench/overload.ts                      # embedded PGlite
 *   DATABASE_URL=postgres://… deno run -A bench/overload.ts
 *   BENCH_COMPARE=1 …         # and a second server with admission control off; each
 *                             # rate runs on both, back to back
 *   BENCH_RATE=300 …          # skip the capacity run: R = 300/s
 *   MAX_IN_FLIGHT_REQUESTS=… # passed on to the server, like every admission setting
 *   BENCH_FORCE_4R=1 …        # run 4R even on fewer than 4 CPUs (see below)
 *
 * The generator runs on the same machine as the server. On fewer than 4 CPUs the 4R row is
 * not run and the bench prints why: the generator would need as much CPU as the server and
 * could not offer 4R, so the row would measure the generator. Any row whose generator fell
 * behind its schedule (offered under 95 % of its rate) is marked as not that rate's figure.
 *
 * With DATABASE_URL it creates a scratch database beside the given one and drops it at the
 * end. Figures only; asserts nothing.
 */
import { ensureBuild } from "../lib/assets.ts";
import { createApp } from "../main.ts";
import { loadConfig } from "../lib/config.ts";
import { openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { openKv } from "../db/kv.ts";
import { createGeoProvider } from "../lib/geo/select.ts";
import { createParcelProvider } from "../lib/parcels/select.ts";
import { createPlacesProvider } from "../lib/places/select.ts";
import { createPaymentsProvider } from "../lib/payments/select.ts";
import { createStorageProvider } from "../lib/storage/select.ts";
import { measure, percentile, report } from "./_stats.ts";
import { freePort, scratchDatabase, waitFor } from "./_server.ts";
import { DENO_RUN } from "../tests/_deno.ts";

const ROOT = new URL("../", import.meta.url);
const SECONDS = Number(Deno.env.get("BENCH_OVERLOAD_SECONDS") ?? 15);
const CAPACITY_SECONDS = Number(Deno.env.get("BENCH_CAPACITY_SECONDS") ?? 10);
const CAPACITY_CONNECTIONS = Number(Deno.env.get("BENCH_CAPACITY_CONNECTIONS") ?? 8);
const FIXED_RATE = Number(Deno.env.get("BENCH_RATE") ?? 0);
const COMPARE = Deno.env.get("BENCH_COMPARE") === "1";
const CPUS = navigator.hardwareConcurrency;
/** Below this the load generator and the server share too few cores for 4R to mean anything. */
const MIN_CPUS_FOR_4R = 4;
const FORCE_4R = Deno.env.get("BENCH_FORCE_4R") === "1";
/** A request unanswered this long counts as a timeout. */
const TIMEOUT_SECONDS = 10;
const METRICS_TOKEN = "overload-bench-metrics-token-0123456789";
const ADMISSION_ENV = ["MAX_IN_FLIGHT_REQUESTS", "MAX_QUEUED_REQUESTS", "REQUEST_QUEUE_TIMEOUT_MS"];

interface Server {
  origin: string;
  /** Lines of the server's stderr so far. */
  log: string[];
  stop(): Promise<void>;
}

async function startServer(label: string, env: Record<string, string>): Promise<Server> {
  const port = freePort();
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-overload-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: [...DENO_RUN, "main.ts"],
    cwd: ROOT.pathname,
    env: {
      NODE_ENV: "production",
      LOG_REQUESTS: "0",
      AUTO_DISPATCH: "0",
      PORT: String(port),
      DATA_DIR: dataDir,
      METRICS_TOKEN,
      ...env,
    },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const log: string[] = [];
  const reading = (async () => {
    let rest = "";
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      log.push(...lines);
    }
  })();
  const origin = `http://127.0.0.1:${port}`;
  await waitFor(`${origin}/readyz`);
  console.log(`\n# ${label}: ${origin}`);
  return {
    origin,
    log,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await reading.catch(() => {});
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}

/** A signed-in client's cookie, from registering through the API. */
async function register(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/register`, {
    method: "POST",
    headers: { origin, "content-type": "application/json" },
    body: JSON.stringify({
      email: `overload-${crypto.randomUUID()}@example.test`,
      password: "overload bench password",
      fullName: "Overload Bench",
    }),
  });
  await res.body?.cancel();
  if (res.status !== 201 && res.status !== 200) throw new Error(`register: ${res.status}`);
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

interface Endpoint {
  label: string;
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function endpoints(origin: string, cookie: string): Endpoint[] {
  return [
    { label: "GET /api/user (signed in)", method: "GET", path: "/api/user", headers: { cookie } },
    {
      label: "POST /api/calculate-price",
      method: "POST",
      path: "/api/calculate-price",
      headers: { origin, "content-type": "application/json" },
      body: JSON.stringify({
        surveyType: "boundary",
        propertyType: "residential",
        acreage: 1.2,
        terrain: "flat",
        vegetation: "light",
        structures: 1,
        state: "TX",
      }),
    },
  ];
}

interface RunResult {
  seconds: number;
  /** What the generator actually offered, requests/s (open loop; below the target when it fell behind). */
  offered?: number;
  byStatus: Map<number, number[]>;
  errors: number;
  timeouts: number;
  readyz: { ms: number; status: number }[];
}

/** Probes /readyz every 250 ms until `stop` resolves. */
async function probeReadyz(origin: string, stop: Promise<void>) {
  const probes: { ms: number; status: number }[] = [];
  let isDone = false;
  stop.then(() => isDone = true);
  while (!isDone) {
    const start = performance.now();
    try {
      const res = await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(10_000) });
      await res.body?.cancel();
      probes.push({ ms: performance.now() - start, status: res.status });
    } catch {
      probes.push({ ms: performance.now() - start, status: 0 });
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return probes;
}

/**
 * As fast as `connections` allow, in a closed loop: each connection sends its next request
 * when its last one is answered, for `seconds`. With `fetch`, as the open loop, not
 * autocannon: its dependencies reach the packages that hung processes at their start
 * (tests/platform/required_esm_test.ts).
 */
async function closedLoop(
  origin: string,
  endpoint: Endpoint,
  { seconds, connections }: { seconds: number; connections: number },
): Promise<RunResult> {
  const counts = newCounts();
  const done = Promise.withResolvers<void>();
  const probing = probeReadyz(origin, done.promise);
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) await sendOne(origin, endpoint, performance.now(), counts);
    }),
  );
  done.resolve();
  return { seconds, ...counts, readyz: await probing };
}

/** What a run's requests came to: latencies by status, socket errors and timeouts. */
interface Counts {
  byStatus: Map<number, number[]>;
  errors: number;
  timeouts: number;
}

function newCounts(): Counts {
  return { byStatus: new Map(), errors: 0, timeouts: 0 };
}

/**
 * One request to `endpoint`, its body read, counted in `counts`: the latency from `due` (when it
 * was meant to go) by status, or a timeout after TIMEOUT_SECONDS, or a socket error.
 */
async function sendOne(
  origin: string,
  endpoint: Endpoint,
  due: number,
  counts: Counts,
): Promise<void> {
  try {
    const res = await fetch(origin + endpoint.path, {
      method: endpoint.method,
      headers: endpoint.headers,
      body: endpoint.body,
      signal: AbortSignal.timeout(TIMEOUT_SECONDS * 1000),
    });
    await res.arrayBuffer();
    let list = counts.byStatus.get(res.status);
    if (!list) counts.byStatus.set(res.status, list = []);
    list.push(performance.now() - due);
  } catch (err) {
    if (err instanceof DOMException && err.name === "TimeoutError") counts.timeouts++;
    else counts.errors++;
  }
}

/**
 * `rate` requests/s for `seconds`, open loop and evenly paced: a batch every 5 ms, whatever
 * the answers do (a generator that sent each second's requests at the top of the second would
 * offer bursts). Latency counts from when a request was due, so a generator that fell
 * behind does not hide it.
 */
async function openLoop(
  origin: string,
  endpoint: Endpoint,
  { rate, seconds }: { rate: number; seconds: number },
): Promise<RunResult> {
  const counts = newCounts();
  const done = Promise.withResolvers<void>();
  const probing = probeReadyz(origin, done.promise);
  const send = (due: number) => sendOne(origin, endpoint, due, counts);
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  const total = Math.round(rate * seconds);
  let sent = 0;
  let lastSent = start;
  while (sent < total) {
    const now = performance.now();
    const due = Math.min(total, Math.floor(((now - start) / 1000) * rate) + 1);
    for (; sent < due; sent++) {
      const p = send(start + (sent / rate) * 1000);
      inFlight.add(p);
      p.finally(() => inFlight.delete(p));
    }
    lastSent = performance.now();
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(inFlight);
  done.resolve();
  // The last request went out at `lastSent`: a generator that kept pace sent it at `seconds`.
  const offered = total / Math.max(seconds, (lastSent - start) / 1000);
  return { seconds, offered, ...counts, readyz: await probing };
}

function latency(samples: number[]): string {
  if (!samples.length) return "—";
  const sorted = [...samples].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 0.5).toFixed(0)} ms, p99 ${
    percentile(sorted, 0.99).toFixed(0)
  } ms`;
}

/** The admission gauges and counters from /metrics, in one line. */
async function gate(origin: string): Promise<string> {
  const res = await fetch(`${origin}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await res.text();
  const value = (name: string) => new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1] ?? "?";
  return `in flight ${value("meridian_requests_in_flight")}, queued ${
    value("meridian_requests_queued")
  }, shed so far ${value("meridian_requests_shed_total")}`;
}

function describe(label: string, r: RunResult): void {
  const served = [...r.byStatus].filter(([s]) => s < 400).flatMap(([, v]) => v);
  const refused = r.byStatus.get(503) ?? [];
  const total = [...r.byStatus.values()].reduce((n, v) => n + v.length, 0);
  const counts = [...r.byStatus].sort(([a], [b]) => a - b).map(([s, v]) => `${s}×${v.length}`)
    .join(" ");
  const ready = r.readyz.map((p) => p.ms).sort((a, b) => a - b);
  const readyStatuses = new Map<number, number>();
  for (const p of r.readyz) readyStatuses.set(p.status, (readyStatuses.get(p.status) ?? 0) + 1);
  console.log(
    `  ${label.padEnd(6)} answered ${(total / r.seconds).toFixed(0).padStart(5)}/s  ` +
      `served ${(served.length / r.seconds).toFixed(0).padStart(5)}/s  [${counts}]` +
      `  errors ${r.errors} timeouts ${r.timeouts}`,
  );
  console.log(
    `         served: ${latency(served)};  503: ${latency(refused)};  /readyz: ${
      ready.length
        ? `p99 ${percentile(ready, 0.99).toFixed(0)} ms, max ${ready.at(-1)!.toFixed(0)} ms (${
          [...readyStatuses].map(([s, n]) => `${n}×${s || "error"}`).join(" ")
        })`
        : "—"
    }`,
  );
}

/**
 * What a refusal costs next to a served request, in-process (`app.request()`, no sockets, so
 * the machine's load matters less): one slot held by a suggestion that waits, then signed-in
 * `GET /api/user` refused, then served (embedded PGlite in memory).
 */
async function refusalCost(): Promise<void> {
  const origin = "http://localhost";
  const config = loadConfig({
    NODE_ENV: "production",
    LOG_REQUESTS: "0",
    PUBLIC_URL: origin,
    MAX_IN_FLIGHT_REQUESTS: "1",
    MAX_QUEUED_REQUESTS: "0",
  });
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-overload-cost-" });
  const db = await openDatabase({ DATA_DIR: dataDir, DATABASE_URL: undefined }, { memory: true });
  const kv = await openKv(":memory:");
  const held = Promise.withResolvers<void>();
  const offline = createGeoProvider(config);
  try {
    await migrate(db.sql);
    const app = createApp({
      config,
      sql: db.sql,
      kv,
      assets: await ensureBuild(),
      geo: { ...offline, suggest: () => held.promise.then(() => []) },
      parcels: createParcelProvider(config),
      places: createPlacesProvider(config),
      payments: createPaymentsProvider(config),
      storage: createStorageProvider(config, db.sql),
    });
    const registered = await app.request(`${origin}/api/register`, {
      method: "POST",
      headers: { origin, "content-type": "application/json" },
      body: JSON.stringify({
        email: "cost@example.test",
        password: "overload bench password",
        fullName: "Cost Bench",
      }),
    });
    const cookie = registered.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const user = async (status: number) => {
      const res = await app.request(`${origin}/api/user`, { headers: { cookie } });
      await res.body?.cancel();
      if (res.status !== status) throw new Error(`GET /api/user: ${res.status}, not ${status}`);
    };
    console.log("\n## What a refusal costs (in-process app.request(), sequential)");
    const holding = app.request(`${origin}/api/address-suggestions?input=100%20Main`);
    const runs = { warmup: 500, iterations: 5000 };
    report("GET /api/user refused (503)", await measure(() => user(503), runs), 30);
    held.resolve();
    await (await holding).body?.cancel();
    report("GET /api/user served (200)", await measure(() => user(200), runs), 30);
  } finally {
    held.resolve();
    kv.close();
    await db.close();
    await Deno.remove(dataDir, { recursive: true });
  }
}

/** A server under test, what it is, and a signed-in client's cookie on it. */
interface Target {
  name: string;
  server: Server;
  cookie: string;
}

/**
 * Capacity (on the first target), then R, 2R, 4R and R again; with several targets each rate
 * is run on each in turn, back to back, so they meet the same machine load.
 */
async function overload(targets: Target[], pick: (t: Target) => Endpoint): Promise<void> {
  const first = targets[0];
  console.log(`\n## ${pick(first).label}`);
  let rate = FIXED_RATE;
  if (!rate) {
    const closed = await closedLoop(first.server.origin, pick(first), {
      seconds: CAPACITY_SECONDS,
      connections: CAPACITY_CONNECTIONS,
    });
    const served = [...closed.byStatus].filter(([s]) => s < 400).flatMap(([, v]) => v).length;
    const capacity = served / CAPACITY_SECONDS;
    rate = Math.max(1, Math.floor(capacity * 0.75));
    describe("closed", closed);
    console.log(
      `  capacity ${capacity.toFixed(0)}/s served (${CAPACITY_CONNECTIONS} connections, ` +
        `${first.name}); sustainable rate R = 75 % = ${rate}/s`,
    );
  }
  const logFrom = targets.map((t) => t.server.log.length);
  const steps: [string, number, number][] = [
    ["1×R", rate, SECONDS],
    ["2×R", 2 * rate, SECONDS],
    ["4×R", 4 * rate, SECONDS],
    ["after", rate, Math.min(SECONDS, 5)],
  ];
  for (const [label, offered, seconds] of steps) {
    if (offered > 2 * rate && CPUS < MIN_CPUS_FOR_4R && !FORCE_4R) {
      console.log(
        `  ${label.padEnd(6)} not measured: this machine has ${CPUS} CPUs and the load ` +
          `generator (this process) runs on them beside the server. At 4R (${offered}/s) ` +
          `the generator needs about as much CPU as the saturated server, falls behind its ` +
          `schedule and offers far less, so the row would show the generator's limit, not ` +
          `the server's answer to 4R. Measure it with the generator on another machine (or ` +
          `${MIN_CPUS_FOR_4R}+ CPUs), or run it anyway with BENCH_FORCE_4R=1 (a row whose ` +
          `generator fell behind is marked).`,
      );
      continue;
    }
    for (const target of targets) {
      const r = await openLoop(target.server.origin, pick(target), { rate: offered, seconds });
      describe(targets.length > 1 ? `${label} ${target.name}` : label, r);
      if (r.offered !== undefined && r.offered < offered * 0.95) {
        console.log(
          `         NOT A ${label} FIGURE: the generator offered only ${
            r.offered.toFixed(0)
          }/s of ${offered}/s (it fell behind its schedule on ${CPUS} shared CPUs)`,
        );
      }
      console.log(`         then: ${await gate(target.server.origin)}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  targets.forEach((t, i) => scanLog(t, logFrom[i]));
}

function scanLog({ name, server }: Target, from: number): void {
  const lines = server.log.slice(from);
  const count = (re: RegExp) => lines.filter((l) => re.test(l)).length;
  console.log(
    `  ${name} server log: ${count(/ 500\b|Uncaught/)} lines with a 500 or an uncaught error, ` +
      `${count(/503: kv unavailable/)} "503: kv unavailable", ` +
      `${count(/503: postgres unavailable/)} "503: postgres unavailable"`,
  );
  for (const line of lines.filter((l) => / 500\b|Uncaught/.test(l)).slice(0, 5)) {
    console.log(`    ${line.slice(0, 200)}`);
  }
}

if (import.meta.main) {
  await ensureBuild();
  const db = await scratchDatabase("meridian_overload");
  const kind = db.url ? "Postgres" : "embedded PGlite";
  const admission: Record<string, string> = {};
  for (const name of ADMISSION_ENV) {
    const value = Deno.env.get(name);
    if (value) admission[name] = value;
  }
  const settings = Object.entries(admission).map(([k, v]) => `${k}=${v}`).join(" ") ||
    "default limits";
  console.log(
    `# Overload (${new Date().toISOString()}, ${kind}, ${navigator.hardwareConcurrency} CPUs, ` +
      `load average ${Deno.loadavg().map((n) => n.toFixed(1)).join(" ")}); ` +
      `${SECONDS} s per rate`,
  );
  await refusalCost();
  const base = { DATABASE_URL: db.url ?? "" };
  const targets: Target[] = [];
  try {
    const configs: [string, Record<string, string>][] = [[`on`, { ...base, ...admission }]];
    if (COMPARE) {
      configs.push(["off", {
        ...base,
        MAX_IN_FLIGHT_REQUESTS: "100000",
        MAX_QUEUED_REQUESTS: "0",
      }]);
    }
    for (const [name, env] of configs) {
      const server = await startServer(
        name === "on"
          ? `admission control on (${settings})`
          : "admission control off (MAX_IN_FLIGHT_REQUESTS=100000)",
        env,
      );
      targets.push({ name, server, cookie: "" });
      targets.at(-1)!.cookie = await register(server.origin);
    }
    await overload(targets, (t) => endpoints(t.server.origin, t.cookie)[0]);
    await overload(targets, (t) => endpoints(t.server.origin, t.cookie)[1]);
  } finally {
    for (const t of targets) await t.server.stop();
    await db.drop();
  }
}
