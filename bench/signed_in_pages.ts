/**
 * Signed-in page throughput (issue 9). Starts the production server (`deno run -A main.ts`
 * with the start task's V8 flags, NODE_ENV=production, its own temp DATA_DIR), seeds accounts and survey requests through the
 * real API and db functions, then measures with wrk (32 connections, one session cookie per
 * page):
 *   - a client's /client-dashboard with 0, 1, 3 and 10 requests, and the cost per request card
 *     (the slope of service time, 1000 / requests per second, over those sizes);
 *   - /survey/{id}, /admin-dashboard (first page of 60 requests) and /admin (first page of users);
 *   - GET /api/user and GET /api/surveys for the 3-request client (session, then session + list
 *     query, as JSON), to separate data and session costs from rendering;
 *   - a surveyor's /leads (the first 20 of 60 open leads, offered by automatic dispatch) and
 *     the admin's surveyor directory /surveyors (first page of 5,000 records, with its map);
 *   - the landing page `/` (signed out, served from memory), and, when it can be built, Astro's
 *     server-rendered landing page (the same markup) in the same run: every page's throughput is
 *     printed as a multiple of Astro's (or of our `/` when Astro is not run).
 * Then an in-process micro-bench renders the client dashboard's real component tree with React
 * `renderToString` (today), with `preact-render-to-string` for the server-only components
 * (islands still React roots) and with cached number formatting, and estimates from the
 * measured service times what each would gain.
 *
 *   deno run -A bench/signed_in_pages.ts                    # embedded PGlite
 *   DATABASE_URL=postgres://… deno run -A bench/signed_in_pages.ts
 *   BENCH_ASTRO=1 deno run -A bench/signed_in_pages.ts      # also install + build Astro
 *   BENCH_ASTRO_DASHBOARD=only DATABASE_URL=postgres://… deno run -A bench/signed_in_pages.ts
 *   BENCH_NEXT=1 BENCH_NEXT_DASHBOARD=only BENCH_ASTRO_DASHBOARD=1 DATABASE_URL=postgres://… \
 *     deno run -A bench/signed_in_pages.ts                  # Meridian, Astro and Next.js
 *   deno run -A bench/signed_in_pages.ts --profile /tmp/prof # CPU profile of the dashboard
 *
 * Astro: BENCH_ASTRO=1 installs astro and @astrojs/node with npm into BENCH_ASTRO_DIR (default
 * $TMPDIR/meridian-astro-bench, never inside the repository); once that directory holds them,
 * later runs use it without the variable (bench/_astro.ts). It needs `node` on PATH.
 *
 * BENCH_ASTRO_DASHBOARD=1 (with DATABASE_URL) also measures /client-dashboard for the clients
 * with 0, 3 and 10 requests beside the same dashboard built on Astro 5 SSR
 * (bench/_astro_dashboard.ts: session cookie hashed and looked up, user and unread count, the
 * same SQL through Meridian's own db functions, the same markup with Meridian's islands, the
 * same headers), both servers on the one scratch database, interleaved (Meridian, Astro,
 * Astro, Meridian). Per size it prints each side's CPU per request (the process and its own
 * Postgres backends, told apart by application_name), Meridian's as a multiple of Astro's
 * (issue 23's goal: at most 0.33×), req/s and HTML size, and whether both sent the same visible
 * markup, island props and headers (no multiple where the markup differs).
 * BENCH_ASTRO_DASHBOARD=only measures nothing else. BENCH_ASTRO=1 once adds @astrojs/react,
 * React, zod and postgres.js to the Astro install.
 *
 * BENCH_NEXT_DASHBOARD=1|only does the same beside the dashboard built on Next.js 16 (App
 * Router, React Server Components; bench/_next_dashboard.ts), issue 23's goal there at most
 * 0.10× Next's CPU per request. Its install is BENCH_NEXT_DIR (default
 * $TMPDIR/meridian-next-bench; BENCH_NEXT=1 installs next, React, zod and postgres.js there once
 * with npm). With both variables set, all three are measured in one interleaved order
 * (Meridian, Astro, Next, Next, Astro, Meridian) and Meridian's CPU is given as a multiple of
 * each. Next's islands have no wrapper: its markup is compared with Meridian's islands'
 * markup without theirs, and its islands' props are read from its RSC payload (what is masked:
 * bench/_dashboard_markup.ts). BENCH_DASHBOARD_CHECK=1 checks the markup, props and headers of
 * every side without timing anything; BENCH_DASHBOARD_DUMP=DIR writes each side's page there.
 * BENCH_FLOOR_DASHBOARD=1|only adds the floor (bench/_floor_dashboard.ts): the same remembered
 * dashboard answered by a bare `Deno.serve` doing only what an unchanged view needs, quiet only;
 * Meridian's CPU is given as a multiple of the floor's too, and the floor's as one of each
 * framework's (how far below them any server on this stack gets). BENCH_DASHBOARD_ROUNDS=N
 * repeats the order N times and adds the median and range of the ratios taken within each round.
 *
 * --profile DIR runs the server under `--cpu-prof --cpu-prof-dir=DIR`, loads the 3-request
 * dashboard (or `--path /api/surveys?pageSize=10`, any path: as that client; as the admin for
 * paths under /admin and /surveyors; as the surveyor for /leads; `--as admin|client|surveyor`
 * chooses, `--as client10` the 10-request client, `--as client0` the one without requests; `{id}` in the path is the 3-request client's first survey, so
 * `--path '/survey/{id}' --as admin` profiles the admin's survey page), stops the server with
 * SIGINT so the profile is written, and prints the summary of the measured window
 * (bench/profile_summary.ts).
 *
 * --alloc prints instead the JavaScript heap each page allocates per request (bench/_allocation.ts:
 * the inspector's sampling heap profiler, freed objects included), as a multiple of GET
 * /api/user's, with the three sites that allocate most: a figure of the code that, unlike CPU
 * time, hardly moves with the machine or its load. --survivors does the same counting only the
 * objects that outlived a young-generation collection (the six sites with most): what the young
 * collections copy and the full ones then free. With BENCH_FLOOR_DASHBOARD on Postgres, the
 * floor's own figures for the remembered client dashboards follow, beside Meridian's.
 *
 * --instructions (Postgres; Debian's valgrind) prints instead the machine instructions the server
 * process executes per request, counted by callgrind (bench/_instructions.ts): each page after a
 * warm-up, in BENCH_INSTRUCTIONS_ROUNDS rounds (3) of BENCH_INSTRUCTIONS_REQUESTS requests in
 * turn (500), every window after a full collection; with BENCH_ASTRO_DASHBOARD and
 * BENCH_FLOOR_DASHBOARD, Astro's dashboards (node under callgrind) and the floor's counted the
 * same way, Meridian's as a multiple of each and the floor's as one of Astro's. The figure moved
 * by ±5 % between rounds where CPU time moved by 40 %. BENCH_INSTRUCTIONS_PAGES like
 * BENCH_BASELINE_PAGES. Some 10 minutes for the dashboards and the floor, 20 with Astro.
 *
 * --paired prints issue 23's ratio steadier than the main table can on a shared machine: each
 * page and GET /api/user in alternating runs, the ratio taken within each round (pairedRun).
 *
 * --churn (Postgres) prints each page's CPU while nothing commits, while another connection
 * commits at its pace (`CHURN_PACE_MS`) on another database (the pages remembered by snapshot,
 * db/snapshot_cache.ts, stay remembered), others' rows of the pages' tables (the pages scoped to
 * their own rows stay remembered), and what the pages show (read again after each commit)
 * (churnRun).
 *
 * --after-write (Postgres) prints each page's CPU per view when a commit comes right before
 * every view, one view at a time: none, on another database, others' writes to the pages'
 * tables, a request in the surveyor's state beyond his radius, a write to what the page shows
 * (afterWriteRun).
 *
 * --check-cost compares the three ways a remembered page is checked (the gate in its statement,
 * a statement of its own, adaptive) on reloads quiet and after a commit, the pages' reads run in
 * process, with their Postgres backends (checkCostRun).
 *
 * --baseline DIR (or BENCH_BASELINE_DIR) also starts the server of another checkout, e.g. the
 * commit before a change (`git worktree add /tmp/meridian_old <commit>`, then `deno install`
 * and `deno task build` there: its own node_modules, since in a checkout older than December
 * 2026 a link to this checkout's lets each side's vendored packages, then linked npm packages,
 * replace the other's), seeds it
 * the same way and measures the dashboards and the survey page on both, interleaved (old, new,
 * new, old), printing each pair's ratio, both per-card slopes, and whether both served the same
 * HTML (ids, asset names and times aside; if not, where they first differ): the gain measured
 * side by side. GET /api/user is measured first, and each page's CPU is also given as a
 * multiple of its side's (issue 23's ratio) and as its own cost, its CPU minus its side's GET
 * /api/user (what the page adds to a session check and one read). Both move with the machine's
 * load (on a quiet machine GET /api/user fell to about half its cost under load 3, the pages to
 * 50–77%): compare the two sides of one run, not runs on different days. BENCH_BASELINE_ALL=1
 * adds the admin's and the surveyor's pages; BENCH_BASELINE_PAGES="/leads,/surveyors" keeps only
 * the pages whose label holds one of these (and GET /api/user); BENCH_BASELINE_ONLY=1 skips the
 * table and micro-bench of this checkout alone.
 *
 * With DATABASE_URL it creates scratch databases named after the given one (`{name}_…`) and
 * drops them at the end. BENCH_DURATION (default 10s) is each wrk run's length. Figures only;
 * asserts nothing.
 */
import { parseArgs } from "node:util";
import postgres from "postgres";
import { openDatabase } from "../db/client.ts";
import { pruneSnapshotChanges } from "../db/snapshot_cache.ts";
import { insertUser, toSessionUser } from "../db/users.ts";
import { listSurveyEventsForSurveys, listSurveys } from "../db/surveys.ts";
import { hashPassword } from "../lib/passwords.ts";
import { readManifest } from "../lib/assets.ts";
import { DENO_RUN } from "../tests/_deno.ts";
import type { Role, SessionUser } from "../lib/roles.ts";
import type { Survey, SurveyEvent } from "../lib/survey_schema.ts";
import { surveyRequest } from "../tests/_fixtures.ts";
import { median } from "./_stats.ts";
import { printProfileSummary, summarizeProfile } from "./profile_summary.ts";
import { AllocationSampler, type AllocationSite, inspectArgs } from "./_allocation.ts";
import { GC_GLOBAL } from "../lib/memory.ts";
import { hasCallgrind, InstructionCounter, serverCommand } from "./_instructions.ts";
import {
  benchServerEnv,
  exists,
  freePort,
  hasCommand,
  scratchDatabase,
  signInCookie,
  spawnServer,
  startTaskEnv,
  startTaskV8Flags,
} from "./_server.ts";
import { startAstro } from "./_astro.ts";
import { ASTRO_APPLICATION_NAME, startAstroDashboard } from "./_astro_dashboard.ts";
import { NEXT_APPLICATION_NAME, startNextDashboard } from "./_next_dashboard.ts";
import { FLOOR_APPLICATION_NAME, startFloorDashboard } from "./_floor_dashboard.ts";
import type { DashboardSetup } from "./_dashboard_shared.ts";
import { firstDifference as markupDifference, visibleMarkup } from "./_dashboard_markup.ts";

// React picks its production or development build when it is first imported; everything that
// imports React below is loaded dynamically, after this.
Deno.env.set("NODE_ENV", "production");

const ROOT = new URL("../", import.meta.url);
const DURATION = Deno.env.get("BENCH_DURATION") ?? "10s";
export const CONNECTIONS = Number(Deno.env.get("BENCH_SIGNED_IN_CONNECTIONS") ?? 32);
/** With --baseline: also the admin's and the surveyor's pages side by side (BENCH_BASELINE_ALL=1). */
const BASELINE_ALL_PAGES = Deno.env.get("BENCH_BASELINE_ALL") === "1";
/**
 * BENCH_ACCEPT_ENCODING="gzip, deflate, br, zstd" requests every page as a browser does (wrk
 * sends no Accept-Encoding of its own): the server then compresses what it sends.
 */
const ACCEPT_ENCODING = Deno.env.get("BENCH_ACCEPT_ENCODING");
/**
 * With --baseline: BENCH_BASELINE_PAGES="/leads,/surveyors" measures only the pages whose label
 * holds one of these (GET /api/user, each side's floor, always), to repeat a doubtful pair.
 */
const BASELINE_PAGES = Deno.env.get("BENCH_BASELINE_PAGES")?.split(",").filter(Boolean);
/** With --baseline: only the side-by-side figures, not the table and micro-bench before them. */
const BASELINE_ONLY = Deno.env.get("BENCH_BASELINE_ONLY") === "1";
/**
 * BENCH_CHURN=1 (or =tables): the side-by-side runs (`--baseline`, and the Astro and Next
 * dashboards; Postgres) while another connection commits writes to what the pages show on each
 * side's database (`startChurn`; the commits a second are printed), so that the view after each
 * commit reads and renders its page again; =others: while it commits
 * other people's writes to those tables; =elsewhere: while it commits transaction ids on another
 * database, which moves every snapshot but writes no table a page reads (`startChurn`).
 */
const CHURN_KIND = ({
  "1": "tables",
  tables: "tables",
  others: "others",
  elsewhere: "elsewhere",
} as const)[Deno.env.get("BENCH_CHURN") as "1" | "tables" | "others" | "elsewhere"];
/**
 * BENCH_ASTRO_DASHBOARD=1 also measures the client dashboards beside the same dashboard on
 * Astro 5 SSR (bench/_astro_dashboard.ts), =only measures nothing else.
 */
const ASTRO_DASHBOARD = Deno.env.get("BENCH_ASTRO_DASHBOARD");
/**
 * BENCH_NEXT_DASHBOARD=1 also measures them beside the same dashboard on Next.js 16
 * (bench/_next_dashboard.ts), =only measures nothing else; with BENCH_ASTRO_DASHBOARD too, all
 * three side by side.
 */
const NEXT_DASHBOARD = Deno.env.get("BENCH_NEXT_DASHBOARD");
/**
 * BENCH_FLOOR_DASHBOARD=1 also measures, beside them (or alone with =only), the floor: the same
 * remembered dashboard answered by a bare `Deno.serve` doing only what every such view needs
 * (bench/_floor_dashboard.ts). Quiet only: under BENCH_CHURN it is not started.
 */
const FLOOR_DASHBOARD = Deno.env.get("BENCH_FLOOR_DASHBOARD");
/**
 * BENCH_DASHBOARD_ROUNDS=N (default 1): the frameworks' and the floor's dashboards are measured
 * in N rounds of the ABBA order, each figure the mean over all of them, and Meridian's ratio
 * also as the median (and range) of the ratios taken within each round, which a machine whose
 * speed drifts over minutes moves less than the means.
 */
const DASHBOARD_ROUNDS = Math.max(1, Number(Deno.env.get("BENCH_DASHBOARD_ROUNDS") ?? 1));
/** BENCH_DASHBOARD_CHECK=1: the frameworks' dashboards are checked (markup, headers), not timed. */
const DASHBOARD_CHECK_ONLY = Deno.env.get("BENCH_DASHBOARD_CHECK") === "1";
/**
 * BENCH_DASHBOARD_DUMP=DIR writes each side's dashboard as served, as `visibleMarkup` reads it
 * and its islands' props into DIR (to see where they differ).
 */
