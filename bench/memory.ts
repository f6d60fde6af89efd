/**
 * Memory of the server, start to steady state, for each database: the production server
 * (`deno task start`'s command) on the embedded database (a new DATA_DIR: a first start, with
 * initdb and every migration, measured to five seconds after ready; then a restart on the same
 * files, measured through the load and the idle period) and, when DATABASE_URL is set,
 * on a scratch Postgres database. For each it prints resident memory (VmRSS) right after
 * /readyz answers ("start"), five seconds later, after each run of a mixed load (clients
 * submitting surveys and reading their dashboards, with the server's CPU time per request: more
 * frequent collections show there) and after an idle period ("steady"), the
 * peak (VmHWM, the most the process ever held), and at start and steady state the breakdown
 * from /metrics: JS heap used / reserved, external memory, the embedded database's
 * WebAssembly memory. The offline ZIP index is measured apart, in a process of its own (heap
 * and resident memory before and after it is built), and so are the email renderer (every
 * template rendered once: what the first emails add) and the floors under the server's
 * figures, each in a process of its own with the same V8 flags: a bare `Deno.serve` answering
 * one request (this runtime's own cost), and PGlite alone, opened on the measured data directory
 * with the server's settings and extensions and after a few queries (what the embedded database
 * costs with no app around it). Figures only; nothing asserts.
 *
 *   deno run -A bench/memory.ts
 *     MEMORY_LOAD_SECONDS=20 MEMORY_RUNS=3 MEMORY_IDLE_SECONDS=60 MEMORY_WORKERS=16
 *     MEMORY_ROOT=<checkout> measures another checkout of the app (a "before" figure)
 *     MEMORY_V8_FLAGS="--max-semi-space-size=1" replaces the start command's V8 flags ("none")
 *     MEMORY_EMBEDDED=0 skips the embedded database
 */
import { surveyRequest } from "../tests/_fixtures.ts";
import { freePort, scratchDatabase, startTaskEnv, waitFor } from "./_server.ts";
import { DENO_RUN, NODE_MODULES_AS_IS, startTaskCommand } from "../tests/_deno.ts";

const ROOT = new URL(Deno.env.get("MEMORY_ROOT") ?? "../", import.meta.url);
const LOAD_SECONDS = Number(Deno.env.get("MEMORY_LOAD_SECONDS") ?? 20);
const RUNS = Number(Deno.env.get("MEMORY_RUNS") ?? 3);
const IDLE_SECONDS = Number(Deno.env.get("MEMORY_IDLE_SECONDS") ?? 60);
const WORKERS = Number(Deno.env.get("MEMORY_WORKERS") ?? 16);
// Registration is limited to 10 per hour per address; eight accounts share the load.
const CLIENTS = 8;
const METRICS_TOKEN = "memory-bench-metrics-token-0123456789";
const MB = 1024 * 1024;

