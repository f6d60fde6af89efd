/**
 * Sign in with Google (routes/oauth.tsx) against a local fake OAuth/OIDC server
 * (tests/_google_fake.ts): the whole redirect dance through the real app, state and PKCE
 * included, with what a person notices: where they land, whether they are signed in and as
 * whom, and what the error page says.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, ORIGIN, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, createUser, sessionCookieFrom, sessionFor } from "../_auth.ts";
import { type FakeGoogle, startFakeGoogle } from "../_google_fake.ts";
import { GOOGLE_SIGN_IN_MESSAGES, GOOGLE_UNLINK_MESSAGES } from "../../routes/oauth.tsx";
import { GOOGLE_STATE_TTL_MS, saveGoogleSignInState } from "../../lib/oauth/google.ts";
import { disableUser, updateUserPassword } from "../../db/users.ts";
import { cachedHash } from "../_auth.ts";

interface Started {
  /** The fake's authorization URL the app redirected to. */
  location: string;
  /** The state cookie (`name=value`) the app set for this browser. */
  stateCookie: string;
  state: string;
}

async function setup(): Promise<{ t: TestApp; google: FakeGoogle }> {
  const google = startFakeGoogle();
  const t = await createTestApp({ env: google.env });
  return { t, google };
}

async function teardown({ t, google }: { t: TestApp; google: FakeGoogle }) {
  t.close();
  await google.close();
}

async function start(t: TestApp, returnTo?: string, cookie?: string): Promise<Started> {
  const query = returnTo === undefined ? "" : `?returnTo=${encodeURIComponent(returnTo)}`;
  const res = await t.request("GET", `/auth/google${query}`, {
    cookie,
    headers: { accept: "text/html" },
  });
  await res.body?.cancel();
  assertEquals(res.status, 302);
  const location = res.headers.get("location")!;
  const cookieLine = res.headers.getSetCookie().find((l) => l.startsWith("meridian_google_state="));
  assert(cookieLine, "the state cookie is set");
  assertStringIncludes(cookieLine, "HttpOnly");
  assertStringIncludes(cookieLine, "SameSite=Lax");
  const stateCookie = cookieLine.split(";")[0];
  return { location, stateCookie, state: new URL(location).searchParams.get("state")! };
}

function callback(t: TestApp, path: string, cookies: (string | undefined)[]) {
  return t.request("GET", path, {
    cookie: cookies.filter(Boolean).join("; ") || undefined,
    headers: { accept: "text/html" },
  });
}

/** Start, approve at the fake Google, come back: the callback's response. */
async function signInWithGoogle(
  t: TestApp,
  google: FakeGoogle,
  { returnTo, cookie }: { returnTo?: string; cookie?: string } = {},
): Promise<Response> {
  const started = await start(t, returnTo, cookie);
  const back = await google.approve(started.location);
  return await callback(t, back, [started.stateCookie, cookie]);
}

async function whoAmI(t: TestApp, cookie: string | null) {
  const res = await t.request("GET", "/api/user", { cookie: cookie ?? undefined });
  const body = await res.json();
  return res.status === 200 ? body as { id: string; email: string; role: string } : null;
}

async function countUsers(t: TestApp, email: string): Promise<number> {
  const [{ n }] = await t.sql<{ n: number }[]>`
    select count(*)::int as n from users where lower(email) = lower(${email})`;
  return n;
}

async function links(t: TestApp) {
  return [
    ...await t.sql<{ userId: string; subject: string; email: string }[]>`
    select user_id, subject, email from google_accounts order by linked_at`,
  ];
}

test("[google] not configured: no button on /auth or in the request flow, and /auth/google is a 404", async () => {
  const t = await createTestApp();
  const page = await (await t.request("GET", "/auth", { headers: { accept: "text/html" } }))
    .text();
  assert(!page.includes("Continue with Google"), "no Google button");
  const flow = await (await t.request("GET", "/create-survey")).text();
  assertStringIncludes(flow, `"hasGoogleSignIn":false`);
  for (const path of ["/auth/google", "/auth/google/callback?state=x&code=y"]) {
    const res = await t.request("GET", path, { headers: { accept: "text/html" } });
    assertEquals(res.status, 404, path);
    await res.body?.cancel();
  }
  t.close();
});

