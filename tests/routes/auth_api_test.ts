import { assert, assertEquals, assertMatch, assertNotEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import {
  createSignedInUser,
  createUser,
  rewriteSession,
  sessionCookieFrom,
  sessionFor,
  sessionRecord,
  signIn,
  signInAs,
  TEST_PASSWORD,
} from "../_auth.ts";
import { listAuditEvents } from "../../db/audit.ts";
import { getUserById, getUserCredentials } from "../../db/users.ts";
import { insertPasswordResetToken } from "../../db/password_resets.ts";
import { hashToken, listUserSessionHashes } from "../../lib/sessions.ts";
import { verifyPassword } from "../../lib/passwords.ts";
import {
  FORGOT_PASSWORD_MESSAGE,
  INVALID_RESET_LINK_MESSAGE,
  LOGGED_OUT_MESSAGE,
} from "../../routes/auth_api.ts";
import { countRows, expectJson, ROLES } from "../_fixtures.ts";
import { backgroundWork } from "../../lib/background.ts";
import { makeOlder } from "../_row_order.ts";

const BIG = "x".repeat(10 * 1024);
async function outbox(t: TestApp, to: string, template: string) {
  return await t.sql<{ text: string; html: string }[]>`
    select text, html from email_outbox
    where lower(to_address) = lower(${to}) and template = ${template}
    order by created_at`;
}

function resetTokenFrom(text: string): string {
  const match = /\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(text);
  if (!match) throw new Error(`No reset link in: ${text.slice(0, 300)}`);
  return match[1];
}

/** Snapshot of everything an accounts request could change. */
async function dbState(t: TestApp) {
  return {
    users: await t.sql`select id, email, full_name, role, company_name, phone, password_hash,
      last_login, disabled_at from users order by id`,
    tokens: await countRows(t, "password_reset_tokens"),
    audit: await countRows(t, "audit_log"),
    outbox: await countRows(t, "email_outbox"),
  };
}

// ---------------------------------------------------------------- registration

test("[auth] registering creates a signed-in client whose username is the email", async () => {
  const t = await createTestApp();
  const res = await t.request("POST", "/api/register", {
    body: {
      email: " Casey@Example.com ",
      password: "s3cret!",
      fullName: "  Casey Client ",
      username: "casey@example.COM",
      role: "admin",
    },
  });
  const user = await expectJson(res, 201);
  assertEquals(user.email, "Casey@Example.com");
  assertEquals(user.username, "Casey@Example.com");
  assertEquals(user.fullName, "Casey Client");
  assertEquals(user.role, "client");
  assertEquals(Object.keys(user).sort(), [
    "companyName",
    "createdAt",
    "email",
    "fullName",
    "id",
    "lastLogin",
    "phone",
    "role",
    "username",
  ]);
  const setCookie = res.headers.getSetCookie().join("\n");
  assertMatch(setCookie, /meridian_session=[A-Za-z0-9_-]{43};/);
  assertMatch(setCookie, /HttpOnly/);
  assertMatch(setCookie, /SameSite=Lax/);
  assertMatch(setCookie, /Path=\//);
  const cookie = sessionCookieFrom(t, res)!;
  assertEquals(await expectJson(await t.request("GET", "/api/user", { cookie }), 200), user);
  const stored = await getUserCredentials(t.sql, user.id);
  assert(await verifyPassword("s3cret!", stored!.passwordHash));
  const [event] = await listAuditEvents(t.sql, { userId: user.id });
  assertEquals([event.event, event.actorId, event.targetId], ["registered", user.id, user.id]);
  t.close();
});

test("[auth] registering with a taken email in any case is refused clearly", async () => {
  const t = await createTestApp();
  await createUser(t.sql, { role: "surveyor", email: "taken@example.com" });
  const before = await dbState(t);
  const res = await t.request("POST", "/api/register", {
    body: { email: "TAKEN@example.com", password: "123456", fullName: "Someone" },
  });
  assertEquals(await expectJson(res, 400), {
    message: "An account with this email already exists",
  });
  assertEquals(sessionCookieFrom(t, res), null);
  assertEquals(await dbState(t), before);
  t.close();
});

test("[auth] registering with bad input gives a clear 400 and stores nothing", async () => {
  const t = await createTestApp();
  const ok = { email: "new@example.com", password: "123456", fullName: "New Person" };
  const cases: [unknown, string][] = [
    [{ password: "123456", fullName: "A" }, "Email is required"],
    [{ ...ok, email: 42 }, "Email must be text"],
    [{ ...ok, email: "not-an-email" }, "Please enter a valid email address"],
    [{ ...ok, email: `${BIG}@example.com` }, "Email must be at most 254 characters"],
    [{ ...ok, password: undefined }, "Password is required"],
    [{ ...ok, password: "12345" }, "Password must be at least 6 characters"],
    [{ ...ok, password: BIG }, "Password must be at most 128 characters"],
    [{ ...ok, password: 123456 }, "Password must be text"],
    [{ ...ok, fullName: undefined }, "Full name is required"],
    [{ ...ok, fullName: "   " }, "Full name is required"],
    [{ ...ok, fullName: BIG }, "Full name must be at most 100 characters"],
    [{ ...ok, fullName: ["A"] }, "Full name must be text"],
    [{ ...ok, fullName: "New\u0000Person" }, "Full name contains characters that are not allowed"],
    [{ ...ok, username: "hacker" }, "Username must be the same as the email address"],
    [{ ...ok, username: { nested: {} } }, "Username must be text"],
    [[ok], "Request body must be a JSON object"],
    ["null", "Request body must be a JSON object"],
  ];
  const before = await dbState(t);
  for (const [body, message] of cases) {
    const res = await t.request("POST", "/api/register", { body });
    const json = await expectJson(res, 400);
    assertEquals(json.message, message, JSON.stringify(body).slice(0, 80));
    assertEquals(sessionCookieFrom(t, res), null);
  }
  const malformed = await t.request("POST", "/api/register", { body: "{not json" });
  assertEquals(malformed.status, 400);
  assert((await malformed.json()).message);
  assertEquals(await dbState(t), before);
  t.close();
});

test("[auth] every auth endpoint refuses non-JSON bodies (415) and cross-site posts (403)", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "client" });
  const before = await dbState(t);
  const posts: [string, string][] = [
    ["POST", "/api/register"],
    ["POST", "/api/login"],
    ["POST", "/api/logout"],
    ["PATCH", "/api/user"],
    ["POST", "/api/user/password"],
    ["POST", "/api/forgot-password"],
    ["POST", "/api/reset-password"],
  ];
  for (const [method, path] of posts) {
    const form = await t.request(method, path, {
      cookie,
      body: `email=${user.email}&password=x`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    assertEquals(await expectJson(form, 415), { message: "Request body must be JSON" }, path);
    const evil = await t.request(method, path, {
      cookie,
      body: { identifier: user.email, password: TEST_PASSWORD, email: user.email },
      headers: { origin: "https://evil.example" },
    });
    assertEquals(await expectJson(evil, 403), { message: "Cross-site request refused" }, path);
  }
  assertEquals(await dbState(t), before);
  assertEquals((await t.request("GET", "/api/user", { cookie })).status, 200, "still signed in");
  t.close();
});

test("[auth] registration is limited to 10 per hour per IP", async () => {
  const t = await createTestApp({ env: { TRUST_PROXY: "1" } });
  const from = (ip: string, i: number) =>
    t.request("POST", "/api/register", {
      body: { email: `r${i}@example.com`, password: "123456", fullName: `R ${i}` },
      headers: { "x-forwarded-for": ip },
    });
  for (let i = 0; i < 10; i++) assertEquals((await from("198.51.100.1", i)).status, 201);
  const res = await from("198.51.100.1", 10);
  const body = await expectJson(res, 429);
  assertEquals(body.message, "Too many registration attempts. Please try again in 60 minutes.");
  assertMatch(res.headers.get("retry-after") ?? "", /^\d+$/);
  assert(Number(res.headers.get("retry-after")) > 3000);
  assertEquals(await countRows(t, "users"), 10);
  assertEquals((await from("198.51.100.2", 11)).status, 201, "another IP is not limited");
  t.close();
});

// ---------------------------------------------------------------- login

test("[auth] signing in works with the email or the username in any case", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, {
    role: "surveyor",
    email: "sue@example.com",
    username: "SurveyorSue",
  });
  for (const identifier of ["sue@example.com", "SUE@Example.COM", "surveyorsue", " SurveyorSue "]) {
    const res = await t.request("POST", "/api/login", {
      body: { identifier, password: TEST_PASSWORD },
    });
    const body = await expectJson(res, 200);
    assertEquals(body.id, user.id, identifier);
    assertEquals(body.role, "surveyor");
    assert(body.lastLogin, "last login is stamped");
    assertEquals("passwordHash" in body, false);
    assert(sessionCookieFrom(t, res));
  }
  assert((await getUserById(t.sql, user.id))?.lastLogin);
  const events = await listAuditEvents(t.sql, { userId: user.id, event: "login_succeeded" });
  assertEquals(events.length, 4);
  t.close();
});

