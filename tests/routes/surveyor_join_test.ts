/**
 * Joining from an invitation and the licence check: the join link in the prospect's lead
 * invitation (made by notify-surveyors) opens /surveyor/claim prefilled from the record;
 * POST /api/surveyor/join creates the account, links it, puts the record in pending, tells the
 * admins and opens a session; used, expired, unknown and taken cases create nothing;
 * POST /api/surveyors/{id}/verify (admins only) makes a pending record active.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, createUser, sessionCookieFrom, signInAs } from "../_auth.ts";
import { countRows, expectJson, submitSurvey } from "../_fixtures.ts";
import { assertHtml, islandProps, loadPage } from "../_pages.ts";
import { insertSurveyor } from "../../db/surveyors.ts";
import {
  CLAIM_LINK_MESSAGES,
  EMAIL_TAKEN_MESSAGE,
  WELCOME_MESSAGE,
} from "../../routes/surveyor_join.tsx";
import type { SurveyorJoinFormProps } from "../../islands/SurveyorJoinForm.tsx";
import type { Role } from "../../lib/roles.ts";

const PROSPECT_EMAIL = "office@prospect-surveys.example";

/**
 * A survey dispatched by the admin: one in-network surveyor notified, one prospect (with an
 * email, no account) invited with its own join link.
 */
async function setup(t: TestApp, prospect: { email?: string | null } = {}) {
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const client = await createSignedInUser(t, { role: "client" });
  const survey = await submitSurvey(t, client.cookie);
  const near = { lat: 30.3, lng: -97.76, licenseStates: ["TX" as const] };
  await insertSurveyor(t.sql, {
    companyName: "Network Surveying",
    email: "network@surveying.example",
    ...near,
    surveyTypes: ["boundary"],
    status: "active",
    inNetwork: true,
  });
  const record = await insertSurveyor(t.sql, {
    companyName: "Prospect Land Surveys",
    principalName: "Pat Prospect",
    email: PROSPECT_EMAIL,
    phone: "(512) 555-0123",
    ...near,
    surveyTypes: ["boundary"],
    source: "place",
    placeId: "place-prospect-1",
  });
  const res = await t.request("POST", `/api/surveys/${survey.id}/notify-surveyors`, {
    cookie: admin.cookie,
  });
  const notified = await expectJson(res, 200);
  assertEquals(notified.invited, 1);
  if (prospect.email !== undefined) {
    await t.sql`update surveyors set email = ${prospect.email} where id = ${record.id}`;
  }
  return { admin, client, survey, record, leadId: notified.leadId as string };
}

/** The join link of the invitation email to `to`, as the recipient would click it. */
async function joinLink(t: TestApp, to = PROSPECT_EMAIL) {
  const [email] = await t.sql<{ html: string; text: string }[]>`
    select html, text from email_outbox
    where template = 'lead_invitation' and to_address = ${to}`;
  assert(email, `no invitation to ${to}`);
  const match = email.html.match(
    /href="http:\/\/localhost(\/surveyor\/claim\?token=([A-Za-z0-9_-]{43}))"/,
  );
  assert(match, "the invitation has a join link");
  assertStringIncludes(email.text, "Join Meridian as a surveyor");
  return { path: match[1], token: match[2] };
}

function joinBody(token: string, overrides: Record<string, unknown> = {}) {
  return {
    token,
    companyName: "Prospect Land Surveys LLC",
    principalName: "Pat Prospect",
    licenseNumber: "RPLS 7788",
    licenseStates: ["TX", "OK"],
    phone: "(512) 555-0123",
    address: "500 Congress Ave, Austin, TX 78701, USA",
    city: "Austin",
    state: "TX",
    zip: "78701",
    lat: 30.2682,
    lng: -97.7429,
    serviceRadiusMiles: 80,
    surveyTypes: ["boundary", "topographic"],
    password: "secret1",
    confirmPassword: "secret1",
    ...overrides,
  };
}

function join(t: TestApp, body: unknown, cookie?: string) {
  return t.request("POST", "/api/surveyor/join", { body, cookie });
}