const DASHBOARD_DUMP = Deno.env.get("BENCH_DASHBOARD_DUMP");
/** Client dashboard sizes measured beside Astro's and Next's. */
const ASTRO_DASHBOARD_SIZES = [0, 3, 10] as const;
const RENDER_ITERATIONS = Number(Deno.env.get("BENCH_RENDER_ITERATIONS") ?? 400);
const PASSWORD = "bench password 1234";
/** Request counts of the dashboard clients. */
const DASHBOARD_SIZES = [0, 1, 3, 10] as const;
/** Requests across the marketplace (the admin dashboard lists the first 20). */
const TOTAL_REQUESTS = 60;
/** The client of the seeded requests no measured page shows (`seed`'s `extra`). */
const EXTRA_CLIENT_EMAIL = `client-${
  TOTAL_REQUESTS - DASHBOARD_SIZES.reduce<number>((a, b) => a + b, 0)
}@example.test`;
/** Extra accounts so /admin's users list has a full first page (25). */
const DIRECTORY_USERS = 30;
/** Surveyor records in the admin directory (/surveyors shows the first page). */
const DIRECTORY_SURVEYORS = 5_000;
/** How long the automatic dispatch of the seeded requests may take. */
const DISPATCH_WAIT_MS = 120_000;

function durationMs(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text);
  if (!m) return 10_000;
  return Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000 }[m[2] ?? "s"] ?? 1000);
}

/**
 * One wrk run's figures: requests/s, mean and p99 latency (ms), and any failures; with the
 * server's pid known, the CPU time it spent per request (see `cpuMs`).
 */
interface WrkResult {
  rps: number;
  requests: number;
  cpuMsPerRequest?: number;
  /** The server process's share of `cpuMsPerRequest` (its Postgres backends' left out). */
  serverCpuMsPerRequest?: number;
  meanMs: number;
  p99Ms: number;
  errors: string;
}

function toMs(value: string | undefined): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(value ?? "");
  if (!m) return NaN;
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as "us"];
}

export async function wrk(url: string, cookie?: string, duration = DURATION): Promise<WrkResult> {
  const args = ["-t1", `-c${CONNECTIONS}`, `-d${duration}`, "--latency"];
  if (cookie) args.push("-H", `Cookie: ${cookie}`);
  if (ACCEPT_ENCODING) args.push("-H", `Accept-Encoding: ${ACCEPT_ENCODING}`);
  const out = await new Deno.Command("wrk", {
    args: [...args, url],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1];
  const socketErrors = /Socket errors: (.*)/.exec(text)?.[1];
  const errors = [non2xx && `${non2xx} non-2xx`, socketErrors].filter(Boolean).join("; ");
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? NaN),
    requests: Number(/(\d+) requests in/.exec(text)?.[1] ?? NaN),
    meanMs: toMs(/Latency\s+(\S+)/.exec(text)?.[1]),
    p99Ms: toMs(/\s99%\s+(\S+)/.exec(text)?.[1]),
    errors,
  };
}

/** Scratch database names start with DATABASE_URL's own database name, so they are told apart. */
function scratchPrefix(what: string): string {
  const base = Deno.env.get("DATABASE_URL");
  const name = base ? new URL(base).pathname.slice(1).replace(/\W/g, "_") : "";
  return `${name || "meridian_bench"}_${what}`;
}

/** The running server: its URL and how to stop it. */
export interface Server {
  url: string;
  /** The server process, for its CPU time. */
  pid: number;
  /** Its Postgres database, whose backends' CPU time counts as the server's; none on PGlite. */
  database?: string;
  /**
   * When other servers use the same database: its backends are those whose
   * application_name is one of `names` (`isOwn`), or all but those.
   */
  application?: { names: string[]; isOwn: boolean };
  stop(signal?: Deno.Signal): Promise<void>;
}

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux architecture Deno runs on
let adminSql: postgres.Sql | undefined;

/** Closes the connection `cpuTicks` opened to find a server's Postgres backends. */
export async function closeCpuTicks(): Promise<void> {
  await adminSql?.end();
  adminSql = undefined;
}

/** User + system CPU ticks of process `pid` (all its threads), 0 once it is gone. */
function processTicks(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]); // utime, stime
  } catch {
    return 0;
  }
}

/**
 * CPU time used so far by the server's process and by the Postgres backends serving its
 * database, per pid (Linux /proc; Postgres on this machine). Throughput on a machine shared
 * with other work swings with their load; CPU time per request hardly does, so the
 * side-by-side comparison reports both. Client backends only: autovacuum's workers, busy after
 * the seeding, show under the database's name too, and counted they made the first pages
 * measured look dearer (GET /api/user, the table's floor, among them).
 */
async function cpuTicks(server: Server): Promise<Map<number, number>> {
  const ticks = new Map([[server.pid, processTicks(server.pid)]]);
  const base = Deno.env.get("DATABASE_URL");
  if (server.database && base) {
    adminSql ??= postgres(base, { max: 1, onnotice: () => {} });
    const app = server.application;
    const rows = await adminSql<{ pid: number }[]>`
      select pid from pg_stat_activity where datname = ${server.database}
        and backend_type = 'client backend' and application_name <> ${CHURN_APPLICATION}
        and (${!app} or (application_name = any(${app?.names ?? []})) = ${app?.isOwn ?? true})`;
    for (const { pid } of rows) ticks.set(pid, processTicks(pid));
  }
  return ticks;
}

/** Milliseconds of CPU between two `cpuTicks` snapshots (a backend started since counts whole). */
function cpuMsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

export async function startServer(
  { dataDir, databaseUrl, profileDir, root = ROOT.pathname, extraArgs = [], callgrindDir }: {
    dataDir: string;
    databaseUrl?: string;
    profileDir?: string;
    /** Runtime flags after the start task's (`--inspect=…` for `--alloc`). */
    extraArgs?: string[];
    /** Under callgrind, its dumps written here (`--instructions`, bench/_instructions.ts). */
    callgrindDir?: string;
    /** The checkout whose main.ts to run (this one by default). */
    root?: string;
  },
): Promise<Server> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    ...benchServerEnv(port, dataDir, databaseUrl),
    // wrk keeps CONNECTIONS requests outstanding, the default in-flight limit (lib/admission.ts):
    // with a connection committing beside it (--churn), a queued request could wait past the
    // default 250 ms and get a fast 503 (seen: 2-9 in a run), and a refusal is no page view.
    // The bench measures what a page costs, not the shedding, so requests wait their turn.
    REQUEST_QUEUE_TIMEOUT_MS: "10000",
  };
  const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  const rootUrl = `file://${root.endsWith("/") ? root : `${root}/`}`;
  // With the start task's V8 flags and environment: the server as `deno task start` runs it.
  const command = serverCommand(
    Deno.execPath(),
    [...DENO_RUN, ...await startTaskV8Flags(rootUrl), ...profile, ...extraArgs, "main.ts"],
    callgrindDir,
  );
  const child = await spawnServer(
    new Deno.Command(command.program, {
      args: command.args,
      cwd: root,
      env: { ...await startTaskEnv(rootUrl), ...env },
      stdout: "null",
      stderr: "inherit",
    }),
    `${url}/healthz`,
    command.readyTimeoutMs,
  );
  return {
    url,
    pid: child.pid,
    database: databaseUrl ? new URL(databaseUrl).pathname.slice(1) : undefined,
    stop: child.stop,
  };
}

/** The accounts and data the measurements use. */
interface Seeded {
  cookies: { admin: string; clients: Map<number, string>; surveyor: string };
  /** Open leads offered to the bench surveyor (one per seeded request). */
  surveyorLeads: number;
  /** One of the 3-request client's surveys, for /survey/{id}. */
  surveyId: string;
  /** Per dashboard size: the client and the first page of its surveys and their events. */
  dashboards: Map<
    number,
    {
      user: SessionUser;
      surveys: Survey[];
      events: Map<string, SurveyEvent[]>;
      /** The bell's count (dispatch notifies the client). */
      unread: number;
    }
  >;
}

/** Signs in as `email` (with the seeded accounts' password by default); the session cookie. */
export function signIn(
  server: Pick<Server, "url">,
  email: string,
  password = PASSWORD,
): Promise<string> {
  return signInCookie(server.url, email, password);
}

async function submitSurveys(server: Server, cookie: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${server.url}/api/surveys`, {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json", cookie },
      body: JSON.stringify(surveyRequest({
        address: `${100 + i} Barton Springs Rd, Austin, TX 78704`,
        formattedAddress: `${100 + i} Barton Springs Rd, Austin, TX 78704, USA`,
        acreage: 0.25 + i / 4,
      })),
    });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`POST /api/surveys: ${res.status} ${text}`);
  }
}

/**
 * Waits until automatic dispatch has offered every seeded request to the surveyor with account
 * `userId` (the server's job runner does it within seconds of each request); returns how many
 * open leads they have. Throws after DISPATCH_WAIT_MS.
 */
async function waitForLeads(sql: postgres.Sql, userId: string): Promise<number> {
  const deadline = Date.now() + DISPATCH_WAIT_MS;
  for (;;) {
    const [{ n }] = await sql<{ n: number }[]>`
      select count(*)::int as n from lead_recipients lr
      join surveyors s on s.id = lr.surveyor_id
      join leads l on l.id = lr.lead_id
      where s.user_id = ${userId} and l.status = 'open'`;
    if (n >= TOTAL_REQUESTS) return n;
    if (Date.now() > deadline) {
      throw new Error(`dispatch offered ${n} of ${TOTAL_REQUESTS} leads in time`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Accounts straight into the server's database (the same connection `deno task user` makes,
 * so it works with the embedded database while the server holds it), sessions through
 * POST /api/login, requests through POST /api/surveys as each client.
 */
async function seed(server: Server, config: { DATABASE_URL?: string; DATA_DIR: string }) {
  const db = await openDatabase(config, { shareRunning: true });
  try {
    const passwordHash = await hashPassword(PASSWORD);
    const roles: Role[] = ["surveyor", "technician", "client"];
    for (let i = 0; i < DIRECTORY_USERS; i++) {
      await insertUser(db.sql, {
        email: `directory${i}@example.test`,
        fullName: `Directory Person ${i}`,
        role: roles[i % roles.length],
        passwordHash,
        companyName: i % 2 ? `Survey Co ${i}` : null,
        phone: i % 3 ? `(512) 555-01${String(i).padStart(2, "0")}` : null,
      });
    }
    await insertUser(db.sql, {
      email: "bench-admin@example.test",
      fullName: "Bench Admin",
      role: "admin",
      passwordHash,
    });
    // A surveyor in the network whose 50 miles cover Austin, where every seeded request is:
    // automatic dispatch (on by default) offers each request to them as a lead, so /leads
    // lists TOTAL_REQUESTS open leads. And the admin directory's records, none of them in
    // Texas's network (they would be offered every lead too and slow the seeding down).
    const surveyorUser = await insertUser(db.sql, {
      email: "bench-surveyor@example.test",
      fullName: "Sam Surveyor",
      role: "surveyor",
      passwordHash,
      companyName: "Bench Land Surveying",
    });
    const { insertSurveyor } = await import("../db/surveyors.ts");
    await insertSurveyor(db.sql, {
      companyName: "Bench Land Surveying",
      principalName: "Sam Surveyor",
      licenseNumber: "TX 6001",
      licenseStates: ["TX"],
      email: "bench-surveyor@example.test",
      address: "100 Congress Ave, Austin, TX 78701",
      city: "Austin",
      state: "TX",
      zip: "78701",
      lat: 30.2672,
      lng: -97.7431,
      serviceRadiusMiles: 50,
      surveyTypes: [
        "boundary",
        "topographic",
        "alta",
        "elevation_certificate",
        "construction",
        "subdivision",
      ],
      inNetwork: true,
      status: "active",
      userId: surveyorUser.id,
    });
    const { generateDemoSurveyors, loadDemoCities } = await import("../lib/demo_network.ts");
    const { insertGeneratedSurveyors } = await import("../lib/cli/seed.ts");
    const records = generateDemoSurveyors(await loadDemoCities(), {
      count: DIRECTORY_SURVEYORS,
      seed: 42,
    }).map((r) => ({
      ...r,
      history: [],
      fields: r.fields.licenseStates.includes("TX") && r.fields.status === "active"
        ? { ...r.fields, status: "paused" as const }
        : r.fields,
    }));
    await db.sql.begin((tx) => insertGeneratedSurveyors(tx, records, { isDemo: false }));
    await db.sql`vacuum analyze surveyors`;
    const extra = TOTAL_REQUESTS - DASHBOARD_SIZES.reduce<number>((a, b) => a + b, 0);
    const users = new Map<number, SessionUser>();
    for (const n of [...DASHBOARD_SIZES, extra]) {
      const user = await insertUser(db.sql, {
        email: `client-${n}@example.test`,
        fullName: `Dana Client${n}`,
        role: "client",
        passwordHash,
        phone: "(512) 555-0100",
      });
      users.set(n, toSessionUser(user));
    }
    const admin = await signIn(server, "bench-admin@example.test");
    const clients = new Map<number, string>();
    // The others' requests first, so the dashboard clients' are the newest on the admin page.
    await submitSurveys(server, await signIn(server, `client-${extra}@example.test`), extra);
    for (const n of DASHBOARD_SIZES) {
      const cookie = await signIn(server, `client-${n}@example.test`);
      clients.set(n, cookie);
      await submitSurveys(server, cookie, n);
    }
    const surveyorLeads = await waitForLeads(db.sql, surveyorUser.id);
    // Automatic dispatch creates the leads in whatever order its jobs run, and /leads lists
    // them newest first: each lead takes its request's time, so both sides of a --baseline run
    // list the same leads in the same order (the requests were submitted one after another).
    await db.sql`
      update leads l set created_at = s.created_at from surveys s where s.id = l.survey_id`;
    const surveyor = await signIn(server, "bench-surveyor@example.test");
    const dashboards: Seeded["dashboards"] = new Map();
    for (const n of DASHBOARD_SIZES) {
      const user = users.get(n)!;
      const { surveys } = await listSurveys(db.sql, { clientId: user.id, page: 1, pageSize: 10 });
      const events = await listSurveyEventsForSurveys(db.sql, {
        surveyIds: surveys.map((s) => s.id),
        viewer: user,
      });
      const { countUnreadNotifications } = await import("../db/notifications.ts");
      const unread = await countUnreadNotifications(db.sql, { userId: user.id });
      dashboards.set(n, { user, surveys, events, unread });
    }
    // Planner statistics as a running server has them: autovacuum (or, on PGlite and where
    // autovacuum is off, the server's own pass every minute, db/table_statistics.ts) would
    // have analyzed these tables soon after seeding; measured before that, every page is
    // planned on guesses.
    await db.sql`analyze`;
    return {
      cookies: { admin, clients, surveyor },
      surveyorLeads,
      surveyId: dashboards.get(3)!.surveys[0].id,
      dashboards,
    } satisfies Seeded;
  } finally {
    await db.close();
  }
}

/** One measured line of the table. */
interface Line {
  label: string;
  bytes: number;
  result: WrkResult;
  /** With a sampler: what the measured run allocated, and the sites that allocated most. */
  allocation?: { bytes: number; sites: AllocationSite[] };
}

async function measurePage(
  label: string,
  url: string,
  cookie?: string,
  server?: Server,
  sampler?: AllocationSampler,
): Promise<Line> {
  const res = await fetch(url, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  const body = new Uint8Array(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${label}: ${url} answered ${res.status}`);
  const warmUp = await wrk(url, cookie, "2s"); // JIT, caches, connection pools
  const before = server && await cpuTicks(server);
  await sampler?.start();
  const result = await wrk(url, cookie);
  const allocation = await sampler?.stop({
    top: ALLOC_TOP ?? (sampler.survivors ? 6 : 3),
    root: ROOT.pathname,
    byCaller: ALLOC_BY_CALLER,
  });
  if (server && before) {
    const after = await cpuTicks(server);
    result.cpuMsPerRequest = cpuMsBetween(before, after) / result.requests;
    result.serverCpuMsPerRequest = cpuMsBetween(
      new Map([[server.pid, before.get(server.pid) ?? 0]]),
      new Map([[server.pid, after.get(server.pid) ?? 0]]),
    ) / result.requests;
  }
  if (warmUp.errors) {
    result.errors = [result.errors, `warm-up: ${warmUp.errors}`].filter(Boolean).join("; ");
  }
  return { label, bytes: body.byteLength, result, allocation };
}

