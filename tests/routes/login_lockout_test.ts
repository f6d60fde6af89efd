/**
 * Account lockout as a weapon: failures from anyone used to lock an account (admins included)
 * out of password sign-in. A browser that signed in to the account before carries a device
 * cookie (lib/device_cookies.ts) and meets only its own limit.
 */
import { assert, assertEquals, assertMatch, assertNotEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createUser, sessionCookieFrom, type TestUser } from "../_auth.ts";
import { expectJson } from "../_fixtures.ts";
import { listAuditEvents } from "../../db/audit.ts";
import { DEVICE_COOKIE_NAME, SECURE_DEVICE_COOKIE_NAME } from "../../lib/device_cookies.ts";
import { openKv } from "../../db/kv.ts";
import { faultyKv } from "../_kv_faults.ts";

const LOCKED = "Too many login attempts. Please try again in 3 minutes.";
let nextIp = 0;

/** POST /api/login from `ip` (a fresh address each call unless given) with `cookie`. */
function login(
  t: TestApp,
  body: { identifier: string; password: string },
  { ip, cookie }: { ip?: string; cookie?: string } = {},
): Promise<Response> {
  nextIp++;
  const from = ip ?? `198.51.${(nextIp >> 8) & 255}.${nextIp & 255}`;
  return t.request("POST", "/api/login", {
    body,
    cookie,
    headers: { "x-forwarded-for": from },
  });
}

/** The `name=value` of the device cookie a response sets, or null. */
function deviceCookieFrom(res: Response, name = DEVICE_COOKIE_NAME): string | null {
  for (const line of res.headers.getSetCookie()) {
    const pair = line.split(";")[0];
    if (pair.startsWith(`${name}=`) && pair.length > name.length + 1) return pair;
  }
  return null;
}

/** Signs `user` in from a browser and returns that browser's device cookie. */
async function browserSignedInAs(t: TestApp, user: TestUser): Promise<string> {
  const res = await login(t, { identifier: user.email, password: user.password });
  await expectJson(res, 200);
  const cookie = deviceCookieFrom(res);
  assert(cookie, "a successful sign-in sets a device cookie");
  return cookie;
}

/**
 * Wrong passwords for `user`, each from another address and none with a device cookie, until
 * the account's limit answers 429 (at most ten attempts count toward it in its window).
 */
async function attackerFails(t: TestApp, user: TestUser): Promise<void> {
  for (let i = 0; i <= 10; i++) {
    const res = await login(t, { identifier: user.email, password: `guess-${i}` });
    await res.body?.cancel();
    if (res.status === 429) return;
    assertEquals(res.status, 401);
  }
  throw new Error("the account's limit never answered 429");
}

async function assertLockedOut(res: Response, message?: string) {
  assertEquals((await expectJson(res, 429)).message, LOCKED, message);
  assert(Number(res.headers.get("retry-after")) > 0);
}

test("[login lockout] strangers' failures lock out a fresh browser, not one that signed in before", async () => {
  const t = await createTestApp({ env: { TRUST_PROXY: "1" } });
  const admin = await createUser(t.sql, { role: "admin" });
  const device = await browserSignedInAs(t, admin);
  await attackerFails(t, admin);

  const fresh = await login(t, { identifier: admin.email, password: admin.password });
  await assertLockedOut(fresh, "a browser without the cookie meets the account's limit");
  assertEquals(sessionCookieFrom(t, fresh), null);

  const known = await login(t, { identifier: admin.email, password: admin.password }, {
    cookie: device,
  });
  assertEquals((await expectJson(known, 200)).id, admin.id);
  assert(sessionCookieFrom(t, known), "signed in");
  const renewed = deviceCookieFrom(known);
  assert(renewed, "the device cookie is renewed at each sign-in");
  assertNotEquals(renewed, device);

  // The renewed cookie works, the one it replaced no longer does.
  const again = await login(t, { identifier: admin.email, password: admin.password }, {
    cookie: renewed,
  });
  assertEquals(again.status, 200);
  await again.body?.cancel();
  const replaced = await login(t, { identifier: admin.email, password: admin.password }, {
    cookie: device,
  });
  await assertLockedOut(replaced);
  t.close();
});

test("[login lockout] the device cookie is httpOnly, SameSite=Strict, sent only to /api/login, for a year", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "client" });
  const res = await login(t, { identifier: user.email, password: user.password });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const line = res.headers.getSetCookie().find((l) => l.startsWith(`${DEVICE_COOKIE_NAME}=`));
  assert(line, "device cookie set");
  assertMatch(line, /^meridian_device=[A-Za-z0-9_-]{43}; /);
  assertMatch(line, /; Max-Age=31536000/);
  assertMatch(line, /; Path=\/api\/login(;|$)/);
  assertMatch(line, /; HttpOnly/);
  assertMatch(line, /; SameSite=Strict/);
  assert(!/; Secure/.test(line), "not Secure over plain http");
  // A failed sign-in earns no cookie.
  const failed = await login(t, { identifier: user.email, password: "wrong-password" });
  assertEquals(failed.status, 401);
  await failed.body?.cancel();
  assertEquals(deviceCookieFrom(failed), null);
  t.close();
});

