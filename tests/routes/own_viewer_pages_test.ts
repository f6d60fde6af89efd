/**
 * The pages that read their viewer in their own statement (routes/_auth.ts `ownViewerPage`):
 * the sessions middleware reads only the session for them, and the page settles it with the
 * user its statement read. Every check of a session still holds on each of them, at the very
 * next request: signed out, the wrong role, a disabled or deleted account, an expired or
 * revoked session, impersonation, the idle clock's refresh and the bell's count.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import {
  clearsSessionCookie,
  createSignedInUser,
  createUser,
  rewriteSession,
  sessionFor,
  sessionRecord,
} from "../_auth.ts";
import {
  assertForbiddenPage,
  assertRedirectsToAuth,
  getPage,
  islandProps,
  loadPage,
} from "../_pages.ts";
import type { Role } from "../../lib/roles.ts";
import { notifyUnread, submitSurvey } from "../_fixtures.ts";
import { keys } from "../../db/kv.ts";
import { revokeUserSessions } from "../../lib/sessions.ts";

/** Each such page, the role it is for and the heading it shows that role. */
const PAGES: { path: string; role: Role; heading: string }[] = [
  { path: "/client-dashboard", role: "client", heading: "My surveys" },
  { path: "/client-dashboard?page=2", role: "client", heading: "My surveys" },
  { path: "/admin-dashboard", role: "admin", heading: "Admin dashboard" },
  { path: "/admin", role: "admin", heading: "Admin console" },
  { path: "/admin?tab=returns", role: "admin", heading: "Admin console" },
  { path: "/admin?tab=licences", role: "admin", heading: "Admin console" },
  { path: "/admin?tab=messages", role: "admin", heading: "Admin console" },
  { path: "/surveyors", role: "admin", heading: "Surveyors" },
  { path: "/leads", role: "surveyor", heading: "Available leads" },
  { path: "/surveyor/available-leads", role: "surveyor", heading: "Available leads" },
];

const ROLES: Role[] = ["admin", "client", "surveyor", "technician"];

test("[own viewer] each page shows its role the page, with the user's name and bell count", async () => {
  const t = await createTestApp();
  for (const { path, role, heading } of PAGES) {
    const { user, cookie } = await createSignedInUser(t, { role, fullName: `Pat ${role} Viewer` });
    await notifyUnread(t.sql, user.id, 2);
    const { res, html } = await loadPage(t, path, cookie);
    assertEquals(res.status, 200, `${path}: ${html.slice(0, 300)}`);
    assertEquals(res.headers.get("cache-control"), "private, no-store", path);
    assertStringIncludes(html, heading, path);
    assertStringIncludes(html, `Pat ${role} Viewer`, path);
    assertEquals(islandProps(html, "NotificationsBell"), { initialUnread: 2 }, path);
    assert(!clearsSessionCookie(t, res), `${path}: the live session's cookie is kept`);
  }
  t.close();
});

test("[own viewer] signed out, each page sends the visitor to sign in", async () => {
  const t = await createTestApp();
  for (const { path } of PAGES) {
    await assertRedirectsToAuth(await getPage(t, path), path);
    // A cookie with no session behind it: the same, and the cookie is cleared.
    const res = await getPage(t, path, "meridian_session=" + "a".repeat(43));
    await assertRedirectsToAuth(res, path);
  }
  t.close();
});

test("[own viewer] every other role gets the Access Denied page, and nothing of the page", async () => {
  const t = await createTestApp();
  // A client with a request: what the admin pages would list, and no one else may see.
  const secret = await createSignedInUser(t, { role: "client", fullName: "Quinn Confidential" });
  const survey = await submitSurvey(t, secret.cookie);
  assertStringIncludes((await loadPage(t, "/client-dashboard", secret.cookie)).html, survey.id);
  for (const { path, role } of PAGES) {
    for (const other of ROLES.filter((r) => r !== role)) {
      const { cookie } = await createSignedInUser(t, { role: other });
      const html = await assertForbiddenPage(await getPage(t, path, cookie), `${other} on ${path}`);
      assert(!html.includes("Quinn Confidential"), `${other} on ${path}`);
      assert(!html.includes(survey.id), `${other} on ${path}`);
    }
  }
  t.close();
});