test("[auth] unknown user, wrong password and disabled account all get 401 Invalid credentials", async () => {
  const t = await createTestApp();
  const active = await createUser(t.sql, { role: "client" });
  const disabled = await createUser(t.sql, { role: "client" });
  await t.sql`update users set disabled_at = now() where id = ${disabled.id}`;
  const attempts = [
    { identifier: "nobody@example.com", password: TEST_PASSWORD },
    { identifier: active.email, password: "wrong-password" },
    { identifier: disabled.email, password: TEST_PASSWORD },
  ];
  for (const body of attempts) {
    const res = await t.request("POST", "/api/login", { body });
    assertEquals(await expectJson(res, 401), { message: "Invalid credentials" });
    assertEquals(sessionCookieFrom(t, res), null);
  }
  assertEquals((await getUserById(t.sql, active.id))?.lastLogin, null);
  const failures = await listAuditEvents(t.sql, { event: "login_failed" });
  assertEquals(
    failures.map((e) => [e.targetId, e.details.reason]).reverse(),
    [[null, "unknown_identifier"], [active.id, "wrong_password"], [disabled.id, "disabled"]],
  );
  const dump = JSON.stringify(await t.sql`select * from audit_log`);
  assert(!dump.includes("wrong-password") && !dump.includes(TEST_PASSWORD), "no passwords logged");
  t.close();
});

