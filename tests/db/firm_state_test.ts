/**
 * One state model for a firm's licence (0026_firm_verification.sql, lib/surveyor_constants.ts
 * SURVEYOR_STATUSES): an active firm is always verified, a prospect, invited or pending one
 * never is. The database refuses anything else, every status change keeps it, and 0026
 * repairs the rows written before it.
 */
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { resetDatabase, test, testDatabase } from "../_helpers.ts";
import { createUser } from "../_auth.ts";
import type { Sql } from "../../db/client.ts";
import { insertSurveyor, updateSurveyor } from "../../db/surveyors.ts";
import { getSurveyorVerification, markSurveyorJoined } from "../../db/claim_tokens.ts";

async function freshDb() {
  const db = await testDatabase();
  await resetDatabase(db.sql);
  return db.sql;
}

/** The postgres error code of a rejected statement (23514: a check constraint refused it). */
async function errorCode(work: Promise<unknown>): Promise<string | undefined> {
  const err = await assertRejects(() => work);
  return (err as { code?: string }).code;
}

async function verification(sql: Sql, id: string) {
  const [row] = await sql<
    { status: string; verifiedAt: Date | null; verifiedBy: string | null; verifiedVia: string }[]
  >`select status, verified_at, verified_by, verified_via from surveyors where id = ${id}`;
  return row;
}

