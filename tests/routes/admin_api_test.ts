import { assert, assertEquals, assertNotEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import {
  clearsSessionCookie,
  createSignedInUser,
  createUser,
  sessionCookieFrom,
  sessionFor,
  signIn,
} from "../_auth.ts";
import { expectJson } from "../_fixtures.ts";
import { keys } from "../../db/kv.ts";
import { listAuditEvents } from "../../db/audit.ts";
import { getUserById } from "../../db/users.ts";
import { insertPasswordResetToken } from "../../db/password_resets.ts";
import { hashToken, listUserSessionHashes, type SessionRecord } from "../../lib/sessions.ts";
import { ADMIN_RESTORED_MESSAGE } from "../../routes/admin_api.ts";

const NON_ADMINS = ["client", "surveyor", "technician"] as const;
const MISSING = "00000000-0000-4000-8000-000000000000";

async function me(t: TestApp, cookie: string) {
  const res = await t.request("GET", "/api/user", { cookie });
  return res.status === 200 ? await res.json() : (await res.body?.cancel(), null);
}

async function isImpersonating(t: TestApp, cookie?: string) {
  const res = await t.request("GET", "/api/admin/impersonation-status", { cookie });
  return (await expectJson(res, 200)).isImpersonating;
}

async function record(t: TestApp, cookie: string) {
  const hash = await hashToken(cookie.split("=")[1]);
  return (await t.kv.get<SessionRecord>(keys.session(hash))).value;
}

async function dbState(t: TestApp) {
  return {
    users: await t.sql`select id, role, disabled_at, full_name from users order by id`,
    audit: (await t.sql`select count(*)::int as n from audit_log`)[0].n,
  };
}

// ---------------------------------------------------------------- users list

test("[admin] only admins may list users; others get 403, signed out 401", async () => {
  const t = await createTestApp();
  for (const role of NON_ADMINS) {
    const { cookie } = await createSignedInUser(t, { role });
    assertEquals(await expectJson(await t.request("GET", "/api/users", { cookie }), 403), {
      message: "You do not have permission to do this",
    });
  }
  assertEquals(await expectJson(await t.request("GET", "/api/users"), 401), {
    message: "Authentication required",
  });
  const { cookie } = await createSignedInUser(t, { role: "admin" });
  const body = await expectJson(await t.request("GET", "/api/users", { cookie }), 200);
  assertEquals(body.total, 4);
  t.close();
});

test("[admin] the users list is paginated, filterable by role and never shows hashes", async () => {
  const t = await createTestApp();
  const { cookie } = await createSignedInUser(t, { role: "admin" });
  for (let i = 0; i < 4; i++) await createUser(t.sql, { role: "surveyor" });
  const client = await createUser(t.sql, { role: "client" });
  await t.sql`update users set disabled_at = now() where id = ${client.id}`;
  const page1 = await expectJson(
    await t.request("GET", "/api/users?page=1&pageSize=2", { cookie }),
    200,
  );
  const page3 = await expectJson(
    await t.request("GET", "/api/users?page=3&pageSize=2", { cookie }),
    200,
  );
  assertEquals([page1.total, page1.page, page1.pageSize, page1.users.length], [6, 1, 2, 2]);
  assertEquals(page3.users.length, 2);
  const surveyors = await expectJson(
    await t.request("GET", "/api/users?role=surveyor", { cookie }),
    200,
  );
  assertEquals(surveyors.total, 4);
  assert(surveyors.users.every((u: { role: string }) => u.role === "surveyor"));
  const all = await expectJson(await t.request("GET", "/api/users?pageSize=100", { cookie }), 200);
  assertEquals(all.users.length, 6);
  const listed = all.users.find((u: { id: string }) => u.id === client.id);
  assert(listed.disabledAt, "disabled accounts are marked");
  const text = JSON.stringify(all);
  assert(!text.includes("argon2") && !text.includes("passwordHash"));
  t.close();
});

test("[admin] bad list queries get a clear 400", async () => {
  const t = await createTestApp();
  const { cookie } = await createSignedInUser(t, { role: "admin" });
  const cases: [string, string][] = [
    ["page=0", "Page must be a whole number of at least 1"],
    ["page=abc", "Page must be a whole number of at least 1"],
    ["page=1.5", "Page must be a whole number of at least 1"],
    ["pageSize=1000", "Page size must be a whole number from 1 to 100"],
    ["pageSize=0", "Page size must be a whole number from 1 to 100"],
    ["role=boss", "Role must be admin, client, surveyor or technician"],
    [`role=${"x".repeat(10_240)}`, "Role must be admin, client, surveyor or technician"],
  ];
  for (const [query, message] of cases) {
    const res = await t.request("GET", `/api/users?${query}`, { cookie });
    assertEquals((await expectJson(res, 400)).message, message, query.slice(0, 30));
  }
  t.close();
});

// ---------------------------------------------------------------- impersonation

test("[admin] an admin impersonates a client with a new session and returns to a fresh one", async () => {
  const t = await createTestApp();
  const admin = await createUser(t.sql, { role: "admin" });
  const client = await createUser(t.sql, { role: "client", fullName: "Cora Client" });
  const adminCookie = await signIn(t, { identifier: admin.email, password: admin.password });
  assertEquals(await isImpersonating(t, adminCookie), false);

  const res = await t.request("POST", `/api/admin/impersonate/${client.id}`, {
    cookie: adminCookie,
  });
  const body = await expectJson(res, 200);
  assertEquals(body.message, "You are now signed in as Cora Client.");
  assertEquals(body.redirectTo, "/client-dashboard");
  assertEquals(body.user.id, client.id);
  const asClient = sessionCookieFrom(t, res)!;
  assertNotEquals(asClient, adminCookie);
  assertEquals(await me(t, adminCookie), null, "the admin's old session id is dead");
  assertEquals((await me(t, asClient)).id, client.id);
  assertEquals(await isImpersonating(t, asClient), true);
  assertEquals((await record(t, asClient))?.impersonatorId, admin.id);

  const back = await t.request("POST", "/api/admin/return", { cookie: asClient });
  assertEquals(await expectJson(back, 200), {
    message: ADMIN_RESTORED_MESSAGE,
    redirectTo: "/admin-dashboard",
  });
  assertEquals(ADMIN_RESTORED_MESSAGE, "You have returned to your admin account.");
  const restored = sessionCookieFrom(t, back)!;
  assertNotEquals(restored, asClient);
  assertNotEquals(restored, adminCookie);
  assertEquals(await me(t, asClient), null, "the impersonation session is gone");
  assertEquals((await me(t, restored)).id, admin.id);
  assertEquals(await isImpersonating(t, restored), false);

  const events = await listAuditEvents(t.sql, { userId: client.id });
  const started = events.find((e) => e.event === "impersonation_started")!;
  const ended = events.find((e) => e.event === "impersonation_ended")!;
  assertEquals([started.actorId, started.targetId], [admin.id, client.id]);
  assertEquals([ended.actorId, ended.targetId], [admin.id, client.id]);
  assert(started.createdAt.endsWith("Z"));
  t.close();
});

test("[admin] an island's call with the replaced cookie does not sign the impersonation out", async () => {
  // The bell's first fetch on the admin's dashboard can carry the admin's cookie while the
  // impersonation replaces it, and be answered after it: had that answer cleared the cookie,
  // the browser would have dropped the new one and the next page would be signed out.
  const t = await createTestApp();
  const admin = await createUser(t.sql, { role: "admin" });
  const client = await createUser(t.sql, { role: "client", fullName: "Cora Client" });
  const adminCookie = await signIn(t, { identifier: admin.email, password: admin.password });
  const res = await t.request("POST", `/api/admin/impersonate/${client.id}`, {
    cookie: adminCookie,
  });
  assertEquals(res.status, 200);
  const asClient = sessionCookieFrom(t, res)!;
  for (const path of ["/api/notifications", "/api/user", "/api/admin/impersonation-status"]) {
    const late = await t.request("GET", path, { cookie: adminCookie });
    assert(!clearsSessionCookie(t, late), `${path}: the answer leaves the browser's cookie alone`);
    await late.body?.cancel();
  }
  assertEquals((await me(t, asClient)).id, client.id);
  // A page load with the dead cookie is the user's own navigation: it is sent to sign in and
  // the cookie is cleared.
  const page = await t.request("GET", "/client-dashboard", { cookie: adminCookie });
  assertEquals(page.status, 302);
  assert(clearsSessionCookie(t, page), "the page clears the dead cookie");
  await page.body?.cancel();
  t.close();
});

test("[admin] each non-admin role can be impersonated", async () => {
  const t = await createTestApp();
  const admin = await createUser(t.sql, { role: "admin" });
  for (const role of NON_ADMINS) {
    const target = await createUser(t.sql, { role });
    const cookie = await sessionFor(t, admin);
    const res = await t.request("POST", `/api/admin/impersonate/${target.id}`, { cookie });
    assertEquals((await expectJson(res, 200)).redirectTo, `/${role}-dashboard`);
  }
  t.close();
});

test("[admin] impersonating another admin or a disabled account is refused", async () => {
  const t = await createTestApp();
  const { user: admin, cookie } = await createSignedInUser(t, { role: "admin" });
  const other = await createUser(t.sql, { role: "admin" });
  const disabled = await createUser(t.sql, { role: "client" });
  await t.sql`update users set disabled_at = now() where id = ${disabled.id}`;
  const before = await dbState(t);
  const cases: [string, number, string][] = [
    [other.id, 403, "Administrators cannot be impersonated."],
    [admin.id, 403, "Administrators cannot be impersonated."],
    [disabled.id, 403, "Disabled accounts cannot be impersonated."],
    [MISSING, 404, "User not found"],
    ["not-a-uuid", 404, "User not found"],
    ["x".repeat(10_240), 404, "User not found"],
  ];
  for (const [id, status, message] of cases) {
    const res = await t.request("POST", `/api/admin/impersonate/${id}`, { cookie });
    assertEquals(await expectJson(res, status), { message }, id.slice(0, 40));
    assertEquals(sessionCookieFrom(t, res), null);
  }
  assertEquals((await me(t, cookie)).id, admin.id, "the admin stays signed in as themself");
  assertEquals((await listUserSessionHashes(t.kv, admin.id)).length, 1);
  assertEquals(await dbState(t), before);
  t.close();
});

test("[admin] non-admins and signed-out visitors cannot impersonate, nor nest impersonations", async () => {
  const t = await createTestApp();
  const admin = await createUser(t.sql, { role: "admin" });
  const target = await createUser(t.sql, { role: "client" });
  const victim = await createUser(t.sql, { role: "surveyor" });
  const before = await dbState(t);
  for (const role of NON_ADMINS) {
    const { cookie } = await createSignedInUser(t, { role });
    const res = await t.request("POST", `/api/admin/impersonate/${victim.id}`, { cookie });
    assertEquals(res.status, 403, role);
    assertEquals(sessionCookieFrom(t, res), null);
    await res.body?.cancel();
  }
  const nested = await sessionFor(t, target, { impersonatorId: admin.id });
  const res = await t.request("POST", `/api/admin/impersonate/${victim.id}`, { cookie: nested });
  assertEquals(await expectJson(res, 403), { message: "You do not have permission to do this" });
  const anon = await t.request("POST", `/api/admin/impersonate/${victim.id}`);
  assertEquals(await expectJson(anon, 401), { message: "Authentication required" });
  const evil = await t.request("POST", `/api/admin/impersonate/${victim.id}`, {
    cookie: await sessionFor(t, admin),
    headers: { origin: "https://evil.example" },
  });
  assertEquals(evil.status, 403);
  await evil.body?.cancel();
  const users = (await dbState(t)).users;
  assertEquals(users.length, before.users.length + NON_ADMINS.length);
  assertEquals((await dbState(t)).audit, before.audit);
  t.close();
});

test("[admin] impersonation status is false when signed out or not impersonating", async () => {
  const t = await createTestApp();
  assertEquals(await isImpersonating(t), false);
  for (const role of ["admin", ...NON_ADMINS] as const) {
    assertEquals(await isImpersonating(t, (await createSignedInUser(t, { role })).cookie), false);
  }
  t.close();
});

test("[admin] returning is only possible while impersonating", async () => {
  const t = await createTestApp();
  const { cookie } = await createSignedInUser(t, { role: "admin" });
  const res = await t.request("POST", "/api/admin/return", { cookie });
  assertEquals(await expectJson(res, 400), { message: "You are not impersonating anyone." });
  assertEquals(sessionCookieFrom(t, res), null);
  const client = await createSignedInUser(t, { role: "client" });
  assertEquals(
    (await t.request("POST", "/api/admin/return", { cookie: client.cookie })).status,
    400,
  );
  assertEquals(await expectJson(await t.request("POST", "/api/admin/return"), 401), {
    message: "Authentication required",
  });
  t.close();
});

test("[admin] an admin demoted meanwhile cannot return to admin", async () => {
  const t = await createTestApp();
  const admin = await createUser(t.sql, { role: "admin" });
  const client = await createUser(t.sql, { role: "client" });
  const cookie = await sessionFor(t, client, { impersonatorId: admin.id });
  await t.sql`update users set role = 'technician' where id = ${admin.id}`;
  const res = await t.request("POST", "/api/admin/return", { cookie });
  assertEquals(await expectJson(res, 403), { message: "Could not return to admin account" });
  assertEquals(await me(t, cookie), null, "the impersonation session ends too");
  t.close();
});

test("[admin] an impersonation session keeps the admin's 30-minute idle limit", async () => {
  const t = await createTestApp();
  const admin = await createUser(t.sql, { role: "admin" });
  const client = await createUser(t.sql, { role: "client" });
  const cookie = await sessionFor(t, client, { impersonatorId: admin.id });
  const hash = await hashToken(cookie.split("=")[1]);
  const entry = await t.kv.get<SessionRecord>(keys.session(hash));
  await t.kv.set(keys.session(hash), { ...entry.value!, lastSeenAt: Date.now() - 31 * 60_000 });
  assertEquals(await me(t, cookie), null);
  t.close();
});

test("[admin] impersonating and returning cannot stretch the admin's 12 hours", async () => {
  const t = await createTestApp();
  const admin = await createUser(t.sql, { role: "admin" });
  const client = await createUser(t.sql, { role: "client" });
  const adminCookie = await sessionFor(t, admin);
  const signedInAt = Date.now() - 11 * 3600_000;
  const hash = await hashToken(adminCookie.split("=")[1]);
  const entry = await t.kv.get<SessionRecord>(keys.session(hash));
  await t.kv.set(keys.session(hash), { ...entry.value!, createdAt: signedInAt });
  const res = await t.request("POST", `/api/admin/impersonate/${client.id}`, {
    cookie: adminCookie,
  });
  await expectJson(res, 200);
  const asClient = sessionCookieFrom(t, res)!;
  assertEquals((await record(t, asClient))?.createdAt, signedInAt);
  const back = await t.request("POST", "/api/admin/return", { cookie: asClient });
  await expectJson(back, 200);
  assertEquals((await record(t, sessionCookieFrom(t, back)!))?.createdAt, signedInAt);
  t.close();
});

// ---------------------------------------------------------------- role changes and disabling

test("[admin] changing a user's role ends their sessions and is audited", async () => {
  const t = await createTestApp();
  const { user: admin, cookie } = await createSignedInUser(t, { role: "admin" });
  const { user: target, cookie: targetCookie } = await createSignedInUser(t, { role: "client" });
  const res = await t.request("PATCH", `/api/admin/users/${target.id}/role`, {
    cookie,
    body: { role: "surveyor" },
  });
  const body = await expectJson(res, 200);
  assertEquals(body.user.role, "surveyor");
  assertEquals((await getUserById(t.sql, target.id))?.role, "surveyor");
  assertEquals(await me(t, targetCookie), null);
  const [event] = await listAuditEvents(t.sql, { userId: target.id, event: "role_changed" });
  assertEquals([event.actorId, event.details], [admin.id, { from: "client", to: "surveyor" }]);
  t.close();
});

test("[admin] bad role changes are refused and change nothing", async () => {
  const t = await createTestApp();
  const { user: admin, cookie } = await createSignedInUser(t, { role: "admin" });
  const target = await createUser(t.sql, { role: "client" });
  const before = await dbState(t);
  const cases: [string, unknown, number, string][] = [
    [admin.id, { role: "client" }, 400, "You cannot change your own role."],
    [MISSING, { role: "client" }, 404, "User not found"],
    ["nope", { role: "client" }, 404, "User not found"],
    [target.id, { role: "owner" }, 400, "Role must be admin, client, surveyor or technician"],
    [
      target.id,
      { role: "x".repeat(10_240) },
      400,
      "Role must be admin, client, surveyor or technician",
    ],
    [target.id, { role: 3 }, 400, "Role must be admin, client, surveyor or technician"],
    [target.id, {}, 400, "Role is required"],
    [target.id, ["admin"], 400, "Request body must be a JSON object"],
  ];
  for (const [id, body, status, message] of cases) {
    const res = await t.request("PATCH", `/api/admin/users/${id}/role`, { cookie, body });
    assertEquals(
      (await expectJson(res, status)).message,
      message,
      JSON.stringify(body).slice(0, 40),
    );
  }
  for (const role of NON_ADMINS) {
    const other = await createSignedInUser(t, { role });
    const res = await t.request("PATCH", `/api/admin/users/${target.id}/role`, {
      cookie: other.cookie,
      body: { role: "admin" },
    });
    assertEquals(res.status, 403, role);
    await res.body?.cancel();
  }
  const anon = await t.request("PATCH", `/api/admin/users/${target.id}/role`, {
    body: { role: "admin" },
  });
  assertEquals(anon.status, 401);
  await anon.body?.cancel();
  const form = await t.request("PATCH", `/api/admin/users/${target.id}/role`, {
    cookie,
    body: "role=admin",
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  assertEquals(form.status, 415);
  await form.body?.cancel();
  assertEquals((await getUserById(t.sql, target.id))?.role, "client");
  assertEquals((await dbState(t)).audit, before.audit);
  t.close();
});

test("[admin] disabling a user ends their sessions, voids reset links and blocks sign-in", async () => {
  const t = await createTestApp();
  const { user: admin, cookie } = await createSignedInUser(t, { role: "admin" });
  const target = await createUser(t.sql, { role: "surveyor" });
  const targetCookie = await signIn(t, { identifier: target.email, password: target.password });
  await insertPasswordResetToken(t.sql, { userId: target.id, tokenHash: "h" });
  const res = await t.request("POST", `/api/admin/users/${target.id}/disable`, { cookie });
  const body = await expectJson(res, 200);
  assert(body.user.disabledAt);
  assertEquals(await me(t, targetCookie), null);
  assertEquals((await t.sql`select count(*)::int as n from password_reset_tokens`)[0].n, 0);
  const login = await t.request("POST", "/api/login", {
    body: { identifier: target.email, password: target.password },
  });
  assertEquals(await expectJson(login, 401), { message: "Invalid credentials" });
  const [event] = await listAuditEvents(t.sql, { userId: target.id, event: "user_disabled" });
  assertEquals(event.actorId, admin.id);

  const enabled = await t.request("POST", `/api/admin/users/${target.id}/enable`, { cookie });
  assertEquals((await expectJson(enabled, 200)).user.disabledAt, null);
  await signIn(t, { identifier: target.email, password: target.password });
  t.close();
});

test("[admin] disabling oneself, unknown users, or as a non-admin is refused", async () => {
  const t = await createTestApp();
  const { user: admin, cookie } = await createSignedInUser(t, { role: "admin" });
  const target = await createUser(t.sql, { role: "client" });
  const before = await dbState(t);
  const self = await t.request("POST", `/api/admin/users/${admin.id}/disable`, { cookie });
  assertEquals(await expectJson(self, 400), { message: "You cannot disable your own account." });
  const missing = await t.request("POST", `/api/admin/users/${MISSING}/disable`, { cookie });
  assertEquals(await expectJson(missing, 404), { message: "User not found" });
  for (const role of NON_ADMINS) {
    const other = await createSignedInUser(t, { role });
    const res = await t.request("POST", `/api/admin/users/${target.id}/disable`, {
      cookie: other.cookie,
    });
    assertEquals(res.status, 403);
    await res.body?.cancel();
  }
  assertEquals((await t.request("POST", `/api/admin/users/${target.id}/disable`)).status, 401);
  assertEquals((await getUserById(t.sql, target.id))?.disabledAt, null);
  assertEquals((await dbState(t)).audit, before.audit);
  t.close();
});

test("[admin] disabling an admin also ends the impersonation they are running", async () => {
  const t = await createTestApp();
  const { cookie } = await createSignedInUser(t, { role: "admin" });
  const other = await createUser(t.sql, { role: "admin" });
  const client = await createUser(t.sql, { role: "client" });
  const impersonating = await sessionFor(t, client, { impersonatorId: other.id });
  const res = await t.request("POST", `/api/admin/users/${other.id}/disable`, { cookie });
  await expectJson(res, 200);
  assertEquals(await me(t, impersonating), null);
  t.close();
});
