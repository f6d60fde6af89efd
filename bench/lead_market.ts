/**
 * The lead market at 10,000 open leads (issue 11), on Postgres and PGlite:
 *
 *  1. A surveyor's available leads — `listAvailableLeads` in-process, then `GET /api/leads`
 *     (first page, a type + distance filter, page 5) and the `/leads` page over HTTP to a
 *     production server (main.ts), signed in as the surveyor. The 10,000 open requests are
 *     spread over lib/demo_network.ts cities in every state (weighted like the firms), with
 *     ~300 within the surveyor's 50 miles of Austin; 5,000 older closed leads besides.
 *  2. Buy under contention: 100 surveyors with a balance, each signed in, POST
 *     `/api/leads/{id}/buy` at the same moment for one lead with 3 places; exactly 3 must win
 *     (checked, and reported with the wall time), several rounds.
 *
 *   deno run -A bench/lead_market.ts                  # embedded PGlite (a temp DATA_DIR)
 *   DATABASE_URL=postgres://… deno run -A bench/lead_market.ts
 *
 * With DATABASE_URL it creates a scratch database beside the given one and drops it at the
 * end. Target: p99 < 50 ms for the list. Prints figures; asserts only the race's outcome.
 */
import { openDatabase, type Sql } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { insertUser } from "../db/users.ts";
import { postLedgerEntry } from "../db/ledger.ts";
import { LEADS_PAGE_SIZE, listAvailableLeads } from "../db/lead_market.ts";
import { hashPassword } from "../lib/passwords.ts";
import { loadDemoCities } from "../lib/demo_network.ts";
import { DEFAULT_PRICING_CONFIG, priceSurvey } from "../lib/pricing.ts";
import { priceLead } from "../lib/lead_pricing.ts";
import { SurveyDetailsSchema } from "../lib/survey_details.ts";
import { measure, report } from "./_stats.ts";
import { scratchDatabase } from "./_server.ts";
import { scratchPrefix, startServer } from "./surveyors_list.ts";

const OPEN_LEADS = Number(Deno.env.get("BENCH_LEADS") ?? 10_000);
const NEAR_LEADS = Number(Deno.env.get("BENCH_NEAR_LEADS") ?? 300);
const CLOSED_LEADS = Number(Deno.env.get("BENCH_CLOSED_LEADS") ?? 5_000);
const ITERATIONS = Number(Deno.env.get("BENCH_ITERATIONS") ?? 200);
const BUYERS = Number(Deno.env.get("BENCH_BUYERS") ?? 100);
const RACE_ROUNDS = Number(Deno.env.get("BENCH_RACE_ROUNDS") ?? 5);
const PASSWORD = "bench password for the surveyors";
const AUSTIN = { lat: 30.2672, lng: -97.7431 };
const MILES_PER_DEGREE_LAT = 69.05;
const SURVEY_TYPES = ["boundary", "topographic", "alta", "construction", "elevation_certificate"];

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A point up to `miles` from `center`, uniform over the disc. */
function around(rand: () => number, center: { lat: number; lng: number }, miles: number) {
  const r = miles * Math.sqrt(rand());
  const a = rand() * 2 * Math.PI;
  const dLat = (r * Math.cos(a)) / MILES_PER_DEGREE_LAT;
  const dLng = (r * Math.sin(a)) / (MILES_PER_DEGREE_LAT * Math.cos((center.lat * Math.PI) / 180));
  return { lat: center.lat + dLat, lng: center.lng + dLng };
}

interface SeedRequest {
  lat: number;
  lng: number;
  state: string;
  city: string;
  zip: string;
  surveyType: string;
  status: string;
  createdAt: Date;
  leadOpen: boolean;
}

