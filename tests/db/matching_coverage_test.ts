/**
 * The coverage search (lib/matching.ts candidateQuery, 0014_matching_coverage.sql: walking
 * the stored coverage boxes that hold the property nearest office first, as
 * findCandidateSurveyors runs it) finds exactly what one search in the 300-mile box
 * around the property finds: the same records, the same distances, the same nearest
 * CANDIDATE_POOL when more qualify. Checked on random points over surveyors with every radius
 * from 1 to 300 miles, clustered around a few cities so the pool limit is reached, with shared
 * offices so ties are broken by id; and the stored coverage follows a record that moves or
 * changes its radius. On PGlite, and on Postgres with DATABASE_URL set.
 */
import { assert, assertEquals } from "../_assert.ts";
import { resetDatabase, test, testDatabase } from "../_helpers.ts";
import {
  CANDIDATE_POOL,
  candidateQuery,
  type MatchQuery,
  METERS_PER_MILE,
  withIndexWalk,
} from "../../lib/matching.ts";
import { MAX_SERVICE_RADIUS_MILES } from "../../lib/surveyor_schema.ts";
import type { Sql } from "../../db/client.ts";

const ROWS = 4_000;
const POINTS = 40;
const STATES = ["TX", "OK", "NM"];
const TYPES = ["boundary", "topographic", "alta"] as const;
const CITIES = [[30.2672, -97.7431], [35.4676, -97.5164], [35.0844, -106.6504]] as const;
/** Radii up to this are the common case; a few records serve up to the maximum. */
const COMMON_RADIUS_MILES = 100;

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
      ? MAX_SERVICE_RADIUS_MILES - (i % 2)
      : next() < 0.85
      ? 1 + Math.floor(next() * COMMON_RADIUS_MILES)
      : COMMON_RADIUS_MILES + 1 +
        Math.floor(next() * (MAX_SERVICE_RADIUS_MILES - COMMON_RADIUS_MILES));
    const status = ["active", "active", "active", "prospect", "invited", "paused"][i % 6];
    const states = i % 11 === 0 ? [] : [STATES[i % 3], STATES[(i + 1) % 3]];
    rows.push({ ...place, radius, status, states });
  }
  await sql`
    insert into surveyors (company_name, lat, lng, service_radius_miles, status, in_network,
      license_states, survey_types, verified_at, verified_via)
    select 'Firm ' || t.i, t.lat, t.lng, t.radius, t.status, t.status in ('active', 'paused'),
      string_to_array(t.states, ',')::text[],
      case when t.i % 13 = 0 then '{}'::text[] when t.i % 2 = 0 then '{boundary,alta}'::text[]
        else '{topographic,boundary}'::text[] end,
      case when t.status = 'active' then now() end,
      case when t.status = 'active' then 'seed' end
    from unnest(
      ${sql.array(rows.map((r) => r.lat))}::float8[],
      ${sql.array(rows.map((r) => r.lng))}::float8[],
      ${sql.array(rows.map((r) => r.radius))}::int[],
      ${sql.array(rows.map((r) => r.status))}::text[],
      ${sql.array(rows.map((r) => r.states.join(",")))}::text[]
    ) with ordinality as t (lat, lng, radius, status, states, i)`;
  await sql`analyze surveyors`;
}

/** The reference: every record within the largest allowed radius, one box, no index needed. */
function oneBoxQuery(sql: Sql, { lat, lng, state, surveyType }: MatchQuery) {
  const here = sql`geo_point(${lat}::float8, ${lng}::float8)`;
  return sql<{ id: string; distanceM: number }[]>`
    select s.id, geo_distance_m(geo_point(s.lat, s.lng), ${here}) as distance_m
    from surveyors s
    where s.lat is not null
      and geo_box(${here}, ${MAX_SERVICE_RADIUS_MILES * METERS_PER_MILE}::float8)
        @> geo_point(s.lat, s.lng)
      and geo_distance_m(geo_point(s.lat, s.lng), ${here})
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

test("[matching] the coverage search finds exactly what one 300-mile box finds", async () => {
  const { sql } = await testDatabase();
  await resetDatabase(sql);
  await seed(sql);
  // One office shared by more records than the pool holds: which of them make the pool is
  // decided by id.
  await sql`
    insert into surveyors (company_name, lat, lng, service_radius_miles, status, in_network,
      license_states, survey_types, verified_at, verified_via)
    select 'Shared office ' || i, 32.7767, -96.797, 50 + i % 50, 'active', true,
      '{TX}', '{boundary}', now(), 'seed'
    from generate_series(1, ${CANDIDATE_POOL + 50}::int) i`;
  await sql`analyze surveyors`;
  const next = random(11);
  const points: MatchQuery[] = [{ lat: 32.78, lng: -96.8, state: "TX", surveyType: "boundary" }];
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
  let wideFound = 0;
  let walked = 0;
  for (const point of points) {
    const [found, oneBox] = [
      byDistance(await withIndexWalk(sql, (tx) => candidateQuery(tx, point))),
      byDistance(await oneBoxQuery(sql, point)),
    ];
    assertEquals(found, oneBox, JSON.stringify(point));
    const plan = await withIndexWalk(
      sql,
      (tx) => tx<Record<string, string>[]>`explain ${candidateQuery(tx, point)}`,
    );
    if (/Order By: .*<->/.test(plan.map((r) => Object.values(r)[0]).join("\n"))) walked++;
    if (oneBox.length === CANDIDATE_POOL) full++;
    const wide = await sql<{ n: number }[]>`
      select count(*)::int as n from surveyors
      where id = any(${sql.array(oneBox.map((r) => r.id))}::uuid[])
        and service_radius_miles > ${COMMON_RADIUS_MILES}`;
    wideFound += wide[0].n;
  }
  // The comparison covered what it is meant to: full pools and wide-radius records.
  assert(full > 1, "some points have more candidates than the pool holds");
  assert(wideFound > 0, "some candidates serve more than 100 miles");
  assertEquals(walked, points.length, "every search walked the index nearest first");
});

test("[matching] a record's stored coverage follows its office and radius", async () => {
  const { sql } = await testDatabase();
  await resetDatabase(sql);
  const [firm] = await sql<{ id: string }[]>`
    insert into surveyors (company_name, lat, lng, service_radius_miles, status, in_network,
      license_states, survey_types, verified_at, verified_via)
    values ('Moving Firm', 30.2672, -97.7431, 20, 'active', true, '{TX}', '{boundary}', now(),
      'seed')
    returning id`;
  // San Marcos is ~28 miles from Austin: outside a 20-mile radius, inside a 40-mile one.
  const sanMarcos: MatchQuery = {
    lat: 29.8833,
    lng: -97.9414,
    state: "TX",
    surveyType: "boundary",
  };
  const ids = async () =>
    (await withIndexWalk(sql, (tx) => candidateQuery(tx, sanMarcos))).map((r) => r.surveyorId);
  assertEquals(await ids(), []);
  await sql`update surveyors set service_radius_miles = 40 where id = ${firm.id}`;
  assertEquals(await ids(), [firm.id]);
  // Moved to Dallas (~190 miles away): out of reach again.
  await sql`update surveyors set lat = 32.7767, lng = -96.797 where id = ${firm.id}`;
  assertEquals(await ids(), []);
  // No location: never a candidate, and no coverage stored.
  await sql`update surveyors set lat = null, lng = null where id = ${firm.id}`;
  const [row] = await sql<{ coverage: string | null }[]>`
    select coverage::text as coverage from surveyors where id = ${firm.id}`;
  assertEquals(row.coverage, null);
});
