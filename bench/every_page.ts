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
import { ROLE_NAV } from "../components/AppLayout.tsx";
import type { Role } from "../lib/roles.ts";
import { parseArgs } from "node:util";
import { hasCommand, scratchDatabase } from "./_server.ts";
import { printProfileSummary, summarizeProfile } from "./profile_summary.ts";
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

const ROOT = new URL("../", import.meta.url);
const ROLES: Role[] = ["client", "surveyor", "technician", "admin"];
const DURATION = Deno.env.get("BENCH_DURATION") ?? "10s";
const ONLY = Deno.env.get("BENCH_EVERY_PAGE")?.split(",").map((p) => p.trim()).filter(Boolean);

/**
 * The signed-in pages one click from a role's navigation, by the shape of their path: the
 * first link of each shape on the role's nav pages is measured.
 */
const DETAIL_PAGES: { label: string; path: RegExp }[] = [
  { label: "/survey/{id}", path: /^\/survey\/[0-9a-f-]{36}$/ },
  { label: "/surveyor/jobs/{id}", path: /^\/surveyor\/jobs\/[0-9a-f-]{36}$/ },
  { label: "/surveyor/leads/{id}", path: /^\/surveyor\/leads\/[0-9a-f-]{36}$/ },
  { label: "/leads/{id}", path: /^\/leads\/[0-9a-f-]{36}$/ },
  { label: "/technician-survey-detail/{id}", path: /^\/technician-survey-detail\/[0-9a-f-]{36}$/ },
  { label: "/surveyor-detail/{id}", path: /^\/surveyor-detail\/[0-9a-f-]{36}$/ },
  { label: "/admin/checklists/{type}", path: /^\/admin\/checklists\/[a-z_]+$/ },
  { label: "/admin/email-templates/{id}", path: /^\/admin\/email-templates\/[^/?#]+$/ },
];

interface Account {
  role: Role;
  email: string;
  password: string;
}

/** Fills the server's database with the demo network; the first account of each role. */
async function seedDemo(
  env: Record<string, string>,
): Promise<Map<Role, Account>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "lib/cli/seed.ts", "--demo"],
    cwd: ROOT,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`seed --demo failed:\n${text}\n${new TextDecoder().decode(out.stderr)}`);
  }
  const accounts = new Map<Role, Account>();
  for (const line of text.split("\n")) {
    const m = /^ {2}(admin|client|surveyor|technician)\s+(\S+@\S+)\s+(\S+)/.exec(line);
    if (m && !accounts.has(m[1] as Role)) {
      accounts.set(m[1] as Role, { role: m[1] as Role, email: m[2], password: m[3] });
    }
  }
  return accounts;
}

/** The role's nav pages and the first page of each `DETAIL_PAGES` shape they link to. */
async function pagesOf(url: string, role: Role, cookie: string): Promise<MeasuredPage[]> {
  const pages: MeasuredPage[] = [];
  const found = new Set<string>();
  for (const { href } of ROLE_NAV[role]) {
    pages.push({ label: `${role} ${href}`, url: `${url}${href}`, cookie });
    const html = await (await fetch(`${url}${href}`, { headers: { cookie } })).text();
    for (const [, raw] of html.matchAll(/href="(\/[^"]*)"/g)) {
      const path = raw.replaceAll("&amp;", "&");
      const shape = DETAIL_PAGES.find((d) => d.path.test(path));
      if (!shape || found.has(shape.label)) continue;
      found.add(shape.label);
      pages.push({ label: `${role} ${shape.label}`, url: `${url}${path}`, cookie });
    }
  }
  return pages;
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
