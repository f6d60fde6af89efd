/**
 * `readWithViewer` (db/users.ts) reads the signed-in user and their unread count inside a
 * page's own statement: the viewer equals `getUserWithUnreadCount`'s, and the page's rows are
 * the statement's own, in its order. The page reads that use it return with a viewer exactly
 * what they return without one, so a page that reads its own user renders the same HTML.
 */
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createSignedInUser, createUser } from "../_auth.ts";
import { notifyUnread, submitSurvey } from "../_fixtures.ts";
import { getUserWithUnreadCount, listUsersWith, readWithViewer } from "../../db/users.ts";
import { getAdminDashboard, listClientSurveysWithEvents } from "../../db/surveys.ts";
import { insertSurveyor, listSurveyorDirectory } from "../../db/surveyors.ts";
import { countAdminConsoleWaiting, getAdminConsoleUsers } from "../../db/admin_console.ts";
import { getSurveyorWithAvailableLeads } from "../../db/lead_market.ts";

/** `value` without its `viewer`, which must be absent or undefined (no viewer was asked for). */
function omitViewer<T extends { viewer?: unknown }>(value: T): Omit<T, "viewer"> {
  const { viewer, ...rest } = value;
  assertEquals(viewer, undefined);
  return rest;
}

test("[db] readWithViewer: the viewer as getUserWithUnreadCount reads them, the rows in the page's order", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "client", fullName: "Vera Viewer" });
  await notifyUnread(t.sql, user.id, 3);
  await t.sql`update users set last_login = now() - interval '3 days' where id = ${user.id}`;
  const expected = await getUserWithUnreadCount(t.sql, user.id);
  assertEquals(expected?.unreadNotifications, 3);

  // A page whose order is neither the rows' insertion nor their key: 500 rows, shuffled.
  const page = t.sql`
    with n as (select g, md5(g::text) as h from generate_series(1, 500) g)
    select g as position, h as hash from n order by h desc, g`;
  const alone = await t.sql`
    with n as (select g, md5(g::text) as h from generate_series(1, 500) g)
    select g as position, h as hash from n order by h desc, g`;
  const { viewer, rows } = await readWithViewer<{ position: number; hash: string }>(
    t.sql,
    user.id,
    page,
  );
  assertEquals(viewer, expected);
  assertEquals(rows.map((r) => [r.position, r.hash]), alone.map((r) => [r.position, r.hash]));

  // A page with no rows: the viewer, and no rows (not the join's row of nulls).
  const empty = await readWithViewer(t.sql, user.id, t.sql`select 1 as one where false`);
  assertEquals([empty.viewer, empty.rows], [expected, []]);
  // A disabled account is read as such: the session check refuses it.
  await t.sql`update users set disabled_at = now() where id = ${user.id}`;
  const disabled = await readWithViewer(t.sql, user.id, t.sql`select 1 as one`);
  assert(disabled.viewer?.disabledAt, "disabledAt is read");
  assertEquals(disabled.rows.length, 1);
  // No such user, or an id that is not one: no viewer and no rows.
  for (const id of [crypto.randomUUID(), "not-a-uuid"]) {
    assertEquals(await readWithViewer(t.sql, id, t.sql`select 1 as one`), {
      viewer: undefined,
      rows: [],
    });
  }
  t.close();
});

test("[db] the page reads return the same with their viewer as without, and the viewer", async () => {
  const t = await createTestApp();
  const client = await createSignedInUser(t, { role: "client" });
  for (let i = 0; i < 4; i++) await submitSurvey(t, client.cookie);
  const admin = await createUser(t.sql, { role: "admin" });
  const surveyorUser = await createUser(t.sql, { role: "surveyor" });
  for (let i = 0; i < 30; i++) {
    await insertSurveyor(t.sql, {
      companyName: `Firm ${String(i).padStart(2, "0")}`,
      state: i % 2 ? "TX" : "CO",
      status: i % 4 ? "active" : "prospect",
      inNetwork: i % 4 !== 0,
      lat: 30 + i / 10,
      lng: -97,
    });
  }
  const asAdmin = await getUserWithUnreadCount(t.sql, admin.id);
  const asClient = await getUserWithUnreadCount(t.sql, client.user.id);
  const asSurveyor = await getUserWithUnreadCount(t.sql, surveyorUser.id);

  for (const page of [1, 2, 9]) {
    const input = { clientId: client.user.id, page, pageSize: 3 };
    const viewer = { id: client.user.id, role: "client" as const };
    const { client: none, ...plain } = await listClientSurveysWithEvents(t.sql, {
      ...input,
      viewer,
    });
    assertEquals(none, undefined);
    const { client: read, ...withViewer } = await listClientSurveysWithEvents(t.sql, {
      ...input,
      viewer,
      withClient: true,
    });
    assertEquals(read, asClient, `dashboard page ${page}`);
    assertEquals(withViewer, plain, `dashboard page ${page}`);

    const query = { page, pageSize: 2 };
    const { viewer: reader, ...admins } = await getAdminDashboard(t.sql, query, {
      viewerId: admin.id,
    });
    assertEquals(reader, asAdmin, `admin dashboard page ${page}`);
    assertEquals(
      admins,
      omitViewer(await getAdminDashboard(t.sql, query)),
      `admin dashboard ${page}`,
    );

    const directory = { page, pageSize: 10, inNetworkOnly: false };
    const { viewer: dirViewer, ...dir } = await listSurveyorDirectory(t.sql, directory, 25, {
      viewerId: admin.id,
    });
    assertEquals(dirViewer, asAdmin, `directory page ${page}`);
    assertEquals(
      dir,
      omitViewer(await listSurveyorDirectory(t.sql, directory, 25)),
      `directory ${page}`,
    );

    const users = { limit: 2, offset: (page - 1) * 2 };
    const { viewer: consoleViewer, ...listed } = await getAdminConsoleUsers(t.sql, {
      ...users,
      viewerId: admin.id,
    });
    assertEquals(consoleViewer, asAdmin, `users page ${page}`);
    assertEquals(
      listed,
      omitViewer(await getAdminConsoleUsers(t.sql, users)),
      `users page ${page}`,
    );

    const leads = { userId: surveyorUser.id, page, pageSize: 5 };
    const { viewer: leadViewer, ...market } = await getSurveyorWithAvailableLeads(t.sql, {
      ...leads,
      withViewer: true,
    });
    assertEquals(leadViewer, asSurveyor, `leads page ${page}`);
    const { viewer: noUser, ...alone } = await getSurveyorWithAvailableLeads(t.sql, leads);
    assertEquals([market, noUser], [alone, undefined], `leads page ${page}`);
  }
  const { viewer: countsViewer, ...counts } = await countAdminConsoleWaiting(t.sql, {
    viewerId: admin.id,
  });
  assertEquals(countsViewer, asAdmin);
  assertEquals(counts, omitViewer(await countAdminConsoleWaiting(t.sql)));

  // The shared list reads its users and total with the viewer as without (`first`, the raw
  // first row its callers read their own columns from, also carries the viewer's column).
  const columns = t.sql``;
  const withViewer = await listUsersWith(t.sql, {
    limit: 3,
    offset: 0,
    columns,
    viewerId: admin.id,
  });
  const alone = await listUsersWith(t.sql, { limit: 3, offset: 0, columns });
  assertEquals(withViewer.viewer, asAdmin);
  assertEquals([withViewer.users, withViewer.total], [alone.users, alone.total]);
  t.close();
});
