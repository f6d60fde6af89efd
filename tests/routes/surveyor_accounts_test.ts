import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, createUser, sessionCookieFrom, signIn, signInAs } from "../_auth.ts";
import { countRows, expectJson } from "../_fixtures.ts";
import { findIslandProps, loadPage } from "../_pages.ts";
import { getSurveyor, insertSurveyor, type InsertSurveyorInput } from "../../db/surveyors.ts";
import { getUserByEmail, getUserById } from "../../db/users.ts";
import { listAuditEvents } from "../../db/audit.ts";
import type { Role } from "../../lib/roles.ts";
import type { Surveyor } from "../../lib/surveyor_schema.ts";
import {
  ACCOUNT_DISABLED,
  ALREADY_SIGNED_IN,
  EMAIL_TAKEN,
  NO_ACCOUNT,
  NO_EMAIL,
  NO_SURVEYOR_PROFILE,
  NOT_A_SURVEYOR,
  NOT_LINKED,
  RECORD_ALREADY_LINKED,
  SURVEYOR_NOT_FOUND,
} from "../../routes/surveyor_accounts.ts";
import { makeOlder } from "../_row_order.ts";

/** A record as an admin would have entered it: a prospect with an email and a phone. */
function record(t: TestApp, overrides: Partial<InsertSurveyorInput> = {}): Promise<Surveyor> {
  return insertSurveyor(t.sql, {
    companyName: "Ortiz Land Surveying",
    principalName: "Sam Ortiz",
    email: `sam.${crypto.randomUUID().slice(0, 8)}@ortiz.example`,
    phone: "(512) 555-0142",
    licenseStates: ["TX"],
    city: "Austin",
    state: "TX",
    lat: 30.27,
    lng: -97.74,
    surveyTypes: ["boundary"],
    notes: "Prefers email; slow to answer in August",
    ...overrides,
  });
}

/** The set-password tokens mailed to `to` by invitations, oldest first. */
async function invitationTokens(t: TestApp, to: string): Promise<string[]> {
  const rows = await t.sql<{ text: string; subject: string }[]>`
    select text, subject from email_outbox
    where template = 'surveyor_invitation' and lower(to_address) = lower(${to})
    order by created_at, id`;
  return rows.map((r) => {
    const match = r.text.match(/\/reset-password\?token=([A-Za-z0-9_-]{43})/);
    assert(match, `the invitation carries a set-password link: ${r.text}`);
    return match[1];
  });
}

async function invite(t: TestApp, cookie: string, id: string) {
  return await t.request("POST", `/api/surveyors/${id}/invite`, { cookie });
}

/** Everything an account action may change, to prove a refusal changed nothing. */
async function state(t: TestApp) {
  const surveyors = await t.sql`
    select id, user_id, status, updated_at from surveyors order by id`;
  return {
    surveyors: JSON.stringify(surveyors),
    users: await countRows(t, "users"),
    emails: await countRows(t, "email_outbox"),
    tokens: await countRows(t, "password_reset_tokens"),
    audit: await countRows(t, "audit_log"),
  };
}

// ------------------------------------------------------------------------------ guards

test("[surveyor accounts] admin endpoints refuse signed-out callers and every other role", async () => {
  const t = await createTestApp();
  const target = await record(t);
  const calls: [string, string, unknown?][] = [
    ["POST", `/api/surveyors/${target.id}/invite`],
    ["POST", `/api/surveyors/${target.id}/link-user`, { email: "x@example.test" }],
    ["DELETE", `/api/surveyors/${target.id}/link-user`],
  ];
  const before = await state(t);
  for (const [method, path, body] of calls) {
    const out = await expectJson(await t.request(method, path, { body }), 401);
    assertEquals(out.message, "Authentication required");
    for (const role of ["client", "surveyor", "technician"] as Role[]) {
      const cookie = await signInAs(t, role);
      const res = await t.request(method, path, { cookie, body });
      assertEquals(res.status, 403, `${role} ${method} ${path}`);
    }
  }
  assertEquals((await state(t)).surveyors, before.surveyors);
  assertEquals((await state(t)).emails, 0);
  t.close();
});