test("[google] configured: /auth shows 'Continue with Google', a plain link carrying returnTo; the request flow offers it", async () => {
  const ctx = await setup();
  const { t } = ctx;
  const res = await t.request("GET", "/auth?returnTo=%2Fclient%2Fsurveys", {
    headers: { accept: "text/html" },
  });
  const page = await res.text();
  assertStringIncludes(page, "Continue with Google");
  assertStringIncludes(page, 'href="/auth/google?returnTo=%2Fclient%2Fsurveys"');
  const flow = await (await t.request("GET", "/create-survey")).text();
  assertStringIncludes(flow, `"hasGoogleSignIn":true`);
  await teardown(ctx);
});

test("[google] a new Google user gets a client account, is signed in with a fresh session cookie and lands on their dashboard", async () => {
  const ctx = await setup();
  const { t, google } = ctx;
  google.next = {
    sub: "g-new-1",
    email: "New.Person@gmail.test",
    email_verified: true,
    name: "New Person",
  };
  const res = await signInWithGoogle(t, google);
  await res.body?.cancel();
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), "/client-dashboard");
  const line = res.headers.getSetCookie().find((l) => l.startsWith("meridian_session="));
  assert(line, "a session cookie");
  assertStringIncludes(line, "HttpOnly");
  assertStringIncludes(line, "SameSite=Lax");
  const me = await whoAmI(t, sessionCookieFrom(t, res));
  assertEquals(me?.email, "New.Person@gmail.test");
  assertEquals(me?.role, "client");
  const [user] = await t.sql<{ fullName: string; lastLogin: Date | null }[]>`
    select full_name, last_login from users where id = ${me!.id}`;
  assertEquals(user.fullName, "New Person");
  assert(user.lastLogin, "last login recorded");
  assertEquals((await links(t)).map((l) => [l.userId, l.subject]), [[me!.id, "g-new-1"]]);
  // PKCE and the client secret went to the token endpoint (the fake checks both).
  assertEquals(google.tokenRequests, 1);
  const auth = google.authorizations[0];
  assertEquals(auth.searchParams.get("code_challenge_method"), "S256");
  assertEquals(auth.searchParams.get("redirect_uri"), `${ORIGIN}/auth/google/callback`);
  // The state itself never sits in KV, only its hash, and it is gone once used.
  const left = [];
  for await (const entry of t.kv.list({ prefix: ["oauth_states"] })) left.push(entry);
  assertEquals(left.length, 0);
  // The next sign-in with the same Google account is the same user, not a second account.
  const again = await signInWithGoogle(t, google);
  await again.body?.cancel();
  assertEquals((await whoAmI(t, sessionCookieFrom(t, again)))?.id, me!.id);
  assertEquals(await countUsers(t, "new.person@gmail.test"), 1);
  await teardown(ctx);
});

test("[google] the sign-in rotates the session: the browser's old session ends", async () => {
  const ctx = await setup();
  const { t, google } = ctx;
  const started = await start(t);
  // Meanwhile this browser holds someone else's session (e.g. a shared computer).
  const other = await createSignedInUser(t, { role: "client" });
  google.next = { sub: "g-rot", email: "rotate@gmail.test", email_verified: true };
  const back = await google.approve(started.location);
  const res = await callback(t, back, [started.stateCookie, other.cookie]);
  await res.body?.cancel();
  assertEquals(res.status, 302);
  const fresh = sessionCookieFrom(t, res);
  assert(fresh && fresh !== other.cookie, "a new session id");
  assertEquals((await whoAmI(t, fresh))?.email, "rotate@gmail.test");
  assertEquals(await whoAmI(t, other.cookie), null, "the old session no longer works");
  await teardown(ctx);
});