test("[own viewer] a disabled or deleted account is refused and its session ended", async () => {
  const t = await createTestApp();
  for (const { path, role } of PAGES) {
    const disabled = await createSignedInUser(t, { role });
    await loadPage(t, path, disabled.cookie);
    await t.sql`update users set disabled_at = now() where id = ${disabled.user.id}`;
    const res = await getPage(t, path, disabled.cookie);
    await assertRedirectsToAuth(res, path);
    assert(clearsSessionCookie(t, res), `${path}: the cookie is cleared`);
    assertEquals((await sessionRecord(t, disabled.cookie)).entry.value, null, path);

    const deleted = await createSignedInUser(t, { role });
    await t.sql`delete from notifications where user_id = ${deleted.user.id}`;
    await t.sql`delete from users where id = ${deleted.user.id}`;
    await assertRedirectsToAuth(await getPage(t, path, deleted.cookie), path);
    assertEquals((await sessionRecord(t, deleted.cookie)).entry.value, null, path);
  }
  t.close();
});

test("[own viewer] an expired or revoked session is refused, with the role's own timeouts", async () => {
  const t = await createTestApp();
  const minute = 60_000;
  const day = 24 * 60 * minute;
  for (const { path, role } of PAGES) {
    // Admins' sessions end after 30 idle minutes, everyone else's after 7 days.
    const idle = role === "admin" ? 31 * minute : 7 * day + minute;
    const stillLive = role === "admin" ? 29 * minute : 6 * day;
    const { user, cookie } = await createSignedInUser(t, { role });
    await rewriteSession(t, cookie, { lastSeenAt: Date.now() - stillLive });
    assertEquals((await getPage(t, path, cookie)).status, 200, `${path}: still live`);
    await rewriteSession(t, cookie, { lastSeenAt: Date.now() - idle });
    const res = await getPage(t, path, cookie);
    await assertRedirectsToAuth(res, path);
    assertEquals((await sessionRecord(t, cookie)).entry.value, null, `${path}: deleted on sight`);

    const other = await sessionFor(t, user);
    assertEquals((await getPage(t, path, other)).status, 200, path);
    await revokeUserSessions(t.kv, user.id);
    await assertRedirectsToAuth(await getPage(t, path, other), path);
  }
  t.close();
});

test("[own viewer] the idle clock is refreshed at most once a minute, as on other pages", async () => {
  const t = await createTestApp();
  for (const { path, role } of PAGES) {
    const { cookie } = await createSignedInUser(t, { role });
    const old = Date.now() - 5 * 60_000;
    await rewriteSession(t, cookie, { lastSeenAt: old });
    assertEquals((await getPage(t, path, cookie)).status, 200, path);
    const seen = (await sessionRecord(t, cookie)).entry.value!.lastSeenAt;
    assert(seen > old + 4 * 60_000, `${path}: lastSeenAt refreshed`);
    assertEquals((await getPage(t, path, cookie)).status, 200, path);
    assertEquals((await sessionRecord(t, cookie)).entry.value!.lastSeenAt, seen, path);
  }
  t.close();
});

test("[own viewer] an admin viewing as a client sees the client's dashboard with the banner", async () => {
  const t = await createTestApp();
  const admin = await createUser(t.sql, { role: "admin" });
  const client = await createUser(t.sql, { role: "client", fullName: "Casey Client" });
  const cookie = await sessionFor(t, client, { impersonatorId: admin.id });
  const { res, html } = await loadPage(t, "/client-dashboard", cookie);
  assertEquals(res.status, 200);
  assertStringIncludes(html, "Casey Client");
  assertStringIncludes(html, 'data-island="ImpersonationBanner"');
  // The admin's 30 idle minutes hold while viewing as the client.
  await rewriteSession(t, cookie, { lastSeenAt: Date.now() - 31 * 60_000 });
  await assertRedirectsToAuth(await getPage(t, "/client-dashboard", cookie), "/client-dashboard");
  t.close();
});

