/**
 * Local pages (issue 24), over PGlite or Postgres with DATABASE_URL (its tables are reset: use
 * a scratch database). Prints figures only; asserts nothing.
 *
 *  1. How many pages the demo network (400 generated records) and a 5,000-record network give
 *     (state pages, town pages, town × type pages), from the local sitemap.
 *  2. Building every page of that sitemap for the 5,000-record network, signed out, in order
 *     (each one built on its first request, as a crawler would): total time, pages/s, and the
 *     process RSS and JS heap sampled along the way (flat = bounded cache, nothing kept).
 *  3. A cached town page served by a production server (main.ts, its own process; embedded, on
 *     a DATA_DIR seeded with the demo network through its pglite-socket) against a bare
 *     `Deno.serve` sending the same bytes and headers (another process): wrk, alternating
 *     rounds, median of the ratios (goal ≥ 0.8×) and both processes' CPU per request.
 *
 *   deno run -A bench/local_pages.ts
 *   DATABASE_URL=postgres://…/scratch deno run -A bench/local_pages.ts
 *   BENCH_BUILD_MAX=5000 limits step 2 to the first N pages; --v8-flags=--expose-gc makes its
 *   memory samples live memory (collected before each sample); BENCH_SERVE=0 skips step 3.
 */
Deno.env.set("NODE_ENV", "production");

const ROOT = new URL("../", import.meta.url);
const DURATION = Deno.env.get("BENCH_DURATION") ?? "5s";
const CONNECTIONS = Number(Deno.env.get("BENCH_CONNECTIONS") ?? 64);
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 3);
const BUILD_MAX = Number(Deno.env.get("BENCH_BUILD_MAX") ?? Infinity);
/** Pages requested at once while building, as a crawler fetching in parallel would. */
const BUILD_CONCURRENCY = Number(Deno.env.get("BENCH_BUILD_CONCURRENCY") ?? 4);

const { createTestApp } = await import("../tests/_helpers.ts");
const { generateDemoSurveyors, loadDemoCities } = await import("../lib/demo_network.ts");
const { insertGeneratedSurveyors } = await import("../lib/cli/seed.ts");
const { freePort, waitFor } = await import("./_server.ts");
const { DENO_RUN } = await import("../tests/_deno.ts");

type App = Awaited<ReturnType<typeof createTestApp>>;

async function sitemapPaths(t: App): Promise<string[]> {
  const index = await (await t.request("GET", "/sitemap-local.xml")).text();
  const paths: string[] = [];
  for (const m of index.matchAll(/<loc>[^<]*(\/sitemaps\/local-\d+\.xml)<\/loc>/g)) {
    const xml = await (await t.request("GET", m[1])).text();
    for (const u of xml.matchAll(/<loc>https?:\/\/[^/]+([^<]*)<\/loc>/g)) paths.push(u[1]);
  }
  return paths;
}

function describe(paths: string[]): string {
  const states = paths.filter((p) => /^\/land-surveyors\/[a-z]{2}$/.test(p)).length;
  const towns = paths.filter((p) => /^\/land-surveyors\/[a-z]{2}\/[^/]+$/.test(p)).length;
  const typed = paths.filter((p) => p.startsWith("/services/")).length;
  return `${paths.length} pages: ${states} state, ${towns} town, ${typed} town × type`;
}

async function network(count: number): Promise<App> {
  const t = await createTestApp();
  const cities = await loadDemoCities();
  const surveyors = generateDemoSurveyors(cities, { count });
  await insertGeneratedSurveyors(t.sql, surveyors, { isDemo: false });
  const [{ n }] = await t.sql<{ n: number }[]>`
    select count(*)::int as n from surveyors where status = 'active' and verified_at is not null`;
  console.log(`  ${count} records (${n} active, verified firms)`);
  return t;
}

const db = Deno.env.get("DATABASE_URL") ? "Postgres" : "PGlite";
console.log(`## Local pages (${db}); load: ${Deno.loadavg().map((l) => l.toFixed(2)).join(" ")}`);

console.log("\n### Pages per network");
{
  const t = await network(400);
  const started = performance.now();
  const paths = await sitemapPaths(t);
  console.log(
    `  demo network: ${describe(paths)} (sitemap in ${
      (performance.now() - started).toFixed(0)
    } ms)`,
  );
  t.close();
}
const t = await network(5_000);
const gc = () => (globalThis as { gc?: () => void }).gc?.();
gc();
const heapBefore = Deno.memoryUsage().heapUsed;
let started = performance.now();
const paths = await sitemapPaths(t);
const sitemapMs = performance.now() - started;
gc();
const heapAfter = Deno.memoryUsage().heapUsed;
console.log(`  5,000 records: ${describe(paths)}`);
console.log(
  `  the index and every sitemap file, first build: ${sitemapMs.toFixed(0)} ms; heap +${
    ((heapAfter - heapBefore) / 1024 / 1024).toFixed(0)
  } MB after (the URL list, kept until a change)`,
);

