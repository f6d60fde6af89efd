/**
 * find-surveyors among 50,000 surveyor records: candidate matching for survey requests at
 * random US places, measured three ways on the same data:
 *
 *  1. the matching query (lib/matching.ts `findCandidateSurveyors`: the GiST search of the
 *     stored coverage boxes that hold the property, radius, licence state and type, scores
 *     with the response-rate and workload joins);
 *  2. the refresh path of lib/dispatch.ts `findSurveyors` (the survey read, the match, the
 *     result stored on the survey, the notified flags): what the endpoint runs;
 *  3. `POST /api/surveys/{id}/find-surveyors?refresh=true` over HTTP to a real production
 *     server (main.ts), signed in as an admin.
 *
 * The records are lib/demo_network.ts firms (real city coordinates in every state, weighted by
 * population; radius 25–100 miles; 60% active), with 90 days of lead offers (for the response
 * rate) and open assigned surveys (for the workload). Requests sit at random towns of the
 * offline ZIP data (so rural places as often as cities) with random survey types. Prints
 * p50/p99; asserts nothing.
 *
 *   deno run -A bench/find_surveyors.ts                  # embedded PGlite (a temp DATA_DIR)
 *   DATABASE_URL=postgres://… deno run -A bench/find_surveyors.ts
 *
 * With DATABASE_URL it creates a scratch database next to the given one and drops it at the
 * end. Target: p99 < 20 ms on Postgres (report PGlite too).
 */
import { openDatabase, type Sql } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { insertUser } from "../db/users.ts";
import { findCandidateSurveyors } from "../lib/matching.ts";
import { findSurveyors } from "../lib/dispatch.ts";
import { createOfflinePlacesProvider } from "../lib/places/offline.ts";
import { type DemoCity, loadDemoCities, seededRandom } from "../lib/demo_network.ts";
import { SURVEY_TYPES } from "../lib/survey_types.ts";
import { measure, report } from "./_stats.ts";
import { scratchDatabase } from "./_server.ts";
import { scratchPrefix, seedSurveyors, signInAdmin, startServer } from "./surveyors_list.ts";

const TOTAL = Number(Deno.env.get("BENCH_SURVEYORS") ?? 50_000);
const ITERATIONS = Number(Deno.env.get("BENCH_ITERATIONS") ?? 300);
const REQUESTS = 400;
const PAST_LEADS = 3_000;

/** A seeded request: its survey id, place and type. */
export interface Request {
  id: string;
  lat: number;
  lng: number;
  state: string;
  surveyType: (typeof SURVEY_TYPES)[number];
}

/**
 * The bench client, PAST_LEADS older surveys assigned to active surveyors (a quarter still
 * open) each with a closed lead offered to eight active surveyors over the last 120 days, and
 * REQUESTS new requests at random towns. Returns the new requests.
 */
export async function seedDispatchData(sql: Sql, cities: readonly DemoCity[]): Promise<Request[]> {
  const client = await insertUser(sql, {
    email: "bench-client@example.test",
    fullName: "Bench Client",
    role: "client",
    passwordHash: "x",
  });
  const quote = { surveyType: "boundary", totalCents: 38_500, lineItems: [] };
  await sql`
    with active as (select array_agg(id order by id) as ids from surveyors where status = 'active')
    insert into surveys (
      client_id, client_request_id, status, survey_type, address, property_type, acreage,
      terrain, vegetation, state, purpose, contact_name, contact_phone, quoted_price_cents,
      quote, pricing_config_version, assigned_surveyor_id, created_at, updated_at
    )
    select ${client.id}, gen_random_uuid(),
      (array['scheduled', 'completed', 'completed', 'completed'])[1 + i % 4], 'boundary',
      i || ' Main St, Springfield, IL 62701', 'residential', 1, 'flat', 'clear', 'IL',
      'selling', 'Bench Client', '555-0100', 38500, ${sql.json(quote)}, 1,
      active.ids[1 + (i * 7919) % cardinality(active.ids)],
      now() - i * interval '1 hour', now() - i * interval '1 hour'
    from generate_series(1, ${PAST_LEADS}::int) i, active`;
  await sql`
    insert into leads (survey_id, price_cents, pricing, status, expires_at, closed_at)
    select id, 2500, '{}'::jsonb, 'closed', created_at + interval '7 days',
      created_at + interval '7 days'
    from surveys where client_id = ${client.id}`;
  await sql`
    with active as (select array_agg(id order by id) as ids from surveyors where status = 'active'),
    numbered as (select id, row_number() over (order by id) as n from leads)
    insert into lead_recipients (lead_id, surveyor_id, kind, outcome, notified_at)
    select l.id, active.ids[1 + ((l.n * 104729 + k * 7907) % cardinality(active.ids))],
      'notified', (array['sent', 'viewed', 'purchased', 'declined', 'sent'])[1 + (l.n + k) % 5],
      now() - ((l.n * 13 + k) % 120) * interval '1 day'
    from numbered l, generate_series(1, 8) k, active
    on conflict do nothing`;

  const random = seededRandom(7);
  const requests = Array.from({ length: REQUESTS }, (_, i) => {
    const city = cities[Math.floor(random() * cities.length)];
    return {
      id: crypto.randomUUID(),
      lat: city.lat + (random() - 0.5) * 0.05,
      lng: city.lng + (random() - 0.5) * 0.05,
      state: city.state,
      surveyType: SURVEY_TYPES[i % SURVEY_TYPES.length],
      address: `${100 + i} Main St, ${city.city}, ${city.state} ${city.zip}`,
    };
  });
  await sql`
    insert into surveys (
      id, client_id, client_request_id, status, survey_type, address, lat, lng, property_type,
      acreage, terrain, vegetation, state, purpose, contact_name, contact_phone,
      quoted_price_cents, quote, pricing_config_version
    )
    select r.id, ${client.id}, gen_random_uuid(), 'requested', r.survey_type, r.address, r.lat,
      r.lng, 'residential', 1, 'flat', 'clear', r.state, 'selling', 'Bench Client', '555-0100',
      38500, ${sql.json(quote)}, 1
    from jsonb_to_recordset(${sql.json(requests.map((r) => ({ ...r, survey_type: r.surveyType })))})
      as r(id uuid, survey_type text, address text, lat double precision, lng double precision,
        state text)`;
  await sql`vacuum analyze`;
  return requests;
}