async function recordRow(t: TestApp, id: string) {
  const [row] = await t.sql<
    {
      userId: string | null;
      status: string;
      inNetwork: boolean;
      source: string;
      companyName: string;
      licenseNumber: string | null;
      licenseStates: string[];
      serviceRadiusMiles: number;
      surveyTypes: string[];
      email: string | null;
      verifiedAt: Date | null;
      verifiedBy: string | null;
    }[]
  >`select user_id, status, in_network, source, company_name, license_number, license_states,
      service_radius_miles, survey_types, email, verified_at, verified_by
    from surveyors where id = ${id}`;
  return row;
}

async function usedTokens(t: TestApp) {
  const [{ n }] = await t.sql<{ n: number }[]>`
    select count(*)::int as n from surveyor_claim_tokens where used_at is not null`;
  return n;
}

// ------------------------------------------------------------------------- the join page

test("[join] the invitation's join link opens the join form, prefilled from the record", async () => {
  const t = await createTestApp();
  const { record } = await setup(t);
  const link = await joinLink(t);
  const { res, html } = await loadPage(t, link.path);
  assertEquals(res.status, 200);
  assertHtml(res);
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  assertStringIncludes(html, `<meta name="robots" content="noindex">`);
  assertStringIncludes(html, "Join Meridian as a surveyor");
  assertStringIncludes(html, "Your first claimed job has no claim fee");
  assertStringIncludes(html, "We check your licence");
  const props = islandProps<SurveyorJoinFormProps>(html, "SurveyorJoinForm");
  assertEquals(props.token, link.token);
  assertEquals(props.email, PROSPECT_EMAIL);
  assertEquals(props.initial.companyName, record.companyName);
  assertEquals(props.initial.principalName, "Pat Prospect");
  assertEquals(props.initial.licenseStates, ["TX"]);
  assertEquals(props.initial.surveyTypes, ["boundary"]);
  // Admin-only fields never reach the page.
  assert(!("notes" in props.initial) && !("status" in props.initial));
  t.close();
});

test("[join] a link that does not work says why, and shows no form", async () => {
  const t = await createTestApp();
  await setup(t);
  const link = await joinLink(t);
  const cases: [string, number, string][] = [
    ["/surveyor/claim", 404, "This invitation link is not valid"],
    ["/surveyor/claim?token=short", 404, "This invitation link is not valid"],
    [`/surveyor/claim?token=${"A".repeat(43)}`, 404, "This invitation link is not valid"],
  ];
  for (const [path, status, heading] of cases) {
    const { res, html } = await loadPage(t, path);
    assertEquals(res.status, status, path);
    assertStringIncludes(html, heading, path);
    assert(!html.includes("SurveyorJoinForm"), `${path}: no form`);
    assertStringIncludes(html, `href="/support/contact"`, path);
  }
  await t.sql`update surveyor_claim_tokens set expires_at = now() - interval '1 second'`;
  let page = await loadPage(t, link.path);
  assertEquals(page.res.status, 410);
  assertStringIncludes(page.html, "This invitation link has expired");
  assert(!page.html.includes("SurveyorJoinForm"));
  await t.sql`update surveyor_claim_tokens set expires_at = now() + interval '1 day',
    used_at = now()`;
  page = await loadPage(t, link.path);
  assertEquals(page.res.status, 410);
  assertStringIncludes(page.html, "This invitation has already been used");
  assertStringIncludes(page.html, `href="/auth"`);
  t.close();
});

// ------------------------------------------------------------------------------ joining