test("[auth] login rotates the session: a new cookie, and the old one is dead", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "client" });
  const first = await signIn(t, { identifier: user.email, password: user.password });
  const res = await t.request("POST", "/api/login", {
    cookie: first,
    body: { identifier: user.email, password: user.password },
  });
  await expectJson(res, 200);
  const second = sessionCookieFrom(t, res)!;
  assertNotEquals(second, first);
  assertEquals(
    await expectJson(await t.request("GET", "/api/user", { cookie: first }), 401),
    { message: "Authentication required" },
  );
  assertEquals(
    (await expectJson(await t.request("GET", "/api/user", { cookie: second }), 200)).id,
    user.id,
  );
  assertEquals((await listUserSessionHashes(t.kv, user.id)).length, 1);
  t.close();
});

test("[auth] a cookie planted before login is never adopted", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "client" });
  const planted = `meridian_session=${"A".repeat(43)}`;
  const res = await t.request("POST", "/api/login", {
    cookie: planted,
    body: { identifier: user.email, password: user.password },
  });
  await expectJson(res, 200);
  assertNotEquals(sessionCookieFrom(t, res), planted);
  assertEquals((await t.request("GET", "/api/user", { cookie: planted })).status, 401);
  t.close();
});

test("[auth] login with bad input gives a clear 400 and records nothing", async () => {
  const t = await createTestApp();
  await createUser(t.sql, { role: "client" });
  const cases: [unknown, string][] = [
    [{ password: "123456" }, "Email or username is required"],
    [{ identifier: "", password: "123456" }, "Email or username is required"],
    [{ identifier: 5, password: "123456" }, "Email or username must be text"],
    [{ identifier: BIG, password: "123456" }, "Email or username must be at most 254 characters"],
    [{ identifier: "a@b.co" }, "Password is required"],
    [{ identifier: "a@b.co", password: "" }, "Password is required"],
    [{ identifier: "a@b.co", password: true }, "Password must be text"],
    [{ identifier: "a@b.co", password: BIG }, "Password must be at most 128 characters"],
  ];
  const before = await dbState(t);
  for (const [body, message] of cases) {
    const res = await t.request("POST", "/api/login", { body });
    assertEquals((await expectJson(res, 400)).message, message, JSON.stringify(body).slice(0, 60));
  }
  assertEquals(await dbState(t), before);
  t.close();
});

test("[auth] login is limited to 10 attempts per 3 minutes per identifier", async () => {
  const t = await createTestApp({ env: { TRUST_PROXY: "1" } });
  const user = await createUser(t.sql, { role: "client" });
  for (let i = 0; i < 10; i++) {
    const res = await t.request("POST", "/api/login", {
      body: { identifier: user.email, password: "wrong-password" },
      headers: { "x-forwarded-for": `198.51.100.${i + 1}` },
    });
    assertEquals(res.status, 401);
  }
  const res = await t.request("POST", "/api/login", {
    body: { identifier: user.email.toUpperCase(), password: user.password },
    headers: { "x-forwarded-for": "203.0.113.50" },
  });
  const body = await expectJson(res, 429);
  assertEquals(body.message, "Too many login attempts. Please try again in 3 minutes.");
  const retryAfter = Number(res.headers.get("retry-after"));
  assert(retryAfter > 0 && retryAfter <= 180, `Retry-After ${retryAfter}`);
  assertEquals(sessionCookieFrom(t, res), null, "even the right password is refused");
  t.close();
});

test("[auth] login is limited to 10 attempts per 3 minutes per IP", async () => {
  const t = await createTestApp({ env: { TRUST_PROXY: "1" } });
  const user = await createUser(t.sql, { role: "client" });
  const ip = { "x-forwarded-for": "198.51.100.7, 10.0.0.1" };
  for (let i = 0; i < 10; i++) {
    const res = await t.request("POST", "/api/login", {
      body: { identifier: `guess${i}@example.com`, password: "whatever" },
      headers: ip,
    });
    assertEquals(res.status, 401);
  }
  const blocked = await t.request("POST", "/api/login", {
    body: { identifier: user.email, password: user.password },
    headers: ip,
  });
  assertEquals(
    (await expectJson(blocked, 429)).message,
    "Too many login attempts. Please try again in 3 minutes.",
  );
  assert(blocked.headers.get("retry-after"));
  const elsewhere = await t.request("POST", "/api/login", {
    body: { identifier: user.email, password: user.password },
    headers: { "x-forwarded-for": "198.51.100.8" },
  });
  assertEquals(elsewhere.status, 200);
  t.close();
});

test("[auth] without TRUST_PROXY a forged X-Forwarded-For does not dodge the IP limit", async () => {
  const t = await createTestApp();
  for (let i = 0; i < 10; i++) {
    const res = await t.request("POST", "/api/login", {
      body: { identifier: `guess${i}@example.com`, password: "whatever" },
      headers: { "x-forwarded-for": `198.51.100.${i}` },
    });
    assertEquals(res.status, 401);
  }
  const res = await t.request("POST", "/api/login", {
    body: { identifier: "guess99@example.com", password: "whatever" },
    headers: { "x-forwarded-for": "203.0.113.99" },
  });
  assertEquals(res.status, 429);
  await res.body?.cancel();
  t.close();
});

