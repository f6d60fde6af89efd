/**
 * 0032_licence_states.sql on a database that has firms already (issue 20): the states of a
 * verified firm are recorded verified ('migration') and keep counting; a firm waiting for its
 * first licence check gets no verified state. Runs on a fresh embedded database of its own
 * (whatever DATABASE_URL says), migrated to 0031 first.
 */
import { assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { openDatabase } from "../../db/client.ts";
import { migrate, readMigrations } from "../../db/migrate.ts";
import { findCandidateSurveyors } from "../../lib/matching.ts";

test("[licence states] 0032 records the states of verified firms as verified and leaves the others to their check", async () => {
  const db = await openDatabase({ DATABASE_URL: undefined, DATA_DIR: ".data/test" }, {
    memory: true,
  });
  try {
    const all = await readMigrations();
    await migrate(db.sql, all.filter((m) => m.version < 32));
    const [verified] = await db.sql<{ id: string }[]>`
      insert into surveyors (company_name, lat, lng, service_radius_miles, status, in_network,
        license_number, license_states, survey_types, verified_at, verified_via)
      values ('Austin Survey Co', 30.2672, -97.7431, 50, 'active', true, 'RPLS 1', '{OK,TX}',
        '{boundary}', now() - interval '3 days', 'admin')
      returning id`;
    const [waiting] = await db.sql<{ id: string }[]>`
      insert into surveyors (company_name, lat, lng, service_radius_miles, status, in_network,
        license_states, survey_types)
      values ('Waiting Survey Co', 30.2672, -97.7431, 50, 'pending', true, '{TX}', '{boundary}')
      returning id`;
    await migrate(db.sql, all);

    const rows = await db.sql<
      { surveyorId: string; state: string; status: string; verifiedVia: string }[]
    >`
      select surveyor_id, state, status, verified_via from surveyor_licence_states
      order by surveyor_id, state`;
    assertEquals(
      rows.map((r) => ({ ...r })),
      [
        { surveyorId: verified.id, state: "OK", status: "verified", verifiedVia: "migration" },
        { surveyorId: verified.id, state: "TX", status: "verified", verifiedVia: "migration" },
      ],
    );
    assertEquals(waiting.id.length, 36);
    // The verified firm is still matched in Texas.
    const found = await findCandidateSurveyors(db.sql, {
      lat: 30.5083,
      lng: -97.6789,
      state: "TX",
      surveyType: "boundary",
    });
    assertEquals(found.map((c) => c.companyName), ["Austin Survey Co"]);
  } finally {
    await db.close();
  }
});