test("[own viewer] HEAD answers as GET does, without a body", async () => {
  const t = await createTestApp();
  const { cookie } = await createSignedInUser(t, { role: "client" });
  const ok = await t.request("HEAD", "/client-dashboard", { cookie });
  assertEquals(ok.status, 200);
  assertEquals(await ok.text(), "");
  const out = await t.request("HEAD", "/client-dashboard");
  assertEquals(out.status, 302);
  t.close();
});

test("[own viewer] a request's page is read for the role the session was opened with, and only shown if the user still has it", async () => {
  const t = await createTestApp();
  const owner = await createSignedInUser(t, { role: "client", fullName: "Olive Owner" });
  const survey = await submitSurvey(t, owner.cookie);
  const path = `/survey/${survey.id}`;
  const admin = await createSignedInUser(t, { role: "admin" });
  const internal = "Internal: call the county first";
  const noted = await t.request("PATCH", `/api/surveys/${survey.id}/status`, {
    cookie: admin.cookie,
    body: { status: "cancelled", note: internal },
  });
  assertEquals(noted.status, 200, await noted.text());

  // The owner and an admin see it, each as their role may.
  const own = await loadPage(t, path, owner.cookie);
  assertEquals(own.res.status, 200);
  assert(!own.html.includes(internal), "a client's page never holds an internal note");
  assertStringIncludes((await loadPage(t, path, admin.cookie)).html, internal);

  // Another client: 404, as for a request that does not exist.
  const stranger = await createSignedInUser(t, { role: "client" });
  assertEquals((await getPage(t, path, stranger.cookie)).status, 404);

  // An admin made a client since signing in: the page read as an admin is not shown; read again
  // as the client they are now, it is someone else's request.
  const demoted = await createSignedInUser(t, { role: "admin" });
  assertStringIncludes((await loadPage(t, path, demoted.cookie)).html, internal);
  await t.sql`update users set role = 'client' where id = ${demoted.user.id}`;
  const after = await getPage(t, path, demoted.cookie);
  assertEquals(after.status, 404);
  assert(!(await after.text()).includes(internal));

  // The owner made an admin: the admin's page, notes and all.
  await t.sql`update users set role = 'admin' where id = ${owner.user.id}`;
  const promoted = await loadPage(t, path, owner.cookie);
  assertEquals(promoted.res.status, 200);
  assertStringIncludes(promoted.html, internal);

  // Disabled: signed out, whatever the page read.
  await t.sql`update users set disabled_at = now() where id = ${admin.user.id}`;
  await assertRedirectsToAuth(await getPage(t, path, admin.cookie), path);
  t.close();
});

test("[own viewer] a session stored without its role reads the user first, then the request", async () => {
  const t = await createTestApp();
  const owner = await createSignedInUser(t, { role: "client" });
  const survey = await submitSurvey(t, owner.cookie);
  const path = `/survey/${survey.id}`;
  const { hash, entry: ownEntry } = await sessionRecord(t, owner.cookie);
  const { role: _role, ...older } = ownEntry.value!;
  await t.kv.set(keys.session(hash), older);
  assertEquals((await sessionRecord(t, owner.cookie)).entry.value!.role, undefined);
  const { res, html } = await loadPage(t, path, owner.cookie);
  assertEquals(res.status, 200);
  assertStringIncludes(html, survey.id);
  const stranger = await createSignedInUser(t, { role: "client" });
  const { hash: strangerHash, entry } = await sessionRecord(t, stranger.cookie);
  const { role: _r, ...strangerOlder } = entry.value!;
  await t.kv.set(keys.session(strangerHash), strangerOlder);
  assertEquals((await getPage(t, path, stranger.cookie)).status, 404);
  t.close();
});