// ---------------------------------------------------------------- logout and current user

test("[auth] logout ends the session and replaying the old cookie gets 401", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "technician" });
  const cookie = await signIn(t, { identifier: user.email, password: user.password });
  const res = await t.request("POST", "/api/logout", { cookie });
  assertEquals(await expectJson(res, 200), { message: LOGGED_OUT_MESSAGE });
  assertEquals(LOGGED_OUT_MESSAGE, "You have been logged out successfully.");
  assertMatch(res.headers.getSetCookie().join("\n"), /meridian_session=;.*Max-Age=0/);
  assertEquals(
    await expectJson(await t.request("GET", "/api/user", { cookie }), 401),
    { message: "Authentication required" },
  );
  assertEquals((await t.request("POST", "/api/logout", { cookie })).status, 401);
  assertEquals(await listUserSessionHashes(t.kv, user.id), []);
  const [event] = await listAuditEvents(t.sql, { userId: user.id, event: "logout" });
  assertEquals([event.actorId, event.targetId], [user.id, user.id]);
  t.close();
});

test("[auth] signed out, logout and the user endpoint answer 401", async () => {
  const t = await createTestApp();
  assertEquals(await expectJson(await t.request("POST", "/api/logout"), 401), {
    message: "Authentication required",
  });
  assertEquals(await expectJson(await t.request("GET", "/api/user"), 401), {
    message: "Authentication required",
  });
  t.close();
});

test("[auth] each role reads its own user from /api/user", async () => {
  const t = await createTestApp();
  for (const role of ROLES) {
    const { user, cookie } = await createSignedInUser(t, {
      role,
      companyName: "Co",
      phone: "555-0100",
    });
    const res = await t.request("GET", "/api/user", { cookie });
    const body = await expectJson(res, 200);
    assertEquals(body.id, user.id);
    assertEquals(body.role, role);
    assertEquals(body.companyName, "Co");
    assertEquals(res.headers.get("cache-control"), "private, no-store");
  }
  t.close();
});

test("[auth] a garbage or unknown cookie is signed out, and a page clears it", async () => {
  const t = await createTestApp();
  for (const value of ["nonsense", "A".repeat(43), "%00%0a", "x".repeat(5000)]) {
    const cookie = `meridian_session=${value}`;
    const res = await t.request("GET", "/api/user", { cookie });
    assertEquals(res.status, 401, value.slice(0, 10));
    // An API answer leaves the cookie: a sign-in may have replaced it meanwhile.
    assertEquals(res.headers.getSetCookie(), [], value.slice(0, 10));
    await res.body?.cancel();
    const page = await t.request("GET", "/profile", { cookie });
    assertEquals(page.status, 302, value.slice(0, 10));
    assertMatch(page.headers.getSetCookie().join("\n"), /meridian_session=;/);
    await page.body?.cancel();
  }
  t.close();
});

test("[auth] disabling a user in the database signs their live session out", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "client" });
  await t.sql`update users set disabled_at = now() where id = ${user.id}`;
  assertEquals((await t.request("GET", "/api/user", { cookie })).status, 401);
  assertEquals(await listUserSessionHashes(t.kv, user.id), []);
  t.close();
});

test("[auth] a client session idle for 7 days is signed out, 6 days is fine", async () => {
  const t = await createTestApp();
  const { cookie } = await createSignedInUser(t, { role: "client" });
  const day = 24 * 3600_000;
  await rewriteSession(t, cookie, { lastSeenAt: Date.now() - 6 * day });
  assertEquals((await t.request("GET", "/api/user", { cookie })).status, 200);
  await rewriteSession(t, cookie, { lastSeenAt: Date.now() - 7 * day - 1000 });
  assertEquals((await t.request("GET", "/api/user", { cookie })).status, 401);
  assertEquals((await sessionRecord(t, cookie)).entry.value, null, "deleted on sight");
  t.close();
});

test("[auth] an active client session still ends 30 days after sign-in", async () => {
  const t = await createTestApp();
  const { cookie } = await createSignedInUser(t, { role: "surveyor" });
  const day = 24 * 3600_000;
  await rewriteSession(t, cookie, { createdAt: Date.now() - 29 * day, lastSeenAt: Date.now() });
  assertEquals((await t.request("GET", "/api/user", { cookie })).status, 200);
  await rewriteSession(t, cookie, { createdAt: Date.now() - 30 * day - 1000 });
  assertEquals((await t.request("GET", "/api/user", { cookie })).status, 401);
  t.close();
});

test("[auth] admin sessions end after 30 idle minutes or 12 hours", async () => {
  const t = await createTestApp();
  const { cookie } = await createSignedInUser(t, { role: "admin" });
  const minute = 60_000;
  await rewriteSession(t, cookie, { lastSeenAt: Date.now() - 29 * minute });
  assertEquals((await t.request("GET", "/api/user", { cookie })).status, 200);
  await rewriteSession(t, cookie, { lastSeenAt: Date.now() - 31 * minute });
  assertEquals((await t.request("GET", "/api/user", { cookie })).status, 401);
  const again = await createSignedInUser(t, { role: "admin" });
  await rewriteSession(t, again.cookie, { createdAt: Date.now() - 12 * 60 * minute - 1000 });
  assertEquals((await t.request("GET", "/api/user", { cookie: again.cookie })).status, 401);
  t.close();
});