async function procStatusMb(pid: number, field: "VmRSS" | "VmHWM"): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)\\s+kB`).exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** CPU time (user + system) the process has used so far, in ms (/proc/<pid>/stat). */
async function cpuMs(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 per second).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function register(appUrl: string, n: number): Promise<string> {
  const res = await fetch(`${appUrl}/api/register`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: appUrl },
    body: JSON.stringify({
      email: `memory-${n}-${crypto.randomUUID().slice(0, 8)}@example.test`,
      password: "memory-bench-password",
      fullName: `Memory Client ${n}`,
    }),
  });
  await res.body?.cancel();
  if (res.status !== 201) throw new Error(`register answered ${res.status}`);
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

interface LoadResult {
  writes: number;
  reads: number;
  failures: number;
}

/** One round of the load: a survey submitted, then the dashboard read. Whether each went through. */
async function submitAndRead(
  appUrl: string,
  cookie: string,
): Promise<{ submitted: boolean; read: boolean }> {
  const post = await fetch(`${appUrl}/api/surveys`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: appUrl, cookie },
    body: JSON.stringify(surveyRequest()),
  });
  await post.body?.cancel();
  const page = await fetch(`${appUrl}/client-dashboard`, { headers: { cookie } });
  await page.body?.cancel();
  return { submitted: post.status === 201, read: page.ok };
}

/** `WORKERS` loops for `seconds`: each submits a survey, then reads the dashboard. */
async function load(appUrl: string, cookies: string[], seconds: number): Promise<LoadResult> {
  const deadline = Date.now() + seconds * 1000;
  const result: LoadResult = { writes: 0, reads: 0, failures: 0 };
  await Promise.all(Array.from({ length: WORKERS }, async (_, w) => {
    const cookie = cookies[w % cookies.length];
    while (Date.now() < deadline) {
      const { submitted, read } = await submitAndRead(appUrl, cookie);
      if (submitted) result.writes++;
      else result.failures++;
      if (read) result.reads++;
      else result.failures++;
    }
  }));
  return result;
}

/**
 * What the idle period costs the next requests: the first survey submitted and dashboard read
 * after it (code dropped while the server was quiet is compiled again then), against the mean
 * of the next ten of each, in wall time and server CPU.
 */
async function afterIdle(appUrl: string, cookie: string, pid: number): Promise<string> {
  const pair = async () => {
    const cpuBefore = await cpuMs(pid);
    const began = performance.now();
    const { submitted, read } = await submitAndRead(appUrl, cookie);
    if (!submitted || !read) throw new Error("a survey or a dashboard after the idle failed");
    return [performance.now() - began, await cpuMs(pid) - cpuBefore];
  };
  const [coldMs, coldCpu] = await pair();
  let [warmMs, warmCpu] = [0, 0];
  for (let i = 0; i < 10; i++) {
    const [ms, cpu] = await pair();
    warmMs += ms / 10;
    warmCpu += cpu / 10;
  }
  return `after the idle: a survey and a dashboard ${coldMs.toFixed(0)} ms ` +
    `(server CPU ${coldCpu.toFixed(0)} ms), the next ten ${warmMs.toFixed(1)} ms ` +
    `(${warmCpu.toFixed(1)} ms) each`;
}

/**
 * The memory lines of /metrics (absent before this bench's gauges existed: "?"), and on a
 * second line where the server's resident memory lies (`residentByKind`).
 */
async function breakdown(appUrl: string, pid: number): Promise<string> {
  const res = await fetch(`${appUrl}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = res.ok ? await res.text() : (await res.body?.cancel(), "");
  const value = (name: string) => {
    const m = new RegExp(`^${name.replace(/[{}"]/g, "\\$&")} (\\d+)`, "m").exec(text);
    return m ? (Number(m[1]) / MB).toFixed(0) : "?";
  };
  const wasmBytes = Number(/^meridian_pglite_wasm_memory_bytes (\d+)/m.exec(text)?.[1] ?? 0);
  const byKind = await residentByKind(pid, wasmBytes);
  return `heap used ${value('meridian_js_heap_bytes{kind="used"}')} / total ` +
    `${value('meridian_js_heap_bytes{kind="total"}')} MB, external ` +
    `${value("meridian_js_external_bytes")} MB, PGlite WASM ` +
    `${value("meridian_pglite_wasm_memory_bytes")} MB` +
    (byKind ? `\n${" ".repeat(46)}resident by kind (MB): ${byKind}` : "");
}

const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));

/**
 * Where the resident memory of `pid` lies, by kind of mapping (/proc/<pid>/smaps): the deno
 * binary's pages ("binary": code and data read from the file, clean, shared), the WebAssembly
 * memory (the one anonymous mapping of `wasmBytes`, PGlite's; only touched pages count), malloc's
 * main heap ("brk"), malloc's thread arenas (anonymous mappings on a 64 MB boundary, at most 64
 * MB: what Rust and V8's worker threads allocate), executable anonymous memory ("jit": V8's and
 * WebAssembly's compiled code) and the other anonymous mappings ("v8+anon": V8's heap pages
 * and everything else). Linux only; empty where smaps cannot be read.
 */