test("[join] a valid link creates the surveyor account, links it, pending, tells the admins, signs in", async () => {
  const t = await createTestApp();
  const { admin, record } = await setup(t);
  const link = await joinLink(t);
  const users = await countRows(t, "users");
  const res = await join(t, joinBody(link.token));
  const body = await expectJson(res, 201);
  assertEquals(body.message, WELCOME_MESSAGE);
  assertEquals(body.user.email, PROSPECT_EMAIL);
  assertEquals(body.user.role, "surveyor");
  assertEquals(body.user.fullName, "Pat Prospect");
  assertEquals(body.user.companyName, "Prospect Land Surveys LLC");
  assert(!("passwordHash" in body.user));
  assertEquals(await countRows(t, "users"), users + 1);

  const after = await recordRow(t, record.id);
  assertEquals(after.userId, body.user.id);
  assertEquals(after.status, "pending");
  assertEquals(after.inNetwork, true);
  assertEquals(after.source, "place", "source stays");
  assertEquals(after.companyName, "Prospect Land Surveys LLC");
  assertEquals(after.licenseNumber, "RPLS 7788");
  assertEquals(after.licenseStates, ["TX", "OK"]);
  assertEquals(after.serviceRadiusMiles, 80);
  assertEquals(after.surveyTypes, ["boundary", "topographic"]);
  assertEquals(after.verifiedAt, null);
  assertEquals(await usedTokens(t), 1);

  const notes = await t.sql<{ userId: string; title: string; body: string; link: string }[]>`
    select user_id, title, body, link from notifications where kind = 'surveyor_joined'`;
  assertEquals(notes.length, 1);
  assertEquals(notes[0].userId, admin.user.id);
  assertEquals(notes[0].link, `/surveyor-detail/${record.id}`);
  assertStringIncludes(notes[0].title, "Prospect Land Surveys LLC joined");
  assertStringIncludes(notes[0].body, "RPLS 7788");

  // The answer carries a session: the new surveyor is signed in.
  const cookie = sessionCookieFrom(t, res);
  assert(cookie, "a session cookie");
  const me = await expectJson(await t.request("GET", "/api/user", { cookie }), 200);
  assertEquals(me.id ?? me.user?.id, body.user.id);
  // And can sign in later with the password chosen.
  const login = await t.request("POST", "/api/login", {
    body: { identifier: PROSPECT_EMAIL, password: "secret1" },
  });
  assertEquals(login.status, 200);
  t.close();
});

test("[join] a signed-in visitor who joins gets a new session for the new account", async () => {
  const t = await createTestApp();
  await setup(t);
  const link = await joinLink(t);
  const other = await createSignedInUser(t, { role: "client" });
  const res = await join(t, joinBody(link.token), other.cookie);
  const body = await expectJson(res, 201);
  const cookie = sessionCookieFrom(t, res);
  assert(cookie && cookie !== other.cookie, "a fresh session id");
  const me = await expectJson(await t.request("GET", "/api/user", { cookie }), 200);
  assertEquals(me.id ?? me.user?.id, body.user.id);
  // The old session is gone.
  assertEquals((await t.request("GET", "/api/user", { cookie: other.cookie })).status, 401);
  t.close();
});

test("[join] a used, expired or unknown link is refused and creates nothing", async () => {
  const t = await createTestApp();
  const { record } = await setup(t);
  const link = await joinLink(t);

  const unknown = await join(t, joinBody("B".repeat(43)));
  assertEquals((await expectJson(unknown, 404)).message, CLAIM_LINK_MESSAGES.unknown);
  const malformed = await join(t, joinBody("not a token"));
  assertEquals((await expectJson(malformed, 400)).message, CLAIM_LINK_MESSAGES.unknown);

  await t.sql`update surveyor_claim_tokens set expires_at = now() - interval '1 second'`;
  const users = await countRows(t, "users");
  const expired = await join(t, joinBody(link.token));
  assertEquals((await expectJson(expired, 410)).message, CLAIM_LINK_MESSAGES.expired);
  assertEquals(await countRows(t, "users"), users);
  assertEquals((await recordRow(t, record.id)).userId, null);
  assertEquals(await usedTokens(t), 0);
  assertEquals(sessionCookieFrom(t, expired), null);

  await t.sql`update surveyor_claim_tokens set expires_at = now() + interval '1 day'`;
  await expectJson(await join(t, joinBody(link.token)), 201);
  const again = await join(
    t,
    joinBody(link.token, { password: "another1", confirmPassword: "another1" }),
  );
  assertEquals((await expectJson(again, 410)).message, CLAIM_LINK_MESSAGES.used);
  assertEquals(await countRows(t, "users"), users + 1);
  assertEquals(await countRows(t, "notifications where kind = 'surveyor_joined'"), 1);
  t.close();
});

