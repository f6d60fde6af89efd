/**
 * Every signed-in page of every role, on the demo network: issue 23's goal is that each
 * signed-in page, with its first page of real data, costs at most 4× the CPU per request of
 * `GET /api/user` (a session check and one read) on the same server. bench/signed_in_pages.ts
 * measures the heavy pages on a market seeded for them; this measures all the others too, as the
 * demo's accounts see them.
 *
 *   deno run -A bench/every_page.ts                                  # embedded PGlite
 *   DATABASE_URL=postgres://… deno run -A bench/every_page.ts
 *
 * It starts the production server on a scratch database, fills it with `deno task seed --demo`
 * (jobs at every stage, a bought lead with proposals, a technician's job in fieldwork, messages,
 * a delivered and reviewed survey), signs in as the first account of each role the seed prints,
 * and measures each entry of the role's navigation (components/AppLayout.tsx `ROLE_NAV`) and
 * the first of each kind of page one click from them (a request's page, a job, a purchased lead,
 * a technician's job, a firm's record, a template), each against `GET /api/user` as the same
 * account in adjacent runs (bench/signed_in_pages.ts `pairedFigures`: BENCH_PAIRED_ROUNDS rounds
 * of BENCH_PAIRED_DURATION per side, server and its Postgres backends, the median ratio and its
 * range). A page over 4× or over 50 KB of HTML is marked. BENCH_EVERY_PAGE="/leads,/survey/"
 * keeps only the pages whose path holds one of these. `--profile DIR` runs the server under
 * `--cpu-prof` and, instead of the ratios, loads each chosen page for BENCH_DURATION (default
 * 10s) and prints the summary of that window (bench/profile_summary.ts): choose one page.
 * Figures only; asserts nothing.
 */
import type { Role } from "../lib/roles.ts";
import { parseArgs } from "node:util";
import { hasCommand, scratchDatabase } from "./_server.ts";
import { printProfileSummary, summarizeProfile } from "./profile_summary.ts";
import { demoPagesOf, ROLES, seedDemo } from "./_demo.ts";
import {
  closeCpuTicks,
  CONNECTIONS,
  type MeasuredPage,
  PAIRED_DURATION,
  PAIRED_ROUNDS,
  pairedFigures,
  printPaired,
  signIn,
  startServer,
  wrk,
} from "./signed_in_pages.ts";

const DURATION = Deno.env.get("BENCH_DURATION") ?? "10s";
const ONLY = Deno.env.get("BENCH_EVERY_PAGE")?.split(",").map((p) => p.trim()).filter(Boolean);

/** The role's demo pages (bench/_demo.ts) as pages to measure on `url` as `cookie`. */
async function pagesOf(url: string, role: Role, cookie: string): Promise<MeasuredPage[]> {
  return (await demoPagesOf(url, role, cookie)).map((page) => ({
    label: page.label,
    url: `${url}${page.path}`,
    cookie,
  }));
}

async function main() {
  const { values } = parseArgs({ args: Deno.args, options: { profile: { type: "string" } } });
  if (!(await hasCommand("wrk"))) {
    console.log("  wrk not found (apt-get install -y wrk); skipped");
    return;
  }
  const profileDir = values.profile;
  if (profileDir) await Deno.mkdir(profileDir, { recursive: true });
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-bench-every-page-" });
  const scratch = await scratchDatabase("meridian_bench_every_page");
  const server = await startServer({ dataDir, databaseUrl: scratch.url, profileDir });
  let stopped = false;
  try {
    const seedStart = performance.now();
    const accounts = await seedDemo({
      DATABASE_URL: scratch.url ?? "",
      DATA_DIR: dataDir,
      PUBLIC_URL: server.url,
      NODE_ENV: "production",
    });
    console.log(
      `# Every signed-in page on the demo network (seeded in ${
        ((performance.now() - seedStart) / 1000).toFixed(1)
      } s), ${scratch.url ? "Postgres" : "PGlite (embedded)"}: CPU per request (server and its ` +
        `Postgres backends) as a multiple of GET /api/user's as the same account, in adjacent ` +
        `runs; wrk ${CONNECTIONS} connections, ${PAIRED_ROUNDS} rounds of ${PAIRED_DURATION} ` +
        `per side`,
    );
    for (const role of ROLES) {
      const account = accounts.get(role);
      if (!account) throw new Error(`the demo seed printed no ${role} account`);
      const cookie = await signIn(server, account.email, account.password);
      const floor = { label: "GET /api/user", url: `${server.url}/api/user`, cookie };
      for (const page of await pagesOf(server.url, role, cookie)) {
        if (ONLY && !ONLY.some((part) => page.url.includes(part))) continue;
        if (!profileDir) {
          printPaired(page.label, await pairedFigures(server, floor, page));
          continue;
        }
        await wrk(page.url, page.cookie, "2s");
        const started = Date.now();
        const run = await wrk(page.url, page.cookie, DURATION);
        console.log(`  ${page.label}: ${run.requests} requests in ${DURATION}`);
        // wrk leaves requests in the server's hands; the idle gap is not busy time.
        await new Promise((r) => setTimeout(r, 2000));
        await server.stop("SIGINT");
        stopped = true;
        const files = [];
        for await (const f of Deno.readDir(profileDir)) {
          const stat = await Deno.stat(`${profileDir}/${f.name}`);
          if (f.name.endsWith(".cpuprofile") && (stat.mtime?.getTime() ?? 0) >= started) {
            files.push(`${profileDir}/${f.name}`);
          }
        }
        const file = files.sort().at(-1);
        if (!file) throw new Error(`no .cpuprofile written to ${profileDir}`);
        console.log(`  profile: ${file}`);
        const profile = JSON.parse(await Deno.readTextFile(file));
        const lastMs = Number(/^(\d+)/.exec(DURATION)?.[1] ?? 10) * 1000;
        printProfileSummary(summarizeProfile(profile, { lastMs }));
        return;
      }
    }
  } finally {
    if (!stopped) await server.stop().catch(() => {});
    await closeCpuTicks();
    await scratch.drop();
    await Deno.remove(dataDir, { recursive: true });
  }
}

if (import.meta.main) await main();