test("[firm state] the database refuses an active firm with no verification and a verified firm in licence check", async () => {
  const sql = await freshDb();
  assertEquals(
    await errorCode(sql`insert into surveyors (company_name, status) values ('A', 'active')`),
    "23514",
  );
  for (const status of ["prospect", "invited", "pending"]) {
    assertEquals(
      await errorCode(sql`
        insert into surveyors (company_name, status, verified_at, verified_via)
        values ('B', ${status}, now(), 'admin')`),
      "23514",
      status,
    );
  }
  // A verification says who recorded it, and an admin only with a time.
  assertEquals(
    await errorCode(sql`
      insert into surveyors (company_name, status, verified_at) values ('C', 'active', now())`),
    "23514",
  );
  const admin = await createUser(sql, { role: "admin" });
  assertEquals(
    await errorCode(sql`
      insert into surveyors (company_name, status, verified_by)
      values ('D', 'paused', ${admin.id})`),
    "23514",
  );
  // Verified, or paused either way: accepted.
  await sql`
    insert into surveyors (company_name, status, verified_at, verified_by, verified_via)
    values ('E', 'active', now(), ${admin.id}, 'admin'), ('F', 'paused', null, null, null),
      ('G', 'paused', now(), null, 'seed')`;
  // Setting an existing firm active behind the model's back is refused too.
  const [pending] = await sql<{ id: string }[]>`
    insert into surveyors (company_name, status) values ('H', 'pending') returning id`;
  assertEquals(
    await errorCode(sql`update surveyors set status = 'active' where id = ${pending.id}`),
    "23514",
  );
  const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from surveyors`;
  assertEquals(n, 4);
});

test("[firm state] every way to make a firm active records the verification; licence check clears it; pause keeps it", async () => {
  const sql = await freshDb();
  const admin = await createUser(sql, { role: "admin", fullName: "Ada Admin" });
  const other = await createUser(sql, { role: "admin", fullName: "Otto Other" });

  // Added as active by an admin: verified by them, now.
  const added = await insertSurveyor(sql, {
    companyName: "Added Active",
    status: "active",
    verifiedBy: admin.id,
  });
  const v1 = await getSurveyorVerification(sql, { id: added.id });
  assert(v1?.verifiedAt instanceof Date);
  assert(Date.now() - v1.verifiedAt.getTime() < 60_000);
  assertEquals([v1.verifiedVia, v1.verifiedByName], ["admin", "Ada Admin"]);

  // Added as active by a command (no admin): verified via 'seed', nobody named.
  const seeded = await insertSurveyor(sql, { companyName: "Seeded Active", status: "active" });
  const v2 = await getSurveyorVerification(sql, { id: seeded.id });
  assertEquals([v2?.verifiedVia, v2?.verifiedByName], ["seed", null]);
  assert(v2?.verifiedAt);

  // Added for a licence check, then set active by an admin's edit: verified by that admin.
  const pending = await insertSurveyor(sql, { companyName: "Checked Later", status: "pending" });
  assertEquals((await getSurveyorVerification(sql, { id: pending.id }))?.verifiedAt, null);
  await updateSurveyor(sql, { id: pending.id, update: { status: "active" }, actorId: other.id });
  const v3 = await getSurveyorVerification(sql, { id: pending.id });
  assertEquals([v3?.verifiedVia, v3?.verifiedByName], ["admin", "Otto Other"]);

  // Paused keeps the verification, and active again keeps the first one (not re-recorded).
  const first = (await verification(sql, added.id)).verifiedAt;
  await updateSurveyor(sql, { id: added.id, update: { status: "paused" }, actorId: other.id });
  assertEquals((await verification(sql, added.id)).verifiedAt, first);
  await updateSurveyor(sql, { id: added.id, update: { status: "active" }, actorId: other.id });
  assertEquals(await verification(sql, added.id), {
    status: "active",
    verifiedAt: first,
    verifiedBy: admin.id,
    verifiedVia: "admin",
  });

  // Back to the licence check (or the funnel), or joined again: no verification left.
  await updateSurveyor(sql, { id: added.id, update: { status: "pending" }, actorId: admin.id });
  assertEquals(await verification(sql, added.id), {
    status: "pending",
    verifiedAt: null,
    verifiedBy: null,
    verifiedVia: null,
  });
  await updateSurveyor(sql, { id: pending.id, update: { status: "prospect" } });
  assertEquals((await verification(sql, pending.id)).verifiedAt, null);
  await markSurveyorJoined(sql, { id: seeded.id });
  assertEquals(await verification(sql, seeded.id), {
    status: "pending",
    verifiedAt: null,
    verifiedBy: null,
    verifiedVia: null,
  });

  // A paused firm never verified, made active: verified now by that admin.
  const paused = await insertSurveyor(sql, { companyName: "Paused Early", status: "paused" });
  assertEquals((await verification(sql, paused.id)).verifiedAt, null);
  await updateSurveyor(sql, { id: paused.id, update: { status: "active" }, actorId: admin.id });
  assertEquals((await verification(sql, paused.id)).verifiedBy, admin.id);
});

class Rollback extends Error {}

test("[firm state] 0026 keeps active firms active and records them verified by the migration; clears stale checks", async () => {
  const sql = await freshDb();
  const admin = await createUser(sql, { role: "admin" });
  const repair = await Deno.readTextFile(
    new URL("../../db/migrations/0026_firm_verification.sql", import.meta.url),
  );
  // Inside a transaction that is rolled back: the schema as it was before 0026, the rows as
  // the paths of that time wrote them, then 0026 itself.
  const result = await assertRejects(() =>
    sql.begin(async (tx) => {
      await tx`alter table surveyors drop constraint surveyors_verification_check`;
      await tx`alter table surveyors drop column verified_via`;
      const rows = await tx<{ id: string; companyName: string }[]>`
        insert into surveyors (company_name, status, verified_at, verified_by) values
          ('admin added active', 'active', null, null),
          ('verified by an admin', 'active', '2024-05-01T12:00:00Z', ${admin.id}),
          ('active before 0012', 'active', '2023-01-01T00:00:00Z', null),
          ('sent back to the check', 'pending', '2024-05-01T12:00:00Z', ${admin.id}),
          ('paused, never checked', 'paused', null, null),
          ('paused after a check', 'paused', '2024-05-01T12:00:00Z', ${admin.id}),
          ('prospect', 'prospect', null, null)
        returning id, company_name`;
      await tx.unsafe(repair);
      const after = await tx<
        {
          companyName: string;
          status: string;
          verifiedAt: Date | null;
          verifiedBy: string | null;
          verifiedVia: string | null;
        }[]
      >`
        select company_name, status, verified_at, verified_by, verified_via from surveyors
        where id = any(${tx.array(rows.map((r) => r.id))}::uuid[])
        order by company_name`;
      const [{ now }] = await tx<{ now: Date }[]>`select now()`;
      const by = Object.fromEntries(after.map((r) => [r.companyName, r]));
      assertEquals(by["admin added active"], {
        companyName: "admin added active",
        status: "active",
        verifiedAt: now,
        verifiedBy: null,
        verifiedVia: "migration",
      });
      assertEquals(by["verified by an admin"].verifiedVia, "admin");
      assertEquals(by["verified by an admin"].verifiedBy, admin.id);
      assertEquals(
        by["verified by an admin"].verifiedAt?.toISOString(),
        "2024-05-01T12:00:00.000Z",
      );
      assertEquals(by["active before 0012"].verifiedVia, "migration");
      assertEquals(by["active before 0012"].verifiedAt?.toISOString(), "2023-01-01T00:00:00.000Z");
      assertEquals(
        [by["sent back to the check"].status, by["sent back to the check"].verifiedAt],
        ["pending", null],
      );
      assertEquals(by["paused, never checked"].verifiedAt, null);
      assertEquals(by["paused after a check"].verifiedVia, "admin");
      assertEquals(by["prospect"].verifiedAt, null);
      // And from then on the contradiction cannot be written again.
      const refused = await assertRejects(() =>
        tx.savepoint((sp) =>
          sp`insert into surveyors (company_name, status) values ('X', 'active')`
        )
      );
      assertEquals((refused as { code?: string }).code, "23514");
      throw new Rollback();
    })
  );
  assert(result instanceof Rollback, String(result));
  // The rollback left the migrated schema as it was.
  assertEquals(
    await errorCode(sql`insert into surveyors (company_name, status) values ('Y', 'active')`),
    "23514",
  );
});