function printLine(line: Line, reference: { label: string; rps: number } | undefined): void {
  const { rps, meanMs, p99Ms, errors, cpuMsPerRequest, serverCpuMsPerRequest } = line.result;
  // The server's own share, when it has Postgres backends besides (on PGlite it is all of it).
  const own = serverCpuMsPerRequest === undefined || serverCpuMsPerRequest === cpuMsPerRequest
    ? ""
    : ` (server ${serverCpuMsPerRequest.toFixed(2)})`;
  const cpu = cpuMsPerRequest === undefined
    ? ""
    : `  cpu ${cpuMsPerRequest.toFixed(2)} ms/req${own}`;
  const ratio = reference ? `${(rps / reference.rps).toFixed(2)}×`.padStart(7) : "";
  console.log(
    `  ${line.label.padEnd(40)} ${(line.bytes / 1024).toFixed(1).padStart(6)} KB ${
      rps.toFixed(0).padStart(7)
    } req/s  mean ${meanMs.toFixed(1).padStart(6)} ms  p99 ${
      p99Ms.toFixed(1).padStart(6)
    } ms ${ratio}${cpu}${errors ? `  (${errors})` : ""}`,
  );
}

/** Least-squares slope of y over x. */
function slope(xs: readonly number[], ys: readonly number[]): number {
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return num / den;
}

/** Per dashboard size, the rendering costs the micro-bench measured (median ms per page). */
interface RenderCost {
  /** React `renderToString` of the whole tree, as today. */
  react: number;
  /** The same with number formatting served by a cached Intl.NumberFormat. */
  reactCached: number;
  /** Calling the server components and rendering the islands: work no renderer removes. */
  components: number;
  /** React rendering the already expanded host-element tree (the renderer's own share). */
  reactHost: number;
  /** preact-render-to-string rendering the same host-element tree. */
  preactHost: number;
  /** preact with the expansion done per render by this bench (an upper bound). */
  preactConverted: number;
  /** The island roots alone (React either way). */
  islands: number;
}

/**
 * Renders the client dashboard's real component tree (components/, the route's body rebuilt
 * from routes/survey_pages.tsx with createElement) in this process, sequentially, variants
 * interleaved round by round so drift hits them alike:
 *  - React `renderToString` of the whole tree, as components/render.tsx does today, and the
 *    same with cached number formatting;
 *  - the tree expanded once into host elements (server components called, each island rendered
 *    as its own React root and inlined as `<Island>` does): rendering that with React and with
 *    preact-render-to-string isolates what the renderer itself costs, since the component code
 *    runs the same under either;
 *  - preact with the expansion redone per render (calls the components, re-creates their output
 *    as preact vnodes): an upper bound, as with preact as the JSX runtime there is no copy.
 * Checks that the React tree here renders the markup the server sent, and that the preact
 * markup matches it up to serialisation details.
 */
async function renderMicroBench(
  seeded: Seeded,
  servedHtml: Map<number, string>,
): Promise<Map<number, RenderCost>> {
  const React = await import("react");
  const { renderToString } = await import("react-dom/server");
  const preact = await import("preact");
  const { renderToString: preactRenderToString } = await import("preact-render-to-string");
  const { AppLayout } = await import("../components/AppLayout.tsx");
  const { EmptyState, PageHeader, Pager } = await import("../components/AppPage.tsx");
  const { SurveyCard } = await import("../components/survey/SurveyCard.tsx");
  const { Island, IslandCollector, IslandContext, propsScript } = await import(
    "../components/Island.tsx"
  );
  const assets = await readManifest();
  if (!assets) throw new Error("No build manifest (static/build/manifest.json)");
  const e = React.createElement;
  type Collector = InstanceType<typeof IslandCollector>;
  type AnyElement = React.ReactElement<Record<string, unknown>>;
  type Dashboard = Seeded["dashboards"] extends Map<number, infer D> ? D : never;

  // Mirrors the /client-dashboard handler in routes/survey_pages.tsx (page 1).
  function dashboard(collector: Collector, { user, surveys, events, unread }: Dashboard) {
    const total = surveys.length;
    const newRequest = e(
      "a",
      { className: "btn btn--primary", href: "/create-survey" },
      "Request another survey",
    );
    const body = e(
      React.Fragment,
      null,
      e(PageHeader, {
        title: "My surveys",
        intro: "Track your requests from quote to final survey.",
        actions: total > 0 ? newRequest : undefined,
      }),
      total === 0
        ? e(EmptyState, {
          title: "No survey requests yet",
          action: e(
            "a",
            { className: "btn btn--primary", href: "/create-survey" },
            "Get a free quote",
          ),
          children:
            "Get an instant, free quote for your property in a few minutes. No payment needed.",
        })
        : e(
          "div",
          { className: "stack survey-list" },
          surveys.map((s) =>
            e(SurveyCard, { key: s.id, survey: s, events: events.get(s.id) ?? [] })
          ),
          e(Pager, { page: 1, total, pageSize: 10, path: "/client-dashboard" }),
        ),
    );
    return e(
      IslandContext.Provider,
      { value: collector },
      e(AppLayout, {
        user,
        isImpersonating: false,
        active: "/client-dashboard",
        initialUnread: unread,
        children: body,
      }),
    );
  }

  type Make = (type: string, props: Record<string, unknown>, children: unknown) => unknown;
  const makeReact: Make = (type, props, children) =>
    children === undefined ? e(type, props) : e(type, props, children as React.ReactNode);
  const makePreact: Make = (type, props, children) =>
    preact.h(type, props, children as import("preact").ComponentChildren);
  const islandRoots: { element: React.ReactElement; id: string }[] = [];

  // Server components are plain functions of their props (no hooks): calling them is what a
  // renderer does. <Island> is redone here as components/Island.tsx does it.
  function expand(node: unknown, collector: Collector, make: Make): unknown {
    if (node === null || node === undefined || typeof node === "boolean") return null;
    if (typeof node === "string" || typeof node === "number") return node;
    if (Array.isArray(node)) return node.map((n) => expand(n, collector, make));
    const { type, props } = node as AnyElement;
    if (type === React.Fragment || type === IslandContext.Provider || type === IslandContext) {
      return expand(props.children, collector, make);
    }
    if (type === Island) {
      const p = props as unknown as {
        component: React.ComponentType<object> & { displayName?: string };
        props: object;
        hydrate?: string;
        name?: string;
      };
      const name = p.name ?? p.component.displayName ?? p.component.name;
      const id = collector.nextId();
      collector.names.add(name);
      const element = e(p.component, p.props);
      islandRoots.push({ element, id });
      return [
        make("div", {
          "data-island": name,
          "data-id": id,
          "data-src": collector.src(name),
          "data-hydrate": p.hydrate ?? "idle",
          dangerouslySetInnerHTML: { __html: renderToString(element, { identifierPrefix: id }) },
        }, undefined),
        make("script", {
          type: "application/json",
          dangerouslySetInnerHTML: { __html: propsScript(JSON.stringify(p.props)) },
        }, undefined),
      ];
    }
    if (typeof type === "function") {
      return expand((type as (p: unknown) => unknown)(props), collector, make);
    }
    if (typeof type === "string") {
      const { children, ...rest } = props;
      return make(
        type,
        rest,
        children === undefined ? undefined : expand(children, collector, make),
      );
    }
    throw new Error(`unexpected element type ${String(type)}`);
  }

  // Number#toLocaleString("en-US") builds a new Intl.NumberFormat on every call in V8 (~50 µs);
  // this stand-in reuses one per locale, to estimate what caching the formatters would save
  // without touching the components. Installed only around the variants that say so.
  const nativeToLocaleString = Number.prototype.toLocaleString;
  const formats = new Map<string, Intl.NumberFormat>();
  function cachedToLocaleString(this: number, locales?: unknown, options?: unknown): string {
    if (options !== undefined || typeof locales !== "string") {
      return nativeToLocaleString.call(
        this,
        locales as string,
        options as Intl.NumberFormatOptions,
      );
    }
    let format = formats.get(locales);
    if (!format) formats.set(locales, format = new Intl.NumberFormat(locales));
    return format.format(this);
  }
  function withCachedFormats<T>(run: () => T): T {
    Number.prototype.toLocaleString = cachedToLocaleString as typeof nativeToLocaleString;
    try {
      return run();
    } finally {
      Number.prototype.toLocaleString = nativeToLocaleString;
    }
  }

  const normalise = (html: string) =>
    html.replaceAll("<!-- -->", "").replace(/ style="([^"]*);"/g, ' style="$1"')
      .replace(/ ([a-zA-Z-]+)=""/g, " $1");
  const firstDifference = (a: string, b: string) => {
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    return `at ${i}: …${a.slice(i - 40, i + 60)}… vs …${b.slice(i - 40, i + 60)}…`;
  };

  const costs = new Map<number, RenderCost>();
  console.log(
    `\n## Render micro-bench: the client dashboard's tree in process (${RENDER_ITERATIONS} ` +
      "rounds after 50 warm-up, variants interleaved; median ms per page, mean in brackets)",
  );
  for (const n of DASHBOARD_SIZES) {
    const data = seeded.dashboards.get(n)!;
    const newCollector = () => new IslandCollector(assets.islands);
    // The page as renderPage writes it.
    const renderReact = () => renderToString(dashboard(newCollector(), data));
    const reactHtml = renderReact();
    const hostCollector = newCollector();
    const hostReact = expand(dashboard(newCollector(), data), hostCollector, makeReact);
    islandRoots.length = 0;
    const preactCollector = newCollector();
    const hostPreact = expand(dashboard(newCollector(), data), preactCollector, makePreact);
    const roots = [...islandRoots];
    const preactHtml = preactRenderToString(hostPreact as never);
    const hostReactHtml = renderToString(hostReact as React.ReactElement);
    const variants: Record<keyof RenderCost, () => unknown> = {
      react: renderReact,
      reactCached: () => withCachedFormats(renderReact),
      components: () => expand(dashboard(newCollector(), data), newCollector(), makeReact),
      reactHost: () => renderToString(hostReact as React.ReactElement),
      preactHost: () => preactRenderToString(hostPreact as never),
      preactConverted: () => {
        const collector = newCollector();
        return preactRenderToString(
          expand(dashboard(collector, data), collector, makePreact) as never,
        );
      },
      islands: () => {
        for (const { element, id } of roots) renderToString(element, { identifierPrefix: id });
      },
    };
    const samples = Object.fromEntries(
      Object.keys(variants).map((k) => [k, [] as number[]]),
    ) as Record<keyof RenderCost, number[]>;
    for (let round = -50; round < RENDER_ITERATIONS; round++) {
      for (const [name, run] of Object.entries(variants) as [keyof RenderCost, () => unknown][]) {
        const start = performance.now();
        run();
        if (round >= 0) samples[name].push(performance.now() - start);
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const cost = Object.fromEntries(
      Object.entries(samples).map(([k, xs]) => [k, median(xs)]),
    ) as unknown as RenderCost;
    costs.set(n, cost);
    const fig = (k: keyof RenderCost) => `${cost[k].toFixed(3)} (${mean(samples[k]).toFixed(3)})`;
    console.log(`  ${n} requests, ${(reactHtml.length / 1024).toFixed(1)} KB of body HTML:`);
    console.log(
      `    React today ${fig("react")}; with cached number formatting ${fig("reactCached")}`,
    );
    console.log(
      `    components + ${roots.length} island roots ${fig("components")} (islands alone ${
        fig("islands")
      })`,
    );
    console.log(
      `    renderer only, same host tree: React ${fig("reactHost")}, preact ${fig("preactHost")} (${
        (cost.reactHost / cost.preactHost).toFixed(2)
      }×); preact converting per render ${fig("preactConverted")}`,
    );
    if (!(servedHtml.get(n) ?? "").includes(`<body class="app">${reactHtml}</body>`)) {
      console.log("    note: this React tree does not render the served page's body");
    }
    if (withCachedFormats(renderReact) !== reactHtml) {
      console.log("    note: cached formatting changed the markup");
    }
    if (normalise(hostReactHtml) !== normalise(reactHtml)) {
      console.log(
        `    note: host tree markup differs ${firstDifference(reactHtml, hostReactHtml)}`,
      );
    }
    if (normalise(preactHtml) !== normalise(reactHtml)) {
      console.log(
        `    note: preact markup differs ${
          firstDifference(normalise(reactHtml), normalise(preactHtml))
        }`,
      );
    }
  }
  console.log(
    "  Checked: the React tree renders the served page's <body>; the host tree and preact " +
      "render the same markup up to React's <!-- --> text separators, trailing style " +
      "semicolons and empty-string attribute values (notes above otherwise).",
  );
  return costs;
}

const UUID_PATTERN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Firm profile paths end in the first 8 hex digits of the firm's id (lib/firm_slug.ts). */
const FIRM_PATH_PATTERN = /(\/firms\/(?:[a-z0-9-]*-)?)[0-9a-f]{8}(?![a-z0-9-])/g;
/** Built asset names: their content hashes differ between two checkouts' builds. */
const BUILD_ASSET_PATTERN = /\/static\/build\/[\w.-]+/g;
/**
 * Moments the two sides were seeded at (they are seeded minutes apart): ISO timestamps, times of
 * day ("7:42 AM", "07:42:13") and relative ages ("3 minutes ago"). Dates stay compared.
 */
const MOMENT_PATTERN =
  /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?|\b\d{1,2}:\d{2}(?::\d{2})?\b|\b(?:\d+|an?) (?:second|minute|hour)s? ago\b/g;

/** Where two pages first differ: a few characters of each from there. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const at = Math.max(0, i - 20);
  return `at ${i}: old "${a.slice(at, i + 40)}", new "${b.slice(at, i + 40)}"`;
}

/** A page with what differs between two equally seeded servers (ids, assets, moments) masked. */
function comparable(html: string): string {
  return html.replace(UUID_PATTERN, "<id>").replace(FIRM_PATH_PATTERN, "$1<id>")
    .replace(BUILD_ASSET_PATTERN, "/static/build/<asset>").replace(MOMENT_PATTERN, "<moment>");
}

async function describeCheckout(dir: string): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-C", dir, "log", "-1", "--format=%h %s"],
    stdout: "piped",
    stderr: "null",
  }).output().catch(() => undefined);
  const line = out?.success ? new TextDecoder().decode(out.stdout).trim() : "";
  return line.length > 70 ? `${line.slice(0, 69)}…` : line || "not a git checkout";
}

/**
 * Starts the server of the checkout in `dir` beside `current` (each on its own scratch
 * database, seeded alike) and measures the signed-in pages on both, interleaved old, new, new,
 * old so that drift from the other work on the machine hits both alike.
 */