test("[surveyor accounts] the own-profile API is for surveyors only", async () => {
  const t = await createTestApp();
  for (const method of ["GET", "PATCH"]) {
    const body = method === "PATCH" ? { serviceRadiusMiles: 20 } : undefined;
    assertEquals((await t.request(method, "/api/surveyor/profile", { body })).status, 401);
    for (const role of ["admin", "client", "technician"] as Role[]) {
      const cookie = await signInAs(t, role);
      const res = await t.request(method, "/api/surveyor/profile", { cookie, body });
      assertEquals(res.status, 403, `${role} ${method}`);
    }
  }
  t.close();
});

// ------------------------------------------------------------------------------ invite

test("[surveyor accounts] inviting creates a linked surveyor account whose emailed link sets a password that signs in", async () => {
  const t = await createTestApp();
  const { user: admin, cookie } = await createSignedInUser(t, { role: "admin" });
  const target = await record(t);

  const out = await expectJson(await invite(t, cookie, target.id), 201);
  assertEquals(
    out.message,
    `The invitation to ${target.email} is queued. No mail server is configured, so it was not sent; open it in Emails to read it and copy its links.`,
  );
  assertEquals(out.email.delivery, "none");
  assertMatch(out.email.href, /^\/admin\/email-outbox\/[0-9a-f-]{36}$/);
  assertEquals(out.surveyor.status, "invited");
  assertEquals(out.account.email, target.email);
  assertEquals(out.account.lastLogin, null);

  const user = await getUserByEmail(t.sql, target.email!);
  assert(user, "the account exists");
  assertEquals(user.role, "surveyor");
  assertEquals(user.fullName, "Sam Ortiz");
  assertEquals(user.companyName, "Ortiz Land Surveying");
  assertEquals(user.phone, "(512) 555-0142");
  assertEquals(out.surveyor.userId, user.id);
  assertEquals((await getSurveyor(t.sql, { id: target.id }))?.userId, user.id);

  // Nobody can sign in before the link is used: the stored password is random.
  const early = await t.request("POST", "/api/login", {
    body: { identifier: target.email, password: "a guessed password" },
  });
  assertEquals(early.status, 401);

  const [token] = await invitationTokens(t, target.email!);
  const [{ subject }] = await t.sql<{ subject: string }[]>`
    select subject from email_outbox where template = 'surveyor_invitation'`;
  assertEquals(subject, "You're invited to join the Meridian surveyor network");
  const [{ days }] = await t.sql<{ days: number }[]>`
    select round(extract(epoch from (expires_at - now())) / 86400)::int as days
    from password_reset_tokens where user_id = ${user.id}`;
  assertEquals(days, 7, "the invitation link lasts a week");

  const verify = await expectJson(
    await t.request("GET", `/api/reset-password/verify?token=${token}`),
    200,
  );
  assertEquals(verify.email, target.email);
  await expectJson(
    await t.request("POST", "/api/reset-password", {
      body: { token, password: "my first password", confirmPassword: "my first password" },
    }),
    200,
  );
  const session = await signIn(t, { identifier: target.email!, password: "my first password" });
  const own = await expectJson(
    await t.request("GET", "/api/surveyor/profile", { cookie: session }),
    200,
  );
  assertEquals(own.surveyor.id, target.id);

  const events = await listAuditEvents(t.sql, { userId: user.id });
  const invited = events.find((e) => e.event === "surveyor_invited");
  assert(invited, "the invitation is audited");
  assertEquals(invited.actorId, admin.id);
  assertEquals(invited.details.surveyorId, target.id);
  assert(events.some((e) => e.event === "user_created"), "the account creation is audited");
  t.close();
});

test("[surveyor accounts] without a principal the account is named after the company, and only a usable phone is copied", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  const target = await record(t, {
    principalName: null,
    phone: "512-555-0100 ext. 4",
    status: "active",
  });
  const out = await expectJson(await invite(t, cookie, target.id), 201);
  assertEquals(out.surveyor.status, "active", "only a prospect becomes invited");
  const user = await getUserByEmail(t.sql, target.email!);
  assertEquals(user?.fullName, "Ortiz Land Surveying");
  assertEquals(user?.phone, null);
  t.close();
});