async function residentByKind(pid: number, wasmBytes: number): Promise<string> {
  let text: string;
  try {
    text = await Deno.readTextFile(`/proc/${pid}/smaps`);
  } catch {
    return "";
  }
  const kb: Record<string, number> = {};
  let kind = "";
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const [start, end] = [parseInt(head[1], 16), parseInt(head[2], 16)];
      const [perms, name] = [head[3], head[4]];
      const size = end - start;
      if (name === "[heap]") kind = "brk";
      else if (name.startsWith("/")) kind = name.endsWith("/deno") ? "binary" : "files";
      else if (name) kind = "other";
      else if (wasmBytes > 0 && size === wasmBytes) kind = "wasm";
      else if (perms.includes("x")) kind = "jit";
      else if (start % (64 * MB) === 0 && size <= 64 * MB) kind = "arenas";
      else kind = "v8+anon";
      continue;
    }
    if (line.startsWith("Rss:")) kb[kind] = (kb[kind] ?? 0) + Number(line.split(/\s+/)[1]);
  }
  const order = ["v8+anon", "binary", "wasm", "brk", "arenas", "jit", "files", "other"];
  return order.filter((k) => kb[k] >= 512).map((k) => `${k} ${(kb[k] / 1024).toFixed(0)}`)
    .join(", ");
}