test("[auth] activity refreshes lastSeenAt at most once a minute", async () => {
  const t = await createTestApp();
  const { cookie } = await createSignedInUser(t, { role: "client" });
  const recent = Date.now() - 10_000;
  await rewriteSession(t, cookie, { lastSeenAt: recent });
  await (await t.request("GET", "/api/user", { cookie })).body?.cancel();
  assertEquals((await sessionRecord(t, cookie)).entry.value?.lastSeenAt, recent);
  const old = Date.now() - 5 * 60_000;
  await rewriteSession(t, cookie, { lastSeenAt: old });
  await (await t.request("GET", "/api/user", { cookie })).body?.cancel();
  assert((await sessionRecord(t, cookie)).entry.value!.lastSeenAt > old);
  t.close();
});

test("[auth] the cookie is __Host- prefixed and Secure when PUBLIC_URL is https", async () => {
  const t = await createTestApp({ env: { PUBLIC_URL: "https://meridian.example" } });
  const user = await createUser(t.sql, { role: "client" });
  const res = await t.app.request("https://meridian.example/api/login", {
    method: "POST",
    headers: { origin: "https://meridian.example", "content-type": "application/json" },
    body: JSON.stringify({ identifier: user.email, password: user.password }),
  });
  assertEquals(res.status, 200);
  const setCookie = res.headers.getSetCookie().join("\n");
  assertMatch(setCookie, /^__Host-meridian_session=[A-Za-z0-9_-]{43}; /);
  assertMatch(setCookie, /; Path=\//);
  assertMatch(setCookie, /; HttpOnly/);
  assertMatch(setCookie, /; Secure/);
  assertMatch(setCookie, /; SameSite=Lax/);
  assert(!/Domain=/i.test(setCookie));
  const cookie = setCookie.split(";")[0];
  const me = await t.app.request("https://meridian.example/api/user", { headers: { cookie } });
  assertEquals(me.status, 200);
  const plain = await t.app.request("https://meridian.example/api/user", {
    headers: { cookie: cookie.replace("__Host-", "") },
  });
  assertEquals(plain.status, 401, "the unprefixed name is not honoured in production");
  t.close();
});

// ---------------------------------------------------------------- profile

test("[profile] a user edits their full name, company and phone", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "surveyor", companyName: "Old Co" });
  const res = await t.request("PATCH", "/api/user", {
    cookie,
    body: { fullName: " Pat Surveyor ", companyName: "Acme Surveying", phone: "+1 (555) 010-0199" },
  });
  const body = await expectJson(res, 200);
  assertEquals([body.fullName, body.companyName, body.phone], [
    "Pat Surveyor",
    "Acme Surveying",
    "+1 (555) 010-0199",
  ]);
  const cleared = await expectJson(
    await t.request("PATCH", "/api/user", { cookie, body: { companyName: "", phone: null } }),
    200,
  );
  assertEquals([cleared.fullName, cleared.companyName, cleared.phone], [
    "Pat Surveyor",
    null,
    null,
  ]);
  assertEquals((await getUserById(t.sql, user.id))?.fullName, "Pat Surveyor");
  assertEquals((await listAuditEvents(t.sql, { event: "profile_updated" })).length, 2);
  t.close();
});

test("[profile] bad profile input gives a clear 400 and changes nothing", async () => {
  const t = await createTestApp();
  const { cookie } = await createSignedInUser(t, {
    role: "client",
    companyName: "Keep",
    phone: "555-0100",
  });
  const cases: [unknown, string][] = [
    [{}, "Nothing to update"],
    [{ fullName: "" }, "Full name is required"],
    [{ fullName: BIG }, "Full name must be at most 100 characters"],
    [{ fullName: 7 }, "Full name must be text"],
    [{ companyName: BIG }, "Company name must be at most 100 characters"],
    [{ companyName: { a: 1 } }, "Company name must be text"],
    [{ phone: "call me" }, "Please enter a valid phone number"],
    [{ phone: BIG }, "Phone must be at most 30 characters"],
    [[], "Request body must be a JSON object"],
  ];
  const before = await dbState(t);
  for (const [body, message] of cases) {
    const res = await t.request("PATCH", "/api/user", { cookie, body });
    assertEquals((await expectJson(res, 400)).message, message, JSON.stringify(body).slice(0, 60));
  }
  assertEquals(await dbState(t), before);
  assertEquals((await t.request("PATCH", "/api/user", { body: { fullName: "X" } })).status, 401);
  assertEquals(await dbState(t), before);
  t.close();
});

// ---------------------------------------------------------------- password change