test("[surveyor accounts] inviting is refused for an unknown record, a record without email, or an email that has an account", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  const noEmail = await record(t, { email: null });
  const taken = await record(t);
  await createUser(t.sql, { role: "client", email: taken.email!.toUpperCase() });
  const before = await state(t);

  const unknown = await expectJson(await invite(t, cookie, crypto.randomUUID()), 404);
  assertEquals(unknown.message, SURVEYOR_NOT_FOUND);
  assertEquals(
    (await expectJson(await invite(t, cookie, "not-an-id"), 404)).message,
    SURVEYOR_NOT_FOUND,
  );
  assertEquals((await expectJson(await invite(t, cookie, noEmail.id), 409)).message, NO_EMAIL);
  assertEquals((await expectJson(await invite(t, cookie, taken.id), 409)).message, EMAIL_TAKEN);
  assertEquals(await state(t), before, "nothing changed");
  t.close();
});

test("[surveyor accounts] re-inviting an unused account sends a fresh link and voids the old one; a used account is refused", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  const target = await record(t);
  await expectJson(await invite(t, cookie, target.id), 201);
  // The first invitation a minute older: two emails in a row can share a timestamp.
  await makeOlder(t.sql, "email_outbox");
  const users = await countRows(t, "users");

  const again = await expectJson(await invite(t, cookie, target.id), 200);
  assertEquals(
    again.message,
    `The invitation to ${target.email} is queued. No mail server is configured, so it was not sent; open it in Emails to read it and copy its links.`,
  );
  assertEquals(await countRows(t, "users"), users, "no second account");
  const [first, second] = await invitationTokens(t, target.email!);
  assert(second && second !== first, "a fresh link");
  const stale = await t.request("POST", "/api/reset-password", {
    body: { token: first, password: "my first password", confirmPassword: "my first password" },
  });
  assertEquals(stale.status, 400, "the older link no longer works");
  await expectJson(
    await t.request("POST", "/api/reset-password", {
      body: { token: second, password: "my first password", confirmPassword: "my first password" },
    }),
    200,
  );
  await signIn(t, { identifier: target.email!, password: "my first password" });

  const before = await state(t);
  const used = await expectJson(await invite(t, cookie, target.id), 409);
  assertEquals(used.message, ALREADY_SIGNED_IN);
  assertEquals(await state(t), before);
  t.close();
});

test("[surveyor accounts] re-inviting a disabled account is refused", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  const target = await record(t);
  const { account } = await expectJson(await invite(t, cookie, target.id), 201);
  await t.sql`update users set disabled_at = now() where id = ${account.id}`;
  const before = await state(t);
  assertEquals(
    (await expectJson(await invite(t, cookie, target.id), 409)).message,
    ACCOUNT_DISABLED,
  );
  assertEquals(await state(t), before);
  t.close();
});

// --------------------------------------------------------------------------- link/unlink

test("[surveyor accounts] an admin links an existing surveyor account and unlinks it", async () => {
  const t = await createTestApp();
  const { user: admin, cookie } = await createSignedInUser(t, { role: "admin" });
  const target = await record(t);
  const surveyor = await createUser(t.sql, { role: "surveyor", email: "pat@survey.example" });
  const path = `/api/surveyors/${target.id}/link-user`;

  const linked = await expectJson(
    await t.request("POST", path, { cookie, body: { email: " PAT@survey.example " } }),
    200,
  );
  assertEquals(linked.message, "Account linked");
  assertEquals(linked.surveyor.userId, surveyor.id);
  assertEquals(linked.surveyor.status, "prospect", "linking leaves the status to the admin");
  assertEquals(linked.account.email, "pat@survey.example");
  assertEquals((await getSurveyor(t.sql, { id: target.id }))?.userId, surveyor.id);
  assertEquals(await countRows(t, "email_outbox"), 0, "linking sends no email");

  const unlinked = await expectJson(await t.request("DELETE", path, { cookie }), 200);
  assertEquals(unlinked.message, "Account unlinked");
  assertEquals(unlinked.surveyor.userId, null);
  assertEquals((await getSurveyor(t.sql, { id: target.id }))?.userId, null);
  assert(await getUserById(t.sql, surveyor.id), "the account itself stays");

  const events = (await listAuditEvents(t.sql, { userId: surveyor.id })).map((e) => e.event);
  assertEquals(events, ["surveyor_account_unlinked", "surveyor_account_linked"]);
  const [event] = await listAuditEvents(t.sql, { userId: surveyor.id, limit: 1 });
  assertEquals(event.actorId, admin.id);

  const again = await expectJson(await t.request("DELETE", path, { cookie }), 409);
  assertEquals(again.message, NOT_LINKED);
  t.close();
});