if (import.meta.main) {
  const scratch = await scratchDatabase(scratchPrefix("find_surveyors"));
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-bench-find-" });
  const kind = scratch.url ? "Postgres" : "PGlite";
  try {
    const config = { DATABASE_URL: scratch.url, DATA_DIR: dataDir };
    const seedStart = performance.now();
    const db = await openDatabase(config);
    let requests: Request[];
    try {
      await migrate(db.sql);
      await seedSurveyors(db.sql, TOTAL);
      requests = await seedDispatchData(db.sql, await loadDemoCities());
      const [counts] = await db.sql<{ surveyors: number; recipients: number }[]>`
        select (select count(*)::int from surveyors) as surveyors,
          (select count(*)::int from lead_recipients) as recipients`;
      console.log(
        `  seeded ${counts.surveyors.toLocaleString("en-US")} surveyors, ${
          counts.recipients.toLocaleString("en-US")
        } lead offers, ${REQUESTS} requests at random towns on ${kind} in ${
          ((performance.now() - seedStart) / 1000).toFixed(1)
        } s`,
      );

      const width = 44;
      console.log(`  ${ITERATIONS} calls each, sequential, a different request each time:`);
      let found = 0;
      const query = await measure(async (i) => {
        const r = requests[i % REQUESTS];
        found += (await findCandidateSurveyors(db.sql, r)).length;
      }, { warmup: 20, iterations: ITERATIONS });
      report("matching query (findCandidateSurveyors)", query, width);
      console.log(
        `  ${"".padEnd(width)} (${
          (found / (ITERATIONS + 20)).toFixed(1)
        } candidates per request on average)`,
      );
      const places = createOfflinePlacesProvider();
      const path = await measure(async (i) => {
        const result = await findSurveyors(
          { sql: db.sql, places },
          { surveyId: requests[i % REQUESTS].id, refresh: true },
        );
        if (!result) throw new Error("survey not found");
      }, { warmup: 20, iterations: ITERATIONS });
      report("findSurveyors(refresh) (lib/dispatch.ts)", path, width);
    } finally {
      await db.close();
    }

    const server = await startServer(dataDir, scratch.url);
    try {
      const cookie = await signInAdmin(server.url);
      const http = await measure(async (i) => {
        const id = requests[i % REQUESTS].id;
        const res = await fetch(`${server.url}/api/surveys/${id}/find-surveyors?refresh=true`, {
          method: "POST",
          headers: { cookie, origin: server.url },
        });
        const body = await res.json();
        if (res.status !== 200) throw new Error(`${id}: ${res.status} ${JSON.stringify(body)}`);
      }, { warmup: 20, iterations: ITERATIONS });
      report("POST …/find-surveyors?refresh=true (HTTP)", http, 44);
      // The same server's cost of an admin API call without the search: the session, the
      // user read, HTTP and JSON; what the endpoint adds on top of findSurveyors.
      const baseline = await measure(async () => {
        const res = await fetch(`${server.url}/api/user`, { headers: { cookie } });
        await res.json();
        if (res.status !== 200) throw new Error(`/api/user: ${res.status}`);
      }, { warmup: 20, iterations: ITERATIONS });
      report("GET /api/user (HTTP, same session)", baseline, 44);
    } finally {
      await server.stop();
    }
    console.log("  target: p99 < 20 ms on Postgres (matching among 50,000 surveyors)");
  } finally {
    await Deno.remove(dataDir, { recursive: true });
    await scratch.drop();
  }
}
