/**
 * Firms that join by themselves (issue 22): /for-surveyors explains lead prices from the
 * pricing code and holds the sign-up; GET /api/surveyors/join/matches finds prospects;
 * POST /api/surveyors/join creates a new firm, claims a prospect, or sends a duplicate to the
 * admins; bad input, a taken email and too many attempts store nothing.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, createUser, sessionCookieFrom } from "../_auth.ts";
import { countRows, expectJson } from "../_fixtures.ts";
import { assertHtml, getPage, loadPage, pageText } from "../_pages.ts";
import { addLead } from "../_lead_fixtures.ts";
import { insertSurveyor } from "../../db/surveyors.ts";
import { getActivePricingConfig } from "../../db/pricing.ts";
import { formatLeadPrice, priceLead } from "../../lib/lead_pricing.ts";
import { priceSurvey } from "../../lib/pricing.ts";
import { EXAMPLE_SURVEY } from "../../lib/surveyor_self_join.ts";
import { RATE_LIMITS } from "../../routes/auth_api.ts";
import { ADDRESS_NOT_FOUND, SIGN_UP_MESSAGES } from "../../routes/surveyor_self_join.tsx";
import { EMAIL_TAKEN_MESSAGE } from "../../routes/surveyor_join.tsx";
import { makeOlder } from "../_row_order.ts";

function signUpBody(overrides: Record<string, unknown> = {}) {
  return {
    companyName: "Lone Star Land Surveying LLC",
    principalName: "Sam Surveyor",
    email: "Sam@LoneStar.example",
    password: "secret1",
    confirmPassword: "secret1",
    phone: "(512) 555-0188",
    licenseNumber: "RPLS 6543",
    licenseStates: ["TX"],
    address: "500 Congress Ave, Austin, TX 78701, USA",
    city: "Austin",
    state: "TX",
    zip: "78701",
    lat: 30.2682,
    lng: -97.7429,
    serviceRadiusMiles: 60,
    surveyTypes: ["boundary", "topographic"],
    ...overrides,
  };
}

function signUp(t: TestApp, body: unknown) {
  return t.request("POST", "/api/surveyors/join", { body });
}

async function firmsOf(t: TestApp) {
  return await t.sql<
    { id: string; userId: string | null; status: string; source: string; companyName: string }[]
  >`select id, user_id, status, source, company_name from surveyors order by created_at, id`;
}

async function adminBell(t: TestApp, adminId: string) {
  return await t.sql<{ title: string; body: string; link: string }[]>`
    select title, body, link from notifications where user_id = ${adminId} order by created_at`;
}

// --------------------------------------------------------------------------- the page

test("[for surveyors] the page shows the real lead prices, returns, an example lead and the sign-up", async () => {
  const t = await createTestApp();
  const { res, html } = await loadPage(t, "/for-surveyors");
  assertEquals(res.status, 200);
  assertHtml(res);
  const text = html.replaceAll("<!-- -->", "");
  const { config } = await getActivePricingConfig(t.sql);
  const lead = config.lead;
  assertStringIncludes(
    text,
    `never less than ${formatLeadPrice(lead.floorCents)} and never more than ${
      formatLeadPrice(lead.capCents)
    }`,
  );
  assertStringIncludes(text, `Boundary Survey: ${lead.sharePercent.boundary}%`);
  assertStringIncludes(text, `a flat ${formatLeadPrice(lead.subdivisionFlatCents)}`);
  assertStringIncludes(text, `bought by up to ${lead.maxBuyers} surveyors`);
  assertStringIncludes(text, `${lead.claimFeeMultiple} times the lead price`);
  assertStringIncludes(text, "Within 14 days of buying");
  assertStringIncludes(text, "in the 30 days before is refunded");
  assertStringIncludes(text, "Invalid contact details");
  // The example is priced by the same code as a real lead, and says it is an example.
  assertStringIncludes(text, "Example only: not a real request.");
  const quote = priceSurvey(config, EXAMPLE_SURVEY);
  const price = priceLead(lead, { surveyType: "boundary", quotedPriceCents: quote.totalCents });
  assertStringIncludes(html, formatLeadPrice(price.priceCents));
  assertStringIncludes(html, 'data-island="SurveyorSignUpForm"');
  assertStringIncludes(html, '<link rel="canonical"');
  t.close();
});

test("[for surveyors] the prices follow the pricing configuration", async () => {
  const t = await createTestApp();
  const { config } = await getActivePricingConfig(t.sql);
  const edited = {
    ...config,
    lead: { ...config.lead, floorCents: 2_300, capCents: 17_700, maxBuyers: 4 },
  };
  await t.sql`
    insert into pricing_configs (version, config, note)
    values (2, ${t.sql.json(edited)}, 'Test')`;
  const text = await pageText(await getPage(t, "/for-surveyors"));
  assertStringIncludes(text, "never less than $23.00 and never more than $177.00");
  assertStringIncludes(text, "bought by up to 4 surveyors");
  t.close();
});

test("[for surveyors] the header and footer link to the page; an invalid claim link points to it", async () => {
  const t = await createTestApp();
  for (const path of ["/", "/about"]) {
    const { html } = await loadPage(t, path);
    const header = html.match(/<header class="site-header">[\s\S]*?<\/header>/)?.[0] ?? "";
    const footer = html.match(/<footer class="site-footer">[\s\S]*?<\/footer>/)?.[0] ?? "";
    assertStringIncludes(header, '<a href="/for-surveyors">For Surveyors</a>', path);
    assertStringIncludes(footer, '<a href="/for-surveyors">For Surveyors</a>', path);
  }
  const { res, html } = await loadPage(t, "/surveyor/claim");
  assertEquals(res.status, 404);
  assertStringIncludes(html, "This invitation link is not valid");
  assertStringIncludes(html, 'href="/for-surveyors"');
  t.close();
});

// --------------------------------------------------------------------------- matches

test("[join] matches find prospects by name, licence number or town, with public fields only", async () => {
  const t = await createTestApp();
  const prospect = await insertSurveyor(t.sql, {
    companyName: "Hill Country Surveyors",
    licenseNumber: "RPLS 4411",
    licenseStates: ["TX"],
    email: "secret@hill.example",
    phone: "(512) 555-0100",
    city: "Dripping Springs",
    state: "TX",
    notes: "Admin only",
  });
  await insertSurveyor(t.sql, {
    companyName: "Hill Country Active",
    status: "active",
    city: "Dripping Springs",
    state: "TX",
  });
  for (const q of ["hill country", "rpls4411", "Dripping"]) {
    const res = await t.request("GET", `/api/surveyors/join/matches?q=${encodeURIComponent(q)}`);
    const body = await expectJson(res, 200);
    assertEquals(body.matches.length, 1, q);
    assertEquals(body.matches[0], {
      id: prospect.id,
      companyName: "Hill Country Surveyors",
      city: "Dripping Springs",
      state: "TX",
      licenseStates: ["TX"],
      surveyTypes: [],
    });
  }
  const none = await expectJson(
    await t.request("GET", "/api/surveyors/join/matches?q=%25%25"),
    200,
  );
  assertEquals(none.matches, []);
  const short = await t.request("GET", "/api/surveyors/join/matches?q=h");
  assertEquals((await expectJson(short, 400)).message, "Type at least 2 characters");
  t.close();
});

// --------------------------------------------------------------------------- sign-up

test("[join] a new firm: account signed in, firm pending in the licence check, admins told, no leads yet", async () => {
  const t = await createTestApp();
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const res = await signUp(t, signUpBody());
  const body = await expectJson(res, 201);
  assertEquals(body.message, SIGN_UP_MESSAGES.created);
  assertEquals(body.outcome, "created");
  assertEquals(body.next, "/surveyor-dashboard");
  // As registration stores it: as typed, unique without regard to case.
  assertEquals(body.user.email, "Sam@LoneStar.example");
  assertEquals(body.user.role, "surveyor");
  const cookie = sessionCookieFrom(t, res);
  assert(cookie, "signed in");
  const [firm] = await firmsOf(t);
  assertEquals(firm.status, "pending");
  assertEquals(firm.source, "signup");
  assertEquals(firm.userId, body.user.id);
  const [bell] = await adminBell(t, admin.user.id);
  assertEquals(bell.title, "Lone Star Land Surveying LLC joined — licence check needed");
  assertEquals(bell.link, `/surveyor-detail/${firm.id}`);
  // The dashboard says the licence is being checked and what to do meanwhile.
  const dashboard = await pageText(await getPage(t, "/surveyor-dashboard", cookie));
  assertStringIncludes(dashboard, "Your licence is being checked.");
  assertStringIncludes(dashboard, "Meanwhile you can");
  assertStringIncludes(dashboard, '<a href="/profile">complete your profile and coverage</a>');
  // Until an admin verifies the licence, leads cannot be bought.
  const client = await createSignedInUser(t, { role: "client" });
  const { lead } = await addLead(t, client.cookie);
  const buy = await t.request("POST", `/api/leads/${lead.id}/buy`, { cookie });
  assert(buy.status >= 400 && buy.status < 500, `buy answered ${buy.status}`);
  await buy.body?.cancel();
  assertEquals(await countRows(t, "lead_purchases"), 0);
  // Verified by an admin, the firm is active.
  const verify = await t.request("POST", `/api/surveyors/${firm.id}/verify`, {
    cookie: admin.cookie,
  });
  await expectJson(verify, 200);
  assertEquals((await firmsOf(t))[0].status, "active");
  t.close();
});

test("[join] the office address is geocoded when no point is given; an unknown one is a 400", async () => {
  const t = await createTestApp();
  const unknown = await signUp(
    t,
    signUpBody({ address: "Nowhere qqqzzz 99999", lat: null, lng: null }),
  );
  const bad = await expectJson(unknown, 400);
  assertEquals(bad.errors.address, ADDRESS_NOT_FOUND);
  assertEquals(await countRows(t, "users"), 0);
  const res = await signUp(t, signUpBody({ lat: null, lng: null }));
  await expectJson(res, 201);
  const [row] = await t.sql<{ lat: number; lng: number }[]>`select lat, lng from surveyors`;
  assert(Math.abs(row.lat - 30.27) < 0.2 && Math.abs(row.lng + 97.74) < 0.2, `${row.lat}`);
  t.close();
});

test("[join] choosing a prospect claims that record: no second firm", async () => {
  const t = await createTestApp();
  const prospect = await insertSurveyor(t.sql, {
    companyName: "Hill Country Surveyors",
    licenseStates: ["TX"],
    state: "TX",
    source: "place",
    placeId: "place-hill-1",
  });
  const res = await signUp(
    t,
    signUpBody({ surveyorId: prospect.id, companyName: "Hill Country Surveyors" }),
  );
  const body = await expectJson(res, 201);
  assertEquals(body.outcome, "claimed");
  const firms = await firmsOf(t);
  assertEquals(firms.length, 1);
  assertEquals(firms[0].id, prospect.id);
  assertEquals(firms[0].userId, body.user.id);
  assertEquals(firms[0].status, "pending");
  assertEquals(firms[0].source, "place");
  t.close();
});

test("[join] a licence number already on another record goes to the admins: account, no second firm", async () => {
  const t = await createTestApp();
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const existing = await insertSurveyor(t.sql, {
    companyName: "Austin Boundary Co",
    licenseNumber: "rpls-6543",
    licenseStates: ["TX"],
    status: "active",
  });
  const res = await signUp(t, signUpBody());
  const body = await expectJson(res, 201);
  assertEquals(body.outcome, "review");
  assertEquals(body.message, SIGN_UP_MESSAGES.review);
  assert(sessionCookieFrom(t, res), "signed in");
  const firms = await firmsOf(t);
  assertEquals(firms.length, 1);
  assertEquals(firms[0].userId, null);
  const [request] = await t.sql<{ surveyorId: string; userId: string; reason: string }[]>`
    select surveyor_id, user_id, reason from surveyor_claim_requests where status = 'pending'`;
  assertEquals(request, {
    surveyorId: existing.id,
    userId: body.user.id,
    reason: "licence_number",
  });
  const [bell] = await adminBell(t, admin.user.id);
  assertStringIncludes(bell.title, "already on Meridian, review needed");
  assertEquals(bell.link, `/surveyor-detail/${existing.id}`);
  const cookie = sessionCookieFrom(t, res)!;
  const dashboard = await pageText(await getPage(t, "/surveyor-dashboard", cookie));
  assertStringIncludes(dashboard, "Your request to join is with our team.");
  t.close();
});

test("[join] the same company in the same state, or a listing already taken, goes to the admins", async () => {
  const t = await createTestApp();
  const sameName = await insertSurveyor(t.sql, {
    companyName: "Lone Star Land Surveying",
    licenseStates: ["TX"],
    state: "TX",
  });
  const first = await expectJson(await signUp(t, signUpBody({ licenseNumber: "RPLS 1" })), 201);
  assertEquals(first.outcome, "review");
  // A minute older than the next request (two in a row can share a timestamp).
  await makeOlder(t.sql, "surveyor_claim_requests");
  const owner = await createUser(t.sql, { role: "surveyor", email: "owner@other.example" });
  const taken = await insertSurveyor(t.sql, {
    companyName: "Other Firm",
    state: "NM",
    status: "active",
    userId: owner.id,
  });
  const second = await expectJson(
    await signUp(
      t,
      signUpBody({
        surveyorId: taken.id,
        email: "two@other.example",
        companyName: "Other Firm",
        licenseNumber: "NM 2",
        licenseStates: ["NM"],
        state: "NM",
      }),
    ),
    201,
  );
  assertEquals(second.outcome, "review");
  assertEquals((await firmsOf(t)).length, 2);
  const reasons = await t.sql<{ surveyorId: string; reason: string }[]>`
    select surveyor_id, reason from surveyor_claim_requests order by created_at`;
  assertEquals([...reasons], [
    { surveyorId: sameName.id, reason: "company_state" },
    { surveyorId: taken.id, reason: "taken" },
  ]);
  t.close();
});

test("[join] bad input, a taken email and an unknown record are 4xx and store nothing", async () => {
  const t = await createTestApp();
  await createUser(t.sql, { role: "client", email: "taken@example.com" });
  const cases: [Record<string, unknown>, number, string][] = [
    [{ email: "not-an-email" }, 400, "email"],
    [{ password: "123", confirmPassword: "123" }, 400, "password"],
    [{ confirmPassword: "other1" }, 400, "confirmPassword"],
    [{ licenseNumber: "" }, 400, "licenseNumber"],
    [{ licenseStates: [] }, 400, "licenseStates"],
    [{ licenseStates: ["XX"] }, 400, "licenseStates.0"],
    [{ surveyTypes: ["castles"] }, 400, "surveyTypes.0"],
    [{ serviceRadiusMiles: -5 }, 400, "serviceRadiusMiles"],
    [{ address: "" }, 400, "address"],
    [{ lat: 30.1, lng: null }, 400, "lat"],
    [{ surveyorId: "nope" }, 400, "surveyorId"],
    [{ surveyorId: crypto.randomUUID() }, 400, "surveyorId"],
    [{ email: "Taken@Example.com" }, 409, "email"],
    [{ role: "admin" }, 400, ""],
  ];
  for (const [overrides, status, field] of cases) {
    const res = await signUp(t, signUpBody(overrides));
    const body = await expectJson(res, status);
    assert(body.message, JSON.stringify(overrides));
    if (field) {
      assert(body.errors?.[field], `${JSON.stringify(overrides)}: ${JSON.stringify(body)}`);
    }
    if (status === 409) assertEquals(body.message, EMAIL_TAKEN_MESSAGE);
  }
  const notJson = await t.request("POST", "/api/surveyors/join", { body: "[]" });
  assertEquals(notJson.status, 400);
  await notJson.body?.cancel();
  assertEquals(await countRows(t, "surveyors"), 0);
  assertEquals(await countRows(t, "users"), 1);
  assertEquals(await countRows(t, "surveyor_claim_requests"), 0);
  t.close();
});

test("[join] a sign-up without the CSRF origin is refused", async () => {
  const t = await createTestApp();
  const res = await t.app.request("/api/surveyors/join", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
    body: JSON.stringify(signUpBody()),
  });
  assertEquals(res.status, 403);
  await res.body?.cancel();
  assertEquals(await countRows(t, "users"), 0);
  t.close();
});

test("[join] sign-ups are rate limited per address like registration", async () => {
  const t = await createTestApp();
  await createUser(t.sql, { role: "client", email: "taken@example.com" });
  for (let i = 0; i < RATE_LIMITS.register.limit; i++) {
    const res = await signUp(t, signUpBody({ email: "taken@example.com" }));
    assertEquals(res.status, 409);
    await res.body?.cancel();
  }
  const res = await signUp(t, signUpBody());
  const body = await expectJson(res, 429);
  assertStringIncludes(body.message, "Too many sign-up attempts");
  assert(res.headers.get("retry-after"));
  assertEquals(await countRows(t, "surveyors"), 0);
  t.close();
});

// --------------------------------------------------------------------------- admin review

test("[join] admins review a claim request: approve links the account (prospect → licence check), deny tells the person", async () => {
  const t = await createTestApp();
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const prospect = await insertSurveyor(t.sql, {
    companyName: "Lone Star Land Surveying",
    licenseStates: ["TX"],
    state: "TX",
  });
  const first = await expectJson(await signUp(t, signUpBody()), 201);
  // A minute older than the next request (two in a row can share a timestamp).
  await makeOlder(t.sql, "surveyor_claim_requests");
  const second = await expectJson(
    await signUp(t, signUpBody({ email: "other@lonestar.example", licenseNumber: "RPLS 2" })),
    201,
  );
  assertEquals([first.outcome, second.outcome], ["review", "review"]);
  const surveyor = await createSignedInUser(t, { role: "surveyor" });
  const path = `/api/surveyors/${prospect.id}/claim-requests`;
  const hidden = await t.request("GET", path, { cookie: surveyor.cookie });
  assertEquals(hidden.status, 403);
  await hidden.body?.cancel();
  const listed = await expectJson(await t.request("GET", path, { cookie: admin.cookie }), 200);
  assertEquals(listed.requests.length, 2);
  const [a, b] = listed.requests;
  // The record's page shows them to the admin, with the buttons to decide.
  const detail = await loadPage(t, `/surveyor-detail/${prospect.id}`, admin.cookie);
  assertEquals(detail.res.status, 200);
  assertStringIncludes(detail.html, "Sign-ups to review");
  assertStringIncludes(detail.html, 'data-island="ClaimRequests"');
  assertStringIncludes(detail.html, "signed up as a firm of the same name in the same state");
  assertEquals(a.userEmail, "Sam@LoneStar.example");
  assertEquals(a.details.licenseNumber, "RPLS 6543");

  const approved = await t.request("POST", `${path}/${a.id}`, {
    cookie: admin.cookie,
    body: { decision: "approve" },
  });
  assertEquals(
    (await expectJson(approved, 200)).message,
    "Account linked to Lone Star Land Surveying",
  );
  const [firm] = await firmsOf(t);
  assertEquals(firm.userId, first.user.id);
  assertEquals(firm.status, "pending");
  // The record has its account now: the second request cannot be approved, only declined.
  const again = await t.request("POST", `${path}/${b.id}`, {
    cookie: admin.cookie,
    body: { decision: "approve" },
  });
  assertEquals(again.status, 409);
  await again.body?.cancel();
  // The approval's notice and email a minute older than the denial's (rows in a row can share
  // a timestamp, and ties go by id).
  await makeOlder(t.sql, "notifications");
  await makeOlder(t.sql, "email_outbox");
  const denied = await t.request("POST", `${path}/${b.id}`, {
    cookie: admin.cookie,
    body: { decision: "deny" },
  });
  const deniedNotice = (await expectJson(denied, 200)).email;
  assertEquals(deniedNotice.delivery, "none");
  assertStringIncludes(deniedNotice.text, "it was not sent");
  assert(deniedNotice.href.startsWith("/admin/email-outbox/"));
  const twice = await t.request("POST", `${path}/${b.id}`, {
    cookie: admin.cookie,
    body: { decision: "deny" },
  });
  assertEquals(twice.status, 404);
  await twice.body?.cancel();
  const bells = await t.sql<{ userId: string; title: string }[]>`
    select user_id, title from notifications where user_id in (${first.user.id}, ${second.user.id})
    order by created_at`;
  assertEquals([...bells], [
    { userId: first.user.id, title: "Your account is linked to Lone Star Land Surveying" },
    { userId: second.user.id, title: "Your request to join Lone Star Land Surveying was declined" },
  ]);
  // Each is emailed too; with no mail server the admin is told it was not sent.
  const emails = await t.sql<{ toAddress: string; subject: string }[]>`
    select to_address, subject from email_outbox where template = 'surveyor_join_decided'
    order by created_at, id`;
  assertEquals([...emails], [
    {
      toAddress: "Sam@LoneStar.example",
      subject: "Your Meridian account is linked to Lone Star Land Surveying",
    },
    {
      toAddress: "other@lonestar.example",
      subject: "Your request to join Lone Star Land Surveying on Meridian was declined",
    },
  ]);
  t.close();
});

test("[join] two sign-ups for one firm at the same moment make one firm and one review request", async () => {
  const t = await createTestApp();
  const answers = await Promise.all([
    signUp(t, signUpBody()),
    signUp(t, signUpBody({ email: "partner@lonestar.example", principalName: "Pat Partner" })),
  ]);
  const bodies = await Promise.all(answers.map((res) => expectJson(res, 201)));
  assertEquals(bodies.map((b) => b.outcome).sort(), ["created", "review"]);
  assertEquals((await firmsOf(t)).length, 1);
  assertEquals(await countRows(t, "surveyor_claim_requests"), 1);
  t.close();
});
