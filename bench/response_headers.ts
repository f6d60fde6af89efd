/**
 * What headers set after a Response is built cost Deno.serve (issue 23). Deno prepares a
 * native response when a string-bodied Response is built inside a handler; reading or setting
 * its `headers` afterwards throws that away, and the body is encoded again when it is sent.
 * The middleware in routes/_middleware.ts sets X-Request-Id, the security headers, Vary and
 * Cache-Control on `c.res` after the route built it. This measures, for a 25 KB page, the
 * server CPU per request of:
 *   - `pre`: every header given to the constructor (the native response is used);
 *   - `after`: the page's content type given, the other headers set afterwards (today);
 *   - `bytes`: the body encoded once with TextEncoder, headers set afterwards;
 * each with an ASCII page (a one-byte V8 string) and a page with a few non-ASCII characters
 * (a two-byte string: "…", "–", "·" in a page are enough). One server per variant, loaded with
 * wrk in alternating rounds; CPU from /proc (Linux), so the figure holds on a busy machine
 * better than throughput does.
 *
 *   deno run -A bench/response_headers.ts            # BENCH_ROUNDS=3, BENCH_DURATION=3s
 *
 * Figures only; asserts nothing. Needs wrk on PATH.
 */

const VARIANTS = ["pre", "after", "bytes"] as const;
type Variant = typeof VARIANTS[number];
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 3);
const DURATION = Deno.env.get("BENCH_DURATION") ?? "3s";

function page(isAscii: boolean): string {
  const card = isAscii
    ? `<div class="card"><h2>Boundary survey - Austin, TX</h2><p>Requested 2 days ago</p></div>`
    : `<div class="card"><h2>Boundary survey – Austin, TX</h2><p>Requested 2 days ago…</p></div>`;
  return card.repeat(Math.ceil(25_000 / card.length));
}

function headers(): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=UTF-8",
    "Cache-Control": "private, no-store",
    "X-Request-Id": crypto.randomUUID(),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Vary": "Accept-Encoding",
  };
}

/** Serves one variant (when this file is run as a child). */
function serve(variant: Variant, isAscii: boolean, port: number): void {
  const body = page(isAscii);
  const encoder = new TextEncoder();
  Deno.serve({ port, hostname: "127.0.0.1", onListen() {} }, () => {
    if (variant === "pre") return new Response(body, { headers: headers() });
    const res = new Response(variant === "bytes" ? encoder.encode(body) : body, {
      headers: { "Content-Type": "text/html; charset=UTF-8" },
    });
    for (const [name, value] of Object.entries(headers())) res.headers.set(name, value);
    return res;
  });
}

/** utime + stime of `pid` in seconds. */
async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await Deno.readTextFile(`/proc/${pid}/stat`)).split(") ")[1].split(" ");
  // Fields 14 and 15 of stat (utime, stime), counted after "pid (comm) ", in clock ticks.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function wrk(port: number): Promise<number> {
  const out = await new Deno.Command("wrk", {
    args: ["-t1", "-c8", `-d${DURATION}`, `http://127.0.0.1:${port}/`],
    stdout: "piped",
  }).output();
  const match = /(\d+) requests in/.exec(new TextDecoder().decode(out.stdout));
  if (!match) throw new Error("wrk printed no request count");
  return Number(match[1]);
}

async function main(): Promise<void> {
  // Loaded here: the servers this file starts as children need none of it.
  const { freePort, waitFor } = await import("./_server.ts");
  const { DENO_RUN } = await import("../tests/_deno.ts");
  for (const isAscii of [true, false]) {
    const servers = VARIANTS.map((variant) => {
      const port = freePort();
      const child = new Deno.Command(Deno.execPath(), {
        args: [...DENO_RUN, import.meta.filename!, "--serve", variant, String(isAscii), `${port}`],
      }).spawn();
      return { variant, port, child };
    });
    for (const { port } of servers) await waitFor(`http://127.0.0.1:${port}/`);
    const perRequest = new Map<Variant, number[]>(VARIANTS.map((v) => [v, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [...servers].reverse() : servers;
      for (const { variant, port, child } of order) {
        const before = await cpuSeconds(child.pid);
        const requests = await wrk(port);
        const cpu = await cpuSeconds(child.pid) - before;
        perRequest.get(variant)!.push(cpu * 1e6 / requests);
      }
    }
    for (const { child } of servers) {
      child.kill("SIGTERM");
      await child.status;
    }
    const load = (await Deno.readTextFile("/proc/loadavg")).split(" ")[0];
    console.log(`${isAscii ? "ASCII" : "non-ASCII"} 25 KB page, load ${load}:`);
    for (const [variant, samples] of perRequest) {
      const sorted = samples.toSorted((a, b) => a - b);
      console.log(
        `  ${variant.padEnd(6)} ${
          sorted[sorted.length >> 1].toFixed(0).padStart(4)
        } µs CPU/request` +
          ` (rounds: ${samples.map((s) => s.toFixed(0)).join(", ")})`,
      );
    }
  }
}

if (Deno.args[0] === "--serve") {
  serve(Deno.args[1] as Variant, Deno.args[2] === "true", Number(Deno.args[3]));
} else if (import.meta.main) {
  await main();
}