test("[join] an email that already has an account is a 409 and nothing changes; the link still works", async () => {
  const t = await createTestApp();
  const { record } = await setup(t);
  const link = await joinLink(t);
  const existing = await createUser(t.sql, { role: "client", email: PROSPECT_EMAIL.toUpperCase() });
  const users = await countRows(t, "users");
  const res = await join(t, joinBody(link.token));
  const body = await expectJson(res, 409);
  assertEquals(body.message, EMAIL_TAKEN_MESSAGE);
  assertEquals(body.errors.email, EMAIL_TAKEN_MESSAGE);
  assertEquals(await countRows(t, "users"), users);
  const after = await recordRow(t, record.id);
  assertEquals(after.userId, null);
  // As the invitation left it (lib/dispatch.ts moves an invited prospect to 'invited').
  assertEquals(after.status, "invited");
  assertEquals(await usedTokens(t), 0);
  assertEquals(await countRows(t, "notifications where kind = 'surveyor_joined'"), 0);
  // Once the other account goes, the same link works.
  await t.sql`delete from users where id = ${existing.id}`;
  await expectJson(await join(t, joinBody(link.token)), 201);
  t.close();
});

test("[join] the email is the invitation's; a record without one takes the email typed", async () => {
  const t = await createTestApp();
  const { record } = await setup(t, { email: null });
  // The invitation went out before the email was cleared; the link still names the record.
  const link = await joinLink(t);
  const missing = await join(t, joinBody(link.token));
  assertEquals((await expectJson(missing, 400)).errors.email, "Enter your email address");
  const typed = await join(t, joinBody(link.token, { email: "pat@new-firm.example" }));
  const body = await expectJson(typed, 201);
  assertEquals(body.user.email, "pat@new-firm.example");
  assertEquals((await recordRow(t, record.id)).email, "pat@new-firm.example");
  t.close();

  const t2 = await createTestApp();
  await setup(t2);
  const link2 = await joinLink(t2);
  const other = await join(t2, joinBody(link2.token, { email: "someone@else.example" }));
  const refused = await expectJson(other, 400);
  assertMatch(refused.errors.email, /the email address the invitation was sent to/);
  assertEquals(await usedTokens(t2), 0);
  const same = await join(t2, joinBody(link2.token, { email: PROSPECT_EMAIL.toUpperCase() }));
  assertEquals((await expectJson(same, 201)).user.email, PROSPECT_EMAIL);
  t2.close();
});

test("[join] the spec's password rules, and required licence and coverage, store nothing", async () => {
  const t = await createTestApp();
  await setup(t);
  const link = await joinLink(t);
  const users = await countRows(t, "users");
  const cases: [Record<string, unknown>, string, string][] = [
    [
      { password: "five5", confirmPassword: "five5" },
      "password",
      "Password must be at least 6 characters",
    ],
    [{ confirmPassword: "secret2" }, "confirmPassword", "Passwords don't match"],
    [{ licenseNumber: "  " }, "licenseNumber", "Licence number is required"],
    [{ licenseStates: [] }, "licenseStates", "Choose the states you are licensed in"],
    [{ surveyTypes: [] }, "surveyTypes", "Choose the survey types you offer"],
    [{ address: "" }, "address", "Enter your office address"],
    [{ serviceRadiusMiles: 0 }, "serviceRadiusMiles", "Service radius must be at least 1 mile"],
    [{ lat: null }, "lat", "Give both latitude and longitude, or neither"],
    [{ status: "active" }, "_", "Unrecognized key"],
  ];
  for (const [change, field, message] of cases) {
    const body = await expectJson(await join(t, joinBody(link.token, change)), 400);
    const got = body.errors[field] ?? body.message;
    assertStringIncludes(got, message, JSON.stringify(change));
  }
  assertEquals(await countRows(t, "users"), users);
  assertEquals(await usedTokens(t), 0);
  t.close();
});

test("[join] two joins with one link at the same moment make one account", async () => {
  const t = await createTestApp();
  await setup(t);
  const link = await joinLink(t);
  const users = await countRows(t, "users");
  const answers = await Promise.all([join(t, joinBody(link.token)), join(t, joinBody(link.token))]);
  const statuses = answers.map((r) => r.status).sort();
  assertEquals(statuses[0], 201, JSON.stringify(statuses));
  assert([409, 410].includes(statuses[1]), JSON.stringify(statuses));
  assertEquals(await countRows(t, "users"), users + 1);
  t.close();
});