/** The requests: `NEAR_LEADS` around Austin, the rest over the demo cities, then closed ones. */
async function requests(): Promise<SeedRequest[]> {
  const rand = seeded(11);
  const cities = (await loadDemoCities()).filter((c) => c.state !== "TX" || rand() < 0.2);
  const weights = cities.map((c) => c.zipCount);
  const cumulative: number[] = [];
  weights.reduce((sum, w, i) => (cumulative[i] = sum + w), 0);
  const pick = () => {
    const target = rand() * cumulative[cumulative.length - 1];
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] > target) hi = mid;
      else lo = mid + 1;
    }
    return cities[lo];
  };
  const now = Date.now();
  const out: SeedRequest[] = [];
  const total = OPEN_LEADS + CLOSED_LEADS;
  for (let i = 0; i < total; i++) {
    const isOpen = i < OPEN_LEADS;
    const isNear = isOpen && i < NEAR_LEADS;
    const city = isNear ? { city: "Austin", state: "TX", zip: "78704", ...AUSTIN } : pick();
    const point = around(rand, city, isNear ? 45 : 15);
    out.push({
      ...point,
      state: city.state,
      city: city.city,
      zip: city.zip,
      surveyType: SURVEY_TYPES[Math.floor(rand() * SURVEY_TYPES.length)],
      status: isOpen ? (rand() < 0.5 ? "requested" : "surveyors_notified") : "completed",
      // Open leads from the last 6 days; closed ones older.
      createdAt: new Date(now - (isOpen ? rand() * 6 : 10 + rand() * 300) * 86_400_000),
      leadOpen: isOpen,
    });
  }
  return out;
}