test("[password] changing the password ends every other session and emails a notice", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "client" });
  const here = await signIn(t, { identifier: user.email, password: user.password });
  const laptop = await signIn(t, { identifier: user.email, password: user.password });
  const phone = await sessionFor(t, user);
  const res = await t.request("POST", "/api/user/password", {
    cookie: here,
    body: { currentPassword: user.password, newPassword: "brand-new-pass" },
  });
  assertEquals(await expectJson(res, 200), { message: "Your password has been changed." });
  assertEquals((await t.request("GET", "/api/user", { cookie: here })).status, 200);
  assertEquals((await t.request("GET", "/api/user", { cookie: laptop })).status, 401);
  assertEquals((await t.request("GET", "/api/user", { cookie: phone })).status, 401);
  const bad = await t.request("POST", "/api/login", {
    body: { identifier: user.email, password: user.password },
  });
  assertEquals(bad.status, 401);
  await bad.body?.cancel();
  await signIn(t, { identifier: user.email, password: "brand-new-pass" });
  assertEquals((await outbox(t, user.email, "password_changed")).length, 1);
  assertEquals(
    (await listAuditEvents(t.sql, { userId: user.id, event: "password_changed" })).length,
    1,
  );
  t.close();
});

test("[password] a wrong current password is refused and nothing changes", async () => {
  const t = await createTestApp();
  const { cookie } = await createSignedInUser(t, { role: "surveyor" });
  const before = await dbState(t);
  const res = await t.request("POST", "/api/user/password", {
    cookie,
    body: { currentPassword: "not-my-password", newPassword: "brand-new-pass" },
  });
  assertEquals(await expectJson(res, 400), { message: "Current password is incorrect" });
  assertEquals(await dbState(t), before);
  t.close();
});

test("[password] bad password-change input gives a clear 400 and changes nothing", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "client" });
  const cases: [unknown, string][] = [
    [{ newPassword: "123456" }, "Current password is required"],
    [{ currentPassword: user.password }, "Password is required"],
    [
      { currentPassword: user.password, newPassword: "12345" },
      "Password must be at least 6 characters",
    ],
    [
      { currentPassword: user.password, newPassword: BIG },
      "Password must be at most 128 characters",
    ],
    [{ currentPassword: 1, newPassword: "123456" }, "Current password must be text"],
    [
      { currentPassword: user.password, newPassword: "123456", confirmPassword: "1234567" },
      "Passwords don't match",
    ],
  ];
  const before = await dbState(t);
  for (const [body, message] of cases) {
    const res = await t.request("POST", "/api/user/password", { cookie, body });
    assertEquals((await expectJson(res, 400)).message, message, JSON.stringify(body).slice(0, 60));
  }
  const signedOut = await t.request("POST", "/api/user/password", {
    body: { currentPassword: user.password, newPassword: "123456" },
  });
  assertEquals(await expectJson(signedOut, 401), { message: "Authentication required" });
  assertEquals(await dbState(t), before);
  t.close();
});

test("[password] an impersonated session cannot change the password", async () => {
  const t = await createTestApp();
  const admin = await createUser(t.sql, { role: "admin" });
  const target = await createUser(t.sql, { role: "client" });
  const cookie = await sessionFor(t, target, { impersonatorId: admin.id });
  const before = await dbState(t);
  const res = await t.request("POST", "/api/user/password", {
    cookie,
    body: { currentPassword: target.password, newPassword: "taken-over" },
  });
  assertEquals(await expectJson(res, 403), {
    message: "You cannot change this user's password while impersonating them.",
  });
  assertEquals(await dbState(t), before);
  t.close();
});

// ---------------------------------------------------------------- forgot and reset password

test("[reset] forgot-password gives the same answer whether or not the account exists", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "client", email: "real@example.com" });
  const disabled = await createUser(t.sql, { role: "client", email: "gone@example.com" });
  await t.sql`update users set disabled_at = now() where id = ${disabled.id}`;
  const answers = [];
  for (const email of ["real@example.com", "nobody@example.com", "gone@example.com"]) {
    const res = await t.request("POST", "/api/forgot-password", { body: { email } });
    answers.push(await expectJson(res, 200));
  }
  // The token and email are made after the answer.
  await backgroundWork(t.deps).settled();
  for (const a of answers) assertEquals(a, { message: FORGOT_PASSWORD_MESSAGE });
  assertEquals(
    FORGOT_PASSWORD_MESSAGE,
    "If an account with this email exists, you'll receive instructions to reset your password.",
  );
  const tokens = await t.sql<{ userId: string; tokenHash: string }[]>`
    select user_id, token_hash from password_reset_tokens`;
  assertEquals(tokens.map((r) => r.userId), [user.id], "a token only for the enabled account");
  const [mail] = await outbox(t, "real@example.com", "password_reset");
  const token = resetTokenFrom(mail.text);
  assertMatch(mail.text, /^.*http:\/\/localhost\/reset-password\?token=/ms);
  assertEquals(tokens[0].tokenHash, await hashToken(token), "only the hash is stored");
  assertEquals((await outbox(t, "nobody@example.com", "password_reset")).length, 0);
  assertEquals((await outbox(t, "gone@example.com", "password_reset")).length, 0);
  const dump = JSON.stringify(await t.sql`select * from audit_log`);
  assert(!dump.includes(token), "the token is never logged");
  t.close();
});