// ------------------------------------------------------------------------- verification

test("[verify] only admins verify; pending → active with who and when, the surveyor is told; 409 otherwise", async () => {
  const t = await createTestApp();
  const { admin, record } = await setup(t);
  const link = await joinLink(t);
  const joined = await expectJson(await join(t, joinBody(link.token)), 201);
  const path = `/api/surveyors/${record.id}/verify`;

  assertEquals((await t.request("POST", path)).status, 401);
  for (const role of ["client", "surveyor", "technician"] as Role[]) {
    assertEquals((await t.request("POST", path, { cookie: await signInAs(t, role) })).status, 403);
  }
  assertEquals((await recordRow(t, record.id)).status, "pending");

  // The admin's record page offers the check.
  const page = await loadPage(t, `/surveyor-detail/${record.id}`, admin.cookie);
  const props = islandProps<{ canVerify: boolean; licenseNumber: string }>(
    page.html,
    "VerifySurveyor",
  );
  assertEquals(props.canVerify, true);
  assertEquals(props.licenseNumber, "RPLS 7788");

  const body = await expectJson(await t.request("POST", path, { cookie: admin.cookie }), 200);
  assertEquals(body.message, "Licence verified — Prospect Land Surveys LLC can now buy leads");
  assertEquals(body.surveyor.status, "active");
  const after = await recordRow(t, record.id);
  assertEquals(after.status, "active");
  assert(after.verifiedAt instanceof Date);
  assertEquals(after.verifiedBy, admin.user.id);
  const [note] = await t.sql<{ title: string; link: string }[]>`
    select title, link from notifications where user_id = ${joined.user.id}`;
  assertEquals(note.title, "Licence verified");
  assertEquals(note.link, "/surveyor-dashboard");
  // And an email to the account (issue 21: nobody was told by email).
  const mails = await t.sql<{ toAddress: string; subject: string; text: string }[]>`
    select to_address, subject, text from email_outbox where template = 'licence_verified'`;
  assertEquals(mails.length, 1);
  assertEquals(mails[0].toAddress, joined.user.email);
  assertEquals(
    mails[0].subject,
    "Your licence is verified: leads are open to Prospect Land Surveys LLC",
  );
  assertStringIncludes(mails[0].text, "/leads");

  const again = await expectJson(await t.request("POST", path, { cookie: admin.cookie }), 409);
  assertMatch(again.message, /already verified/);
  const verifiedPage = await loadPage(t, `/surveyor-detail/${record.id}`, admin.cookie);
  assertEquals(
    islandProps<{ canVerify: boolean }>(verifiedPage.html, "VerifySurveyor").canVerify,
    false,
  );

  // A prospect without an account has nothing to verify; an unknown record is a 404.
  const bare = await insertSurveyor(t.sql, { companyName: "Bare Prospect" });
  const none = await t.request("POST", `/api/surveyors/${bare.id}/verify`, {
    cookie: admin.cookie,
  });
  assertMatch((await expectJson(none, 409)).message, /no account yet/);
  assertEquals((await recordRow(t, bare.id)).status, "prospect");
  const unknown = await t.request("POST", `/api/surveyors/${crypto.randomUUID()}/verify`, {
    cookie: admin.cookie,
  });
  assertEquals(unknown.status, 404);
  t.close();
});

test("[verify] an invited record with an account (the admin's invitation) can be verified", async () => {
  const t = await createTestApp();
  const admin = await createSignedInUser(t, { role: "admin" });
  const user = await createUser(t.sql, { role: "surveyor" });
  const record = await insertSurveyor(t.sql, {
    companyName: "Invited Surveying",
    status: "invited",
    userId: user.id,
  });
  const res = await t.request("POST", `/api/surveyors/${record.id}/verify`, {
    cookie: admin.cookie,
  });
  await expectJson(res, 200);
  assertEquals((await recordRow(t, record.id)).status, "active");
  t.close();
});