async function baselineRun(dir: string, current: Server, seeded: Seeded): Promise<void> {
  const root = dir.endsWith("/") ? dir : `${dir}/`;
  console.log(`\n## Side by side with the baseline checkout ${root}`);
  if (!(await exists(`${root}main.ts`))) {
    console.log("  no main.ts there; skipped");
    return;
  }
  const build = await new Deno.Command(Deno.execPath(), {
    args: [...DENO_RUN, "dev.ts", "build"],
    cwd: root,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!build.success) {
    console.log(`  its island build failed; skipped:\n${new TextDecoder().decode(build.stderr)}`);
    return;
  }
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-bench-signed-in-old-" });
  const scratch = await scratchDatabase(scratchPrefix("signed_in_old"));
  const old = await startServer({ dataDir, databaseUrl: scratch.url, root });
  let churn: ReturnType<typeof startChurn> | undefined;
  try {
    const oldSeeded = await seed(old, { DATABASE_URL: scratch.url, DATA_DIR: dataDir });
    console.log(`  old: ${await describeCheckout(root)}`);
    console.log(`  new: ${await describeCheckout(ROOT.pathname)}`);
    console.log(
      "  each figure the mean of two wrk runs (old, new, new, old); CPU/request = the server " +
        "process and its Postgres backends; same HTML = both sent the same page, ids, asset " +
        "names and times aside",
    );
    // GET /api/user first: each side's floor for issue 23's ratio (page CPU ÷ the floor's).
    const pages = [
      {
        label: "GET /api/user (session only)",
        path: () => "/api/user",
        cookie: (s: Seeded) => s.cookies.clients.get(3)!,
      },
      ...DASHBOARD_SIZES.map((n) => ({
        label: `/client-dashboard (${n} requests)`,
        path: () => "/client-dashboard",
        cookie: (s: Seeded) => s.cookies.clients.get(n)!,
      })),
      {
        label: "/survey/{id} (client's own)",
        path: (s: Seeded) => `/survey/${s.surveyId}`,
        cookie: (s: Seeded) => s.cookies.clients.get(3)!,
      },
      ...(BASELINE_ALL_PAGES
        ? [
          {
            label: "/survey/{id} (admin)",
            path: (s: Seeded) => `/survey/${s.surveyId}`,
            cookie: (s: Seeded) => s.cookies.admin,
          },
          {
            label: `/admin-dashboard (20 of ${TOTAL_REQUESTS})`,
            path: () => "/admin-dashboard",
            cookie: (s: Seeded) => s.cookies.admin,
          },
          {
            label: "/admin (users, first 25)",
            path: () => "/admin",
            cookie: (s: Seeded) => s.cookies.admin,
          },
          {
            label: "/leads (surveyor)",
            path: () => "/leads",
            cookie: (s: Seeded) => s.cookies.surveyor,
          },
          {
            label: "/surveyors (directory)",
            path: () => "/surveyors",
            cookie: (s: Seeded) => s.cookies.admin,
          },
        ]
        : []),
    ].filter(({ label }, i) =>
      i === 0 || !BASELINE_PAGES || BASELINE_PAGES.some((part) => label.includes(part))
    );
    churn = churnIfAsked([scratch.url, urlOf(current)]);
    let floor: { old: number; new: number } | undefined;
    const rps = { old: [] as number[], new: [] as number[] };
    const cpu = { old: [] as number[], new: [] as number[] };
    for (const page of pages) {
      const sides = [
        { server: old, seeded: oldSeeded },
        { server: current, seeded },
      ];
      const [oldUrl, newUrl] = sides.map((x) => `${x.server.url}${page.path(x.seeded)}`);
      const [oldCookie, newCookie] = sides.map((x) => page.cookie(x.seeded));
      const [oldHtml, newHtml] = await Promise.all(
        [[oldUrl, oldCookie], [newUrl, newCookie]].map(async ([url, cookie]) =>
          comparable(await (await fetch(url, { headers: { cookie } })).text())
        ),
      );
      const a1 = await measurePage(page.label, oldUrl, oldCookie, old);
      const b1 = await measurePage(page.label, newUrl, newCookie, current);
      const b2 = await measurePage(page.label, newUrl, newCookie, current);
      const a2 = await measurePage(page.label, oldUrl, oldCookie, old);
      const oldRps = (a1.result.rps + a2.result.rps) / 2;
      const newRps = (b1.result.rps + b2.result.rps) / 2;
      const oldCpu = (a1.result.cpuMsPerRequest! + a2.result.cpuMsPerRequest!) / 2;
      const newCpu = (b1.result.cpuMsPerRequest! + b2.result.cpuMsPerRequest!) / 2;
      // The server process alone: a Postgres plan that differs between the two scratch
      // databases (statistics, autovacuum) moves the total by more than the app's own change.
      const oldServer = (a1.result.serverCpuMsPerRequest! + a2.result.serverCpuMsPerRequest!) / 2;
      const newServer = (b1.result.serverCpuMsPerRequest! + b2.result.serverCpuMsPerRequest!) / 2;
      rps.old.push(oldRps);
      rps.new.push(newRps);
      cpu.old.push(oldCpu);
      cpu.new.push(newCpu);
      const errors = [a1, a2, b1, b2].map((l) => l.result.errors).filter(Boolean).join("; ");
      console.log(
        `  ${page.label.padEnd(34)} ${(b1.bytes / 1024).toFixed(1).padStart(5)} KB  old ${
          oldRps.toFixed(0).padStart(5)
        } req/s (${a1.result.rps.toFixed(0)}, ${a2.result.rps.toFixed(0)})  new ${
          newRps.toFixed(0).padStart(5)
        } req/s (${b1.result.rps.toFixed(0)}, ${b2.result.rps.toFixed(0)})  ${
          (newRps / oldRps).toFixed(2)
        }×;  CPU/request old ${oldCpu.toFixed(2)} ms, new ${newCpu.toFixed(2)} ms  ${
          (oldCpu / newCpu).toFixed(2)
        }× (server alone old ${oldServer.toFixed(2)}, new ${newServer.toFixed(2)})  same HTML: ${
          oldHtml === newHtml ? "yes" : `NO (${firstDifference(oldHtml, newHtml)})`
        }${
          floor
            ? `;  × GET /api/user: old ${(oldCpu / floor.old).toFixed(1)}, new ${
              (newCpu / floor.new).toFixed(1)
            };  own cost (minus GET /api/user): old ${(oldCpu - floor.old).toFixed(2)} ms, new ${
              (newCpu - floor.new).toFixed(2)
            } ms, ${((oldCpu - floor.old) / (newCpu - floor.new)).toFixed(2)}×`
            : ""
        }${errors ? `  (${errors})` : ""}`,
      );
      floor ??= { old: oldCpu, new: newCpu };
    }
    const xs = [...DASHBOARD_SIZES];
    const perCard = (list: number[]) =>
      slope(xs, list.slice(1, xs.length + 1).map((r) => 1000 / r)).toFixed(3);
    console.log(
      `  cost per request card (slope of 1000/req·s over ${xs.join("/")}): old ${
        perCard(rps.old)
      } ms, new ${perCard(rps.new)} ms; by CPU per request: old ${
        slope(xs, cpu.old.slice(1, xs.length + 1)).toFixed(3)
      } ms, new ${slope(xs, cpu.new.slice(1, xs.length + 1)).toFixed(3)} ms`,
    );
  } finally {
    await churn?.stop();
    await old.stop();
    await scratch.drop();
    await Deno.remove(dataDir, { recursive: true });
  }
}

/** Headers that differ per response or per transfer: not the page's own, so not copied. */
const PER_RESPONSE_HEADERS = new Set([
  "connection",
  "content-encoding",
  "content-length",
  "content-type",
  "date",
  "keep-alive",
  "set-cookie",
  "transfer-encoding",
  "vary",
  "x-request-id",
]);

/** A response's headers but those of `PER_RESPONSE_HEADERS`, sorted by name. */
function pageHeaders(res: Response): [string, string][] {
  return [...res.headers].filter(([name]) => !PER_RESPONSE_HEADERS.has(name)).sort();
}

/** A framework's dashboard beside Meridian's, and issue 23's goal for it. */
interface Framework {
  name: string;
  server: Server;
  description: string;
  /** Meridian's CPU per request at most this multiple of the framework's (none: the floor). */
  goal?: number;
}

/**
 * Issue 23's comparison: each dashboard client's /client-dashboard on Meridian and on the same
 * dashboard built with Astro 5 SSR (bench/_astro_dashboard.ts, `astro`) and/or Next.js 16
 * (bench/_next_dashboard.ts, `next`), all on the scratch database, measured interleaved
 * (Meridian, Astro, Next, Next, Astro, Meridian) with the CPU of each server process and its
 * own Postgres backends (told apart by application_name). Prints whether each sent the same
 * visible markup (`visibleMarkup`) and island props as Meridian, and the same headers; a size
 * whose markup differs gets no ratio. BENCH_DASHBOARD_CHECK=1: the checks alone, no wrk.
 */
async function frameworkDashboardRun(
  server: Server,
  seeded: Seeded,
  databaseUrl: string | undefined,
  { astro: withAstro, next: withNext, floor: withFloor }: {
    astro: boolean;
    next: boolean;
    floor: boolean;
  },
  dataDir: string,
) {
  const names = [
    withAstro ? "Astro 5 SSR" : "",
    withNext ? "Next.js 16" : "",
    withFloor ? "a bare Deno.serve (the floor)" : "",
  ].filter(Boolean);
  const goals = [withAstro ? "0.33× Astro's" : "", withNext ? "0.10× Next's" : ""]
    .filter(Boolean);
  console.log(
    `\n## /client-dashboard beside the same dashboard on ${names.join(" and ")}${
      goals.length ? ` (issue 23: Meridian's CPU per request ≤ ${goals.join(", ≤ ")})` : ""
    }`,
  );
  if (!databaseUrl || !server.database) {
    console.log("  needs Postgres (DATABASE_URL): all sides share its database; skipped");
    return;
  }
  const setup = await dashboardSetup(server, seeded, databaseUrl);
  const { headers } = setup;
  const frameworks: Framework[] = [];
  let churn: ReturnType<typeof startChurn> | undefined;
  const applications = [ASTRO_APPLICATION_NAME, NEXT_APPLICATION_NAME, FLOOR_APPLICATION_NAME];
  const add =
    (name: string, goal: number | undefined, application: string) =>
    (started: { url: string; pid: number; description: string; stop(): Promise<void> }) =>
      frameworks.push({
        name,
        goal,
        description: started.description,
        server: {
          url: started.url,
          pid: started.pid,
          database: server.database,
          application: { names: [application], isOwn: true },
          stop: () => started.stop(),
        },
      });
  try {
    if (withAstro) {
      const started = await startAstroDashboard(setup);
      if (started) add("Astro", 0.33, ASTRO_APPLICATION_NAME)(started);
    }
    if (withNext) {
      const started = await startNextDashboard(setup);
      if (started) add("Next", 0.10, NEXT_APPLICATION_NAME)(started);
    }
    if (withFloor && CHURN_KIND) {
      console.log("  the floor: not measured under BENCH_CHURN (it renders nothing; quiet only)");
    } else if (withFloor) {
      const started = await startFloorDashboard(setup, {
        kvPath: `${dataDir}/kv.sqlite3`,
        meridianUrl: server.url,
      });
      add("Floor", undefined, FLOOR_APPLICATION_NAME)(started);
    }
    if (frameworks.length === 0) return;
    const meridian: Server = { ...server, application: { names: applications, isOwn: false } };
    const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
    const order = ["Meridian", ...frameworks.map((f) => f.name)];
    for (const f of frameworks) console.log(`  ${f.name}: ${f.description} (${f.server.url})`);
    console.log(
      `  load average before: ${load}; each figure the mean of ${
        DASHBOARD_ROUNDS > 1 ? `${DASHBOARD_ROUNDS} rounds of ` : ""
      }two wrk runs (${
        [...order, ...order.toReversed()].join(", ")
      }); CPU = the server process and its own Postgres backends`,
    );
    console.log(
      `  headers copied from Meridian's dashboard: ${headers.map(([n]) => n).join(", ")}`,
    );
    // BENCH_CHURN=1: both sides read and render their page again after each commit, as they do
    // after a write; both remember it otherwise (the frameworks' pages call Meridian's db functions),
    // and Meridian and Astro send an unchanged page as they sent it (Next renders every view).
    churn = DASHBOARD_CHECK_ONLY ? undefined : churnIfAsked([databaseUrl]);
    for (const n of ASTRO_DASHBOARD_SIZES) {
      const cookie = seeded.cookies.clients.get(n)!;
      const label = `/client-dashboard (${n} requests)`;
      const sides = [meridian, ...frameworks.map((f) => f.server)];
      const responses = await Promise.all(
        sides.map((side) => fetch(`${side.url}/client-dashboard`, { headers: { cookie } })),
      );
      const pages = await Promise.all(responses.map((r) => r.text()));
      const [mine, ...theirs] = pages.map(visibleMarkup);
      if (DASHBOARD_DUMP) {
        await Deno.mkdir(DASHBOARD_DUMP, { recursive: true });
        for (const [i, name] of order.entries()) {
          const file = `${DASHBOARD_DUMP}/${name.toLowerCase()}-${n}`;
          await Deno.writeTextFile(`${file}.html`, pages[i]);
          const seen = [mine, ...theirs][i];
          await Deno.writeTextFile(`${file}.visible.html`, `${seen.markup}\n\n${seen.plain}\n`);
          await Deno.writeTextFile(`${file}.props.json`, seen.props.join("\n"));
        }
      }
      const checks = frameworks.map((f, i) => {
        const other = theirs[i];
        // Next has no island wrapper: compared as `plain`, its islands' markup without one.
        const [a, b] = f.name === "Next" ? [mine.plain, other.plain] : [mine.markup, other.markup];
        const isSameMarkup = a === b;
        const isSameProps = mine.props.join("\n") === other.props.join("\n");
        const sameHeaders = JSON.stringify(pageHeaders(responses[0])) ===
          JSON.stringify(pageHeaders(responses[i + 1]));
        const differentHeaders = sameHeaders
          ? ""
          : ` (Meridian ${JSON.stringify(pageHeaders(responses[0]))}, ${f.name} ${
            JSON.stringify(pageHeaders(responses[i + 1]))
          })`;
        console.log(
          `  ${label} ${f.name}: same visible markup: ${
            isSameMarkup ? "yes" : `NO (${markupDifference(a, b, ["Meridian", f.name])})`
          }; same island props (${mine.props.length}/${other.props.length} islands): ${
            isSameProps
              ? "yes"
              : `NO (${
                markupDifference(mine.props.join("\n"), other.props.join("\n"), [
                  "Meridian",
                  f.name,
                ])
              })`
          }; same headers: ${sameHeaders ? "yes" : `NO${differentHeaders}`}; status ${
            responses[0].status
          }/${responses[i + 1].status}; HTML Meridian ${
            (pages[0].length / 1024).toFixed(1)
          } KB, ${f.name} ${(pages[i + 1].length / 1024).toFixed(1)} KB`,
        );
        return isSameMarkup;
      });
      if (DASHBOARD_CHECK_ONLY) continue;
      const page = (side: Server) =>
        measurePage(label, `${side.url}/client-dashboard`, cookie, side);
      const commitsBefore = churn?.commits() ?? 0;
      const measuredFrom = performance.now();
      // Each round runs every side forward, then in reverse (ABBA); Meridian's ratio is taken
      // within each round, and with more than one round their median and range are printed too.
      const rounds: { first: Line[]; second: Line[] }[] = [];
      for (let r = 0; r < DASHBOARD_ROUNDS; r++) {
        const first: Line[] = [];
        for (const side of sides) first.push(await page(side));
        const second: Line[] = [];
        for (const side of sides.toReversed()) second.unshift(await page(side));
        rounds.push({ first, second });
      }
      const runs = rounds.flatMap((round) => [...round.first, ...round.second]);
      // Every run's figure for side i, in the order run within each round.
      const each = (i: number, f: (r: WrkResult) => number, digits = 2) =>
        rounds.flatMap((round) => [round.first[i], round.second[i]])
          .map((line) => f(line.result).toFixed(digits)).join(", ");
      const roundMean = (
        round: { first: Line[]; second: Line[] },
        i: number,
        f: (r: WrkResult) => number,
      ) => (f(round.first[i].result) + f(round.second[i].result)) / 2;
      const mean = (i: number, f: (r: WrkResult) => number) =>
        rounds.reduce((sum, round) => sum + roundMean(round, i, f), 0) / rounds.length;
      const cpu = sides.map((_, i) => mean(i, (r) => r.cpuMsPerRequest!));
      const own = sides.map((_, i) => mean(i, (r) => r.serverCpuMsPerRequest!));
      const rps = sides.map((_, i) => mean(i, (r) => r.rps));
      const errors = runs.map((l) => l.result.errors).filter(Boolean);
      const commitRate = churn
        ? `; the churn's commits/s ${
          ((churn.commits() - commitsBefore) / ((performance.now() - measuredFrom) / 1000))
            .toFixed(0)
        }`
        : "";
      console.log(
        `  ${label}: CPU/request ${
          order.map((name, i) =>
            `${name} ${cpu[i].toFixed(2)} ms (${each(i, (r) => r.cpuMsPerRequest!)}; server ${
              own[i].toFixed(2)
            })`
          ).join(", ")
        }; req/s ${
          order.map((name, i) => `${name} ${rps[i].toFixed(0)} (${each(i, (r) => r.rps, 0)})`).join(
            ", ",
          )
        }${commitRate}${errors.length ? `  (${errors.join("; ")})` : ""}`,
      );
      // Meridian's CPU over side i's in each round: median and range (more than one round).
      const perRound = (i: number) => {
        if (rounds.length < 2) return "";
        const ratios = rounds.map((round) =>
          roundMean(round, 0, (r) => r.cpuMsPerRequest!) /
          roundMean(round, i + 1, (r) => r.cpuMsPerRequest!)
        );
        return ` (median of ${rounds.length} rounds ${median(ratios).toFixed(2)}×, ${
          Math.min(...ratios).toFixed(2)
        }–${Math.max(...ratios).toFixed(2)})`;
      };
      console.log(
        `    Meridian's CPU per request: ${
          frameworks.map((f, i) =>
            !checks[i]
              ? `— × ${f.name}'s (markup differs)`
              : f.goal === undefined
              ? `${(cpu[0] / cpu[i + 1]).toFixed(2)}× the floor's${perRound(i)}`
              : `${(cpu[0] / cpu[i + 1]).toFixed(2)}× ${f.name}'s${perRound(i)} (goal ≤ ${
                f.goal.toFixed(2)
              }×)`
          ).join(", ")
        }${floorShare(frameworks, cpu)}`,
      );
    }
    const after = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
    console.log(`  load average after: ${after}`);
  } finally {
    await churn?.stop();
    for (const f of frameworks) await f.server.stop();
  }
}

/**
 * The floor's CPU as a multiple of each framework's ("; the floor's 0.45× Astro's"): how far
 * below a framework's cost a server doing only what the view needs gets. `cpu[0]` is Meridian's.
 */
function floorShare(frameworks: Framework[], cpu: number[]): string {
  const floor = frameworks.findIndex((f) => f.goal === undefined);
  if (floor < 0) return "";
  const shares = frameworks.flatMap((f, i) =>
    f.goal === undefined ? [] : [`${(cpu[floor + 1] / cpu[i + 1]).toFixed(2)}× ${f.name}'s`]
  );
  return shares.length ? `; the floor's ${shares.join(", ")}` : "";
}