console.log(
  `\n### Building every sitemap page (5,000 records), signed out, first requests, ${BUILD_CONCURRENCY} at a time`,
);
const toBuild = paths.slice(0, Math.min(paths.length, BUILD_MAX));
const samples: { pages: number; rss: number; heap: number }[] = [];
const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
/** User + system CPU ms of this process (the app and PGlite both run in it), or of a thread. */
const cpuMs = (stat = "/proc/self/stat") => {
  const text = Deno.readTextFileSync(stat);
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
/**
 * The main thread's: it renders every page, so it bounds the build's speed when the other
 * threads (the page encoder's worker, V8's collector) have a core of their own.
 */
const mainThreadCpuMs = () => cpuMs(`/proc/self/task/${Deno.pid}/stat`);
const cpuBefore = cpuMs();
const mainBefore = mainThreadCpuMs();
started = performance.now();
const every = Math.max(1, Math.floor(toBuild.length / 10));
let next = 0;
let done = 0;
async function builder(): Promise<void> {
  while (next < toBuild.length) {
    const path = toBuild[next++];
    const res = await t.request("GET", path, { headers: { accept: "text/html" } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    await res.arrayBuffer();
    if (++done % every === 0 || done === toBuild.length) {
      // With --v8-flags=--expose-gc the figures are live memory, not garbage not yet collected.
      gc();
      const m = Deno.memoryUsage();
      samples.push({ pages: done, rss: m.rss, heap: m.heapUsed });
    }
  }
}
await Promise.all(Array.from({ length: BUILD_CONCURRENCY }, builder));
const seconds = (performance.now() - started) / 1000;
const cpuPerPage = (cpuMs() - cpuBefore) / toBuild.length;
const mainPerPage = (mainThreadCpuMs() - mainBefore) / toBuild.length;
console.log(
  `  ${toBuild.length} pages in ${seconds.toFixed(1)} s (${
    (toBuild.length / seconds).toFixed(0)
  } pages/s, goal: all in < 60 s); ${cpuPerPage.toFixed(2)} ms of CPU per page (all threads, ` +
    `memory samples included), so ${(1000 / cpuPerPage).toFixed(0)} pages per CPU-second; ` +
    `main thread ${mainPerPage.toFixed(2)} ms per page (${
      (1000 / mainPerPage).toFixed(0)
    } pages/s with the other threads on another core); ` +
    `load ${Deno.loadavg().map((l) => l.toFixed(2)).join(" ")}`,
);
console.log(
  `  RSS MB  : ${samples.map((s) => mb(s.rss)).join(" ")}\n  heap MB : ${
    samples.map((s) => mb(s.heap)).join(" ")
  }`,
);

if (Deno.env.get("BENCH_SERVE") === "0") {
  t.close();
  Deno.exit(0);
}

console.log(
  `\n### Cached town page vs bare Deno.serve (wrk -c${CONNECTIONS}, ${DURATION} × ${ROUNDS})`,
);
// The app is a production server process of its own (like bench/landing_page.ts), so it is
// measured as it runs: with Postgres on the database just seeded; embedded, on a DATA_DIR of its
// own, seeded with the demo network through its pglite-socket as `deno task seed` would (which
// also exercises the change notifications of a CLI's writes).
const dbUrl = Deno.env.get("DATABASE_URL");
const dataDir = await Deno.makeTempDir({ prefix: "meridian-bench-local-" });
const appPort = freePort();
const appProcess = new Deno.Command(Deno.execPath(), {
  args: [...DENO_RUN, "main.ts"],
  cwd: ROOT.pathname,
  env: {
    NODE_ENV: "production",
    PORT: String(appPort),
    DATABASE_URL: dbUrl ?? "",
    DATA_DIR: dataDir,
    LOG_REQUESTS: "0",
  },
  stdout: "null",
  stderr: "inherit",
}).spawn();
await waitFor(`http://127.0.0.1:${appPort}/healthz`);
let townPath = paths.find((p) => /^\/land-surveyors\/[a-z]{2}\/[^/]+$/.test(p))!;
if (!dbUrl) {
  const { readHolder } = await import("../db/embedded.ts");
  const postgres = (await import("postgres")).default;
  const holder = await readHolder(dataDir);
  const cli = postgres({
    host: holder!.host,
    port: holder!.port,
    max: 1,
    username: "postgres",
    database: "postgres",
    onnotice: () => {},
  });
  await insertGeneratedSurveyors(
    cli,
    generateDemoSurveyors(await loadDemoCities(), { count: 400 }),
    {
      isDemo: false,
    },
  );
  await cli.end();
  const index = await (await fetch(`http://127.0.0.1:${appPort}/sitemap-local.xml`)).text();
  const first = /<loc>[^<]*(\/sitemaps\/local-\d+\.xml)<\/loc>/.exec(index)![1];
  const xml = await (await fetch(`http://127.0.0.1:${appPort}${first}`)).text();
  townPath = /<loc>https?:\/\/[^/]+(\/land-surveyors\/[a-z]{2}\/[^<]+)<\/loc>/.exec(xml)![1];
}
console.log(`  app: main.ts, its own process (${dbUrl ? "Postgres" : "embedded PGlite"})`);
const appUrl = `http://127.0.0.1:${appPort}${townPath}`;
await waitFor(appUrl);
const sample = await fetch(appUrl, { headers: { "accept-encoding": "gzip" } });
const body = new Uint8Array(await sample.arrayBuffer());
const file = await Deno.makeTempFile({ suffix: ".html" });
await Deno.writeFile(file, body);
const sent = [...sample.headers].filter(([k]) =>
  k !== "date" && k !== "content-length" && k !== "content-encoding"
);
const headersFile = await Deno.makeTempFile({ suffix: ".json" });
await Deno.writeTextFile(headersFile, JSON.stringify(sent));
const barePort = freePort();
const bare = new Deno.Command(Deno.execPath(), {
  args: [...DENO_RUN, "bench/bare_server.ts", file, headersFile, String(barePort)],
  cwd: ROOT.pathname,
  stdout: "null",
  stderr: "inherit",
}).spawn();
const bareUrl = `http://127.0.0.1:${barePort}/`;
await waitFor(bareUrl);

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on every Linux architecture Deno runs on
/** User + system CPU ticks of process `pid` (all its threads). */
function processTicks(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}
const appPid = appProcess.pid;
/** µs of CPU per request of each side's last run. */
const cpu = { bare: [] as number[], app: [] as number[] };

async function wrk(url: string, side?: "bare" | "app"): Promise<number> {
  const pid = side === "bare" ? bare.pid : appPid;
  const before = processTicks(pid);
  const out = await new Deno.Command("wrk", {
    args: ["-t1", `-c${CONNECTIONS}`, `-d${DURATION}`, url],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1];
  if (non2xx) console.warn(`  warning: ${non2xx} non-2xx responses from ${url}`);
  const requests = Number(/(\d+) requests in/.exec(text)?.[1] ?? NaN);
  const ticks = processTicks(pid) - before;
  if (side) cpu[side].push((ticks * 1e6) / CLOCK_TICKS_PER_SECOND / requests);
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? NaN);
}

await wrk(bareUrl);
await wrk(appUrl);
const ratios: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternating who goes first, as bench/landing_page.ts does.
  let a: number, b: number;
  if (round % 2) {
    a = await wrk(appUrl, "app");
    b = await wrk(bareUrl, "bare");
  } else {
    b = await wrk(bareUrl, "bare");
    a = await wrk(appUrl, "app");
  }
  ratios.push(a / b);
  console.log(
    `  round ${round + 1}: bare ${b.toFixed(0)} req/s (${
      cpu.bare.at(-1)!.toFixed(1)
    } µs CPU/req), ` +
      `app ${a.toFixed(0)} req/s (${cpu.app.at(-1)!.toFixed(1)} µs CPU/req), ${
        (a / b).toFixed(2)
      }×`,
  );
}
ratios.sort((x, y) => x - y);
const middle = (values: number[]) => [...values].sort((x, y) => x - y)[values.length >> 1];
// The landing page (a page cached with no version read) on the same machine, same moment.
const landing = await wrk(`http://127.0.0.1:${appPort}/`);
console.log(
  `  for scale, the landing page from the app's plain page cache: ${landing.toFixed(0)} req/s`,
);
console.log(
  `  ${townPath}, ${body.byteLength} bytes (identity), ${sent.length} headers on both sides`,
);
console.log(
  `  median ratio: ${ratios[ratios.length >> 1].toFixed(2)}× (goal ≥ 0.80×); median CPU per ` +
    `request: bare ${middle(cpu.bare).toFixed(1)} µs, app ${middle(cpu.app).toFixed(1)} µs; load: ${
      Deno.loadavg().map((l) => l.toFixed(2)).join(" ")
    }`,
);
bare.kill("SIGTERM");
await bare.status;
appProcess.kill("SIGTERM");
await appProcess.status;
await Deno.remove(dataDir, { recursive: true });
await Deno.remove(file);
await Deno.remove(headersFile);
t.close();
Deno.exit(0);
