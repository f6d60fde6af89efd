/**
 * Which of a signed-in page's statements Postgres keeps planning afresh (a custom plan at every
 * execution) instead of planning once for any parameters (a generic plan), on the demo network.
 *
 *   DATABASE_URL=postgres://… deno run -A bench/plans.ts      # Postgres only
 *
 * postgres.js prepares every statement. Postgres plans a prepared statement's first five
 * executions on a connection for their parameters, then switches to one generic plan when that
 * plan looks no dearer than those; when it does look dearer it plans every execution afresh, which
 * cost a surveyor's job page 3.9 ms a view where the generic plan takes 0.7 (db/sql_literals.ts
 * `roleLiteral`). Which way it goes depends on the data's size and spread, so the test suite's
 * small tables cannot show it: this bench seeds the demo network (bench/_demo.ts) on a scratch
 * database and runs the app in this process on a pool of one connection, so that connection's
 * `pg_prepared_statements` is every statement the pages ran. It signs in as each role, loads each
 * of its pages (its navigation and the first page of each kind one click away) BENCH_PLANS_VIEWS
 * times (default 12), and reads how many generic and custom plans each statement gained.
 *
 * Per page it prints the statements run and how many settled on a generic plan; a statement that
 * ran more than five times on the connection with no generic plan among them is listed, with its
 * first words, as planned afresh. A statement that ran five times or fewer is not settled yet
 * (a snapshot-cached page runs its read only when something it shows was written). Figures only;
 * asserts nothing.
 *
 * Each page's line also says how many of its views sent the bytes it sent last instead of
 * rendering, for a page sent whole when unchanged (routes/_remembered_pages.ts).
 *
 * `--after-write`: before every view, another connection commits a move of the change records'
 * horizon (`snapshot_prune.pruned_below`, as a truncate moves it: db/migrations/0056) past its own
 * transaction, so every page remembered by snapshot is read again, as after a write to what it
 * shows (it is rendered again only if what it read differs, value for value, from what it kept).
 */
import type postgres from "postgres";
import type { AppDeps } from "../routes/_env.ts";

// React's server build is chosen by NODE_ENV at its first import (components/react_server.ts):
// the production one, as the server runs, so the app's modules are imported only after this.
Deno.env.set("NODE_ENV", "production");
const { createApp } = await import("../main.ts");
const { postgresPool } = await import("../db/client.ts");
const { openKv } = await import("../db/kv.ts");
const { configuredProviders } = await import("../lib/providers.ts");
const { loadConfig } = await import("../lib/config.ts");
const { ensureBuild } = await import("../lib/assets.ts");
const { createOfflinePlacesProvider } = await import("../lib/places/offline.ts");
const { scratchDatabase } = await import("./_server.ts");
const { demoPagesOf, ROLES, seedDemo } = await import("./_demo.ts");
const { signIn } = await import("./signed_in_pages.ts");
const { observeRememberedPages } = await import("../routes/_remembered_pages.ts");

const VIEWS = Number(Deno.env.get("BENCH_PLANS_VIEWS") ?? 12);
const AFTER_WRITE = Deno.args.includes("--after-write");
/** Postgres plans a prepared statement's first five executions for their parameters. */
const CUSTOM_FIRST = 5;

/** A prepared statement's plan counts on the connection. */
interface Plans {
  statement: string;
  generic: number;
  custom: number;
}

/** The pool's one connection's prepared statements, by name. */
async function preparedOn(sql: postgres.Sql): Promise<Map<string, Plans>> {
  // The pool has one connection: reserving it waits until the pages' requests are done with it.
  const reserved = await sql.reserve();
  try {
    const rows = await reserved<{ name: string; statement: string; g: number; c: number }[]>`
      select name, statement, generic_plans::int as g, custom_plans::int as c
      from pg_prepared_statements`;
    return new Map(
      rows.map((r) => [r.name, { statement: r.statement, generic: r.g, custom: r.c }]),
    );
  } finally {
    reserved.release();
  }
}

/** The first words of `statement` on one line. */
function firstWords(statement: string): string {
  const line = statement.replace(/\s+/g, " ").trim();
  return line.length > 110 ? `${line.slice(0, 110)}…` : line;
}