test("[reset] a new request voids the older link", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "client" });
  for (let i = 0; i < 2; i++) {
    // Earlier emails a minute older: two in a row can share a timestamp (ties go by id).
    await makeOlder(t.sql, "email_outbox", {
      where: t.sql`lower(to_address) = lower(${user.email})`,
    });
    const res = await t.request("POST", "/api/forgot-password", { body: { email: user.email } });
    await expectJson(res, 200);
    await backgroundWork(t.deps).settled();
  }
  const [first, second] = await outbox(t, user.email, "password_reset");
  const old = await t.request(
    "GET",
    `/api/reset-password/verify?token=${resetTokenFrom(first.text)}`,
  );
  assertEquals(await expectJson(old, 400), { success: false, message: INVALID_RESET_LINK_MESSAGE });
  const fresh = await t.request(
    "GET",
    `/api/reset-password/verify?token=${resetTokenFrom(second.text)}`,
  );
  assertEquals(await expectJson(fresh, 200), { success: true, email: user.email });
  assertEquals(await countRows(t, "password_reset_tokens"), 1);
  t.close();
});

test("[reset] the emailed link resets the password once and ends every session", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "surveyor" });
  const s1 = await signIn(t, { identifier: user.email, password: user.password });
  const s2 = await sessionFor(t, user);
  await expectJson(
    await t.request("POST", "/api/forgot-password", { body: { email: user.email } }),
    200,
  );
  await backgroundWork(t.deps).settled();
  const token = resetTokenFrom((await outbox(t, user.email, "password_reset"))[0].text);
  const verify = await t.request("GET", `/api/reset-password/verify?token=${token}`);
  assertEquals(await expectJson(verify, 200), { success: true, email: user.email });
  const res = await t.request("POST", "/api/reset-password", {
    body: { token, password: "fresh-start", confirmPassword: "fresh-start" },
  });
  const body = await expectJson(res, 200);
  assertEquals(body.success, true);
  assertEquals((await t.request("GET", "/api/user", { cookie: s1 })).status, 401);
  assertEquals((await t.request("GET", "/api/user", { cookie: s2 })).status, 401);
  assertEquals(await listUserSessionHashes(t.kv, user.id), []);
  await signIn(t, { identifier: user.email, password: "fresh-start" });
  const replay = await t.request("POST", "/api/reset-password", {
    body: { token, password: "second-try", confirmPassword: "second-try" },
  });
  assertEquals(await expectJson(replay, 400), {
    success: false,
    message: INVALID_RESET_LINK_MESSAGE,
  });
  assertEquals(await countRows(t, "password_reset_tokens"), 0);
  assertEquals((await outbox(t, user.email, "password_changed")).length, 1);
  const events = (await listAuditEvents(t.sql, { userId: user.id })).map((e) => e.event);
  assert(events.includes("password_reset_requested"));
  assert(events.includes("password_reset_completed"));
  t.close();
});

test("[reset] a forgot-password link still reads 'Reset your password', signs nobody in and sends 'password changed'", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "technician" });
  await expectJson(
    await t.request("POST", "/api/forgot-password", { body: { email: user.email } }),
    200,
  );
  await backgroundWork(t.deps).settled();
  const token = resetTokenFrom((await outbox(t, user.email, "password_reset"))[0].text);
  const html = await (await t.request("GET", `/reset-password?token=${token}`)).text();
  assertMatch(html, /<title>Reset your password \| Meridian<\/title>/);
  assert(!html.includes("Choose your password"));
  const res = await t.request("POST", "/api/reset-password", {
    body: { token, password: "fresh-start", confirmPassword: "fresh-start" },
  });
  assertEquals(await expectJson(res, 200), {
    success: true,
    message: "Your password has been reset. You can now sign in with your new password.",
  });
  assertEquals(sessionCookieFrom(t, res), null, "a reset does not sign in");
  assertEquals((await getUserById(t.sql, user.id))?.lastLogin, null);
  assertEquals((await outbox(t, user.email, "password_changed")).length, 1);
  t.close();
});

test("[reset] an expired link is invalid", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "client" });
  const token = "T".repeat(43);
  await insertPasswordResetToken(t.sql, { userId: user.id, tokenHash: await hashToken(token) });
  await t.sql`update password_reset_tokens set expires_at = now() - interval '1 second'`;
  const verify = await t.request("GET", `/api/reset-password/verify?token=${token}`);
  assertEquals(await expectJson(verify, 400), {
    success: false,
    message: INVALID_RESET_LINK_MESSAGE,
  });
  const before = await dbState(t);
  const res = await t.request("POST", "/api/reset-password", {
    body: { token, password: "123456", confirmPassword: "123456" },
  });
  assertEquals(await expectJson(res, 400), { success: false, message: INVALID_RESET_LINK_MESSAGE });
  assertEquals((await dbState(t)).users, before.users);
  t.close();
});

test("[reset] missing, unknown or malformed tokens are invalid links", async () => {
  const t = await createTestApp();
  for (
    const q of [
      "",
      "?token=",
      "?token=abc",
      `?token=${"Z".repeat(43)}`,
      `?token=${BIG}`,
      "?token=a&token=b",
    ]
  ) {
    const res = await t.request("GET", `/api/reset-password/verify${q}`);
    assertEquals(await expectJson(res, 400), {
      success: false,
      message: INVALID_RESET_LINK_MESSAGE,
    }, q.slice(0, 20));
  }
  for (const token of [undefined, "", "abc", "Z".repeat(43), BIG.slice(0, 500)]) {
    const res = await t.request("POST", "/api/reset-password", {
      body: { token, password: "123456", confirmPassword: "123456" },
    });
    assertEquals((await expectJson(res, 400)).message, INVALID_RESET_LINK_MESSAGE);
  }
  t.close();
});

