/**
 * The landing page against a bare `Deno.serve` answering the same bytes with the same headers
 * (bench/bare_server.ts), side by side in alternating rounds (issue 23): each round runs wrk
 * against the bare server, then the app (or the other way round, alternating who goes first),
 * and records both throughputs and both processes' CPU time per request (/proc, Linux). Prints
 * every round, then the medians: the ratio of throughputs (goal ≥ 0.85×) and the ratio of CPU
 * per request, which hardly moves with the load other work puts on a shared machine.
 *
 * When Astro is prepared (bench/_astro.ts: BENCH_ASTRO=1 installs it once, outside the
 * repository), a third side joins every round: Astro serving the same markup as a prerendered
 * page (a file from its build, through @astrojs/node's standalone server), and the medians
 * include Meridian's throughput and CPU per request against it (goal ≥ 3×). The order of the
 * sides rotates from round to round.
 *
 *   deno run -A bench/landing_page.ts
 *   BENCH_ASTRO=1 deno run -A bench/landing_page.ts
 *   BENCH_ROUNDS=7 BENCH_DURATION=5s BENCH_CONNECTIONS=64 deno run -A bench/landing_page.ts
 *
 * Runs the production server (main.ts, NODE_ENV=production, embedded database in a temp
 * DATA_DIR; the landing page reads no data). Figures only; asserts nothing.
 */
import { freePort, waitFor } from "./_server.ts";
import { type AstroServer, startAstro } from "./_astro.ts";
import { DENO_RUN } from "../tests/_deno.ts";

const ROOT = new URL("../", import.meta.url);
const DURATION = Deno.env.get("BENCH_DURATION") ?? "5s";
const CONNECTIONS = Number(Deno.env.get("BENCH_CONNECTIONS") ?? 64);
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 5);
const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on every Linux architecture Deno runs on

/** User + system CPU ticks of process `pid` (all its threads). */
function processTicks(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

type Side = "bare" | "app" | "astro";

const LABELS: Record<Side, string> = { bare: "bare", app: "Meridian", astro: "Astro static" };

interface Round {
  rps: number;
  cpuMsPerRequest: number;
}

async function wrk(url: string, pid: number): Promise<Round> {
  const before = processTicks(pid);
  const out = await new Deno.Command("wrk", {
    args: ["-t1", `-c${CONNECTIONS}`, `-d${DURATION}`, url],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ticks = processTicks(pid) - before;
  const text = new TextDecoder().decode(out.stdout);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1];
  if (non2xx) console.warn(`  warning: ${non2xx} non-2xx responses from ${url}`);
  const requests = Number(/(\d+) requests in/.exec(text)?.[1] ?? NaN);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? NaN),
    cpuMsPerRequest: (ticks * 1000) / CLOCK_TICKS_PER_SECOND / requests,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function spawn(args: string[], env: Record<string, string> = {}) {
  return new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT.pathname,
    env,
    stdout: "null",
    stderr: "inherit",
  }).spawn();
}

if (import.meta.main) {
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-landing-bench-" });
  const appPort = freePort();
  const app = spawn([...DENO_RUN, "main.ts"], {
    NODE_ENV: "production",
    LOG_REQUESTS: "0",
    PORT: String(appPort),
    DATA_DIR: dataDir,
    DATABASE_URL: "",
  });
  const appUrl = `http://127.0.0.1:${appPort}`;
  const file = await Deno.makeTempFile({ suffix: ".html" });
  const headersFile = await Deno.makeTempFile({ suffix: ".json" });
  let bare: Deno.ChildProcess | undefined;
  let astro: AstroServer | undefined;
  try {
    await waitFor(`${appUrl}/healthz`);
    // What wrk gets: no Accept-Encoding, so the page as it is.
    const landing = await fetch(`${appUrl}/`, { headers: { "accept-encoding": "identity" } });
    const html = new Uint8Array(await landing.arrayBuffer());
    await Deno.writeFile(file, html);
    const sent = [...landing.headers].filter(([k]) => k !== "date" && k !== "content-length");
    await Deno.writeTextFile(headersFile, JSON.stringify(sent));
    const barePort = freePort();
    bare = spawn([...DENO_RUN, "bench/bare_server.ts", file, headersFile, String(barePort)]);
    const bareUrl = `http://127.0.0.1:${barePort}`;
    await waitFor(`${bareUrl}/`);
    astro = await startAstro(new TextDecoder().decode(html), "static");
    const sides: Partial<Record<Side, { url: string; pid: number }>> = {
      bare: { url: `${bareUrl}/`, pid: bare.pid },
      app: { url: `${appUrl}/`, pid: app.pid },
    };
    if (astro) sides.astro = { url: `${astro.url}/`, pid: astro.pid };
    const names = Object.keys(sides) as Side[];
    const load = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
    console.log(
      `# Landing page vs bare Deno.serve: ${html.length} bytes, ${sent.length} headers on both; ` +
        `wrk ${CONNECTIONS} connections, ${DURATION} per side, ${ROUNDS} rounds, the order ` +
        `rotating; load average ${load}`,
    );
    if (astro) {
      const page = await fetch(`${astro.url}/`);
      const bytes = (await page.arrayBuffer()).byteLength;
      console.log(
        `  and ${astro.description} serving the same markup prerendered (${bytes} bytes, ` +
          `${[...page.headers].length} headers)`,
      );
    }
    for (const side of names) await wrk(sides[side]!.url, sides[side]!.pid);
    const rounds: Partial<Record<Side, Round>>[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = names.map((_, i) => names[(i + round) % names.length]);
      const r: Partial<Record<Side, Round>> = {};
      for (const side of order) r[side] = await wrk(sides[side]!.url, sides[side]!.pid);
      rounds.push(r);
      const line = names.map((side) =>
        `${LABELS[side]} ${r[side]!.rps.toFixed(0)} req/s (${
          (r[side]!.cpuMsPerRequest * 1000).toFixed(1)
        } µs CPU/req)`
      ).join(", ");
      console.log(
        `  round ${round + 1}: ${line}; Meridian/bare ${(r.app!.rps / r.bare!.rps).toFixed(2)}×`,
      );
    }
    const ratio = (of: (r: Round) => number, a: Side, b: Side) =>
      median(rounds.map((r) => of(r[a]!) / of(r[b]!)));
    const cpu = (side: Side) => median(rounds.map((r) => r[side]!.cpuMsPerRequest)) * 1000;
    console.log(
      `  median throughput ratio ${ratio((r) => r.rps, "app", "bare").toFixed(2)}× ` +
        `(goal ≥ 0.85×); median CPU per request: bare ${cpu("bare").toFixed(1)} µs, Meridian ${
          cpu("app").toFixed(1)
        } µs (${ratio((r) => r.cpuMsPerRequest, "app", "bare").toFixed(2)}× the bare server's)`,
    );
    if (astro) {
      console.log(
        `  against Astro static: median throughput ${
          ratio((r) => r.rps, "app", "astro").toFixed(2)
        }× (goal ≥ 3×); Astro ${cpu("astro").toFixed(1)} µs CPU per request, ${
          ratio((r) => r.cpuMsPerRequest, "astro", "app").toFixed(2)
        }× Meridian's`,
      );
    }
  } finally {
    await astro?.stop();
    if (bare) {
      bare.kill("SIGTERM");
      await bare.status;
    }
    app.kill("SIGTERM");
    await app.status;
    await Deno.remove(file);
    await Deno.remove(headersFile);
    await Deno.remove(dataDir, { recursive: true });
  }
}