/** Who `--as` signs in as for a profile run. */
const PROFILE_ROLES = {
  admin: "the admin",
  client: "the 3-request client",
  client0: "the client without requests",
  client10: "the 10-request client",
  surveyor: "the surveyor",
};

async function profileRun(profileDir: string, given: string, role?: string) {
  const pathname = new URL(given, "http://x").pathname;
  if (role !== undefined && !Object.hasOwn(PROFILE_ROLES, role)) {
    throw new Error(`--as ${role}: expected one of ${Object.keys(PROFILE_ROLES).join(", ")}`);
  }
  const as = role
    ? PROFILE_ROLES[role as keyof typeof PROFILE_ROLES]
    : pathname.startsWith("/admin") || pathname === "/surveyors"
    ? "the admin"
    : pathname === "/leads"
    ? "the surveyor"
    : "the 3-request client";
  await Deno.mkdir(profileDir, { recursive: true });
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-bench-signed-in-" });
  const scratch = await scratchDatabase(scratchPrefix("signed_in"));
  const server = await startServer({ dataDir, databaseUrl: scratch.url, profileDir });
  const started = Date.now();
  let stopped = false;
  try {
    const seeded = await seed(server, { DATABASE_URL: scratch.url, DATA_DIR: dataDir });
    // The seeded survey's id is known only now: `/survey/{id}` names it.
    const path = given.replace("{id}", seeded.surveyId);
    // With BENCH_CHURN, the profile is of the page under that churn (the churn's own backend
    // and process are not in it).
    const churn = churnIfAsked([urlOf(server)]);
    const line = await measurePage(
      path,
      `${server.url}${path}`,
      as === "the admin"
        ? seeded.cookies.admin
        : as === "the surveyor"
        ? seeded.cookies.surveyor
        : as === "the 10-request client"
        ? seeded.cookies.clients.get(10)
        : as === "the client without requests"
        ? seeded.cookies.clients.get(0)
        : seeded.cookies.clients.get(3),
      server,
    ).finally(() => churn?.stop());
    console.log(
      `# CPU profile of ${path} as ${as}, ${scratch.url ? "Postgres" : "PGlite"}`,
    );
    printLine(line, undefined);
    // wrk leaves up to CONNECTIONS requests in the server's hands; let them finish, or the
    // shutdown closes KV and the pool under them. The idle gap is not busy time.
    await new Promise((r) => setTimeout(r, 2000));
    await server.stop("SIGINT");
    stopped = true;
    const files = [];
    for await (const f of Deno.readDir(profileDir)) {
      if (!f.name.endsWith(".cpuprofile")) continue;
      const stat = await Deno.stat(`${profileDir}/${f.name}`);
      if ((stat.mtime?.getTime() ?? 0) >= started) files.push(`${profileDir}/${f.name}`);
    }
    if (files.length === 0) throw new Error(`no .cpuprofile written to ${profileDir}`);
    const file = files.sort().at(-1)!;
    console.log(
      `  profile: ${file} (summary of the last ${DURATION}: the measured run, its drain, shutdown)`,
    );
    const profile = JSON.parse(await Deno.readTextFile(file));
    printProfileSummary(summarizeProfile(profile, { lastMs: durationMs(DURATION) }));
  } finally {
    if (!stopped) await server.stop();
    await adminSql?.end();
    adminSql = undefined;
    await scratch.drop();
    await Deno.remove(dataDir, { recursive: true });
  }
}

/** A page the main table measures, as whom; `dashboardSize` for the client dashboards. */
export interface MeasuredPage {
  label: string;
  url: string;
  cookie?: string;
  dashboardSize?: number;
}

/** The pages of the main table (and of `--alloc`), in its order. */
function pagesToMeasure(server: Server, seeded: Seeded): MeasuredPage[] {
  const { clients, admin, surveyor } = seeded.cookies;
  return [
    { label: "Meridian / (signed out, from memory)", url: `${server.url}/` },
    {
      label: "GET /api/user (session only)",
      url: `${server.url}/api/user`,
      cookie: clients.get(3),
    },
    {
      label: "GET /api/surveys (session + list, JSON)",
      url: `${server.url}/api/surveys?pageSize=10`,
      cookie: clients.get(3),
    },
    ...DASHBOARD_SIZES.map((n) => ({
      label: `/client-dashboard (${n} requests)`,
      url: `${server.url}/client-dashboard`,
      cookie: clients.get(n),
      dashboardSize: n,
    })),
    {
      label: "/survey/{id} (client's own)",
      url: `${server.url}/survey/${seeded.surveyId}`,
      cookie: clients.get(3),
    },
    {
      label: "/survey/{id} (admin: dispatch panel, map)",
      url: `${server.url}/survey/${seeded.surveyId}`,
      cookie: admin,
    },
    {
      label: `/admin-dashboard (20 of ${TOTAL_REQUESTS})`,
      url: `${server.url}/admin-dashboard`,
      cookie: admin,
    },
    { label: "/admin (users, first 25)", url: `${server.url}/admin`, cookie: admin },
    {
      label: `/leads (surveyor, first 20 of ${seeded.surveyorLeads} open)`,
      url: `${server.url}/leads`,
      cookie: surveyor,
    },
    {
      label: `/surveyors (directory, first page of ${DIRECTORY_SURVEYORS.toLocaleString("en-US")})`,
      url: `${server.url}/surveyors`,
      cookie: admin,
    },
  ];
}

/**
 * A server of this checkout (with `extraArgs` after the start task's) on a scratch database,
 * seeded, for `run`; stopped and dropped after it, whatever it did.
 */
async function withSeededServer(
  extraArgs: string[],
  run: (
    server: Server,
    seeded: Seeded,
    database: string,
    config: { DATABASE_URL?: string; DATA_DIR: string },
  ) => Promise<void>,
): Promise<void> {
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-bench-signed-in-" });
  const scratch = await scratchDatabase(scratchPrefix("signed_in"));
  const server = await startServer({ dataDir, databaseUrl: scratch.url, extraArgs });
  try {
    const config = { DATABASE_URL: scratch.url, DATA_DIR: dataDir };
    const seeded = await seed(server, config);
    await run(server, seeded, scratch.url ? "Postgres" : "PGlite", config);
  } finally {
    await server.stop().catch(() => {});
    await adminSql?.end();
    adminSql = undefined;
    await scratch.drop();
    await Deno.remove(dataDir, { recursive: true });
  }
}

/** What the frameworks' dashboards and the floor are set up with, read from Meridian's server. */
async function dashboardSetup(
  server: Server,
  seeded: Seeded,
  databaseUrl: string,
): Promise<DashboardSetup> {
  const probe = await fetch(`${server.url}/client-dashboard`, {
    headers: { cookie: seeded.cookies.clients.get(3)! },
  });
  await probe.body?.cancel();
  const assets = await readManifest();
  if (!assets) throw new Error("No build manifest (static/build/manifest.json)");
  const { CLIENT_PAGE_SIZE } = await import("../routes/survey_pages.tsx");
  const { ROLE_NAV } = await import("../components/AppLayout.tsx");
  return {
    databaseUrl,
    sessions: ASTRO_DASHBOARD_SIZES.map((n) => ({
      cookie: seeded.cookies.clients.get(n)!,
      userId: seeded.dashboards.get(n)!.user.id,
    })),
    headers: pageHeaders(probe),
    css: assets.css,
    pageSize: CLIENT_PAGE_SIZE,
    roleNav: ROLE_NAV,
  };
}

/** `--paired`: rounds per page, and each side's run in a round. */
export const PAIRED_ROUNDS = Number(Deno.env.get("BENCH_PAIRED_ROUNDS") ?? 4);
export const PAIRED_DURATION = Deno.env.get("BENCH_PAIRED_DURATION") ?? "2s";

/** CPU per request (server and its Postgres backends) of one wrk run of `page`. */
export async function cpuPerRequest(server: Server, page: MeasuredPage): Promise<number> {
  return (await cpuRun(server, page)).cpu;
}

/** One wrk run of `page`: its requests, and the CPU per request as `cpuPerRequest` gives it. */
async function cpuRun(
  server: Server,
  page: MeasuredPage,
): Promise<{ cpu: number; requests: number }> {
  const before = await cpuTicks(server);
  const result = await wrk(page.url, page.cookie, PAIRED_DURATION);
  const after = await cpuTicks(server);
  if (result.errors) throw new Error(`${page.label}: ${result.errors}`);
  return { cpu: cpuMsBetween(before, after) / result.requests, requests: result.requests };
}

/**
 * `--paired`: issue 23's ratio, each page's CPU per request as a multiple of GET /api/user's,
 * measured in adjacent runs. The main table measures GET /api/user once and every page minutes
 * later, and on a shared machine the cost of everything moves by a fifth between the two (the
 * same /leads read 4.8× and 7.9× in two runs of one afternoon). Here each page and GET
 * /api/user alternate (BENCH_PAIRED_ROUNDS rounds, the floor first in odd rounds and second in
 * even ones, BENCH_PAIRED_DURATION each, after a warm-up of both), the ratio is taken within
 * each round, and the median and the range of the rounds are printed: what the machine does to
 * both sides of a round cancels out.
 */
async function pairedRun() {
  await withSeededServer([], async (server, seeded, database) => {
    const pages = pagesToMeasure(server, seeded);
    const floor = pages.find((page) => page.label.startsWith("GET /api/user"))!;
    console.log(
      `# CPU per request as a multiple of GET /api/user's, in adjacent runs, ${database}; ` +
        `wrk ${CONNECTIONS} connections, ${PAIRED_ROUNDS} rounds of ${PAIRED_DURATION} per side`,
    );
    for (const page of pages.filter((page) => page.label.startsWith("/"))) {
      printPaired(page.label, await pairedFigures(server, floor, page));
    }
  });
}

/** One page's `--paired` figures: see `pairedFigures`. */
export interface PairedFigures {
  /** Median over the rounds of the page's CPU per request over the floor's, and the range. */
  ratio: number;
  min: number;
  max: number;
  /** Median CPU per request (ms) of the page and of the floor. */
  cost: number;
  floor: number;
  /** The page's size as sent. */
  bytes: number;
}

/**
 * `page`'s CPU per request as a multiple of `floor`'s (GET /api/user for the same account), in
 * PAIRED_ROUNDS rounds of adjacent runs after a warm-up of both (see `pairedRun`). Throws if the
 * page does not answer 200.
 */
export async function pairedFigures(
  server: Server,
  floor: MeasuredPage,
  page: MeasuredPage,
): Promise<PairedFigures> {
  const res = await fetch(page.url, {
    headers: page.cookie ? { cookie: page.cookie } : {},
    redirect: "manual",
  });
  const bytes = (await res.arrayBuffer()).byteLength;
  if (res.status !== 200) throw new Error(`${page.label}: ${page.url} answered ${res.status}`);
  await wrk(floor.url, floor.cookie, "2s");
  await wrk(page.url, page.cookie, "2s");
  const ratios: number[] = [];
  const floors: number[] = [];
  const costs: number[] = [];
  for (let round = 0; round < PAIRED_ROUNDS; round++) {
    let base: number;
    let cost: number;
    if (round % 2 === 0) {
      base = await cpuPerRequest(server, floor);
      cost = await cpuPerRequest(server, page);
    } else {
      cost = await cpuPerRequest(server, page);
      base = await cpuPerRequest(server, floor);
    }
    ratios.push(cost / base);
    floors.push(base);
    costs.push(cost);
  }
  return {
    ratio: median(ratios),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
    cost: median(costs),
    floor: median(floors),
    bytes,
  };
}

