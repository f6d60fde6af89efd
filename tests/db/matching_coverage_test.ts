/**
 * The two-tier candidate search (lib/matching.ts candidateQuery, 0011_matching_tiers.sql)
 * finds exactly what one search in the 300-mile box finds: the same records, the same
 * distances, the same nearest CANDIDATE_POOL when more qualify. Checked on random points over
 * surveyors with every radius from 1 to 300 miles, the tier bounds (100 and 101) included,
 * clustered around a few cities so the pool limit is reached, with shared offices so ties are
 * broken by id. On PGlite, and on Postgres with DATABASE_URL set.
 */
import { assert, assertEquals } from "../_assert.ts";
import { resetDatabase, test, testDatabase } from "../_helpers.ts";
import {
  CANDIDATE_POOL,
  candidateQuery,
  type MatchQuery,
  METERS_PER_MILE,
  NEAR_TIER_MILES,
} from "../../lib/matching.ts";
import { MAX_SERVICE_RADIUS_MILES } from "../../lib/surveyor_schema.ts";
import type { Sql } from "../../db/client.ts";

const ROWS = 4_000;
const POINTS = 40;
const STATES = ["TX", "OK", "NM"];
const TYPES = ["boundary", "topographic", "alta"] as const;
const CITIES = [[30.2672, -97.7431], [35.4676, -97.5164], [35.0844, -106.6504]] as const;