test("[surveyor accounts] linking refuses an unknown email, another role, an account linked elsewhere and a record already linked", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  const target = await record(t);
  const other = await record(t, { companyName: "Other Firm" });
  const client = await createUser(t.sql, { role: "client" });
  const elsewhere = await createUser(t.sql, { role: "surveyor" });
  await t.sql`update surveyors set user_id = ${elsewhere.id} where id = ${other.id}`;
  const link = (id: string, email: string) =>
    t.request("POST", `/api/surveyors/${id}/link-user`, { cookie, body: { email } });
  const before = await state(t);

  assertEquals(
    (await expectJson(await link(target.id, "nobody@example.test"), 404)).message,
    NO_ACCOUNT,
  );
  assertEquals(
    (await expectJson(await link(target.id, client.email), 409)).message,
    NOT_A_SURVEYOR,
  );
  assertEquals(
    (await expectJson(await link(target.id, elsewhere.email), 409)).message,
    "This account is already linked to another surveyor record",
  );
  const free = await createUser(t.sql, { role: "surveyor" });
  const beforeFree = await state(t);
  assertEquals(
    (await expectJson(await link(other.id, free.email), 409)).message,
    RECORD_ALREADY_LINKED,
  );
  assertEquals(
    (await expectJson(await link(crypto.randomUUID(), free.email), 404)).message,
    SURVEYOR_NOT_FOUND,
  );
  const bad = await expectJson(await link(target.id, "not an email"), 400);
  assertEquals(bad.message, "Enter a valid email address");
  assertEquals((await state(t)).surveyors, before.surveyors, "no record changed");
  assertEquals(await state(t), beforeFree);
  t.close();
});

test("[surveyor accounts] unlinking an account that never signed in voids its invitation link", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  const target = await record(t);
  await expectJson(await invite(t, cookie, target.id), 201);
  const [token] = await invitationTokens(t, target.email!);
  await expectJson(
    await t.request("DELETE", `/api/surveyors/${target.id}/link-user`, { cookie }),
    200,
  );
  const res = await t.request("POST", "/api/reset-password", {
    body: { token, password: "my first password", confirmPassword: "my first password" },
  });
  assertEquals(res.status, 400);
  t.close();
});

// ------------------------------------------------------------------------ own profile

test("[surveyor accounts] a surveyor without a record is told so, and PATCH changes nothing", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "surveyor");
  const other = await record(t);
  const get = await expectJson(await t.request("GET", "/api/surveyor/profile", { cookie }), 404);
  assertEquals(get.message, NO_SURVEYOR_PROFILE);
  const before = await state(t);
  const patch = await expectJson(
    await t.request("PATCH", "/api/surveyor/profile", { cookie, body: { serviceRadiusMiles: 20 } }),
    404,
  );
  assertEquals(patch.message, NO_SURVEYOR_PROFILE);
  assertEquals(await state(t), before);
  assertEquals((await getSurveyor(t.sql, { id: other.id }))?.serviceRadiusMiles, 50);
  t.close();
});