/** One line of `--paired`'s table, marking a page over issue 23's goal (≤ 4×, ≤ 50 KB). */
export function printPaired(label: string, f: PairedFigures): void {
  console.log(
    `  ${label.padEnd(48)} ${f.ratio.toFixed(1).padStart(5)}× (${f.min.toFixed(1)}–${
      f.max.toFixed(1)
    })  ${f.cost.toFixed(2)} ms against ${f.floor.toFixed(2)} ms  ${
      (f.bytes / 1024).toFixed(1).padStart(5)
    } KB${f.ratio > 4 || f.bytes > 50 * 1024 ? "  over the goal (≤ 4×, ≤ 50 KB)" : ""}`,
  );
}

/**
 * Commits one transaction that writes what the measured pages show: every seeded client's
 * requests (each dashboard's and request page's client; their state, Texas, the bench
 * surveyor's), the bench surveyor's own record, and a statement on `users` (no row: its table's
 * record alone, migration 0055, which the pages that read users whole check), so every
 * remembered page reads again at its next view.
 */
async function writePagesTables(sql: postgres.Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`update users set last_login = last_login where false`;
    await tx`update surveyors set updated_at = now()
      where user_id = (select id from users where email = 'bench-surveyor@example.test')`;
    await tx`update surveys set updated_at = now()
      where client_id in (select id from users where email like 'client-%@example.test')`;
  });
}

/**
 * Commits one transaction of what other people do on the same tables, none of it shown by a
 * page measured for a client: a sign-in (`users.last_login`), another firm's record (one of the
 * directory's), a request of a client no measured page belongs to (the seeded requests beyond
 * the dashboards', also in Texas: the bench surveyor's /leads reads again, as it must). With the
 * scoped records (migration 0056) the client dashboards and request pages stay remembered;
 * the admin's pages and the directory, which show every firm, request and user, read again.
 */
async function writeOthersRows(sql: postgres.Sql, extraClient: string): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`update users set last_login = now() where email = 'directory0@example.test'`;
    await tx`update surveyors set updated_at = now()
      where id = (select id from surveyors where user_id is null order by id limit 1)`;
    await tx`update surveys set updated_at = now()
      where id = (select s.id from surveys s join users u on u.id = s.client_id
        where u.email = ${extraClient} order by s.id limit 1)`;
  });
}

/** The churn connection's application_name: `cpuTicks` never counts its backend. */
const CHURN_APPLICATION = "meridian-bench-churn";

/** A connection for writes that are not the server's (its backend is never counted). */
function churnConnection(url: string): postgres.Sql {
  return postgres(url, {
    max: 1,
    onnotice: () => {},
    connection: { application_name: CHURN_APPLICATION },
  });
}

/**
 * BENCH_CHURN_PACE_MS: the churn commits at most once per this many milliseconds on each
 * database (default 2). Before it and `tidyAfterChurn`, the writer committed without pause and
 * nothing but autovacuum and the server's five-minute pruning cleared up after it: each commit
 * rewrites every measured client's requests and records a dozen changes (db/migrations/0056), and
 * each run, and each half of a run, cost every side more than the one before (issue 23's note of
 * 2026-12-02: the 3-request dashboard 1.49, then 4.59, then 4.39 ms a view). With them, the two
 * halves of each figure agree within 6–15 % on every side (the first run, 2026-12-02).
 */
const CHURN_PACE_MS = Number(Deno.env.get("BENCH_CHURN_PACE_MS") ?? 2);
/** How often the churn connection tidies up after itself (`tidyAfterChurn`). */
const CHURN_TIDY_MS = 2_000;

/**
 * What the churn connection does every `CHURN_TIDY_MS` on a database it writes, so that the
 * pages are measured on tables of the size a server keeps them at, not on the churn's leftovers:
 * prunes the change records (`pruneSnapshotChanges`, with its horizon's wait over: the records
 * of the last two seconds or so stay, and every remembered page reads once again, on every side
 * alike) and vacuums what the writes leave dead. Its backend is not counted (`cpuTicks`), and
 * autovacuum's workers are not either.
 */
async function tidyAfterChurn(sql: postgres.Sql): Promise<void> {
  await sql`update snapshot_prune set next_at = '-infinity'`;
  await pruneSnapshotChanges(sql);
  await sql`vacuum snapshot_changes, snapshot_prune, surveys, surveyors, users`;
}

/**
 * Commits again and again on a connection of its own until `stop`, at most once per
 * `CHURN_PACE_MS` on each database, as `kind` says:
 * - "elsewhere": a transaction id (`select txid_current()`) on DATABASE_URL's database, not the
 *   server's: every snapshot moves (transaction ids are the cluster's), but no table the pages
 *   read is written, so a page remembered by snapshot (db/snapshot_cache.ts) stays remembered;
 *   before migration 0055 every such commit read every page again.
 * - "others": on each database of `urls` (the servers'), `writeOthersRows`: other people's
 *   writes to the pages' tables, which a page scoped to its own rows ignores.
 * - "tables": on each database of `urls`, `writePagesTables`: the view after each commit reads
 *   and renders its page again, a view after a write to what it shows. Measured: some 75 commits
 *   a second beside the anchor's three servers on this 2-core machine (the pace is not reached),
 *   against 500–1,200 views a second of Meridian's dashboard.
 * On the servers' databases it tidies up every `CHURN_TIDY_MS` (`tidyAfterChurn`). Its backend
 * is told apart by application_name and never counted as the server's.
 */
function startChurn(kind: "elsewhere" | "others" | "tables", urls: string[]) {
  const connections = (kind === "elsewhere" ? [Deno.env.get("DATABASE_URL")!] : urls).map(
    churnConnection,
  );
  let churning = true;
  let commits = 0;
  const loop = (async () => {
    let tidied = performance.now();
    while (churning) {
      const started = performance.now();
      for (const churn of connections) {
        if (kind === "elsewhere") await churn`select txid_current()`;
        else if (kind === "others") await writeOthersRows(churn, EXTRA_CLIENT_EMAIL);
        else await writePagesTables(churn);
        commits++;
      }
      if (kind !== "elsewhere" && performance.now() - tidied >= CHURN_TIDY_MS) {
        for (const churn of connections) await tidyAfterChurn(churn);
        tidied = performance.now();
      }
      const rest = CHURN_PACE_MS - (performance.now() - started);
      if (rest > 0) await new Promise((done) => setTimeout(done, rest));
    }
  })();
  return {
    commits: () => commits,
    async stop() {
      churning = false;
      await loop;
      await Promise.all(connections.map((c) => c.end()));
    },
  };
}

/** The URL of `server`'s Postgres database (DATABASE_URL's, with its name), if it has one. */
function urlOf(server: Server): string | undefined {
  const base = Deno.env.get("DATABASE_URL");
  if (!base || !server.database) return undefined;
  const url = new URL(base);
  url.pathname = `/${server.database}`;
  return url.href;
}

/**
 * With BENCH_CHURN and DATABASE_URL, `startChurn` of that kind on the databases `urls` (each
 * side's), said in the output; otherwise nothing.
 */
function churnIfAsked(urls: (string | undefined)[]): ReturnType<typeof startChurn> | undefined {
  if (!CHURN_KIND || !Deno.env.get("DATABASE_URL")) return undefined;
  console.log(
    {
      tables:
        "  while another connection commits writes to what the pages show (BENCH_CHURN=tables)",
      others: "  while another connection commits others' writes to the pages' tables " +
        "(BENCH_CHURN=others)",
      elsewhere: "  while another connection commits on another database (BENCH_CHURN=elsewhere)",
    }[CHURN_KIND],
  );
  return startChurn(CHURN_KIND, urls.filter((url): url is string => url !== undefined));
}

/**
 * `--churn` (Postgres only): each page's CPU per request while nothing commits, then while
 * another connection commits at its pace on another database ("elsewhere": every snapshot
 * moves, no table the pages read is written), then while it commits other people's writes to
 * the pages' tables on the server's database ("others"), then writes to what the pages show
 * ("tables": the view after each commit reads its page again; `startChurn`).
 * The churn's backend is not counted as the server's. The quiet figure is a reload that finds
 * nothing changed, "elsewhere" a reload on a busy database, "others" a reload on a busy
 * marketplace, "tables" a reload after a write to what the page shows. Each as a multiple of GET /api/user's in the same condition, with the
 * commits per view.
 */
async function churnRun() {
  const base = Deno.env.get("DATABASE_URL");
  if (!base) {
    console.log("  --churn measures Postgres: set DATABASE_URL");
    return;
  }
  await withSeededServer([], async (server, seeded) => {
    const pages = pagesToMeasure(server, seeded).filter((page) => page.cookie);
    let churn: ReturnType<typeof startChurn> | undefined;
    const measure = async (page: MeasuredPage) => {
      await wrk(page.url, page.cookie, "2s");
      const runs: number[] = [];
      const counted = churn?.commits() ?? 0;
      let requests = 0;
      for (let round = 0; round < PAIRED_ROUNDS; round++) {
        const run = await cpuRun(server, page);
        runs.push(run.cpu);
        requests += run.requests;
      }
      return { cpu: median(runs), commitsPerView: ((churn?.commits() ?? 0) - counted) / requests };
    };
    const conditions = ["quiet", "elsewhere", "others", "tables"] as const;
    const figures = new Map<string, Map<string, { cpu: number; commitsPerView: number }>>();
    try {
      for (const condition of conditions) {
        if (condition !== "quiet") churn = startChurn(condition, [urlOf(server)!]);
        const byPage = new Map<string, { cpu: number; commitsPerView: number }>();
        for (const page of pages) byPage.set(page.label, await measure(page));
        figures.set(condition, byPage);
        await churn?.stop();
        churn = undefined;
      }
    } finally {
      await churn?.stop();
    }
    console.log(
      `# CPU per request while nothing commits, while another connection commits at its pace ` +
        `on another database, others' writes to the pages' tables, and writes to what the ` +
        `pages show; Postgres, wrk ` +
        `${CONNECTIONS} connections, median of ${PAIRED_ROUNDS} runs of ${PAIRED_DURATION}`,
    );
    const floorLabel = pages.find((page) => page.label.startsWith("GET /api/user"))!.label;
    for (const page of pages) {
      const cells = conditions.map((condition) => {
        const byPage = figures.get(condition)!;
        const { cpu, commitsPerView } = byPage.get(page.label)!;
        const ratio = cpu / byPage.get(floorLabel)!.cpu;
        const commits = condition === "quiet" ? "" : `, ${commitsPerView.toFixed(1)}/view`;
        return `${condition} ${cpu.toFixed(2)} ms (${ratio.toFixed(1)}×${commits})`;
      });
      console.log(`  ${page.label.padEnd(48)} ${cells.join("  ")}`);
    }
  });
}

/** `--alloc`: how many sites each page lists (BENCH_ALLOC_TOP), and which pages (BENCH_ALLOC_PAGES, like BENCH_BASELINE_PAGES). */
const ALLOC_TOP = Deno.env.get("BENCH_ALLOC_TOP")
  ? Number(Deno.env.get("BENCH_ALLOC_TOP"))
  : undefined;
/**
 * `--alloc` with BENCH_ALLOC_BY=caller: each site is the innermost function of the app's (or a
 * package's) code on the way to the allocation, so what the runtime allocates for a call (its
 * Promise, a header list) counts for the code that made the call.
 */
const ALLOC_BY_CALLER = Deno.env.get("BENCH_ALLOC_BY") === "caller";
const ALLOC_PAGES = Deno.env.get("BENCH_ALLOC_PAGES")?.split(",").map((p) => p.trim()).filter(
  Boolean,
);

/** `--after-write`: rounds, and views per page and condition in a round. */
const AFTER_WRITE_ROUNDS = 3;
const AFTER_WRITE_VIEWS = Number(Deno.env.get("BENCH_AFTER_WRITE_VIEWS") ?? 200);

/**
 * `--after-write` (Postgres only): each page's CPU per view (server and its Postgres backends)
 * when one commit comes before every view, one view at a time: after nothing ("quiet"), after a
 * commit on another database ("elsewhere"), after other people's writes to the pages' tables
 * (`writeOthersRows`: a sign-in, another firm, another client's request, in the surveyor's
 * state and radius), after a write to another client's request in the surveyor's state beyond
 * his radius ("far": El Paso), and after a write to what the pages show (`writePagesTables`). `--churn` commits
 * beside a wrk load as fast as it can, which is a few commits per hundred views when a commit
 * writes rows, and its backend shares the two cores with what is measured; here every view
 * follows a commit, and nothing runs beside it. Each as a multiple of GET /api/user's in the
 * same condition; median of the rounds.
 */
async function afterWriteRun() {
  const base = Deno.env.get("DATABASE_URL");
  if (!base) {
    console.log("  --after-write measures Postgres: set DATABASE_URL");
    return;
  }
  await withSeededServer([], async (server, seeded) => {
    const pages = pagesToMeasure(server, seeded).filter((page) => page.cookie);
    const own = churnConnection(urlOf(server)!);
    const elsewhere = churnConnection(base);
    // One of the others' requests moved to El Paso, in the surveyor's state but beyond his
    // radius (his office is in Austin): its writes are in /leads' tables and states, not in its
    // areas (migration 0057).
    const [{ id: farId }] = await own`
      update surveys set lat = 31.7619, lng = -106.485
      where id = (select s.id from surveys s join users u on u.id = s.client_id
        where u.email = ${EXTRA_CLIENT_EMAIL} order by s.id desc limit 1)
      returning id`;
    const writes = {
      quiet: async () => {},
      elsewhere: async () => void await elsewhere`select txid_current()`,
      others: () => writeOthersRows(own, EXTRA_CLIENT_EMAIL),
      far: async () => void await own`update surveys set updated_at = now() where id = ${farId}`,
      own: () => writePagesTables(own),
    };
    const conditions = Object.keys(writes) as (keyof typeof writes)[];
    const view = async (page: MeasuredPage) => {
      const res = await fetch(page.url, { headers: { cookie: page.cookie! }, redirect: "manual" });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${page.label}: ${res.status}`);
    };
    const figures = new Map<string, number[]>();
    try {
      for (let round = 0; round < AFTER_WRITE_ROUNDS; round++) {
        for (const condition of conditions) {
          for (const page of pages) {
            for (let i = 0; i < 20; i++) await view(page);
            // The writes' own backend is not counted, and the server is idle while they run.
            const before = await cpuTicks(server);
            for (let i = 0; i < AFTER_WRITE_VIEWS; i++) {
              await writes[condition]();
              await view(page);
            }
            const cpu = cpuMsBetween(before, await cpuTicks(server));
            const key = `${page.label}\t${condition}`;
            figures.set(key, [...(figures.get(key) ?? []), cpu / AFTER_WRITE_VIEWS]);
          }
        }
      }
    } finally {
      await own.end();
      await elsewhere.end();
    }
    console.log(
      `# CPU per view (server and its Postgres backends), one view at a time, each right after ` +
        `a commit: none, on another database, others' writes to the pages' tables, a request ` +
        `in the surveyor's state beyond his radius, a write to what the pages show; Postgres, ` +
        `median of ${AFTER_WRITE_ROUNDS} rounds of ` +
        `${AFTER_WRITE_VIEWS} views`,
    );
    const floorLabel = pages.find((page) => page.label.startsWith("GET /api/user"))!.label;
    for (const page of pages) {
      const cells = conditions.map((condition) => {
        const cpu = median(figures.get(`${page.label}\t${condition}`)!);
        const floor = median(figures.get(`${floorLabel}\t${condition}`)!);
        return `${condition} ${cpu.toFixed(2)} ms (${(cpu / floor).toFixed(1)}×)`;
      });
      console.log(`  ${page.label.padEnd(48)} ${cells.join("  ")}`);
    }
  });
}