test("[google] a wrong state, or a right state from another browser, is refused before the token endpoint", async () => {
  const ctx = await setup();
  const { t, google } = ctx;
  const started = await start(t);
  const back = new URL(await google.approve(started.location), ORIGIN);
  const wrong = new URL(back);
  wrong.searchParams.set("state", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
  const res = await callback(t, wrong.pathname + wrong.search, [started.stateCookie]);
  assertEquals(res.status, 400);
  assertStringIncludes(await res.text(), GOOGLE_SIGN_IN_MESSAGES.state.replace("'", "&#x27;"));
  assertEquals(sessionCookieFrom(t, res), null);
  // The real state but not this browser's cookie (a callback link someone else made).
  const started2 = await start(t);
  const back2 = await google.approve(started2.location);
  const csrf = await callback(t, back2, []);
  assertEquals(csrf.status, 400);
  await csrf.body?.cancel();
  assertEquals(sessionCookieFrom(t, csrf), null);
  assertEquals(google.tokenRequests, 0);
  assertEquals(await countUsers(t, google.next.email), 0);
  await teardown(ctx);
});

test("[google] a replayed callback is refused: the state is used once", async () => {
  const ctx = await setup();
  const { t, google } = ctx;
  google.next = { sub: "g-replay", email: "replay@gmail.test", email_verified: true };
  const started = await start(t);
  const back = await google.approve(started.location);
  const first = await callback(t, back, [started.stateCookie]);
  await first.body?.cancel();
  assertEquals(first.status, 302);
  const replay = await callback(t, back, [started.stateCookie]);
  assertEquals(replay.status, 400);
  assertStringIncludes(await replay.text(), "expired or was already used");
  assertEquals(sessionCookieFrom(t, replay), null);
  assertEquals(google.tokenRequests, 1);
  await teardown(ctx);
});

test("[google] a state older than 10 minutes is refused", async () => {
  const ctx = await setup();
  const { t, google } = ctx;
  const state = "ExpiredStateExpiredStateExpired1";
  await saveGoogleSignInState(t.kv, {
    state,
    codeVerifier: "verifier-verifier-verifier-verifier-verifier",
    returnTo: null,
    now: Date.now() - GOOGLE_STATE_TTL_MS - 60_000,
  });
  const res = await callback(t, `/auth/google/callback?state=${state}&code=whatever`, [
    `meridian_google_state=${state}`,
  ]);
  assertEquals(res.status, 400);
  assertStringIncludes(await res.text(), "expired or was already used");
  assertEquals(google.tokenRequests, 0);
  await teardown(ctx);
});

test("[google] a code issued for another sign-in fails PKCE at the token endpoint", async () => {
  const ctx = await setup();
  const { t, google } = ctx;
  const a = await start(t);
  const b = await start(t);
  const codeA = new URL(await google.approve(a.location), ORIGIN).searchParams.get("code")!;
  const res = await callback(
    t,
    `/auth/google/callback?state=${b.state}&code=${encodeURIComponent(codeA)}`,
    [b.stateCookie],
  );
  assertEquals(res.status, 400);
  assertStringIncludes(await res.text(), "Google could not confirm your sign-in");
  assertEquals(sessionCookieFrom(t, res), null);
  assertEquals(await countUsers(t, google.next.email), 0);
  await teardown(ctx);
});

test("[google] an unverified email is refused and creates nothing", async () => {
  const ctx = await setup();
  const { t, google } = ctx;
  google.next = { sub: "g-unv", email: "unverified@gmail.test", email_verified: false };
  const res = await signInWithGoogle(t, google);
  assertEquals(res.status, 403);
  assertStringIncludes(await res.text(), "email address is not verified");
  assertEquals(sessionCookieFrom(t, res), null);
  assertEquals(await countUsers(t, "unverified@gmail.test"), 0);
  assertEquals(await links(t), []);
  await teardown(ctx);
});

test("[google] an ID token with the wrong issuer, audience or an expiry in the past is refused", async () => {
  const ctx = await setup();
  const { t, google } = ctx;
  const base = { sub: "g-claims", email: "claims@gmail.test", email_verified: true };
  for (
    const bad of [
      { iss: "https://evil.example" },
      { aud: "someone-else.apps.googleusercontent.com" },
      { exp: Math.floor(Date.now() / 1000) - 10 },
    ]
  ) {
    google.next = { ...base, ...bad };
    const res = await signInWithGoogle(t, google);
    assertEquals(res.status, 400, JSON.stringify(bad));
    assertStringIncludes(await res.text(), "Google could not confirm your sign-in");
    assertEquals(sessionCookieFrom(t, res), null);
  }
  assertEquals(await countUsers(t, "claims@gmail.test"), 0);
  await teardown(ctx);
});

test("[google] the email of an existing user links the Google account and signs in as them", async () => {
  const ctx = await setup();
  const { t, google } = ctx;
  const surveyor = await createUser(t.sql, { role: "surveyor", email: "firm@survey.test" });
  google.next = { sub: "g-firm", email: "Firm@Survey.test", email_verified: true };
  const res = await signInWithGoogle(t, google, { returnTo: "/surveyor/leads" });
  await res.body?.cancel();
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), "/surveyor/leads");
  const me = await whoAmI(t, sessionCookieFrom(t, res));
  assertEquals(me?.id, surveyor.id);
  assertEquals(me?.role, "surveyor");
  assertEquals((await links(t)).map((l) => [l.userId, l.subject]), [[surveyor.id, "g-firm"]]);
  // Their password still works, and /profile shows the link with Remove (they have one).
  const profile = await (await t.request("GET", "/profile", {
    cookie: sessionCookieFrom(t, res)!,
  })).text();
  assertStringIncludes(profile, "Google sign-in");
  assertStringIncludes(profile, "Firm@Survey.test");
  assertStringIncludes(profile, ">Remove</button>");
  // Later the Google account's email changes: it is still the same person, by subject.
  google.next = { sub: "g-firm", email: "renamed@gmail.test", email_verified: true };
  const later = await signInWithGoogle(t, google);
  await later.body?.cancel();
  assertEquals((await whoAmI(t, sessionCookieFrom(t, later)))?.id, surveyor.id);
  assertEquals((await links(t))[0].email, "renamed@gmail.test");
  await teardown(ctx);
});

