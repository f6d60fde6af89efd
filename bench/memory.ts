/**
 * Memory under a write load: starts the production server (Postgres when DATABASE_URL is set,
 * the embedded database otherwise), then runs the same mixed load three times — clients
 * submitting surveys (POST /api/surveys) and reading their dashboards — and prints the server's
 * resident memory (VmRSS from /proc) before, after each run, and after an idle minute.
 * A leak shows as RSS that grows run over run; a warm-up plateau shows as growth after the first
 * run only. Figures only; nothing asserts.
 *
 *   deno run -A bench/memory.ts        (MEMORY_LOAD_SECONDS=20, MEMORY_IDLE_SECONDS=60)
 */
import { surveyRequest } from "../tests/_fixtures.ts";
import { freePort, waitFor } from "./_server.ts";

const ROOT = new URL("../", import.meta.url);
const LOAD_SECONDS = Number(Deno.env.get("MEMORY_LOAD_SECONDS") ?? 20);
const IDLE_SECONDS = Number(Deno.env.get("MEMORY_IDLE_SECONDS") ?? 60);
const WORKERS = Number(Deno.env.get("MEMORY_WORKERS") ?? 16);
// Registration is limited to 10 per hour per address; eight accounts share the load.
const CLIENTS = 8;

async function rssMb(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
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
  const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  return cookie;
}

interface LoadResult {
  writes: number;
  reads: number;
  failures: number;
}

/** `WORKERS` loops for `seconds`: each submits a survey, then reads the dashboard. */
async function load(appUrl: string, cookies: string[], seconds: number): Promise<LoadResult> {
  const deadline = Date.now() + seconds * 1000;
  const result: LoadResult = { writes: 0, reads: 0, failures: 0 };
  await Promise.all(Array.from({ length: WORKERS }, async (_, w) => {
    const cookie = cookies[w % cookies.length];
    while (Date.now() < deadline) {
      const post = await fetch(`${appUrl}/api/surveys`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: appUrl, cookie },
        body: JSON.stringify(surveyRequest()),
      });
      await post.body?.cancel();
      if (post.status === 201) result.writes++;
      else result.failures++;
      const page = await fetch(`${appUrl}/client-dashboard`, { headers: { cookie } });
      await page.body?.cancel();
      if (page.ok) result.reads++;
      else result.failures++;
    }
  }));
  return result;
}

if (import.meta.main) {
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-memory-" });
  const port = freePort();
  const databaseUrl = Deno.env.get("DATABASE_URL") ?? "";
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT.pathname,
    env: {
      NODE_ENV: "production",
      LOG_REQUESTS: "0",
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      // The CSRF check accepts only PUBLIC_URL's origin, which the load sends.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const appUrl = `http://127.0.0.1:${port}`;
  try {
    await waitFor(appUrl + "/readyz");
    console.log(
      `  database: ${databaseUrl ? "postgres" : "embedded"}; ${WORKERS} workers, ` +
        `${LOAD_SECONDS} s per run, ${IDLE_SECONDS} s idle`,
    );
    const cookies: string[] = [];
    for (let i = 0; i < CLIENTS; i++) cookies.push(await register(appUrl, i));
    console.log(`  RSS idle after start      : ${(await rssMb(server.pid)).toFixed(0)} MB`);
    for (let run = 1; run <= 3; run++) {
      const r = await load(appUrl, cookies, LOAD_SECONDS);
      console.log(
        `  RSS after load run ${run}      : ${(await rssMb(server.pid)).toFixed(0)} MB` +
          `  (${r.writes} surveys, ${r.reads} dashboards, ${r.failures} failures)`,
      );
    }
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    console.log(
      `  RSS after ${IDLE_SECONDS} s idle        : ${(await rssMb(server.pid)).toFixed(0)} MB`,
    );
  } finally {
    server.kill("SIGTERM");
    await server.status;
    await Deno.remove(dataDir, { recursive: true });
  }
}