test("[surveyor accounts] a surveyor reads their own record without the admin's notes", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "surveyor" });
  const own = await record(t, { userId: user.id, inNetwork: true, status: "active" });
  const res = await t.request("GET", "/api/surveyor/profile", { cookie });
  const out = await expectJson(res, 200);
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  assertEquals(out.surveyor.id, own.id);
  assertEquals(out.surveyor.companyName, "Ortiz Land Surveying");
  assertEquals(out.surveyor.status, "active");
  assertEquals(out.surveyor.inNetwork, true);
  assertEquals(out.surveyor.lat, 30.27);
  for (const hidden of ["notes", "contacts", "placeId", "source", "userId", "rating"]) {
    assert(!(hidden in out.surveyor), `${hidden} is not shown to the surveyor`);
  }
  assert(!JSON.stringify(out).includes("August"), "no admin notes");
  t.close();
});

test("[surveyor accounts] a surveyor saves their coverage and company details, and only their own record changes", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "surveyor" });
  const own = await record(t, { userId: user.id });
  const other = await record(t, { companyName: "Other Firm" });
  const update = {
    companyName: "Ortiz & Daughters Surveying",
    principalName: "Ana Ortiz",
    licenseNumber: "RPLS 6120",
    licenseStates: ["TX", "OK"],
    phone: "(512) 555-0199",
    website: "https://ortiz.example",
    address: "500 W 2nd St, Austin, TX 78701, USA",
    city: "Austin",
    state: "TX",
    zip: "78701",
    lat: 30.2655,
    lng: -97.7475,
    serviceRadiusMiles: 120,
    surveyTypes: ["boundary", "topographic", "alta"],
  };
  const out = await expectJson(
    await t.request("PATCH", "/api/surveyor/profile", { cookie, body: update }),
    200,
  );
  assertEquals(out.message, "Coverage saved");
  const stored = await getSurveyor(t.sql, { id: own.id });
  for (const [key, value] of Object.entries(update)) {
    assertEquals(stored?.[key as keyof Surveyor], value, key);
    assertEquals(out.surveyor[key], value, `response ${key}`);
  }
  assertEquals(stored?.notes, own.notes, "the admin's notes are kept");
  assertEquals(stored?.status, "prospect");
  assertEquals(await getSurveyor(t.sql, { id: other.id }), other, "another record is untouched");

  // An emptied optional field is cleared.
  const cleared = await expectJson(
    await t.request("PATCH", "/api/surveyor/profile", { cookie, body: { website: "" } }),
    200,
  );
  assertEquals(cleared.surveyor.website, null);
  t.close();
});

test("[surveyor accounts] a surveyor cannot set status, network, rating, notes or email, and bad values change nothing", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "surveyor" });
  const own = await record(t, { userId: user.id });
  const patch = (body: unknown) => t.request("PATCH", "/api/surveyor/profile", { cookie, body });
  const forbidden = [
    { status: "active" },
    { inNetwork: true },
    { serviceRadiusMiles: 60, inNetwork: true },
    { rating: 5 },
    { reviewCount: 300 },
    { notes: "great" },
    { email: "me@elsewhere.example" },
    { userId: crypto.randomUUID() },
    { id: crypto.randomUUID(), serviceRadiusMiles: 60 },
  ];
  for (const body of forbidden) {
    const out = await expectJson(await patch(body), 400);
    assertMatch(
      out.message,
      /^(Only Meridian can change these fields|Unknown field)/,
      JSON.stringify(body),
    );
  }
  const status = await expectJson(await patch({ status: "active", inNetwork: true }), 400);
  assertEquals(status.message, "Only Meridian can change these fields: status, inNetwork");

  const invalid: [unknown, string, string][] = [
    [{ serviceRadiusMiles: -5 }, "serviceRadiusMiles", "Service radius must be at least 1 mile"],
    [
      { serviceRadiusMiles: 1000 },
      "serviceRadiusMiles",
      "Service radius must be at most 300 miles",
    ],
    [{ licenseStates: ["ZZ"] }, "licenseStates.0", "Unknown state"],
    [{ surveyTypes: ["treasure"] }, "surveyTypes.0", "Unknown survey type"],
    [{ lat: 30.1 }, "lat", "Give both latitude and longitude, or neither"],
    [{ companyName: "" }, "companyName", "Company name is required"],
    [{}, "_", "Nothing to update"],
  ];
  for (const [body, field, message] of invalid) {
    const out = await expectJson(await patch(body), 400);
    assertEquals(out.errors[field], message, JSON.stringify(body));
  }
  assertEquals(await getSurveyor(t.sql, { id: own.id }), own, "nothing changed");
  t.close();
});

