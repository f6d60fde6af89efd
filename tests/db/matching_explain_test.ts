/**
 * The matching query finds the records whose coverage holds the property through the GiST
 * index on stored coverage boxes (surveyors_coverage_idx) and never scans the surveyors
 * table, on PGlite and on Postgres (DATABASE_URL set).
 *
 * Honest about how: the table gets 3,000 surveyors spread over the continental US and is
 * ANALYZEd, and the plan is read with the planner's ordinary settings (no enable_seqscan
 * off): with real statistics the planner chooses the index by itself, because the firms that
 * reach one city are a few percent of the rows. Radii run from 25 to 124 miles.
 */
import { assert, assertStringIncludes } from "../_assert.ts";
import { resetDatabase, test, testDatabase } from "../_helpers.ts";
import { candidateQuery, type MatchQuery, withIndexWalk } from "../../lib/matching.ts";
import type { Sql } from "../../db/client.ts";

const ROWS = 3_000;

async function seed(sql: Sql): Promise<void> {
  // A fixed pseudo-random spread (no Math.random: the same plan every run).
  let seedValue = 42;
  const next = () => (seedValue = (seedValue * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const lats: number[] = [];
  const lngs: number[] = [];
  for (let i = 0; i < ROWS; i++) {
    lats.push(25 + next() * 24);
    lngs.push(-124 + next() * 57);
  }
  await sql`
    insert into surveyors (company_name, lat, lng, license_states, survey_types, status,
      in_network, service_radius_miles, verified_at, verified_via)
    select 'Firm ' || i, lat, lng, '{TX,OK}', '{boundary,topographic}',
      case when i % 5 = 0 then 'prospect' else 'active' end, i % 5 <> 0, 25 + i % 100,
      case when i % 5 <> 0 then now() end, case when i % 5 <> 0 then 'seed' end
    from unnest(${sql.array(lats)}::float8[], ${sql.array(lngs)}::float8[])
      with ordinality as t (lat, lng, i)`;
  await sql`analyze surveyors`;
}

async function plan(sql: Sql, query: MatchQuery): Promise<string> {
  // The column is "QUERY PLAN", whatever the name transform makes of it.
  // With the settings findCandidateSurveyors runs it with (withIndexWalk).
  const rows = await withIndexWalk(
    sql,
    (tx) => tx<Record<string, string>[]>`explain ${candidateQuery(tx, query)}`,
  );
  return rows.map((r) => Object.values(r)[0]).join("\n");
}

test("[matching] EXPLAIN: candidates are found by walking the coverage index nearest first, never a scan of surveyors", async () => {
  const { sql } = await testDatabase();
  await resetDatabase(sql);
  await seed(sql);
  for (
    const query of [
      { lat: 30.2672, lng: -97.7431, state: "TX", surveyType: "boundary" },
      { lat: 40.7128, lng: -74.006, state: "NY", surveyType: "alta" },
      { lat: 47.6062, lng: -122.3321, state: "WA", surveyType: "subdivision" },
    ] satisfies MatchQuery[]
  ) {
    const text = await plan(sql, query);
    if (Deno.env.get("SHOW_PLAN")) console.log(text);
    assertStringIncludes(text, "Index Scan using surveyors_coverage_idx", text);
    assert(/Order By: .*<->/.test(text), `the walk is nearest first:\n${text}`);
    assert(!/Seq Scan on surveyors/.test(text), `a sequential scan of surveyors:\n${text}`);
  }
});