/** Seeds the client, the surveyor under test (bench-surveyor-0), the buyers, requests, leads. */
export async function seedLeadMarket(sql: Sql): Promise<void> {
  const hash = await hashPassword(PASSWORD);
  const client = await insertUser(sql, {
    email: "bench-client@example.test",
    fullName: "Bench Client",
    role: "client",
    passwordHash: hash,
  });
  const config = DEFAULT_PRICING_CONFIG;
  const seedRows = await requests();
  const quotes = new Map<string, { quote: unknown; quoted: number | null }>();
  for (const type of SURVEY_TYPES) {
    const details = SurveyDetailsSchema.parse({
      surveyType: type,
      propertyType: "residential",
      acreage: 1,
      terrain: "flat",
      vegetation: "light",
      structures: 1,
      state: "TX",
    });
    const quote = priceSurvey(config, details);
    quotes.set(type, { quote, quoted: quote.quoteRequired ? null : quote.totalCents });
  }
  const chunk = 2_000;
  for (let at = 0; at < seedRows.length; at += chunk) {
    const rows = seedRows.slice(at, at + chunk);
    await sql.begin(async (tx) => {
      const ids = await tx<{ id: string }[]>`
        insert into surveys (
          client_id, client_request_id, status, survey_type, address, formatted_address, lat,
          lng, property_type, acreage, terrain, vegetation, state, purpose, contact_name,
          contact_phone, contact_email, quoted_price_cents, quote, created_at
        )
        select ${client.id}, gen_random_uuid(), r.status, r.survey_type,
          r.n || ' Bench Rd, ' || r.city || ', ' || r.state || ' ' || r.zip,
          r.n || ' Bench Rd, ' || r.city || ', ' || r.state || ' ' || r.zip || ', USA',
          r.lat, r.lng, 'residential', 1, 'flat', 'light', r.state, 'selling',
          'Bench Client ' || r.n, '(512) 555-' || lpad((r.n % 10000)::text, 4, '0'),
          'client' || r.n || '@example.test', r.quoted, r.quote, r.created_at
        from unnest(
          ${tx.array(rows.map((_, i) => at + i))}::int[],
          ${tx.array(rows.map((r) => r.status))}::text[],
          ${tx.array(rows.map((r) => r.surveyType))}::text[],
          ${tx.array(rows.map((r) => r.city))}::text[],
          ${tx.array(rows.map((r) => r.state))}::text[],
          ${tx.array(rows.map((r) => r.zip))}::text[],
          ${tx.array(rows.map((r) => r.lat))}::float8[],
          ${tx.array(rows.map((r) => r.lng))}::float8[],
          ${tx.array(rows.map((r) => quotes.get(r.surveyType)!.quoted))}::int[],
          ${tx.array(rows.map((r) => JSON.stringify(quotes.get(r.surveyType)!.quote)))}::jsonb[],
          ${tx.array(rows.map((r) => r.createdAt.toISOString()))}::timestamptz[]
        ) as r (n, status, survey_type, city, state, zip, lat, lng, quoted, quote, created_at)
        returning id`;
      const leads = rows.map((r) => {
        const price = priceLead(config.lead, {
          surveyType: r.surveyType as "boundary",
          quotedPriceCents: quotes.get(r.surveyType)!.quoted,
        });
        return { price, open: r.leadOpen, createdAt: r.createdAt };
      });
      await tx`
        insert into leads (
          survey_id, price_cents, pricing, max_buyers, status, closed_reason, closed_at,
          buyers_count, expires_at, created_at
        )
        select r.survey_id, r.price_cents, r.pricing, 3,
          case when r.open then 'open' else 'closed' end,
          case when r.open then null else 'expired' end,
          case when r.open then null else r.created_at + interval '7 days' end,
          0, case when r.open then now() + interval '7 days'
            else r.created_at + interval '7 days' end,
          r.created_at
        from unnest(
          ${tx.array(ids.map((i) => i.id))}::uuid[],
          ${tx.array(leads.map((l) => l.price.priceCents))}::int[],
          ${
        tx.array(leads.map((l) => JSON.stringify({ ...l.price.inputs, configVersion: 1 })))
      }::jsonb[],
          ${tx.array(leads.map((l) => l.open))}::bool[],
          ${tx.array(leads.map((l) => l.createdAt.toISOString()))}::timestamptz[]
        ) as r (survey_id, price_cents, pricing, open, created_at)`;
    });
  }
  // The surveyor under test and the buyers: Austin, 50 miles, TX, every type, verified.
  for (let i = 0; i <= BUYERS; i++) {
    const user = await insertUser(sql, {
      email: `bench-surveyor-${i}@example.test`,
      fullName: `Bench Surveyor ${i}`,
      role: "surveyor",
      passwordHash: hash,
    });
    const near = around(seeded(100 + i), AUSTIN, 10);
    await sql.begin(async (tx) => {
      const [s] = await tx<{ id: string }[]>`
        insert into surveyors (
          company_name, license_states, lat, lng, service_radius_miles, survey_types,
          in_network, status, verified_at, verified_via, welcome_claim_used_at, user_id
        ) values (
          ${`Bench Surveying ${i}`}, '{TX}', ${near.lat}, ${near.lng}, 50,
          ${tx.array(SURVEY_TYPES)}::text[], true, 'active', now(), 'seed', now(), ${user.id}
        ) returning id`;
      await postLedgerEntry(tx, {
        surveyorId: s.id,
        kind: "top_up",
        amountCents: 1_000_00,
        reference: `bench-${i}`,
      });
    });
  }
  await sql`vacuum analyze`;
}

async function signIn(url: string, i: number): Promise<string> {
  const res = await fetch(`${url}/api/login`, {
    method: "POST",
    headers: {
      origin: url,
      "content-type": "application/json",
      "x-forwarded-for": `10.9.${i >> 8}.${i & 255}`,
    },
    body: JSON.stringify({ identifier: `bench-surveyor-${i}@example.test`, password: PASSWORD }),
  });
  await res.body?.cancel();
  const pair = res.headers.getSetCookie().map((c) => c.split(";")[0])
    .find((c) => /^(__Host-)?meridian_session=./.test(c));
  if (res.status !== 200 || !pair) throw new Error(`sign-in ${i}: ${res.status}`);
  return pair;
}

