/**
 * GET /api/surveyors at 50,000 surveyor records, through a real server (main.ts, production
 * mode, signed in as an admin over HTTP): the directory's first page, a deep page
 * (page 1,500 of 25, offset 37,475), the last page, a name search, a city search, a state
 * filter (first and a later page) and the in-network / type / status filters. The records
 * are lib/demo_network.ts firms (real city coordinates, every state, weighted by population),
 * inserted in bulk before the server starts. Prints p50/p99; asserts nothing.
 *
 *   deno run -A bench/surveyors_list.ts                  # embedded PGlite (a temp DATA_DIR)
 *   DATABASE_URL=postgres://… deno run -A bench/surveyors_list.ts
 *
 * With DATABASE_URL it creates a scratch database next to the given one and drops it at the
 * end, so it never touches real data. Target: p99 < 50 ms per page at 50,000 rows.
 */
import { openDatabase, type Sql } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { insertUser } from "../db/users.ts";
import { hashPassword } from "../lib/passwords.ts";
import { generateDemoSurveyors, loadDemoCities } from "../lib/demo_network.ts";
import { insertGeneratedSurveyors } from "../lib/cli/seed.ts";
import { measure, report } from "./_stats.ts";
import { benchServerEnv, freePort, scratchDatabase, spawnServer } from "./_server.ts";
import { DENO_RUN } from "../tests/_deno.ts";

const TOTAL = Number(Deno.env.get("BENCH_SURVEYORS") ?? 50_000);
const ITERATIONS = Number(Deno.env.get("BENCH_ITERATIONS") ?? 200);
const ROOT = new URL("../", import.meta.url);
const ADMIN = "bench-admin@example.test";
const PASSWORD = "bench password for the admin";

/**
 * `count` generated surveyor records (not demo-flagged), no contact history, plus one admin
 * account with PASSWORD; then VACUUM ANALYZE as autovacuum would have done.
 */
export async function seedSurveyors(sql: Sql, count: number): Promise<void> {
  await insertUser(sql, {
    email: ADMIN,
    fullName: "Bench Admin",
    role: "admin",
    passwordHash: await hashPassword(PASSWORD),
  });
  const surveyors = generateDemoSurveyors(await loadDemoCities(), { count, seed: 42 })
    .map((s) => ({ ...s, history: [] }));
  await sql.begin((tx) => insertGeneratedSurveyors(tx, surveyors, { isDemo: false }));
  await sql`vacuum analyze surveyors`;
}

/**
 * A production server on `dataDir` / `databaseUrl`, its PUBLIC_URL the origin we call, without
 * automatic dispatch, with `env` besides.
 */
export async function startServer(
  dataDir: string,
  databaseUrl: string | undefined,
  env: Record<string, string> = {},
) {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await spawnServer(
    new Deno.Command(Deno.execPath(), {
      args: [...DENO_RUN, "main.ts"],
      cwd: ROOT.pathname,
      env: { ...benchServerEnv(port, dataDir, databaseUrl), AUTO_DISPATCH: "false", ...env },
      stdout: "null",
      stderr: "inherit",
    }),
    `${url}/healthz`,
  );
  return { url, stop: () => server.stop() };
}

/** Signs the bench admin in over HTTP; returns the session cookie pair. */
export async function signInAdmin(url: string): Promise<string> {
  const res = await fetch(`${url}/api/login`, {
    method: "POST",
    headers: { origin: url, "content-type": "application/json" },
    body: JSON.stringify({ identifier: ADMIN, password: PASSWORD }),
  });
  await res.body?.cancel();
  const pair = res.headers.getSetCookie().map((c) => c.split(";")[0])
    .find((c) => /^(__Host-)?meridian_session=./.test(c));
  if (res.status !== 200 || !pair) throw new Error(`sign-in: ${res.status}`);
  return pair;
}

/** Where a scratch database is named after DATABASE_URL's (e.g. meridian_h_e_bench_…). */
export function scratchPrefix(what: string): string {
  const base = Deno.env.get("DATABASE_URL");
  const name = base ? new URL(base).pathname.slice(1).replace(/\W/g, "_") : "";
  return `${name || "meridian_bench"}_${what}`;
}

if (import.meta.main) {
  const scratch = await scratchDatabase(scratchPrefix("surveyors_list"));
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-bench-surveyors-" });
  try {
    const config = { DATABASE_URL: scratch.url, DATA_DIR: dataDir };
    const seedStart = performance.now();
    const db = await openDatabase(config);
    try {
      await migrate(db.sql);
      await seedSurveyors(db.sql, TOTAL);
    } finally {
      await db.close();
    }
    const kind = scratch.url ? "Postgres" : "PGlite";
    console.log(
      `  seeded ${TOTAL.toLocaleString("en-US")} surveyors on ${kind} in ${
        ((performance.now() - seedStart) / 1000).toFixed(1)
      } s`,
    );

    const server = await startServer(dataDir, scratch.url);
    try {
      const cookie = await signInAdmin(server.url);
      const cases: [string, string][] = [
        ["first page (25)", "/api/surveyors"],
        ["first page of 100", "/api/surveyors?pageSize=100"],
        ["deep page 1,500 × 25", "/api/surveyors?page=1500"],
        ["last page", `/api/surveyors?page=${Math.ceil(TOTAL / 25)}`],
        ["search q=lone star", "/api/surveyors?q=lone%20star"],
        ["search q=houston, page 3", "/api/surveyors?q=houston&page=3"],
        ["search q=zz (no match)", "/api/surveyors?q=zzqx"],
        ["state=TX", "/api/surveyors?state=TX"],
        ["state=TX, page 100", "/api/surveyors?state=TX&page=100"],
        ["state=WY (small state)", "/api/surveyors?state=WY"],
        ["inNetworkOnly, type=alta", "/api/surveyors?inNetworkOnly=true&surveyType=alta"],
        ["status=prospect, page 200", "/api/surveyors?status=prospect&page=200"],
      ];
      const width = Math.max(...cases.map(([label]) => label.length));
      console.log(`  ${ITERATIONS} requests each, sequential, over HTTP to a production server:`);
      for (const [label, path] of cases) {
        let summary = "";
        const samples = await measure(async () => {
          const res = await fetch(server.url + path, { headers: { cookie } });
          const body = await res.json();
          if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
          summary = `${body.surveyors.length} rows of ${body.total.toLocaleString("en-US")}`;
        }, { warmup: 20, iterations: ITERATIONS });
        report(label, samples, width);
        console.log(`  ${"".padEnd(width)} (${summary})`);
      }
      console.log("  target: p99 < 50 ms per page at 50,000 rows");
    } finally {
      await server.stop();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
    await scratch.drop();
  }
}