/** `--check-cost`: rounds, and views per side and condition in a round. */
const CHECK_ROUNDS = Number(Deno.env.get("BENCH_CHECK_ROUNDS") ?? 6);
const CHECK_VIEWS = Number(Deno.env.get("BENCH_CHECK_VIEWS") ?? 200);

/**
 * `--check-cost`: the three ways a page remembered by snapshot is checked (db/snapshot_cache.ts
 * `setSnapshotCheck`: the gate in the page's statement, a statement of its own before it, or
 * each as the page's last check found it), side by side on the same database, each on a reload
 * that finds nothing changed ("quiet") and on one right after a commit to the pages' tables
 * (`writePagesTables` before each view, on a connection of its own, not counted). The seeded
 * server is stopped and the pages' reads run in this process: on the embedded database the
 * figure is all of it (PGlite runs in the process); on Postgres it is this process and the
 * backends of its pool (their CPU time from /proc/PID/schedstat, in nanoseconds, where /proc's
 * ticks of 10 ms were too coarse for 200 views of a fifth of a millisecond). CPU per view,
 * median of the rounds; the ways alternate.
 */
async function checkCostRun() {
  await withSeededServer([], async (server, seeded, database, config) => {
    await server.stop();
    const db = await openDatabase(config);
    const { sql } = db;
    try {
      const { cpuUsage } = await import("node:process");
      const { getUserByEmail } = await import("../db/users.ts");
      const { getSurveyorWithAvailableLeads } = await import("../db/lead_market.ts");
      const { getSurveyPageDataWithViewer, listClientSurveysWithEvents } = await import(
        "../db/surveys.ts"
      );
      const { listSurveyorDirectory } = await import("../db/surveyors.ts");
      const { SurveyorListQuerySchema } = await import("../lib/surveyor_schema.ts");
      const { setSnapshotCheck } = await import("../db/snapshot_cache.ts");
      const byDefault = setSnapshotCheck(sql, "gate");
      // On Postgres: the writes on a connection of their own, and the pool's backends counted.
      const writer = config.DATABASE_URL ? churnConnection(config.DATABASE_URL) : sql;
      const backends = async () => {
        if (!config.DATABASE_URL) return [];
        const rows = await writer<{ pid: number }[]>`
          select pid from pg_stat_activity where datname = current_database()
            and backend_type = 'client backend' and application_name <> ${CHURN_APPLICATION}`;
        return rows.map((row) => row.pid);
      };
      const backendNanos = (pids: number[]) =>
        pids.reduce((sum, pid) => {
          try {
            return sum + Number(Deno.readTextFileSync(`/proc/${pid}/schedstat`).split(" ")[0]);
          } catch {
            return sum;
          }
        }, 0);
      const surveyor = (await getUserByEmail(sql, "bench-surveyor@example.test"))!;
      const admin = (await getUserByEmail(sql, "bench-admin@example.test"))!;
      const client = seeded.dashboards.get(10)!.user;
      const views: { label: string; view: () => Promise<unknown> }[] = [
        {
          label: `/leads (first 20 of ${seeded.surveyorLeads})`,
          view: () =>
            getSurveyorWithAvailableLeads(sql, {
              userId: surveyor.id,
              withViewer: true,
              page: 1,
              pageSize: 20,
            }),
        },
        {
          label: "/client-dashboard (10 requests)",
          view: () =>
            listClientSurveysWithEvents(sql, {
              clientId: client.id,
              viewer: { id: client.id, role: "client" },
              page: 1,
              pageSize: 10,
              withClient: true,
            }),
        },
        {
          label: "/survey/{id} (admin)",
          view: () =>
            getSurveyPageDataWithViewer(sql, {
              id: seeded.surveyId,
              user: { id: admin.id, role: "admin" },
              viewerId: admin.id,
            }),
        },
        {
          label: `/surveyors (first page of ${DIRECTORY_SURVEYORS.toLocaleString("en-US")})`,
          view: () =>
            listSurveyorDirectory(sql, SurveyorListQuerySchema.parse({}), 100, {
              viewerId: admin.id,
            }),
        },
      ];
      const measure = async (view: () => Promise<unknown>, afterWrite: boolean) => {
        await view();
        const pids = await backends();
        let micros = 0;
        for (let i = 0; i < CHECK_VIEWS; i++) {
          if (afterWrite) await writePagesTables(writer);
          const start = cpuUsage();
          const backendStart = backendNanos(pids);
          await view();
          const { user, system } = cpuUsage(start);
          micros += user + system + (backendNanos(pids) - backendStart) / 1000;
        }
        return micros / CHECK_VIEWS / 1000;
      };
      console.log(
        `# The snapshot check, by the gate, apart and adaptively (${database}; ${
          database === "Postgres"
            ? "this process and its pool's backends"
            : "PGlite in this process: all of it"
        }); CPU ms per view, median of ${CHECK_ROUNDS} rounds of ${CHECK_VIEWS} views; ` +
          `this database is checked ${
            { apart: "apart", gate: "by the gate", adaptive: "as each page's last check found it" }[
              byDefault
            ]
          } by default`,
      );
      const ways = ["gate", "apart", "adaptive"] as const;
      for (const { label, view } of views) {
        const runs = new Map<string, number[]>();
        for (let round = 0; round < CHECK_ROUNDS; round++) {
          for (let i = 0; i < ways.length; i++) {
            const way = ways[(round + i) % ways.length];
            setSnapshotCheck(sql, way);
            for (const afterWrite of [false, true]) {
              const key = `${way} ${afterWrite ? "write" : "quiet"}`;
              runs.set(key, [...runs.get(key) ?? [], await measure(view, afterWrite)]);
            }
          }
        }
        const at = (key: string) => median(runs.get(key)!).toFixed(3);
        console.log(
          `  ${label.padEnd(40)} quiet: ${
            ways.map((way) => `${way} ${at(`${way} quiet`)}`).join(", ")
          }` +
            `   after a write: ${ways.map((way) => `${way} ${at(`${way} write`)}`).join(", ")}`,
        );
      }
      if (writer !== sql) await writer.end();
    } finally {
      await db.close();
    }
  });
}

/**
 * `--alloc`: the JavaScript heap each page of the main table allocates per request, freed or
 * not (bench/_allocation.ts), as a multiple of GET /api/user's, with the sites that allocate
 * most. The server runs with the inspector open; each page gets the usual warm-up, then a wrk
 * run of BENCH_DURATION while V8 samples. A figure of the code, steady from run to run and from
 * machine to machine, where CPU time is not.
 */
async function allocRun(survivors: boolean) {
  const what = survivors ? "that outlived a young-generation collection" : "allocated";
  const inspectPort = freePort();
  await withSeededServer(inspectArgs(inspectPort), async (server, seeded, database, config) => {
    const sampler = await AllocationSampler.connect(inspectPort, { survivors });
    const perPage = new Map<string, number>();
    try {
      console.log(
        `# JavaScript heap ${what} per request, ${database}; ` +
          `wrk ${CONNECTIONS} connections, ${DURATION} per page after a 2 s warm-up`,
      );
      let floor: number | undefined;
      const pages = pagesToMeasure(server, seeded).filter((page) =>
        !ALLOC_PAGES || page.label.startsWith("GET /api/user") ||
        ALLOC_PAGES.some((part) => page.label.includes(part))
      );
      for (const page of pages) {
        const { bytes: html, result: run, allocation } = await measurePage(
          page.label,
          page.url,
          page.cookie,
          undefined,
          sampler,
        );
        const { bytes, sites } = allocation!;
        const perRequest = bytes / run.requests;
        perPage.set(page.label, perRequest);
        if (page.label.startsWith("GET /api/user")) floor = perRequest;
        const times = floor && page.label.startsWith("/")
          ? `  ${(perRequest / floor).toFixed(1)}×`
          : "";
        console.log(
          `  ${page.label.padEnd(48)} ${
            (perRequest / 1024).toFixed(1).padStart(6)
          } KB/request${times}` +
            `  (HTML ${(html / 1024).toFixed(1)} KB${run.errors ? `; ${run.errors}` : ""})`,
        );
        for (const { site, bytes } of sites) {
          console.log(`      ${(bytes / run.requests / 1024).toFixed(1).padStart(6)} KB  ${site}`);
        }
      }
      if (FLOOR_DASHBOARD && config.DATABASE_URL) {
        await floorAllocation(server, seeded, {
          databaseUrl: config.DATABASE_URL,
          dataDir: config.DATA_DIR,
          survivors,
          meridian: perPage,
        });
      }
    } finally {
      sampler.close();
    }
  });
}

/**
 * `--alloc` with BENCH_FLOOR_DASHBOARD (Postgres): the floor's heap allocated per view of the
 * remembered client dashboards (bench/_floor_dashboard.ts, its own inspector), each as a
 * fraction of Meridian's for the same page: what Meridian's own code allocates over the least a
 * view needs, a figure that CPU time on a shared machine cannot give steadily.
 */
async function floorAllocation(
  server: Server,
  seeded: Seeded,
  { databaseUrl, dataDir, survivors, meridian }: {
    databaseUrl: string;
    dataDir: string;
    survivors: boolean;
    /** Meridian's heap per request, by page label. */
    meridian: Map<string, number>;
  },
) {
  const inspectPort = freePort();
  const floor = await startFloorDashboard(
    await dashboardSetup(server, seeded, databaseUrl),
    {
      kvPath: `${dataDir}/kv.sqlite3`,
      meridianUrl: server.url,
      extraArgs: inspectArgs(inspectPort),
    },
  );
  const sampler = await AllocationSampler.connect(inspectPort, { survivors });
  try {
    console.log(`\n  The floor (${floor.description}):`);
    for (const n of ASTRO_DASHBOARD_SIZES) {
      const label = `/client-dashboard (${n} requests)`;
      const { result: run, allocation } = await measurePage(
        label,
        `${floor.url}/client-dashboard`,
        seeded.cookies.clients.get(n)!,
        undefined,
        sampler,
      );
      const perRequest = allocation!.bytes / run.requests;
      const mine = meridian.get(label);
      console.log(
        `  ${label.padEnd(48)} ${(perRequest / 1024).toFixed(1).padStart(6)} KB/request${
          mine ? `  Meridian's ${(mine / perRequest).toFixed(1)}× this` : ""
        }${run.errors ? `  (${run.errors})` : ""}`,
      );
      for (const { site, bytes } of allocation!.sites) {
        console.log(`      ${(bytes / run.requests / 1024).toFixed(1).padStart(6)} KB  ${site}`);
      }
    }
  } finally {
    sampler.close();
    await floor.stop();
  }
}

/**
 * `--instructions`: requests counted per page and round (BENCH_INSTRUCTIONS_REQUESTS), rounds
 * (BENCH_INSTRUCTIONS_ROUNDS), the warm-up per page before them (BENCH_INSTRUCTIONS_WARMUP).
 * A window of 500 remembered views spans a few young-generation collections (some 60 KB
 * allocated per view), so each holds its share of them; 100 views read 0.84–1.23 M per view
 * on the same floor.
 */
const INSTRUCTIONS_REQUESTS = Number(Deno.env.get("BENCH_INSTRUCTIONS_REQUESTS") ?? 500);
const INSTRUCTIONS_ROUNDS = Math.max(1, Number(Deno.env.get("BENCH_INSTRUCTIONS_ROUNDS") ?? 3));
const INSTRUCTIONS_WARMUP = Number(Deno.env.get("BENCH_INSTRUCTIONS_WARMUP") ?? 300);
/** `--instructions`: only the pages whose label holds one of these (and GET /api/user). */
const INSTRUCTIONS_PAGES = Deno.env.get("BENCH_INSTRUCTIONS_PAGES")?.split(",").filter(Boolean);

/**
 * `count` requests for `page`, one after another on one connection; how many were refused 503.
 * Under valgrind a collection of the whole heap can take a second of wall time, which a KV
 * call's budget (db/kv.ts, 1 s) does not always survive: such a refusal is counted and told, as
 * wrk tells its errors. Any other status than 200 or 503, or more than 1 % refused, throws.
 */
async function requestInTurn(page: MeasuredPage, count: number): Promise<number> {
  let refused = 0;
  for (let i = 0; i < count; i++) {
    const res = await fetch(page.url, {
      // As wrk asks: no compression (Deno's fetch would ask for gzip and br).
      headers: { "accept-encoding": "identity", ...page.cookie ? { cookie: page.cookie } : {} },
      redirect: "manual",
    });
    await res.arrayBuffer();
    if (res.status === 503) refused++;
    else if (res.status !== 200) {
      throw new Error(`${page.label}: ${page.url} answered ${res.status}`);
    }
  }
  if (refused > count / 100) throw new Error(`${page.label}: ${refused} of ${count} refused 503`);
  return refused;
}

/**
 * Warms each page up with callgrind's instrumentation off, turns it on, measures what the server
 * executes idle, then counts each page's requests in rounds (the pages in turn within each):
 * instructions per request, the idle rate times each run's wall time taken off
 * (bench/_instructions.ts). Per page, each round's figure in order.
 */
async function countInstructions(
  counter: InstructionCounter,
  inspector: AllocationSampler,
  pages: MeasuredPage[],
): Promise<{ idle: number; perPage: Map<string, number[]> }> {
  for (const page of pages) await requestInTurn(page, INSTRUCTIONS_WARMUP);
  await counter.on();
  const idle = await counter.idlePerSecond();
  const perPage = new Map<string, number[]>(pages.map((page) => [page.label, []]));
  for (let round = 0; round < INSTRUCTIONS_ROUNDS; round++) {
    for (const page of pages) {
      await inspector.collectGarbage();
      await requestInTurn(page, 20);
      const start = performance.now();
      let refused = 0;
      const instructions = await counter.count(async () => {
        refused = await requestInTurn(page, INSTRUCTIONS_REQUESTS);
      });
      if (refused) console.log(`  (${page.label}: ${refused} refused 503 in round ${round + 1})`);
      const wallSeconds = (performance.now() - start) / 1000;
      perPage.get(page.label)!.push(
        (instructions - idle * wallSeconds) / INSTRUCTIONS_REQUESTS,
      );
    }
  }
  return { idle, perPage };
}

/** Rounds' figures as their median, with their range when there are several. */
function medianAndRange(figures: number[], format: (n: number) => string): string {
  const range = figures.length > 1
    ? ` (${format(Math.min(...figures)).trim()}–${format(Math.max(...figures)).trim()})`
    : "";
  return `${format(median(figures))}${range}`;
}

const millions = (n: number) => `${(n / 1e6).toFixed(2).padStart(7)} M`;

/** `ours` as a multiple of `theirs`, taken round by round: their median and range. */
function timesByRound(ours: number[], theirs: number[]): string {
  return medianAndRange(ours.map((n, i) => n / theirs[i]), (n) => `${n.toFixed(2)}×`);
}

/**
 * `--instructions` (Postgres): the machine instructions the server process executes per request
 * (valgrind's callgrind, bench/_instructions.ts), every thread counted, the kernel's and the
 * Postgres backends' work not: a figure of the code that the machine's load does not move, as
 * CPU time on a shared VM does by up to 40 %. Each page as a multiple of GET /api/user's (issue
 * 23's goal for signed-in pages: ≤ 4×); with BENCH_FLOOR_DASHBOARD, the floor's remembered
 * client dashboards (bench/_floor_dashboard.ts) under callgrind too, and Meridian's as a multiple
 * of them. The seeding runs on a server at full speed; the counted one starts after it on the
 * same database and KV file.
 */
async function instructionsRun() {
  if (!(await hasCallgrind())) {
    console.log("  valgrind not found (apt-get install -y valgrind); skipped");
    return;
  }
  await withSeededServer([], async (seeder, seeded, database, config) => {
    if (!config.DATABASE_URL) {
      throw new Error("--instructions measures on Postgres: set DATABASE_URL");
    }
    await waitForBackgroundWork(config.DATABASE_URL);
    await seeder.stop();
    const outDir = await Deno.makeTempDir({ prefix: "meridian-bench-callgrind-" });
    const inspectPort = freePort();
    const server = await startServer({
      dataDir: config.DATA_DIR,
      databaseUrl: config.DATABASE_URL,
      callgrindDir: outDir,
      extraArgs: inspectArgs(inspectPort),
    });
    const inspector = await AllocationSampler.connect(inspectPort);
    try {
      console.log(
        `# Instructions the server executes per request (callgrind), ${database}; ` +
          `${INSTRUCTIONS_ROUNDS} rounds of ${INSTRUCTIONS_REQUESTS} requests in turn per page ` +
          `after ${INSTRUCTIONS_WARMUP}, each after a full collection and 20 more: median (range)`,
      );
      const pages = pagesToMeasure(server, seeded).filter((page) =>
        !INSTRUCTIONS_PAGES || page.label.startsWith("GET /api/user") ||
        INSTRUCTIONS_PAGES.some((part) => page.label.includes(part))
      );
      const { idle, perPage } = await countInstructions(
        new InstructionCounter(server.pid, outDir),
        inspector,
        pages,
      );
      console.log(`  idle: ${millions(idle)} instructions/s, taken off each run for its wall time`);
      const user = [...perPage].find(([label]) => label.startsWith("GET /api/user"))?.[1];
      for (const [label, rounds] of perPage) {
        // Within each round, as a multiple of GET /api/user's in the same round.
        const times = user && label.startsWith("/") ? `  ${timesByRound(rounds, user)}` : "";
        console.log(
          `  ${label.padEnd(48)} ${medianAndRange(rounds, millions)}/request${times}`,
        );
      }
      if (!ASTRO_DASHBOARD_SIZES.some((n) => perPage.has(`/client-dashboard (${n} requests)`))) {
        return;
      }
      const astro = ASTRO_DASHBOARD
        ? await astroInstructions(server, seeded, config.DATABASE_URL)
        : undefined;
      if (astro) printCountedBeside(astro, perPage);
      if (FLOOR_DASHBOARD) {
        printCountedBeside(
          await floorInstructions(server, seeded, config.DATABASE_URL, config.DATA_DIR),
          perPage,
          astro,
        );
      }
    } finally {
      inspector.close();
      await server.stop().catch(() => {});
      await Deno.remove(outDir, { recursive: true });
    }
  });
}