test("[google] a disabled user stays out", async () => {
  const ctx = await setup();
  const { t, google } = ctx;
  const user = await createUser(t.sql, { role: "client", email: "gone@gmail.test" });
  await disableUser(t.sql, { id: user.id });
  google.next = { sub: "g-gone", email: "gone@gmail.test", email_verified: true };
  const res = await signInWithGoogle(t, google);
  assertEquals(res.status, 403);
  assertStringIncludes(await res.text(), "This account has been disabled");
  assertEquals(sessionCookieFrom(t, res), null);
  assertEquals(await links(t), []);
  const [audit] = await t.sql<{ details: Record<string, string> }[]>`
    select details from audit_log where event = 'login_failed' and target_id = ${user.id}`;
  assertEquals(audit.details, { reason: "disabled", method: "google" });
  await teardown(ctx);
});

test("[google] an admin account never signs in by Google alone", async () => {
  const ctx = await setup();
  const { t, google } = ctx;
  await createUser(t.sql, { role: "admin", email: "boss@meridian.test" });
  google.next = { sub: "g-boss", email: "boss@meridian.test", email_verified: true };
  const res = await signInWithGoogle(t, google, { returnTo: "/admin-dashboard" });
  assertEquals(res.status, 403);
  const page = await res.text();
  assertStringIncludes(page, "Admin accounts sign in with their password.");
  // The way back keeps where they were going.
  assertStringIncludes(page, 'href="/auth?returnTo=%2Fadmin-dashboard"');
  assertEquals(sessionCookieFrom(t, res), null);
  assertEquals(await links(t), []);
  await teardown(ctx);
});

test("[google] a user linked to another Google account is not relinked to a second one", async () => {
  const ctx = await setup();
  const { t, google } = ctx;
  const user = await createUser(t.sql, { role: "client", email: "one@gmail.test" });
  google.next = { sub: "g-one", email: "one@gmail.test", email_verified: true };
  await (await signInWithGoogle(t, google)).body?.cancel();
  google.next = { sub: "g-two", email: "one@gmail.test", email_verified: true };
  const res = await signInWithGoogle(t, google);
  assertEquals(res.status, 409);
  assertStringIncludes(await res.text(), "already linked to a different Google account");
  assertEquals((await links(t)).map((l) => [l.userId, l.subject]), [[user.id, "g-one"]]);
  await teardown(ctx);
});

test("[google] returnTo is honoured by the password sign-in's rules and sanitised", async () => {
  const ctx = await setup();
  const { t, google } = ctx;
  const cases: [string, string][] = [
    ["/client/surveys?page=2", "/client/surveys?page=2"],
    ["//evil.example/x", "/client-dashboard"],
    ["https://evil.example/", "/client-dashboard"],
    ["/\\evil.example", "/client-dashboard"],
    ["/surveyor/leads", "/client-dashboard"],
    // The request flow: a password sign-in there is inline; Google brings the visitor back.
    ["/create-survey", "/create-survey"],
  ];
  let n = 0;
  for (const [returnTo, expected] of cases) {
    google.next = { sub: `g-rt-${++n}`, email: `rt${n}@gmail.test`, email_verified: true };
    const res = await signInWithGoogle(t, google, { returnTo });
    await res.body?.cancel();
    assertEquals(res.status, 302, returnTo);
    assertEquals(res.headers.get("location"), expected, returnTo);
  }
  // Signed in already, /auth/google goes where /auth would.
  const { cookie } = await createSignedInUser(t, { role: "client" });
  const res = await t.request("GET", "/auth/google?returnTo=%2Fclient%2Fx", { cookie });
  await res.body?.cancel();
  assertEquals(res.headers.get("location"), "/client/x");
  await teardown(ctx);
});