test("[reset] reset-password validates the new password with the spec's messages", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "client" });
  const token = "R".repeat(43);
  await insertPasswordResetToken(t.sql, { userId: user.id, tokenHash: await hashToken(token) });
  const cases: [unknown, string][] = [
    [
      { token, password: "12345", confirmPassword: "12345" },
      "Password must be at least 6 characters",
    ],
    [
      { token, password: "123456", confirmPassword: "12345" },
      "Password must be at least 6 characters",
    ],
    [{ token, password: "123456", confirmPassword: "1234567" }, "Passwords don't match"],
    [{ token, password: BIG, confirmPassword: BIG }, "Password must be at most 128 characters"],
    [{ token }, "Password is required"],
    [{ token: 5, password: "123456" }, INVALID_RESET_LINK_MESSAGE],
  ];
  const before = await dbState(t);
  for (const [body, message] of cases) {
    const res = await t.request("POST", "/api/reset-password", { body });
    assertEquals((await expectJson(res, 400)).message, message, JSON.stringify(body).slice(0, 80));
  }
  const mismatch = await t.request("POST", "/api/reset-password", {
    body: { token, password: "123456", confirmPassword: "1234567" },
  });
  assertEquals((await expectJson(mismatch, 400)).errors, {
    confirmPassword: "Passwords don't match",
  });
  assertEquals(await dbState(t), before);
  t.close();
});

test("[reset] forgot-password validates the email", async () => {
  const t = await createTestApp();
  const before = await dbState(t);
  for (const email of ["", "nope", 5, BIG]) {
    const res = await t.request("POST", "/api/forgot-password", { body: { email } });
    const message = (await expectJson(res, 400)).message;
    assert(
      [
        "Please enter a valid email address",
        "Email must be text",
        "Email must be at most 254 characters",
      ]
        .includes(message),
      message,
    );
  }
  const res = await t.request("POST", "/api/forgot-password", { body: { email: "nope" } });
  assertEquals((await expectJson(res, 400)).message, "Please enter a valid email address");
  assertEquals(await dbState(t), before);
  t.close();
});

test("[reset] forgot-password is limited to 5 per hour per email and per IP", async () => {
  const t = await createTestApp({ env: { TRUST_PROXY: "1" } });
  const user = await createUser(t.sql, { role: "client" });
  for (let i = 0; i < 5; i++) {
    const res = await t.request("POST", "/api/forgot-password", {
      body: { email: user.email },
      headers: { "x-forwarded-for": `198.51.100.${i}` },
    });
    assertEquals(res.status, 200);
    await res.body?.cancel();
  }
  const perEmail = await t.request("POST", "/api/forgot-password", {
    body: { email: user.email.toUpperCase() },
    headers: { "x-forwarded-for": "198.51.100.200" },
  });
  assertEquals(
    (await expectJson(perEmail, 429)).message,
    "Too many password reset requests. Please try again in 60 minutes.",
  );
  assert(Number(perEmail.headers.get("retry-after")) > 0);
  await backgroundWork(t.deps).settled();
  assertEquals(await countRows(t, "password_reset_tokens"), 1);
  for (let i = 0; i < 5; i++) {
    const res = await t.request("POST", "/api/forgot-password", {
      body: { email: `someone${i}@example.com` },
      headers: { "x-forwarded-for": "203.0.113.1" },
    });
    assertEquals(res.status, 200);
    await res.body?.cancel();
  }
  const perIp = await t.request("POST", "/api/forgot-password", {
    body: { email: "someone-else@example.com" },
    headers: { "x-forwarded-for": "203.0.113.1" },
  });
  assertEquals(perIp.status, 429);
  assert(perIp.headers.get("retry-after"));
  await perIp.body?.cancel();
  await backgroundWork(t.deps).settled();
  t.close();
});

test("[auth] no state changes on GET", async () => {
  const t = await createTestApp();
  const { cookie } = await createSignedInUser(t, { role: "client" });
  const before = await dbState(t);
  for (
    const path of [
      "/api/logout",
      "/api/register",
      "/api/login",
      "/api/forgot-password",
      "/api/reset-password",
    ]
  ) {
    const res = await t.request("GET", path, { cookie });
    assertEquals(res.status, 404, path);
    await res.body?.cancel();
  }
  assertEquals((await t.request("GET", "/api/user", { cookie })).status, 200);
  assertEquals(await dbState(t), before);
  t.close();
});

test("[auth] registering counts as the first sign-in: the admin's users list shows a last login", async () => {
  const t = await createTestApp();
  const before = Date.now();
  const res = await t.request("POST", "/api/register", {
    body: { email: "first@example.com", password: "s3cret!", fullName: "First Timer" },
  });
  const user = await expectJson(res, 201);
  assert(user.lastLogin, "the registration answer carries the sign-in time");
  // Compared with some slack: the database clock, not this process's, stamps it.
  assert(Date.parse(user.lastLogin) >= before - 60_000, user.lastLogin);
  const admin = await signInAs(t, "admin");
  const list = await expectJson(await t.request("GET", "/api/users", { cookie: admin }), 200);
  const row = list.users.find((u: { id: string }) => u.id === user.id);
  assertEquals(row.lastLogin, user.lastLogin);
  t.close();
});
