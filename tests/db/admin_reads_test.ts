/**
 * The admin dashboard's narrow read returns what the wide one it replaces showed: for every
 * filter and page, `listAdminSurveyRows` equals `listSurveys` sliced by `toAdminRow` (the
 * table's rows, the same total), and `getAdminDashboard` equals it with `countSurveysByStatus`
 * (its total taken from the counts when only the status filters), so /admin-dashboard renders
 * the same table and overview.
 */
import { assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { submitSurvey } from "../_fixtures.ts";
import {
  countSurveysByStatus,
  getAdminDashboard,
  listAdminSurveyRows,
  listSurveys,
  type SurveyListInput,
} from "../../db/surveys.ts";
import { toAdminRow } from "../../islands/AdminSurveys.tsx";

test("[db] listAdminSurveyRows is listSurveys sliced to the admin table's row, filter by filter", async () => {
  const t = await createTestApp();
  const ana = await createSignedInUser(t, { role: "client", fullName: "Ana Owner" });
  const ben = await createSignedInUser(t, { role: "client", fullName: "Ben Builder" });
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    const owner = i % 2 ? ben : ana;
    ids.push(
      (await submitSurvey(t, owner.cookie, {
        address: `${20 + i} Oak St, Austin, TX 78701`,
      })).id,
    );
  }
  // The address column falls back to the typed address when the formatted one is empty or
  // missing; two requests at one instant are ordered by id; one has no quoted price.
  await t.sql`update surveys set formatted_address = '' where id = ${ids[0]}`;
  await t.sql`update surveys set formatted_address = null where id = ${ids[1]}`;
  await t.sql`update surveys set created_at = ${new Date("2024-03-01T23:59:59.999Z")}
    where id in (${ids[2]}, ${ids[3]})`;
  await t.sql`update surveys set quoted_price_cents = null, status = 'cancelled'
    where id = ${ids[3]}`;

  const queries: SurveyListInput[] = [
    { page: 1, pageSize: 20 },
    { page: 1, pageSize: 3 },
    { page: 2, pageSize: 3 },
    { page: 3, pageSize: 3 },
    { status: "cancelled", page: 1, pageSize: 20 },
    { status: "requested", page: 1, pageSize: 20 },
    { status: "completed", page: 1, pageSize: 20 },
    { surveyType: "boundary", page: 1, pageSize: 20 },
    { status: "cancelled", surveyType: "topographic", page: 1, pageSize: 20 },
    { q: "ben builder", page: 1, pageSize: 20 },
    { q: "22 Oak", page: 1, pageSize: 20 },
    { from: "2024-03-01", to: "2024-03-01", page: 1, pageSize: 20 },
    // Past the last page, the total (from the counts, from survey_counts by type, or counted)
    // and the counts by status still come back.
    { status: "cancelled", page: 2, pageSize: 3 },
    { surveyType: "boundary", page: 9, pageSize: 3 },
    { q: "Oak", page: 9, pageSize: 3 },
  ];
  for (const query of queries) {
    const wide = await listSurveys(t.sql, query);
    const narrow = await listAdminSurveyRows(t.sql, query);
    assertEquals(
      narrow,
      { rows: wide.surveys.map(toAdminRow), total: wide.total },
      JSON.stringify(query),
    );
    assertEquals(
      await getAdminDashboard(t.sql, query),
      { ...narrow, counts: await countSurveysByStatus(t.sql) },
      JSON.stringify(query),
    );
  }
  const all = await listAdminSurveyRows(t.sql, { page: 1, pageSize: 20 });
  assertEquals(all.total, 4);
  const byId = new Map(all.rows.map((r) => [r.id, r]));
  assertEquals(byId.get(ids[0])!.address, "20 Oak St, Austin, TX 78701");
  assertEquals(byId.get(ids[1])!.address, "21 Oak St, Austin, TX 78701");
  assertEquals(byId.get(ids[3])!.quotedPriceCents, null);
  assertEquals(byId.get(ids[3])!.clientName, "Ben Builder");
  assertEquals(byId.get(ids[2])!.createdAt, "2024-03-01T23:59:59.999Z");
  t.close();
});

test("[db] a search finds requests by their client's name or email, however many clients it names", async () => {
  const t = await createTestApp();
  const zed = await createSignedInUser(t, {
    role: "client",
    fullName: "Zed Quillfeather",
    email: "zq-owner@example.test",
  });
  const mine = await submitSurvey(t, zed.cookie, { address: "5 Birch Ct, Austin, TX 78701" });
  // 600 more clients whose names hold the same text: more than a search names by id, so the
  // statement finds them itself.
  await t.sql`
    insert into users (username, email, full_name, role, password_hash)
    select 'quill' || i || '@example.test', 'quill' || i || '@example.test',
      'Quill ' || i, 'client', 'x'
    from generate_series(1, 600) i`;
  const found = async (q: string) => {
    const query: SurveyListInput = { q, page: 1, pageSize: 20 };
    const wide = await listSurveys(t.sql, query);
    const narrow = await listAdminSurveyRows(t.sql, query);
    const dashboard = await getAdminDashboard(t.sql, query);
    assertEquals(narrow, { rows: wide.surveys.map(toAdminRow), total: wide.total }, q);
    assertEquals({ rows: dashboard.rows, total: dashboard.total }, narrow, q);
    return wide.surveys.map((s) => s.id);
  };
  assertEquals(await found("quillfeather"), [mine.id]);
  assertEquals(await found("ZQ-OWNER@"), [mine.id]);
  assertEquals(await found("quill"), [mine.id]);
  assertEquals(await found("birch ct"), [mine.id]);
  assertEquals(await found("nobody by this name"), []);
  t.close();
});