async function surveyorIdOf(sql: Sql, i: number): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    select s.id from surveyors s join users u on u.id = s.user_id
    where u.email = ${`bench-surveyor-${i}@example.test`}`;
  return row.id;
}

async function listInProcess(config: { DATABASE_URL: string | undefined; DATA_DIR: string }) {
  const db = await openDatabase(config);
  try {
    const surveyorId = await surveyorIdOf(db.sql, 0);
    const cases: [string, Parameters<typeof listAvailableLeads>[1]][] = [
      ["listAvailableLeads page 1", { surveyorId, page: 1, pageSize: LEADS_PAGE_SIZE }],
      [
        "listAvailableLeads boundary ≤ 25 mi",
        { surveyorId, surveyType: "boundary", maxDistanceMiles: 25, page: 1, pageSize: 20 },
      ],
      ["listAvailableLeads page 5", { surveyorId, page: 5, pageSize: LEADS_PAGE_SIZE }],
    ];
    const width = 36;
    console.log(`  in-process, ${ITERATIONS} calls each:`);
    for (const [label, input] of cases) {
      let summary = "";
      const samples = await measure(async () => {
        const { leads, total } = await listAvailableLeads(db.sql, input);
        summary = `${leads.length} of ${total}`;
      }, { warmup: 20, iterations: ITERATIONS });
      report(label, samples, width);
      console.log(`  ${"".padEnd(width)} (${summary})`);
    }
  } finally {
    await db.close();
  }
}

async function listOverHttp(url: string, cookie: string) {
  const cases: [string, string, boolean][] = [
    ["GET /api/leads", "/api/leads", true],
    [
      "GET /api/leads?surveyType&maxDistance",
      "/api/leads?surveyType=boundary&maxDistance=25",
      true,
    ],
    ["GET /api/leads?page=5", "/api/leads?page=5", true],
    ["GET /leads (page)", "/leads", false],
  ];
  const width = 36;
  console.log(`  over HTTP to a production server, ${ITERATIONS} requests each, sequential:`);
  for (const [label, path, isJson] of cases) {
    let summary = "";
    let skipped = false;
    const samples = await measure(async () => {
      if (skipped) return;
      const res = await fetch(url + path, { headers: { cookie } });
      if (res.status === 404 && !isJson) {
        await res.body?.cancel();
        skipped = true;
        return;
      }
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      if (isJson) {
        const body = await res.json();
        summary = `${body.leads.length} of ${body.total}`;
      } else {
        summary = `${(await res.arrayBuffer()).byteLength} bytes of HTML`;
      }
    }, { warmup: 20, iterations: ITERATIONS });
    if (skipped) {
      console.log(`  ${label.padEnd(width)} not mounted yet; skipped`);
      continue;
    }
    report(label, samples, width);
    console.log(`  ${"".padEnd(width)} (${summary})`);
  }
  console.log("  target: p99 < 50 ms");
}

/** The open boundary leads near the buyers, from the first buyer's own list (via the API). */
async function raceLeads(url: string, cookie: string): Promise<string[]> {
  const res = await fetch(`${url}/api/leads?surveyType=boundary&maxDistance=25`, {
    headers: { cookie },
  });
  if (res.status !== 200) throw new Error(`race leads: ${res.status} ${await res.text()}`);
  const body = await res.json();
  return (body.leads as { id: string }[]).slice(0, RACE_ROUNDS).map((l) => l.id);
}

/** Every buyer POSTs …/buy for each lead at once; exactly 3 must win each time. */
async function race(url: string, cookies: string[], leadIds: string[]) {
  console.log(
    `  ${cookies.length} surveyors buy one lead with 3 places at once (POST /api/leads/{id}/buy):`,
  );
  const walls: number[] = [];
  for (const leadId of leadIds) {
    const start = performance.now();
    const statuses = await Promise.all(cookies.map(async (cookie) => {
      const res = await fetch(`${url}/api/leads/${leadId}/buy`, {
        method: "POST",
        headers: { cookie, origin: url },
      });
      await res.body?.cancel();
      return res.status;
    }));
    const wall = performance.now() - start;
    walls.push(wall);
    const won = statuses.filter((s) => s === 201).length;
    const lost = statuses.filter((s) => s === 409).length;
    const others = statuses.filter((s) => s !== 201 && s !== 409);
    const other = others.length;
    console.log(
      `  lead ${leadId.slice(0, 8)}: ${won} bought (201), ${lost} refused (409)${
        other ? `, ${other} other (${[...new Set(others)].join(", ")})` : ""
      }; wall ${wall.toFixed(0)} ms`,
    );
    if (won !== 3 || other !== 0) throw new Error(`race on ${leadId}: ${won} won, expected 3`);
  }
  report("wall time per race", walls, 20);
}

/** Leads whose buyers_count differs from their purchases, and balances ≠ their ledger sum. */
async function integrity(config: { DATABASE_URL: string | undefined; DATA_DIR: string }) {
  const db = await openDatabase(config);
  try {
    const [row] = await db.sql<{ bad: number; mismatched: number; charged: number }[]>`
      select
        (select count(*)::int from leads l
          where l.buyers_count <> (select count(*) from lead_purchases p where p.lead_id = l.id))
          as bad,
        (select count(*)::int from surveyors s
          where s.balance_cents <> coalesce(
            (select sum(amount_cents) from surveyor_ledger g where g.surveyor_id = s.id), 0))
          as mismatched,
        (select count(*)::int from surveyor_ledger where kind = 'lead_purchase') as charged`;
    console.log(
      `  afterwards: ${row.charged} purchase charges; leads whose buyers_count ≠ purchases: ${row.bad}; balances ≠ ledger sum: ${row.mismatched}`,
    );
  } finally {
    await db.close();
  }
}

if (import.meta.main) {
  const scratch = await scratchDatabase(scratchPrefix("lead_market"));
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-bench-leads-" });
  const config = { DATABASE_URL: scratch.url, DATA_DIR: dataDir };
  const kind = scratch.url ? "Postgres" : "PGlite";
  // The figures mean little on a busy machine: say how busy it was.
  const load = () =>
    Deno.readTextFile("/proc/loadavg").then((t) => t.split(" ").slice(0, 3))
      .catch(() => ["?"]);
  console.log(
    `  load average at start: ${(await load()).join(" ")} (${navigator.hardwareConcurrency} CPUs)`,
  );
  try {
    const seedStart = performance.now();
    const db = await openDatabase(config);
    try {
      await migrate(db.sql);
      await seedLeadMarket(db.sql);
      const [counts] = await db.sql<{ open: number; near: number }[]>`
        select count(*) filter (where status = 'open')::int as open,
          (select count(*)::int from surveys s join leads l on l.survey_id = s.id
            where l.status = 'open' and geo_distance_m(geo_point(s.lat, s.lng),
              (select geo_point(lat, lng) from surveyors where company_name = 'Bench Surveying 0'))
              <= 50 * 1609.344) as near
        from leads`;
      console.log(
        `  seeded on ${kind}: ${
          counts.open.toLocaleString("en-US")
        } open leads (${counts.near} within the surveyor's 50 miles), ${
          CLOSED_LEADS.toLocaleString("en-US")
        } closed, ${BUYERS} buyers; ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
      );
    } finally {
      await db.close();
    }
    if (scratch.url) await listInProcess(config);

    // Each sign-in comes from its own address, so 101 sign-ins pass the per-IP limit. The race
    // sends 100 buys at once, past what admission control (lib/admission.ts) runs and queues by
    // default (40 and 40 on a pool of 10): the last 20 were answered 503 at once (shed, nothing
    // bought). The race measures who wins, not the shedding, so all of them wait their turn.
    const server = await startServer(dataDir, scratch.url, {
      TRUST_PROXY: "1",
      MAX_QUEUED_REQUESTS: String(BUYERS),
      REQUEST_QUEUE_TIMEOUT_MS: "10000",
    });
    try {
      const cookie = await signIn(server.url, 0);
      await listOverHttp(server.url, cookie);
      const cookies: string[] = [];
      for (let i = 1; i <= BUYERS; i++) cookies.push(await signIn(server.url, i));
      await race(server.url, cookies, await raceLeads(server.url, cookies[0]));
      // The embedded database is the server's while it runs: checked after it stops.
      if (scratch.url) await integrity(config);
    } finally {
      await server.stop();
    }
    if (!scratch.url) {
      await integrity(config);
      await listInProcess(config);
    }
    console.log(`  load average at end: ${(await load()).join(" ")}`);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
    await scratch.drop();
  }
}