/** Starts the server, reports its memory through start, load and idle, stops it. */
async function measure(label: string, dataDir: string, databaseUrl: string, withLoad: boolean) {
  const port = freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const server = new Deno.Command(Deno.execPath(), {
    // The same command as `deno task start` (deno.json), V8 flags and environment included.
    args: await startArgs(),
    cwd: ROOT.pathname,
    env: {
      ...await startTaskEnv(ROOT),
      NODE_ENV: "production",
      LOG_REQUESTS: "0",
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      METRICS_TOKEN,
      // The CSRF check accepts only PUBLIC_URL's origin, which the load sends.
      PUBLIC_URL: appUrl,
    },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  let exited = false;
  server.status.then(() => exited = true);
  const rss = () => procStatusMb(server.pid, "VmRSS");
  const peak = () => procStatusMb(server.pid, "VmHWM");
  const line = (what: string, value: number, extra = "") =>
    console.log(
      `  ${label.padEnd(22)} ${what.padEnd(20)} ${value.toFixed(0).padStart(5)} MB${extra}`,
    );
  try {
    const began = performance.now();
    await waitFor(appUrl + "/readyz");
    const readyMs = performance.now() - began;
    line("start (ready)", await rss(), `  (${(readyMs / 1000).toFixed(1)} s to ready)`);
    line("peak so far", await peak());
    await sleep(5);
    line("5 s after ready", await rss(), `  ${await breakdown(appUrl, server.pid)}`);
    if (!withLoad) return;
    const cookies: string[] = [];
    for (let i = 0; i < CLIENTS; i++) cookies.push(await register(appUrl, i));
    for (let run = 1; run <= RUNS; run++) {
      const cpuBefore = await cpuMs(server.pid);
      const r = await load(appUrl, cookies, LOAD_SECONDS);
      const perRequest = (await cpuMs(server.pid) - cpuBefore) / (r.writes + r.reads);
      line(
        `after load run ${run}`,
        await rss(),
        `  (${r.writes} surveys, ${r.reads} dashboards, ${r.failures} failures; ` +
          `server CPU ${perRequest.toFixed(2)} ms per request)`,
      );
    }
    await sleep(IDLE_SECONDS);
    line(
      `steady (${IDLE_SECONDS} s idle)`,
      await rss(),
      `  ${await breakdown(appUrl, server.pid)}`,
    );
    line("peak", await peak());
    console.log(`  ${label.padEnd(22)} ${await afterIdle(appUrl, cookies[0], server.pid)}`);
  } finally {
    if (!exited) server.kill("SIGTERM");
    await server.status;
  }
}

/** `env` as the assignments a shell line starts with ("" when none). */
function envLine(env: Record<string, string>): string {
  return Object.entries(env).map(([name, value]) => `${name}=${value} `).join("");
}

/** `deno task start`'s arguments after `deno`, read from the measured checkout's deno.json. */
async function startArgs(): Promise<string[]> {
  const [run, ...taskArgs] = (await startTaskCommand(ROOT)).args;
  // node_modules/ left as this process set it up, also for a checkout whose task lacks the flag:
  // in an older checkout a child that re-copied the linked vendor packages (tests/_deno.ts)
  // broke the import of a process started beside it.
  const args = taskArgs.includes(NODE_MODULES_AS_IS)
    ? [run, ...taskArgs]
    : [run, NODE_MODULES_AS_IS, ...taskArgs];
  // MEMORY_V8_FLAGS="--max-semi-space-size=1": how the server does with other V8 flags (in
  // place of the task's; "none" for none).
  const flags = Deno.env.get("MEMORY_V8_FLAGS");
  if (!flags) return args;
  const rest = args.slice(1).filter((arg) => !arg.startsWith("--v8-flags="));
  if (flags === "none") return [args[0], ...rest];
  return [args[0], `--v8-flags=${flags.trim().split(/\s+/).join(",")}`, ...rest];
}

/** The offline ZIP index alone: heap and RSS before and after it is built (this process). */
async function zipIndexProbe(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  const snapshot = () => {
    gc();
    gc();
    const m = Deno.memoryUsage();
    return { rss: m.rss / MB, heap: m.heapUsed / MB };
  };
  const before = snapshot();
  const offline = await import(new URL("lib/geo/offline.ts", ROOT).href);
  await offline.warmOfflineIndex();
  // A turn of the event loop first: until then Deno still holds the data file's last read.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const after = snapshot();
  console.log(
    `  offline ZIP index (own process): +${(after.heap - before.heap).toFixed(1)} MB heap used, ` +
      `+${(after.rss - before.rss).toFixed(0)} MB resident`,
  );
}

/** Runs bench/memory_floor.ts in a process of its own, with the server's V8 flags. */
async function probe(args: string[]): Promise<void> {
  const v8 = (await startArgs()).find((a) => a.startsWith("--v8-flags=")) ?? "--v8-flags=";
  await new Deno.Command(Deno.execPath(), {
    args: [
      ...DENO_RUN,
      // The measured checkout's imports (its jsx-email, for --mail), not this one's.
      `--config=${new URL("deno.json", ROOT).pathname}`,
      `${v8},--expose-gc`,
      new URL("memory_floor.ts", import.meta.url).pathname,
      ...args,
    ],
    // The start task's variables (its malloc arenas) as the server has them.
    env: { ...await startTaskEnv(ROOT), MEMORY_ROOT: ROOT.href, NODE_ENV: "production" },
    stdout: "inherit",
    stderr: "inherit",
  }).output();
}

if (import.meta.main) {
  if (Deno.args[0] === "--zip-index") {
    await zipIndexProbe();
    Deno.exit(0);
  }
  console.log(
    `  ${ROOT.pathname}; ${WORKERS} workers, ${RUNS} × ${LOAD_SECONDS} s of load, ` +
      `${IDLE_SECONDS} s idle; deno task start: ${envLine(await startTaskEnv(ROOT))}${
        (await startArgs()).join(" ")
      }`,
  );
  await new Deno.Command(Deno.execPath(), {
    args: [...DENO_RUN, "--v8-flags=--expose-gc", new URL(import.meta.url).pathname, "--zip-index"],
    env: { MEMORY_ROOT: ROOT.href },
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  await probe(["--bare-serve"]);
  await probe(["--mail"]);
  await probe(["--mail", "--with-app"]);
  await probe(["--mail-worker", "--with-app"]);
  if (Deno.env.get("MEMORY_EMBEDDED") !== "0") {
    const dataDir = await Deno.makeTempDir({ prefix: "meridian-memory-" });
    try {
      // A first start (initdb, every migration) once; the load and the steady state on a
      // restart, as every start after the first one is.
      await measure("embedded, first start", dataDir, "", false);
      await measure("embedded, restart", dataDir, "", true);
      // The same files, after the server has stopped.
      await probe(["--pglite", `${dataDir}/pglite`]);
    } finally {
      await Deno.remove(dataDir, { recursive: true });
    }
  }
  if (Deno.env.get("DATABASE_URL")) {
    const scratch = await scratchDatabase("meridian_memory");
    const kvDir = await Deno.makeTempDir({ prefix: "meridian-memory-" });
    try {
      await measure("postgres", kvDir, scratch.url!, true);
    } finally {
      await scratch.drop();
      await Deno.remove(kvDir, { recursive: true });
    }
  }
}