function random(seed: number) {
  let value = seed;
  return () => (value = (value * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

async function seed(sql: Sql): Promise<void> {
  const next = random(7);
  const rows: { lat: number; lng: number; radius: number; status: string; states: string[] }[] = [];
  for (let i = 0; i < ROWS; i++) {
    const [cLat, cLng] = CITIES[i % CITIES.length];
    // A third clustered within ~40 miles of a city (so the pool limit is reached), the rest
    // spread over the south-west; every 50th record shares the previous one's office.
    const previous = rows[rows.length - 1];
    const place = i % 50 === 0 && previous
      ? { lat: previous.lat, lng: previous.lng }
      : i % 3 === 0
      ? { lat: cLat + (next() - 0.5) * 1.2, lng: cLng + (next() - 0.5) * 1.2 }
      : { lat: 27 + next() * 12, lng: -110 + next() * 16 };
    const radius = i % 97 === 0
      ? NEAR_TIER_MILES + (i % 2)
      : next() < 0.85
      ? 1 + Math.floor(next() * NEAR_TIER_MILES)
      : NEAR_TIER_MILES + 1 + Math.floor(next() * (MAX_SERVICE_RADIUS_MILES - NEAR_TIER_MILES));
    const status = ["active", "active", "active", "prospect", "invited", "paused"][i % 6];
    const states = i % 11 === 0 ? [] : [STATES[i % 3], STATES[(i + 1) % 3]];
    rows.push({ ...place, radius, status, states });
  }
  await sql`
    insert into surveyors (company_name, lat, lng, service_radius_miles, status, in_network,
      license_states, survey_types)
    select 'Firm ' || t.i, t.lat, t.lng, t.radius, t.status, t.status in ('active', 'paused'),
      string_to_array(t.states, ',')::text[],
      case when t.i % 13 = 0 then '{}'::text[] when t.i % 2 = 0 then '{boundary,alta}'::text[]
        else '{topographic,boundary}'::text[] end
    from unnest(
      ${sql.array(rows.map((r) => r.lat))}::float8[],
      ${sql.array(rows.map((r) => r.lng))}::float8[],
      ${sql.array(rows.map((r) => r.radius))}::int[],
      ${sql.array(rows.map((r) => r.status))}::text[],
      ${sql.array(rows.map((r) => r.states.join(",")))}::text[]
    ) with ordinality as t (lat, lng, radius, status, states, i)`;
  await sql`analyze surveyors`;
}

/** The search as it was before the tiers: one box of the largest radius. */
function oneBoxQuery(sql: Sql, { lat, lng, state, surveyType }: MatchQuery) {
  const here = sql`ll_to_earth(${lat}::float8, ${lng}::float8)`;
  return sql<{ id: string; distanceM: number }[]>`
    select s.id, earth_distance(ll_to_earth(s.lat, s.lng), ${here}) as distance_m
    from surveyors s
    where s.lat is not null
      and earth_box(${here}, ${MAX_SERVICE_RADIUS_MILES * METERS_PER_MILE}::float8)
        @> ll_to_earth(s.lat, s.lng)
      and earth_distance(ll_to_earth(s.lat, s.lng), ${here})
        <= s.service_radius_miles * ${METERS_PER_MILE}::float8
      and (
        (s.status = 'active' and ${state}::text = any(s.license_states)
          and ${surveyType}::text = any(s.survey_types))
        or (s.status in ('prospect', 'invited') and not s.in_network
          and (cardinality(s.license_states) = 0 or ${state}::text = any(s.license_states))
          and (cardinality(s.survey_types) = 0 or ${surveyType}::text = any(s.survey_types)))
      )
    order by distance_m, s.id
    limit ${CANDIDATE_POOL}`;
}

function byDistance(rows: readonly { surveyorId?: string; id?: string; distanceM: number }[]) {
  return rows.map((r) => ({ id: (r.surveyorId ?? r.id)!, distanceM: r.distanceM }))
    .sort((a, b) => a.distanceM - b.distanceM || (a.id < b.id ? -1 : 1));
}

test("[matching] the two-tier search finds exactly what one 300-mile box finds", async () => {
  const { sql } = await testDatabase();
  await resetDatabase(sql);
  await seed(sql);
  const next = random(11);
  const points: MatchQuery[] = [];
  for (let i = 0; i < POINTS; i++) {
    const [cLat, cLng] = CITIES[i % CITIES.length];
    const atCity = i % 4 === 0;
    points.push({
      lat: atCity ? cLat : 26 + next() * 14,
      lng: atCity ? cLng : -112 + next() * 20,
      state: STATES[i % STATES.length],
      surveyType: TYPES[i % TYPES.length],
    });
  }
  let full = 0;
  let farFound = 0;
  for (const point of points) {
    const [tiered, oneBox] = [
      byDistance(await candidateQuery(sql, point)),
      byDistance(await oneBoxQuery(sql, point)),
    ];
    assertEquals(tiered, oneBox, JSON.stringify(point));
    if (oneBox.length === CANDIDATE_POOL) full++;
    const far = await sql<{ n: number }[]>`
      select count(*)::int as n from surveyors
      where id = any(${sql.array(oneBox.map((r) => r.id))}::uuid[])
        and service_radius_miles > ${NEAR_TIER_MILES}`;
    farFound += far[0].n;
  }
  // The comparison covered what it is meant to: full pools and wide-radius records.
  assert(full > 0, "some points have more candidates than the pool holds");
  assert(farFound > 0, "some candidates come from the wide tier");
});

test("[matching] walking each tier's index nearest first finds exactly what one 300-mile box finds", async () => {
  // At this size the planner may read a tier's box with a bitmap scan and sort it; at 50,000
  // records it walks the index nearest first and stops at the pool. Force the walk (no bitmap
  // scan, sorts discouraged) so its stop at CANDIDATE_POOL, ties included, is what is compared.
  const { sql } = await testDatabase();
  await resetDatabase(sql);
  await seed(sql);
  // One office shared by more records than the pool holds: which of them make the pool is
  // decided by id, not by where the walk happens to meet them.
  await sql`
    insert into surveyors (company_name, lat, lng, service_radius_miles, status, in_network,
      license_states, survey_types)
    select 'Shared office ' || i, 32.7767, -96.797, 50 + i % 50, 'active', true,
      '{TX}', '{boundary}'
    from generate_series(1, ${CANDIDATE_POOL + 50}::int) i`;
  await sql`analyze surveyors`;
  const next = random(13);
  let walked = 0;
  const shared: MatchQuery = { lat: 32.78, lng: -96.8, state: "TX", surveyType: "boundary" };
  for (let i = 0; i <= POINTS; i++) {
    const [cLat, cLng] = CITIES[i % CITIES.length];
    const point: MatchQuery = i === POINTS ? shared : i % 2 === 0
      ? {
        lat: cLat + (next() - 0.5) * 0.2,
        lng: cLng + (next() - 0.5) * 0.2,
        state: STATES[i % 3],
        surveyType: TYPES[i % 3],
      }
      : {
        lat: 26 + next() * 14,
        lng: -112 + next() * 20,
        state: STATES[i % 3],
        surveyType: TYPES[i % 3],
      };
    const [tiered, plan] = await sql.begin(async (tx) => {
      await tx`set local enable_bitmapscan = off`;
      await tx`set local enable_sort = off`;
      // The disabled sort's huge cost would otherwise bring in JIT compilation on Postgres.
      await tx`set local jit = off`;
      const rows = await candidateQuery(tx as unknown as Sql, point);
      const lines = await tx<Record<string, string>[]>`explain ${
        candidateQuery(tx as unknown as Sql, point)
      }`;
      return [rows, lines.map((r) => Object.values(r)[0]).join("\n")] as const;
    });
    if (/Order By: .*<->/.test(plan)) walked++;
    assertEquals(
      byDistance(tiered),
      byDistance(await oneBoxQuery(sql, point)),
      JSON.stringify(point),
    );
  }
  assertEquals(walked, POINTS + 1, "every point's tiers were walked nearest first");
});