/**
 * `--instructions` with BENCH_ASTRO_DASHBOARD: the same client dashboards on Astro
 * (bench/_astro_dashboard.ts), node under callgrind with its inspector and the collector exposed
 * as Meridian's is, counted the same way. Undefined when Astro is not installed (BENCH_ASTRO=1).
 */
function astroInstructions(
  server: Server,
  seeded: Seeded,
  databaseUrl: string,
): Promise<Counted | undefined> {
  return countDashboardsOn(
    seeded,
    async (callgrindDir, inspectPort) =>
      startAstroDashboard(await dashboardSetup(server, seeded, databaseUrl), {
        callgrindDir,
        nodeArgs: [...inspectArgs(inspectPort), `--expose-gc-as=${GC_GLOBAL}`],
      }),
  );
}

/**
 * Starts a dashboard server under callgrind with its inspector on `inspectPort` (`start`; it may
 * start nothing), counts its remembered client dashboards as Meridian's are counted, and stops it.
 */
async function countDashboardsOn(
  seeded: Seeded,
  start: (callgrindDir: string, inspectPort: number) => Promise<
    { url: string; pid: number; description: string; stop(): Promise<void> } | undefined
  >,
): Promise<Counted | undefined> {
  const outDir = await Deno.makeTempDir({ prefix: "meridian-bench-callgrind-" });
  try {
    const inspectPort = freePort();
    const other = await start(outDir, inspectPort);
    if (!other) return undefined;
    const inspector = await AllocationSampler.connect(inspectPort);
    try {
      const counted = await countInstructions(
        new InstructionCounter(other.pid, outDir),
        inspector,
        ASTRO_DASHBOARD_SIZES.map((n) => ({
          label: `/client-dashboard (${n} requests)`,
          url: `${other.url}/client-dashboard`,
          cookie: seeded.cookies.clients.get(n)!,
        })),
      );
      return { description: other.description, ...counted };
    } finally {
      inspector.close();
      await other.stop();
    }
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
}

/**
 * Waits, up to two minutes, until no job is due: what the seeding set off (the dispatch of each
 * request) is done before the counted server starts, rather than at valgrind's pace through its
 * warm-up and idle windows. (Emails stay in the outbox without SMTP_URL: nothing sends them.)
 */
async function waitForBackgroundWork(databaseUrl: string): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const [{ due }] = await sql<{ due: number }[]>`
        select count(*)::int as due from jobs
        where done_at is null and failed_at is null and run_at <= now()`;
      if (due === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    console.log("  (jobs still due after two minutes: counted with them)");
  } finally {
    await sql.end();
  }
}

/** A server's remembered client dashboards counted by `countInstructions`, and what it is. */
interface Counted {
  description: string;
  idle: number;
  perPage: Map<string, number[]>;
}

/** The dashboards on the same stack's floor or another framework, Meridian's as a multiple of each, round by round; with `astro`, also this side's as a multiple of Astro's. */
function printCountedBeside(other: Counted, meridian: Map<string, number[]>, astro?: Counted) {
  console.log(`\n  ${other.description}; idle ${millions(other.idle)} instructions/s:`);
  for (const [label, rounds] of other.perPage) {
    const mine = meridian.get(label);
    const astros = astro?.perPage.get(label);
    console.log(
      `  ${label.padEnd(48)} ${medianAndRange(rounds, millions)}/request${
        mine ? `  Meridian's ${timesByRound(mine, rounds)} this` : ""
      }${astros ? `; this ${timesByRound(rounds, astros)} Astro's` : ""}`,
    );
  }
}

/** `--instructions` with BENCH_FLOOR_DASHBOARD: the floor's remembered dashboards, counted the same way. */
async function floorInstructions(
  server: Server,
  seeded: Seeded,
  databaseUrl: string,
  dataDir: string,
): Promise<Counted> {
  const counted = await countDashboardsOn(seeded, async (callgrindDir, inspectPort) => {
    const floor = await startFloorDashboard(await dashboardSetup(server, seeded, databaseUrl), {
      kvPath: `${dataDir}/kv.sqlite3`,
      meridianUrl: server.url,
      callgrindDir,
      extraArgs: inspectArgs(inspectPort),
    });
    return { ...floor, description: `The floor (${floor.description})` };
  });
  return counted!;
}

async function mainRun(baselineDir: string | undefined) {
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-bench-signed-in-" });
  const scratch = await scratchDatabase(scratchPrefix("signed_in"));
  const server = await startServer({ dataDir, databaseUrl: scratch.url });
  let astro: Server | undefined;
  try {
    const seedStart = performance.now();
    const seeded = await seed(server, { DATABASE_URL: scratch.url, DATA_DIR: dataDir });
    console.log(
      `  ${scratch.url ? "Postgres" : "PGlite (embedded)"}; seeded ${
        DIRECTORY_USERS + DASHBOARD_SIZES.length + 2
      } accounts and ${TOTAL_REQUESTS} requests in ${
        ((performance.now() - seedStart) / 1000).toFixed(1)
      } s; wrk ${CONNECTIONS} connections, ${DURATION} per page after a 2 s warm-up`,
    );
    const dashboards = {
      astro: ASTRO_DASHBOARD === "1" || ASTRO_DASHBOARD === "only",
      next: NEXT_DASHBOARD === "1" || NEXT_DASHBOARD === "only",
      floor: FLOOR_DASHBOARD === "1" || FLOOR_DASHBOARD === "only",
    };
    if (dashboards.astro || dashboards.next || dashboards.floor) {
      await frameworkDashboardRun(server, seeded, scratch.url, dashboards, dataDir);
      if ([ASTRO_DASHBOARD, NEXT_DASHBOARD, FLOOR_DASHBOARD].includes("only")) return;
    }
    if (baselineDir && BASELINE_ONLY) {
      await baselineRun(baselineDir, server, seeded);
      return;
    }
    const landingHtml = await (await fetch(`${server.url}/`)).text();
    const astroServer = await startAstro(landingHtml, "ssr");
    if (astroServer) {
      console.log(
        `  ${astroServer.description}: the landing markup rendered per request (${astroServer.url})`,
      );
      astro = astroServer;
    }
    const lines: Line[] = [];
    const astroLines: Line[] = [];
    const astroPage = (label: string) => measurePage(label, `${astro!.url}/`, undefined, astro);
    if (astro) astroLines.push(await astroPage("Astro / (SSR, same markup)"));
    const servedHtml = new Map<number, string>();
    const dashboardLines: Line[] = [];
    for (const page of pagesToMeasure(server, seeded)) {
      if (page.dashboardSize !== undefined) {
        const html = await (await fetch(page.url, { headers: { cookie: page.cookie! } })).text();
        servedHtml.set(page.dashboardSize, html);
      }
      const line = await measurePage(page.label, page.url, page.cookie, server);
      if (page.dashboardSize !== undefined) dashboardLines.push(line);
      lines.push(line);
    }
    if (astro) astroLines.push(await astroPage("Astro / (again, for drift)"));

    const reference = astroLines.length
      ? {
        label: "Astro's SSR landing page (mean of both runs)",
        rps: astroLines.reduce((s, l) => s + l.result.rps, 0) / astroLines.length,
      }
      : { label: "Meridian's landing page (Astro not run)", rps: lines[0].result.rps };
    console.log(
      `\n## Signed-in pages (multiples of ${reference.label}: ${reference.rps.toFixed(0)} req/s)`,
    );
    for (const line of [...astroLines, ...lines]) printLine(line, reference);
    // Issue 23's goal: every signed-in page at most 4× the CPU of GET /api/user (a session
    // check plus one read) and at most 50 KB of HTML.
    const floor = lines.find((l) => l.label.startsWith("GET /api/user"))?.result.cpuMsPerRequest;
    if (floor) {
      console.log(`\n## CPU per request as a multiple of GET /api/user (${floor.toFixed(2)} ms)`);
      for (const line of lines.filter((l) => l.label.startsWith("/"))) {
        const times = (line.result.cpuMsPerRequest ?? NaN) / floor;
        console.log(
          `  ${line.label.padEnd(48)} ${times.toFixed(1).padStart(5)}×  ${
            (line.bytes / 1024).toFixed(1).padStart(6)
          } KB${times > 4 || line.bytes > 50 * 1024 ? "  over the goal (≤ 4×, ≤ 50 KB)" : ""}`,
        );
      }
    }

    const xs = [...DASHBOARD_SIZES];
    const serviceMs = dashboardLines.map((l) => 1000 / l.result.rps);
    const perRow = slope(xs, serviceMs);
    const bytesPerRow = slope(xs, dashboardLines.map((l) => l.bytes));
    console.log(
      `  cost per request card: ${
        perRow.toFixed(3)
      } ms of service time (slope of 1000/req·s over ` +
        `${xs.join("/")}), ${(bytesPerRow / 1024).toFixed(1)} KB of HTML`,
    );
    console.log(
      `  service time (1000 / req·s): ${
        xs.map((n, i) => `${n} → ${serviceMs[i].toFixed(2)} ms`).join(", ")
      }; goal ≥ 3× the reference: ${(reference.rps * 3).toFixed(0)} req/s`,
    );
    const cpu = dashboardLines.map((l) => l.result.cpuMsPerRequest ?? NaN);
    console.log(
      `  CPU per request (server process + its Postgres backends; steadier than req/s on a ` +
        `shared machine): ${xs.map((n, i) => `${n} → ${cpu[i].toFixed(2)} ms`).join(", ")}; ` +
        `per request card ${slope(xs, cpu).toFixed(3)} ms`,
    );
    const astroCpu = astroLines.map((l) => l.result.cpuMsPerRequest ?? NaN);
    if (astroCpu.length) {
      const reference = astroCpu.reduce((a, b) => a + b, 0) / astroCpu.length;
      console.log(
        `  by CPU per request, as a multiple of Astro's landing page (${
          reference.toFixed(2)
        } ms): ${
          lines.map((l) => `${l.label} ${(reference / l.result.cpuMsPerRequest!).toFixed(2)}×`)
            .join("; ")
        }`,
      );
    }

    await astro?.stop();
    astro = undefined;
    if (baselineDir) await baselineRun(baselineDir, server, seeded);
    await server.stop();
    const costs = await renderMicroBench(seeded, servedHtml);
    console.log("\n## Estimated dashboard throughput (from the measured service time)");
    console.log(
      "  service time − today's React render + the variant's (micro-bench medians); " +
        `× the reference (${reference.rps.toFixed(0)} req/s)`,
    );
    console.log(
      "  requests  now req/s  render share  preact renderer   preact, converted  " +
        "cached formatting  both",
    );
    for (const [i, n] of xs.entries()) {
      const c = costs.get(n)!;
      const now = serviceMs[i];
      const estimate = (render: number) => {
        const rps = 1000 / (now - c.react + render);
        return `${rps.toFixed(0).padStart(5)} (${(rps / reference.rps).toFixed(2)}×)`.padEnd(19);
      };
      console.log(
        `  ${String(n).padStart(8)}  ${dashboardLines[i].result.rps.toFixed(0).padStart(9)}  ${
          `${(100 * c.react / now).toFixed(0)} %`.padStart(12)
        }  ${estimate(c.react - c.reactHost + c.preactHost)}${estimate(c.preactConverted)}${
          estimate(c.reactCached)
        }${estimate(c.reactCached - c.reactHost + c.preactHost)}`,
      );
    }
  } finally {
    await server.stop().catch(() => {});
    await astro?.stop();
    await adminSql?.end();
    await scratch.drop();
    await Deno.remove(dataDir, { recursive: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      profile: { type: "string" },
      alloc: { type: "boolean", default: false },
      instructions: { type: "boolean", default: false },
      survivors: { type: "boolean", default: false },
      paired: { type: "boolean", default: false },
      churn: { type: "boolean", default: false },
      "after-write": { type: "boolean", default: false },
      "check-cost": { type: "boolean", default: false },
      path: { type: "string", default: "/client-dashboard" },
      as: { type: "string" },
      baseline: { type: "string", default: Deno.env.get("BENCH_BASELINE_DIR") },
    },
  });
  if (!(await hasCommand("wrk"))) {
    console.log("  wrk not found (apt-get install -y wrk); skipped");
  } else if (values.profile) {
    await profileRun(values.profile, values.path, values.as);
  } else if (values.paired) {
    await pairedRun();
  } else if (values.churn) {
    await churnRun();
  } else if (values["after-write"]) {
    await afterWriteRun();
  } else if (values["check-cost"]) {
    await checkCostRun();
  } else if (values.alloc || values.survivors) {
    await allocRun(values.survivors);
  } else if (values.instructions) {
    await instructionsRun();
  } else {
    await mainRun(values.baseline || undefined);
  }
}
