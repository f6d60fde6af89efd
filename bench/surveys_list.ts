/**
 * GET /api/surveys at 100,000 requests: seeds (generate_series, one statement each) one
 * client with 50 requests among 100,000 overall, then measures through `app.request()`:
 * the client's list, the admin's first page, a deep admin page (page 2,000 of 20 rows, offset
 * 39,980) and a few filtered variants. Prints p50/p99; asserts nothing.
 *
 *   deno run -A bench/surveys_list.ts                  # embedded PGlite, in memory
 *   DATABASE_URL=postgres://… deno run -A bench/surveys_list.ts
 *
 * With DATABASE_URL it creates a scratch database next to the given one and drops it at the
 * end, so it never touches real data. Target: admin list page p99 < 50 ms at 100,000 rows.
 */
import { createApp } from "../main.ts";
import { measure, percentile } from "./_stats.ts";
import { type Config, loadConfig } from "../lib/config.ts";
import { openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { openKv } from "../db/kv.ts";
import { configuredProviders } from "../lib/providers.ts";
import { ensureBuild } from "../lib/assets.ts";
import { createSession, sessionCookie, sessionTimeouts } from "../lib/sessions.ts";
import type { Role } from "../lib/roles.ts";
import { scratchDatabase } from "./_server.ts";

const TOTAL = Number(Deno.env.get("BENCH_SURVEYS") ?? 100_000);
const CLIENT_SURVEYS = 50;
const OTHER_CLIENTS = 2_000;
const ITERATIONS = Number(Deno.env.get("BENCH_ITERATIONS") ?? 300);
const ORIGIN = "http://localhost";

type App = ReturnType<typeof createApp>;

async function cookieFor(
  kv: Deno.Kv,
  config: Config,
  userId: string,
  role: Role,
): Promise<string> {
  const { id } = await createSession(kv, {
    userId,
    impersonatorId: null,
    ip: "127.0.0.1",
    userAgent: "bench",
    timeouts: sessionTimeouts({ impersonatorId: null }, role),
  });
  return `${sessionCookie(config).name}=${id}`;
}

async function measureList(app: App, label: string, path: string, cookie: string) {
  let rows = 0;
  let total = 0;
  // The first 20 warm caches and the JIT.
  const times = await measure(async () => {
    const res = await app.request(`${ORIGIN}${path}`, { headers: { cookie } });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    rows = body.surveys.length;
    total = body.total;
  }, { warmup: 20, iterations: ITERATIONS });
  times.sort((a, b) => a - b);
  console.log(
    `  ${label.padEnd(46)} p50 ${percentile(times, 0.5).toFixed(2).padStart(7)} ms   p99 ${
      percentile(times, 0.99).toFixed(2).padStart(7)
    } ms   (${rows} rows of ${total.toLocaleString("en-US")})`,
  );
}

const scratch = await scratchDatabase();
const db = await openDatabase({ DATABASE_URL: scratch.url, DATA_DIR: ".data/bench" }, {
  memory: true,
});
const kv = await openKv(":memory:");
try {
  await migrate(db.sql);
  const sql = db.sql;
  const seedStart = performance.now();
  const [bench] = await sql<{ id: string }[]>`
    insert into users (username, email, full_name, role, password_hash)
    values ('bench-client@example.test', 'bench-client@example.test', 'Bench Client', 'client',
      'x')
    returning id`;
  const [admin] = await sql<{ id: string }[]>`
    insert into users (username, email, full_name, role, password_hash)
    values ('bench-admin@example.test', 'bench-admin@example.test', 'Bench Admin', 'admin', 'x')
    returning id`;
  await sql`
    insert into users (username, email, full_name, role, password_hash)
    select 'client' || i || '@example.test', 'client' || i || '@example.test',
      'Client ' || i, 'client', 'x'
    from generate_series(1, ${OTHER_CLIENTS}::int) i`;
  const quote = {
    surveyType: "boundary",
    quoteRequired: false,
    currency: "USD",
    baseCents: 38_500,
    lineItems: [{ key: "base", label: "Boundary survey", detail: "", amountCents: 38_500 }],
    subtotalCents: 38_500,
    discount: null,
    totalCents: 38_500,
    minimumApplied: false,
    turnaround: "5-10 business days",
  };
  // Spread over about two years, newest first; the bench client's 50 sit among the others.
  await sql`
    with clients as (
      select array_agg(id) as ids from users where role = 'client' and id <> ${bench.id}
    )
    insert into surveys (
      client_id, client_request_id, status, survey_type, address, property_type, acreage,
      terrain, vegetation, state, purpose, contact_name, contact_phone, quoted_price_cents,
      quote, pricing_config_version, created_at, updated_at
    )
    select
      case when i % ${Math.floor(TOTAL / CLIENT_SURVEYS)}::int = 0 then ${bench.id}::uuid
        else clients.ids[1 + (i % ${OTHER_CLIENTS}::int)] end,
      gen_random_uuid(),
      (array['requested','surveyors_notified','assigned','scheduled','in_fieldwork','surveyed',
        'completed','cancelled'])[1 + (i * 7 % 8)],
      (array['boundary','elevation_certificate','topographic','alta','construction',
        'subdivision'])[1 + (i % 6)],
      i || ' Main Street, Springfield, IL 62701',
      'residential', 0.25 + (i % 40), 'flat', 'clear', 'IL', 'selling', 'Client ' || i,
      '555-0100', 38500 + (i % 1000) * 100, ${sql.json(quote)}, 1,
      now() - (i * interval '10 minutes'), now() - (i * interval '10 minutes')
    from generate_series(1, ${TOTAL}::int) i, clients`;
  // A fresh visibility map lets the offset walk be an index-only scan, as autovacuum would.
  await sql`vacuum analyze surveys`;
  await sql`vacuum analyze users`;
  const [{ count }] = await sql<{ count: number }[]>`
    select count(*)::int as count from surveys where client_id = ${bench.id}`;
  console.log(
    `  seeded ${
      TOTAL.toLocaleString("en-US")
    } surveys (${count} for the bench client) on ${db.kind} in ${
      ((performance.now() - seedStart) / 1000).toFixed(1)
    } s`,
  );

  const config = loadConfig({ NODE_ENV: "production", LOG_REQUESTS: "0", PUBLIC_URL: ORIGIN });
  const app = createApp({
    config,
    sql,
    kv,
    assets: await ensureBuild(),
    ...configuredProviders(config, sql),
  });
  const clientCookie = await cookieFor(kv, config, bench.id, "client");
  const adminCookie = await cookieFor(kv, config, admin.id, "admin");

  console.log(`  ${ITERATIONS} requests each, sequential, through app.request():`);
  await measureList(app, "client list (50 requests)", "/api/surveys", clientCookie);
  await measureList(app, "admin first page", "/api/surveys?page=1&pageSize=20", adminCookie);
  await measureList(
    app,
    "admin deep page (2,000 × 20)",
    "/api/surveys?page=2000&pageSize=20",
    adminCookie,
  );
  await measureList(
    app,
    "admin last page",
    `/api/surveys?page=${TOTAL / 20}&pageSize=20`,
    adminCookie,
  );
  await measureList(
    app,
    "admin status=completed, page 500",
    "/api/surveys?status=completed&page=500",
    adminCookie,
  );
  await measureList(
    app,
    "admin type=alta, first page of 100",
    "/api/surveys?surveyType=alta&pageSize=100",
    adminCookie,
  );
  await measureList(
    app,
    "admin search q=Client 1999 (a client's name)",
    "/api/surveys?q=Client%201999",
    adminCookie,
  );
  await measureList(
    app,
    "admin search q=4242 Main (an address)",
    "/api/surveys?q=4242%20Main",
    adminCookie,
  );
  await measureList(
    app,
    "admin search q=Springfield (every request)",
    "/api/surveys?q=Springfield",
    adminCookie,
  );
  console.log("  target: admin list page p99 < 50 ms at 100,000 rows");
} finally {
  kv.close();
  await db.close();
  await scratch.drop();
}