async function main() {
  const scratch = await scratchDatabase("meridian_bench_plans");
  if (!scratch.url) {
    console.log("  bench/plans.ts reads Postgres's plan cache: set DATABASE_URL; skipped");
    return;
  }
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-bench-plans-" });
  let app: ReturnType<typeof createApp> | undefined;
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    (req) => app ? app.fetch(req) : new Response("Starting", { status: 503 }),
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  const sql = postgresPool(scratch.url, { max: 1 });
  // --after-write: the other connection that moves the records' horizon before each view.
  const writer = AFTER_WRITE ? postgresPool(scratch.url, { max: 1 }) : undefined;
  const kv = await openKv(":memory:");
  try {
    const seedStart = performance.now();
    const accounts = await seedDemo({
      DATABASE_URL: scratch.url,
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      NODE_ENV: "production",
    });
    const seeded = ((performance.now() - seedStart) / 1000).toFixed(1);
    const config = loadConfig({
      DATABASE_URL: scratch.url,
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      NODE_ENV: "production",
      LOG_REQUESTS: "0",
    });
    const deps: AppDeps = {
      config,
      sql,
      kv,
      assets: await ensureBuild(),
      ...configuredProviders(config, sql),
      // No outside service is reached: the offline providers, as with no keys.
      places: createOfflinePlacesProvider(),
    };
    app = createApp(deps);
    console.log(
      `# Plans of each signed-in page's statements on the demo network (seeded in ${seeded} s), ` +
        `Postgres, one connection, ${VIEWS} views per page: statements run, settled on a ` +
        `generic plan, planned afresh at every execution (more than ${CUSTOM_FIRST} runs, no ` +
        `generic plan), not settled (${CUSTOM_FIRST} runs or fewer)` +
        (AFTER_WRITE ? "; every view read and rendered again (--after-write)" : ""),
    );
    const afresh = new Map<string, { statement: string; pages: Set<string> }>();
    for (const role of ROLES) {
      const account = accounts.get(role);
      if (!account) throw new Error(`the demo seed printed no ${role} account`);
      const cookie = await signIn({ url }, account.email, account.password);
      for (const page of await demoPagesOf(url, role, cookie)) {
        const before = await preparedOn(sql);
        // How many views sent the page's kept bytes (routes/_remembered_pages.ts).
        let reused = 0, remembered = 0;
        observeRememberedPages((_, wasReused) => {
          remembered++;
          if (wasReused) reused++;
        });
        for (let i = 0; i < VIEWS; i++) {
          if (writer) {
            await writer`update snapshot_prune
            set pruned_below = (pg_current_xact_id()::text::bigint + 1)::text::xid8`;
          }
          const res = await fetch(`${url}${page.path}`, { headers: { cookie } });
          await res.body?.cancel();
          if (res.status !== 200) throw new Error(`${page.label}: ${res.status}`);
        }
        observeRememberedPages(undefined);
        const after = await preparedOn(sql);
        let run = 0, generic = 0, unsettled = 0;
        const stuck: string[] = [];
        for (const [name, now] of after) {
          const was = before.get(name) ?? { generic: 0, custom: 0 };
          const added = now.generic - was.generic + now.custom - was.custom;
          if (added === 0) continue;
          run++;
          if (now.generic > 0) generic++;
          else if (now.custom > CUSTOM_FIRST) {
            stuck.push(name);
            const seen = afresh.get(name) ?? { statement: now.statement, pages: new Set() };
            seen.pages.add(page.label);
            afresh.set(name, seen);
          } else unsettled++;
        }
        console.log(
          `  ${page.label.padEnd(48)} ${String(run).padStart(2)} run, ${
            String(generic).padStart(2)
          } generic, ${String(stuck.length).padStart(2)} afresh, ${unsettled} not settled; ` +
            (remembered ? `${reused} of ${VIEWS} views sent as kept` : "not a remembered page"),
        );
      }
    }
    console.log(
      afresh.size === 0
        ? "# No statement is planned afresh at every execution."
        : `# Planned afresh at every execution (${afresh.size}):`,
    );
    for (const { statement, pages } of afresh.values()) {
      console.log(`  ${firstWords(statement)}\n    on: ${[...pages].join(", ")}`);
    }
  } finally {
    await server.shutdown();
    kv.close();
    await sql.end({ timeout: 5 });
    await writer?.end({ timeout: 5 });
    await scratch.drop();
    await Deno.remove(dataDir, { recursive: true });
  }
}

if (import.meta.main) await main();