test("[google] Google's 'access denied' (the user cancelled) says so", async () => {
  const ctx = await setup();
  const { t } = ctx;
  const started = await start(t, "/client/surveys");
  const res = await callback(
    t,
    `/auth/google/callback?state=${started.state}&error=access_denied`,
    [started.stateCookie],
  );
  assertEquals(res.status, 400);
  const page = await res.text();
  assertStringIncludes(page, "Google sign-in was cancelled");
  assertStringIncludes(page, 'href="/auth?returnTo=%2Fclient%2Fsurveys"');
  await teardown(ctx);
});

test("[google] starting sign-ins is rate limited per IP", async () => {
  const google = startFakeGoogle();
  const t = await createTestApp({ env: { ...google.env, TRUST_PROXY: "1" } });
  const headers = { "x-forwarded-for": "203.0.113.9", accept: "text/html" };
  for (let i = 0; i < 30; i++) {
    const res = await t.request("GET", "/auth/google", { headers });
    await res.body?.cancel();
    assertEquals(res.status, 302);
  }
  const res = await t.request("GET", "/auth/google", { headers });
  assertEquals(res.status, 429);
  assertMatch(res.headers.get("retry-after") ?? "", /^\d+$/);
  assertStringIncludes(await res.text(), "Too many sign-in attempts");
  await teardown({ t, google });
});

test("[google] profile: a user with a password removes the link; one created by Google must set a password first", async () => {
  const ctx = await setup();
  const { t, google } = ctx;
  // Created by Google: no password of their own.
  google.next = { sub: "g-only", email: "only@gmail.test", email_verified: true };
  const res = await signInWithGoogle(t, google);
  await res.body?.cancel();
  const cookie = sessionCookieFrom(t, res)!;
  const me = (await whoAmI(t, cookie))!;
  let profile = await (await t.request("GET", "/profile", { cookie })).text();
  assertStringIncludes(profile, "has no password yet");
  assert(!profile.includes(">Remove</button>"), "no Remove without a password");
  const refused = await t.request("DELETE", "/api/user/google", { cookie });
  assertEquals(refused.status, 409);
  assertEquals((await refused.json()).message, GOOGLE_UNLINK_MESSAGES.noPassword);
  assertEquals((await links(t)).length, 1);
  // A password set (as the reset link does) makes the link removable.
  await updateUserPassword(t.sql, { id: me.id, passwordHash: await cachedHash("new pass 123") });
  profile = await (await t.request("GET", "/profile", { cookie })).text();
  assertStringIncludes(profile, ">Remove</button>");
  const removed = await t.request("DELETE", "/api/user/google", { cookie });
  assertEquals(removed.status, 200);
  assertEquals((await removed.json()).message, GOOGLE_UNLINK_MESSAGES.removed);
  assertEquals(await links(t), []);
  profile = await (await t.request("GET", "/profile", { cookie })).text();
  assert(!profile.includes("Google sign-in"), "the card is gone");
  const again = await t.request("DELETE", "/api/user/google", { cookie });
  assertEquals(again.status, 404);
  await again.body?.cancel();
  const [audit] = await t.sql<{ n: number }[]>`
    select count(*)::int as n from audit_log
    where event = 'google_account_unlinked' and target_id = ${me.id}`;
  assertEquals(audit.n, 1);
  await teardown(ctx);
});

test("[google] profile: an impersonating admin cannot remove the user's Google account", async () => {
  const ctx = await setup();
  const { t, google } = ctx;
  const user = await createUser(t.sql, { role: "client", email: "imp@gmail.test" });
  google.next = { sub: "g-imp", email: "imp@gmail.test", email_verified: true };
  await (await signInWithGoogle(t, google)).body?.cancel();
  const admin = await createUser(t.sql, { role: "admin" });
  const cookie = await sessionFor(t, user, { impersonatorId: admin.id });
  const res = await t.request("DELETE", "/api/user/google", { cookie });
  assertEquals(res.status, 403);
  await res.body?.cancel();
  assertEquals((await links(t)).length, 1);
  await teardown(ctx);
});