test("[login lockout] over https the device cookie is __Secure- prefixed, Secure, and honoured", async () => {
  const t = await createTestApp({
    env: { PUBLIC_URL: "https://meridian.example", TRUST_PROXY: "1" },
  });
  const user = await createUser(t.sql, { role: "client" });
  const httpsLogin = (password: string, ip: string, cookie?: string) =>
    t.app.request("https://meridian.example/api/login", {
      method: "POST",
      headers: {
        origin: "https://meridian.example",
        "content-type": "application/json",
        "x-forwarded-for": ip,
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify({ identifier: user.email, password }),
    });
  const res = await httpsLogin(user.password, "192.0.2.1");
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const line = res.headers.getSetCookie().find((l) => l.startsWith(SECURE_DEVICE_COOKIE_NAME));
  assert(line, "device cookie set");
  assertMatch(line, /; Secure/);
  assertMatch(line, /; Path=\/api\/login(;|$)/);
  const device = line.split(";")[0];
  for (let i = 0; i < 10; i++) {
    (await httpsLogin(`guess-${i}`, `198.51.100.${i}`)).body?.cancel();
  }
  const fresh = await httpsLogin(user.password, "203.0.113.1");
  await assertLockedOut(fresh);
  const known = await httpsLogin(user.password, "203.0.113.2", device);
  assertEquals(known.status, 200, "the __Secure- cookie is read back");
  await known.body?.cancel();
  t.close();
});

test("[login lockout] a forged or altered device cookie counts as none", async () => {
  const t = await createTestApp({ env: { TRUST_PROXY: "1" } });
  const user = await createUser(t.sql, { role: "client" });
  const device = await browserSignedInAs(t, user);
  await attackerFails(t, user);
  const value = device.slice(DEVICE_COOKIE_NAME.length + 1);
  const flipped = (value[0] === "A" ? "B" : "A") + value.slice(1);
  const forgeries = [
    flipped,
    "A".repeat(43),
    value + "x",
    value.slice(0, 42),
    "not-a-token",
    "",
  ];
  for (const forged of forgeries) {
    const res = await login(t, { identifier: user.email, password: user.password }, {
      cookie: `${DEVICE_COOKIE_NAME}=${forged}`,
    });
    await assertLockedOut(res, forged);
  }
  const genuine = await login(t, { identifier: user.email, password: user.password }, {
    cookie: device,
  });
  assertEquals(genuine.status, 200, "the genuine cookie still works");
  await genuine.body?.cancel();
  t.close();
});

test("[login lockout] user A's device cookie does not help user B", async () => {
  const t = await createTestApp({ env: { TRUST_PROXY: "1" } });
  const a = await createUser(t.sql, { role: "client" });
  const b = await createUser(t.sql, { role: "client" });
  const devices = { a: await browserSignedInAs(t, a), b: await browserSignedInAs(t, b) };
  await attackerFails(t, b);
  const res = await login(t, { identifier: b.email, password: b.password }, {
    cookie: devices.a,
  });
  await assertLockedOut(res);
  // By username as well as by email, B's own browser is let through.
  const own = await login(t, { identifier: b.username.toUpperCase(), password: b.password }, {
    cookie: devices.b,
  });
  assertEquals((await expectJson(own, 200)).id, b.id);
  t.close();
});

test("[login lockout] failures with a device cookie lock that device out, not the account", async () => {
  const t = await createTestApp({ env: { TRUST_PROXY: "1" } });
  const user = await createUser(t.sql, { role: "client" });
  const device = await browserSignedInAs(t, user);
  for (let i = 0; i < 10; i++) {
    const res = await login(t, { identifier: user.email, password: `guess-${i}` }, {
      cookie: device,
    });
    assertEquals(res.status, 401);
    await res.body?.cancel();
  }
  const locked = await login(t, { identifier: user.email, password: user.password }, {
    cookie: device,
  });
  await assertLockedOut(locked, "the device has used up its attempts");
  const failures = await listAuditEvents(t.sql, { userId: user.id, event: "login_failed" });
  assertEquals(failures.length, 10);
  assert(failures.every((e) => e.details.trustedDevice === true), "recorded as the device's");
  // Its failures were the device's, not the account's: another browser still signs in.
  const other = await login(t, { identifier: user.email, password: user.password });
  assertEquals((await expectJson(other, 200)).id, user.id);
  t.close();
});

test("[login lockout] the per-IP limit still applies to a browser with a device cookie", async () => {
  const t = await createTestApp({ env: { TRUST_PROXY: "1" } });
  const user = await createUser(t.sql, { role: "client" });
  const device = await browserSignedInAs(t, user);
  const ip = "203.0.113.77";
  for (let i = 0; i < 10; i++) {
    const res = await login(t, { identifier: `guess${i}@example.com`, password: "x" }, { ip });
    assertEquals(res.status, 401);
    await res.body?.cancel();
  }
  const res = await login(t, { identifier: user.email, password: user.password }, {
    ip,
    cookie: device,
  });
  await assertLockedOut(res);
  t.close();
});

test("[login lockout] a device cookie that cannot be checked (KV locked) is a 503, not a stranger", async () => {
  const inner = await openKv(":memory:");
  let isLocked = false;
  const t = await createTestApp({
    env: { TRUST_PROXY: "1" },
    deps: {
      kv: faultyKv(inner, (key) => isLocked && key[0] === "device_tokens" ? "locked" : null),
    },
  });
  const user = await createUser(t.sql, { role: "client" });
  const device = await browserSignedInAs(t, user);
  isLocked = true;
  const res = await login(t, { identifier: user.email, password: user.password }, {
    cookie: device,
  });
  assertEquals(res.status, 503);
  assert(Number(res.headers.get("retry-after")) > 0);
  assertEquals(sessionCookieFrom(t, res), null, "no session without the check");
  await res.body?.cancel();
  t.close();
  inner.close();
});