test("[surveyor accounts] the invitation email names the company and says how long the link lasts", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  const target = await record(t);
  await expectJson(await invite(t, cookie, target.id), 201);
  const [{ text, html }] = await t.sql<{ text: string; html: string }[]>`
    select text, html from email_outbox where template = 'surveyor_invitation'`;
  assertStringIncludes(text, "Hi Sam Ortiz,");
  assertStringIncludes(text, "Ortiz Land Surveying");
  assertStringIncludes(text, "expires in 7 days");
  assertMatch(html, /href="http:\/\/localhost\/reset-password\?token=[A-Za-z0-9_-]{43}"/);
  t.close();
});

test("[surveyor accounts] two admins inviting the same record at once make one account", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  const target = await record(t);
  const users = await countRows(t, "users");
  const answers = await Promise.all([invite(t, cookie, target.id), invite(t, cookie, target.id)]);
  assertEquals(answers.map((r) => r.status).sort(), [200, 201]);
  assertEquals(await countRows(t, "users"), users + 1);
  const linked = await getSurveyor(t.sql, { id: target.id });
  assertEquals(linked?.userId, (await getUserByEmail(t.sql, target.email!))?.id);
  t.close();
});

// ------------------------------------------------------------------------------ pages

test("[surveyor accounts] /profile shows a surveyor their coverage form, or how to get a record; the dashboard links to it", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "surveyor" });
  for (const path of ["/surveyor-dashboard", "/profile"]) {
    const { res, html } = await loadPage(t, path, cookie);
    assertEquals(res.status, 200, path);
    assertStringIncludes(html, "Your surveyor profile is not set up yet.", path);
    assertEquals(findIslandProps(html, "SurveyorCoverageForm"), undefined, path);
  }
  const { html: unset } = await loadPage(t, "/profile", cookie);
  assertStringIncludes(unset, "Your coverage");
  assertStringIncludes(unset, 'href="/support/contact"', "how to get a record");
  const own = await record(t, { userId: user.id });
  const { html: profile } = await loadPage(t, "/profile", cookie);
  const props = findIslandProps(profile, "SurveyorCoverageForm") as {
    profile: Record<string, unknown>;
  };
  assertEquals(props.profile.id, own.id);
  assert(!profile.includes("August"), "/profile never shows the admin's notes");
  // The dashboard keeps to what changed (issue 21): the form is a link away.
  const { html: dashboard } = await loadPage(t, "/surveyor-dashboard", cookie);
  assertEquals(findIslandProps(dashboard, "SurveyorCoverageForm"), undefined);
  assertStringIncludes(dashboard, 'href="/profile#coverage-heading"');
  assert(!dashboard.includes("August"), "the dashboard never shows the admin's notes");
  const client = await signInAs(t, "client");
  const { html } = await loadPage(t, "/profile", client);
  assert(!html.includes("Your coverage"), "other roles have no coverage card");
  t.close();
});

test("[surveyor accounts] the invitation link reads 'Choose your password' and signs the surveyor in, with no 'password changed' email", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  const target = await record(t);
  await expectJson(await invite(t, cookie, target.id), 201);
  const [token] = await invitationTokens(t, target.email!);
  const html = await (await t.request("GET", `/reset-password?token=${token}`)).text();
  assertMatch(html, /<title>Choose your password \| Meridian<\/title>/);
  const res = await t.request("POST", "/api/reset-password", {
    body: { token, password: "my first password", confirmPassword: "my first password" },
  });
  const body = await expectJson(res, 200);
  assertEquals(body.redirectTo, "/surveyor-dashboard");
  const session = sessionCookieFrom(t, res);
  assert(session, "signed in");
  const own = await expectJson(
    await t.request("GET", "/api/surveyor/profile", { cookie: session }),
    200,
  );
  assertEquals(own.surveyor.id, target.id);
  const changed = await t.sql`select 1 from email_outbox where template = 'password_changed'`;
  assertEquals(changed.length, 0, "no 'password changed' email");
  t.close();
});
