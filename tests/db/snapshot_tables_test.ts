/**
 * The one way a remembered page (db/snapshot_cache.ts) could show stale data: its statement
 * reads a table whose writes are not recorded (no trigger of migration 0055), or one missing
 * from its cache's `tables`, so a write to it would not read the page again. Every remembered
 * page's statement is read here, as each role and filter reaches it, and its plan, as Postgres
 * would run it, is checked against both; and no function it calls may read a table out of the
 * plan's sight (one in SQL or PL/pgSQL that is not immutable).
 */
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { addLead, addMarketSurveyor } from "../_lead_fixtures.ts";
import { getSurveyorWithAvailableLeads, listAvailableLeads } from "../../db/lead_market.ts";
import {
  getAdminDashboard,
  getSurveyPageDataWithViewer,
  listClientSurveysWithEvents,
} from "../../db/surveys.ts";
import { listSurveyorDirectory } from "../../db/surveyors.ts";
import { getAdminConsoleUsers } from "../../db/admin_console.ts";
import { SurveyorListQuerySchema } from "../../lib/surveyor_schema.ts";
import {
  observeRememberedReads,
  type SnapshotCache,
  type SnapshotScopes,
} from "../../db/snapshot_cache.ts";
import type postgres from "postgres";

/** Every "Relation Name" in an `explain (format json)` plan. */
function relationsOf(plan: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(plan)) { for (const p of plan) relationsOf(p, into); }
  else if (plan && typeof plan === "object") {
    for (const [k, v] of Object.entries(plan)) {
      if (k === "Relation Name" && typeof v === "string") into.add(v);
      else relationsOf(v, into);
    }
  }
  return into;
}

test("[snapshot cache] every remembered page's statement reads only its own, recorded tables", async () => {
  const t = await createTestApp();
  const seen: {
    label: string;
    cache: SnapshotCache<unknown>;
    statement: postgres.PendingQuery<postgres.Row[]>;
    scopes: SnapshotScopes | undefined;
  }[] = [];
  let label = "";
  observeRememberedReads((cache, statement, scopes) =>
    seen.push({ label, cache, statement, scopes })
  );
  try {
    const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
    const fixture = await addMarketSurveyor(t, "Barton Surveying", { balanceCents: 100_00 });
    const { lead } = await addLead(t, client.cookie);
    const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
    label = "/leads";
    await getSurveyorWithAvailableLeads(t.sql, {
      userId: fixture.userId!,
      withViewer: true,
      page: 1,
      pageSize: 20,
    });
    label = "/leads, filtered, page 2";
    await getSurveyorWithAvailableLeads(t.sql, {
      userId: fixture.userId!,
      surveyType: "boundary",
      maxDistanceMiles: 25,
      page: 2,
      pageSize: 20,
    });
    label = "the surveyor dashboard's leads";
    await listAvailableLeads(t.sql, { surveyorId: fixture.surveyor.id, page: 1, pageSize: 5 });
    label = "the client dashboard";
    await listClientSurveysWithEvents(t.sql, {
      clientId: client.user.id,
      viewer: { id: client.user.id, role: "client" },
      page: 1,
      pageSize: 10,
      withClient: true,
    });
    for (const user of [client.user, admin.user]) {
      label = `a request's page as ${user.role}`;
      await getSurveyPageDataWithViewer(t.sql, {
        id: lead.surveyId,
        user: { id: user.id, role: user.role as "client" | "admin" },
        viewerId: user.id,
      });
    }
    label = "the surveyor directory";
    await listSurveyorDirectory(t.sql, SurveyorListQuerySchema.parse({}), 100, {
      viewerId: admin.user.id,
    });
    label = "the surveyor directory, searched";
    await listSurveyorDirectory(
      t.sql,
      SurveyorListQuerySchema.parse({ q: "Barton", state: "TX", surveyType: "boundary" }),
      100,
      { viewerId: admin.user.id },
    );
    label = "/admin-dashboard";
    await getAdminDashboard(t.sql, { page: 1, pageSize: 20 }, { viewerId: admin.user.id });
    label = "/admin-dashboard, by status";
    await getAdminDashboard(t.sql, { status: "requested", page: 1, pageSize: 20 }, {
      viewerId: admin.user.id,
    });
    for (const role of [undefined, "surveyor"] as const) {
      label = `/admin's users${role ? `, ${role}s` : ""}`;
      await getAdminConsoleUsers(t.sql, { role, limit: 25, offset: 0, viewerId: admin.user.id });
    }
  } finally {
    observeRememberedReads(undefined);
  }
  assertEquals(new Set(seen.map((s) => s.label)).size, 12, "every page above is remembered");

  const recorded = new Set(
    (await t.sql<{ table: string }[]>`
      select c.relname as table from pg_trigger g
      join pg_class c on c.oid = g.tgrelid
      join pg_proc p on p.oid = g.tgfoid
      where p.proname = 'snapshot_changes_note' and not g.tgisinternal
        and c.relnamespace = current_schema()::regnamespace`).map((r) => r.table),
  );
  // Functions that may read tables: a statement calling one hides them from its plan.
  const readers = (await t.sql<{ name: string }[]>`
    select p.proname as name from pg_proc p join pg_language l on l.oid = p.prolang
    where p.pronamespace = current_schema()::regnamespace and p.provolatile <> 'i'
      and l.lanname in ('sql', 'plpgsql')`).map((r) => r.name);
  assert(readers.includes("snapshot_changes_note"), "the query finds the app's functions");
  for (const { label, cache, statement, scopes } of seen) {
    const [{ "QUERY PLAN": plan }] = await t.sql`explain (verbose, format json) ${statement}`;
    const read = relationsOf(plan);
    // A page that depends on users but for sign-ins (migration 0056) must not show them.
    if (scopes?.users) {
      assert(!JSON.stringify(plan).includes("last_login"), `${label} reads users.last_login`);
    }
    assert(read.has("surveys") || read.has("surveyors") || read.has("users"), label);
    for (const table of read) {
      assert(cache.tables.includes(table), `${label} reads ${table}, not in its cache's tables`);
    }
    const text = JSON.stringify(plan);
    for (const name of readers) {
      assert(!text.includes(`${name}(`), `${label} calls ${name}, which may read tables`);
    }
  }
  for (const cache of new Set(seen.map((s) => s.cache))) {
    for (const table of cache.tables) {
      assert(recorded.has(table), `${table} is read by a remembered page and has no trigger`);
    }
  }
  t.close();
});
