import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp, testDatabase } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { countRows, putSurveyInStatus, submitSurvey, surveyRequest } from "../_fixtures.ts";
import { getActivePricingConfig } from "../../db/pricing.ts";
import { insertDiscountCode } from "../../db/discounts.ts";
import { countSurveysByStatus } from "../../db/surveys.ts";
import type { Sql } from "../../db/client.ts";
import { priceSurvey } from "../../lib/pricing.ts";
import { SurveyDetailsSchema } from "../../lib/survey_details.ts";
import type { Survey, SurveyEvent, SurveyStatus } from "../../lib/survey_schema.ts";
import { SUBMIT_AUTH_MESSAGE } from "../../routes/surveys.ts";
import { ParcelLookupError, type ParcelProvider } from "../../lib/parcels/provider.ts";
import { makeOlder } from "../_row_order.ts";
import { loadPage } from "../_pages.ts";

async function setStatus(
  t: TestApp,
  cookie: string,
  id: string,
  body: Record<string, unknown>,
): Promise<Response> {
  return await t.request("PATCH", `/api/surveys/${id}/status`, { cookie, body });
}

async function statusOf(t: TestApp, id: string): Promise<SurveyStatus | undefined> {
  const [row] = await t.sql<
    { status: SurveyStatus }[]
  >`select status from surveys where id = ${id}`;
  return row?.status;
}

function assertJson(res: Response) {
  assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
}

// ---------------------------------------------------------------------------------- POST

test("[surveys] submitting signed out gets the spec's 401 and stores nothing", async () => {
  const t = await createTestApp();
  const res = await t.request("POST", "/api/surveys", { body: surveyRequest() });
  assertEquals(res.status, 401);
  assertJson(res);
  assertEquals(await res.json(), { message: SUBMIT_AUTH_MESSAGE });
  // Even an invalid body gets the sign-in message first: it is what the visitor must fix.
  const bad = await t.request("POST", "/api/surveys", { body: { acreage: -1 } });
  assertEquals(bad.status, 401);
  assertEquals((await bad.json()).message, SUBMIT_AUTH_MESSAGE);
  assertEquals(await countRows(t, "surveys"), 0);
  t.close();
});

test("[surveys] only client accounts can submit a request", async () => {
  const t = await createTestApp();
  for (const role of ["admin", "surveyor", "technician"] as const) {
    const cookie = await signInAs(t, role);
    const res = await t.request("POST", "/api/surveys", { cookie, body: surveyRequest() });
    assertEquals(res.status, 403, role);
    assertJson(res);
    assertEquals(await res.json(), { message: "Only client accounts can request surveys." });
  }
  assertEquals(await countRows(t, "surveys"), 0);
  t.close();
});

test("[surveys] a client's request is priced on the server and stored with its quote, timeline, emails and notifications", async () => {
  const t = await createTestApp();
  const admin1 = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const admin2 = await createSignedInUser(t, { role: "admin", fullName: "Bo Admin" });
  const { user, cookie } = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });

  const body = surveyRequest({ neededBy: "2099-01-15", altaItems: [] });
  const res = await t.request("POST", "/api/surveys", { cookie, body });
  assertEquals(res.status, 201);
  assertJson(res);
  const json = await res.json();
  assertEquals(json.message, "Survey request submitted");
  const survey: Survey = json.survey;

  const active = await getActivePricingConfig(t.sql);
  const expected = priceSurvey(active.config, SurveyDetailsSchema.parse(body));
  assertEquals(survey.status, "requested");
  assertEquals(survey.clientId, user.id);
  assertEquals(survey.clientName, "Dana Client");
  assertEquals(survey.quotedPriceCents, expected.totalCents);
  assertEquals(survey.quote.lineItems, expected.lineItems);
  assertEquals(survey.quote.configVersion, active.version);
  assertEquals(survey.pricingConfigVersion, active.version);
  assertEquals(survey.address, body.address);
  assertEquals(survey.formattedAddress, body.formattedAddress);
  assertEquals([survey.lat, survey.lng], [30.2636, -97.7589]);
  assertEquals(survey.neededBy, "2099-01-15");
  assertEquals(survey.purpose, "selling");
  assertEquals(survey.state, "TX");
  assertEquals(survey.cornersKnown, true);
  assertEquals(survey.discountCode, null);
  assertEquals(survey.discountCents, 0);
  assertEquals(survey.assignedSurveyor, null);
  assertEquals(survey.surveyedDate, null);
  assertMatch(survey.createdAt, /^\d{4}-\d\d-\d\dT/);

  const [event] = await t.sql`select from_status, to_status, actor_id from survey_events
    where survey_id = ${survey.id}`;
  assertEquals(event, { fromStatus: null, toStatus: "requested", actorId: user.id });

  const emails = await t.sql<{ toAddress: string; template: string; text: string }[]>`
    select to_address, template, text from email_outbox order by to_address`;
  const byTemplate = (name: string) => emails.filter((e) => e.template === name);
  assertEquals(byTemplate("survey_request_confirmation").map((e) => e.toAddress), [user.email]);
  assertEquals(
    byTemplate("new_survey_request_admin").map((e) => e.toAddress).sort(),
    [admin1.user.email, admin2.user.email].sort(),
  );
  // The emailed link keeps a signed-out client's returnTo under /client (see survey pages).
  assert(
    byTemplate("survey_request_confirmation")[0].text.includes(
      `http://localhost/client/surveys/${survey.id}`,
    ),
  );

  const notes = await t.sql<{ userId: string; kind: string; link: string; title: string }[]>`
    select user_id, kind, link, title from notifications order by user_id`;
  assertEquals(
    notes.map((n) => n.userId).sort(),
    [admin1.user.id, admin2.user.id].sort(),
  );
  for (const n of notes) {
    assertEquals(n.kind, "survey_requested");
    assertEquals(n.link, `/survey/${survey.id}`);
    assertEquals(n.title, "New survey request");
  }
  t.close();
});

test("[surveys] the phone given in a request fills the client's empty profile phone, never a set one", async () => {
  const t = await createTestApp();
  const phoneOf = async (cookie: string) =>
    (await (await t.request("GET", "/api/user", { cookie })).json()).phone;
  const empty = await signInAs(t, { role: "client", phone: null });
  await submitSurvey(t, empty, { contactPhone: " (512) 555-0100 " });
  assertEquals(await phoneOf(empty), "(512) 555-0100");
  // A later request with another number leaves the profile alone.
  await submitSurvey(t, empty, { contactPhone: "512-555-0199" });
  assertEquals(await phoneOf(empty), "(512) 555-0100");

  const chosen = await signInAs(t, { role: "client", phone: "+1 737 555 0123" });
  await submitSurvey(t, chosen, { contactPhone: "(512) 555-0100" });
  assertEquals(await phoneOf(chosen), "+1 737 555 0123");

  // A number the profile form would refuse (an extension) is not copied into it.
  const extension = await signInAs(t, { role: "client", phone: null });
  await submitSurvey(t, extension, { contactPhone: "512-555-0100 ext. 12" });
  assertEquals(await phoneOf(extension), null);

  // A refused request changes nothing, the profile included.
  const refused = await signInAs(t, { role: "client", phone: null });
  const res = await t.request("POST", "/api/surveys", {
    cookie: refused,
    body: surveyRequest({ contactPhone: "(512) 555-0100", acreage: -1 }),
  });
  assertEquals(res.status, 400);
  await res.body?.cancel();
  assertEquals(await phoneOf(refused), null);
  t.close();
});

test("[surveys] a price, status or owner sent by the browser is ignored", async () => {
  const t = await createTestApp();
  const other = await createSignedInUser(t, { role: "client" });
  const { user, cookie } = await createSignedInUser(t, { role: "client" });
  const body = surveyRequest({
    quotedPriceCents: 1,
    price: 1,
    totalCents: 1,
    quote: { totalCents: 1, lineItems: [] },
    status: "completed",
    clientId: other.user.id,
    discountCents: 99_999,
    pricingConfigVersion: 999,
  });
  const survey = await submitSurvey(t, cookie, body);
  const active = await getActivePricingConfig(t.sql);
  const expected = priceSurvey(active.config, SurveyDetailsSchema.parse(body));
  assert(expected.totalCents! > 100, "the real price is not 1 cent");
  const [row] = await t.sql`
    select quoted_price_cents, status, client_id, discount_cents, pricing_config_version,
      (quote->>'totalCents')::int as quote_total
    from surveys where id = ${survey.id}`;
  assertEquals(row, {
    quotedPriceCents: expected.totalCents,
    status: "requested",
    clientId: user.id,
    discountCents: 0,
    pricingConfigVersion: active.version,
    quoteTotal: expected.totalCents,
  });
  t.close();
});

test("[surveys] a subdivision request is stored as quote required, without a price", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "client");
  const survey = await submitSurvey(t, cookie, { surveyType: "subdivision", acreage: 12 });
  assertEquals(survey.quotedPriceCents, null);
  assertEquals(survey.quote.quoteRequired, true);
  const [email] = await t.sql`select text from email_outbox
    where template = 'survey_request_confirmation'`;
  assert(email, "confirmation email queued");
  t.close();
});

test("[surveys] an elevation certificate is stored without the lot size, terrain or corners it never asked", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "client");
  const survey = await submitSurvey(t, cookie, {
    surveyType: "elevation_certificate",
    acreage: undefined,
    terrain: undefined,
    vegetation: undefined,
    cornersKnown: undefined,
    cornersToSet: 5, // sent anyway: ignored, not stored or priced
    structures: 2,
  });
  assertEquals(
    [survey.acreage, survey.terrain, survey.vegetation, survey.cornersKnown, survey.cornersToSet],
    [null, null, null, null, 0],
  );
  assertEquals(survey.structures, 2);
  // $285 + one more building ($175), in Texas (index 0.95): $437.
  assertEquals(survey.quotedPriceCents, 43_700);
  assertEquals(survey.quote.lineItems.map((i) => i.key), ["base", "structures", "regional"]);
  const [row] = await t.sql`select acreage, terrain, vegetation from surveys`;
  assertEquals(row, { acreage: null, terrain: null, vegetation: null });
  t.close();
});

test("[surveys] retrying a submission with the same requestId returns the same survey, not a duplicate", async () => {
  const t = await createTestApp();
  await signInAs(t, "admin");
  const cookie = await signInAs(t, "client");
  const body = surveyRequest();
  const first = await t.request("POST", "/api/surveys", { cookie, body });
  assertEquals(first.status, 201);
  const again = await t.request("POST", "/api/surveys", { cookie, body });
  assertEquals(again.status, 200);
  assertJson(again);
  const [a, b] = [await first.json(), await again.json()];
  assertEquals(b.survey.id, a.survey.id);
  assertEquals(await countRows(t, "surveys"), 1);
  assertEquals(await countRows(t, "survey_events"), 1);
  assertEquals(await countRows(t, "notifications"), 1);
  assertEquals(await countRows(t, "email_outbox"), 2);
  t.close();
});

test("[surveys] two simultaneous submissions with the same requestId make one survey", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "client");
  const body = surveyRequest();
  const responses = await Promise.all([
    t.request("POST", "/api/surveys", { cookie, body }),
    t.request("POST", "/api/surveys", { cookie, body }),
  ]);
  const statuses = responses.map((r) => r.status).sort();
  assertEquals(statuses, [200, 201]);
  const ids = await Promise.all(responses.map(async (r) => (await r.json()).survey.id));
  assertEquals(ids[0], ids[1]);
  assertEquals(await countRows(t, "surveys"), 1);
  t.close();
});

test("[surveys] the same requestId from two different clients makes two surveys", async () => {
  const t = await createTestApp();
  const body = surveyRequest();
  const a = await t.request("POST", "/api/surveys", { cookie: await signInAs(t, "client"), body });
  const b = await t.request("POST", "/api/surveys", { cookie: await signInAs(t, "client"), body });
  assertEquals([a.status, b.status], [201, 201]);
  assertEquals(await countRows(t, "surveys"), 2);
  t.close();
});

test("[surveys] bad input gets a clear 400 and stores nothing", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "client");
  const tenKb = "x".repeat(10 * 1024);
  const cases: [string, Record<string, unknown>, string][] = [
    ["unknown type", { surveyType: "moon_survey" }, "surveyType"],
    ["negative acreage", { acreage: -3 }, "acreage"],
    ["zero acreage", { acreage: 0 }, "acreage"],
    ["absurd acreage", { acreage: 5_000_000 }, "acreage"],
    ["acreage as text", { acreage: "a lot" }, "acreage"],
    ["structures not whole", { surveyType: "topographic", structures: 1.5 }, "structures"],
    ["missing lot size", { acreage: undefined }, "acreage"],
    ["10 KB address", { address: tenKb }, "address"],
    ["10 KB notes", { notes: tenKb }, "notes"],
    ["10 KB access notes", { accessNotes: tenKb }, "accessNotes"],
    ["10 KB contact name", { contactName: tenKb }, "contactName"],
    ["short address", { address: "abc" }, "address"],
    ["missing address", { address: undefined }, "address"],
    ["missing contact name", { contactName: undefined }, "contactName"],
    ["blank contact name", { contactName: "   " }, "contactName"],
    ["bad phone", { contactPhone: "call me maybe" }, "contactPhone"],
    ["bad email", { contactEmail: "not-an-email" }, "contactEmail"],
    ["unknown purpose", { purpose: "fun" }, "purpose"],
    ["unknown state", { state: "ZZ" }, "state"],
    ["latitude without longitude", { lng: undefined }, "lng"],
    ["latitude out of range", { lat: 123 }, "lat"],
    ["needed by in the past", { neededBy: "2001-01-01" }, "neededBy"],
    ["needed by not a date", { neededBy: "soon" }, "neededBy"],
    ["requestId not a uuid", { requestId: "abc" }, "requestId"],
    ["missing requestId", { requestId: undefined }, "requestId"],
    ["rush as a number", { rush: 1 }, "rush"],
  ];
  for (const [name, overrides, field] of cases) {
    const res = await t.request("POST", "/api/surveys", { cookie, body: surveyRequest(overrides) });
    assertEquals(res.status, 400, name);
    assertJson(res);
    const json = await res.json();
    assert(typeof json.message === "string" && json.message.length > 0, name);
    assert(field in json.errors, `${name}: errors name ${field}: ${JSON.stringify(json.errors)}`);
  }
  for (const raw of ["not json", "[]", "null"]) {
    const res = await t.request("POST", "/api/surveys", { cookie, body: raw });
    assertEquals(res.status, 400, raw);
  }
  assertEquals(await countRows(t, "surveys"), 0);
  assertEquals(await countRows(t, "email_outbox"), 0);
  t.close();
});

test("[surveys] a discount code is applied and its use recorded with the survey", async () => {
  const t = await createTestApp();
  await insertDiscountCode(t.sql, {
    code: "SPRING10",
    kind: "percent",
    value: 10,
    createdBy: null,
  });
  const { user, cookie } = await createSignedInUser(t, { role: "client" });
  const body = surveyRequest({ discountCode: "spring10" });
  const survey = await submitSurvey(t, cookie, body);
  const active = await getActivePricingConfig(t.sql);
  const undiscounted = priceSurvey(active.config, SurveyDetailsSchema.parse(body));
  assertEquals(survey.discountCode, "SPRING10");
  assert(survey.discountCents > 0);
  assertEquals(survey.quotedPriceCents, undiscounted.totalCents! - survey.discountCents);
  const uses = await t.sql`select client_id, survey_id from discount_code_uses`;
  assertEquals([...uses], [{ clientId: user.id, surveyId: survey.id }]);
  t.close();
});

test("[surveys] an unusable discount code refuses the submission and stores nothing", async () => {
  const t = await createTestApp();
  await signInAs(t, "admin");
  await insertDiscountCode(t.sql, {
    code: "OLD",
    kind: "fixed",
    value: 5000,
    validUntil: new Date("2020-01-01"),
    validFrom: new Date("2019-01-01"),
    createdBy: null,
  });
  const cookie = await signInAs(t, "client");
  for (
    const [code, message] of [
      ["NOPE", "This discount code doesn't exist. Check the spelling and try again."],
      ["old", "This discount code has expired."],
    ]
  ) {
    const res = await t.request("POST", "/api/surveys", {
      cookie,
      body: surveyRequest({ discountCode: code }),
    });
    assertEquals(res.status, 400, code);
    assertJson(res);
    assertEquals(await res.json(), { message });
  }
  for (const table of ["surveys", "survey_events", "notifications", "email_outbox"]) {
    assertEquals(await countRows(t, table), 0, table);
  }
  t.close();
});

test("[surveys] a one-use discount code cannot be used twice at the same moment", async () => {
  const t = await createTestApp();
  await insertDiscountCode(t.sql, {
    code: "ONCE",
    kind: "fixed",
    value: 2500,
    maxUses: 1,
    oncePerClient: false,
    createdBy: null,
  });
  const cookies = await Promise.all([signInAs(t, "client"), signInAs(t, "client")]);
  const responses = await Promise.all(
    cookies.map((cookie) =>
      t.request("POST", "/api/surveys", { cookie, body: surveyRequest({ discountCode: "ONCE" }) })
    ),
  );
  const statuses = responses.map((r) => r.status).sort();
  assertEquals(statuses, [201, 400]);
  const refused = responses.find((r) => r.status === 400)!;
  assertEquals(await refused.json(), {
    message: "This discount code has reached its usage limit.",
  });
  assertEquals(await countRows(t, "surveys"), 1);
  const [code] = await t.sql`select uses from discount_codes where code = 'ONCE'`;
  assertEquals(code.uses, 1);
  t.close();
});

test("[surveys] a quote-required request does not use up a discount code", async () => {
  const t = await createTestApp();
  await insertDiscountCode(t.sql, {
    code: "ONE",
    kind: "fixed",
    value: 100,
    maxUses: 1,
    createdBy: null,
  });
  const cookie = await signInAs(t, "client");
  const survey = await submitSurvey(t, cookie, { surveyType: "subdivision", discountCode: "ONE" });
  assertEquals(survey.discountCode, null);
  const [code] = await t.sql`select uses from discount_codes where code = 'ONE'`;
  assertEquals(code.uses, 0);
  t.close();
});

// ----------------------------------------------------------------------------------- GET

test("[surveys] listing needs a sign-in; surveyors and technicians are refused for now", async () => {
  const t = await createTestApp();
  const out = await t.request("GET", "/api/surveys");
  assertEquals(out.status, 401);
  assertJson(out);
  for (const role of ["surveyor", "technician"] as const) {
    const res = await t.request("GET", "/api/surveys", { cookie: await signInAs(t, role) });
    assertEquals(res.status, 403, role);
    assertJson(res);
    assert((await res.json()).message);
  }
  t.close();
});

test("[surveys] a client lists only their own requests, newest first", async () => {
  const t = await createTestApp();
  const mine = await signInAs(t, "client");
  const theirs = await signInAs(t, "client");
  const a = await submitSurvey(t, mine, { address: "1 First Street, Austin TX" });
  await submitSurvey(t, theirs, { address: "9 Other Street, Austin TX" });
  // The earlier requests a minute older: requests made in a row can share a timestamp.
  await makeOlder(t.sql, "surveys");
  const b = await submitSurvey(t, mine, { address: "2 Second Street, Austin TX" });
  const res = await t.request("GET", "/api/surveys", { cookie: mine });
  assertEquals(res.status, 200);
  assertJson(res);
  const body = await res.json();
  assertEquals(body.total, 2);
  assertEquals(body.page, 1);
  assertEquals(body.pageSize, 20);
  assertEquals(body.surveys.map((s: Survey) => s.id), [b.id, a.id]);
  // A search for the other client's street finds nothing: the filter adds, never widens.
  const search = await t.request("GET", "/api/surveys?q=Other", { cookie: mine });
  assertEquals((await search.json()).total, 0);
  t.close();
});

test("[surveys] an admin lists every request with filters and pages", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const dana = await createSignedInUser(t, { role: "client", fullName: "Dana Zephyr" });
  const eli = await createSignedInUser(t, { role: "client", fullName: "Eli Client" });
  // Each request a millisecond older than the next: requests made in a row can share a
  // timestamp (ties go by id), and a millisecond keeps them on today's date for the filters.
  const earlier = () => makeOlder(t.sql, "surveys", { by: "1 millisecond" });
  const s1 = await submitSurvey(t, dana.cookie, {
    surveyType: "topographic",
    address: "10 Oak Lane, Austin TX",
  });
  await earlier();
  const s2 = await submitSurvey(t, eli.cookie, {
    surveyType: "boundary",
    address: "20 Elm Road, Dallas TX",
  });
  await earlier();
  const s3 = await submitSurvey(t, eli.cookie, {
    surveyType: "boundary",
    address: "30 50%_Off Way, Waco TX",
  });
  await putSurveyInStatus(t, s2.id, "assigned");

  async function list(query: string) {
    const res = await t.request("GET", `/api/surveys${query}`, { cookie: admin });
    assertEquals(res.status, 200, query);
    const body = await res.json();
    return { ids: body.surveys.map((s: Survey) => s.id), total: body.total, body };
  }
  assertEquals((await list("")).ids, [s3.id, s2.id, s1.id]);
  assertEquals((await list("")).body.surveys[2].clientName, "Dana Zephyr");
  assertEquals((await list("?status=assigned")).ids, [s2.id]);
  assertEquals((await list("?surveyType=boundary")).ids, [s3.id, s2.id]);
  assertEquals((await list("?surveyType=boundary&status=requested")).ids, [s3.id]);
  assertEquals((await list("?q=zephyr")).ids, [s1.id]);
  assertEquals((await list("?q=elm%20road")).ids, [s2.id]);
  assertEquals((await list("?q=50%25_")).ids, [s3.id]);
  assertEquals((await list("?q=5_%25")).ids, []);
  const today = new Date().toISOString().slice(0, 10);
  assertEquals((await list(`?from=${today}&to=${today}`)).total, 3);
  assertEquals((await list("?to=2000-01-01")).total, 0);
  assertEquals((await list("?from=2999-01-01")).total, 0);
  const page2 = await list("?pageSize=2&page=2");
  assertEquals(page2.ids, [s1.id]);
  assertEquals([page2.total, page2.body.page, page2.body.pageSize], [3, 2, 2]);
  assertEquals((await list("?pageSize=2&page=9")).ids, []);
  t.close();
});

test("[surveys] bad list queries get a 400", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  for (
    const q of [
      "?pageSize=101",
      "?pageSize=0",
      "?page=0",
      "?page=abc",
      "?status=lost",
      "?surveyType=moon",
      "?from=yesterday",
      `?q=${"x".repeat(300)}`,
    ]
  ) {
    const res = await t.request("GET", `/api/surveys${q}`, { cookie: admin });
    assertEquals(res.status, 400, q);
    assertJson(res);
    assert((await res.json()).message, q);
  }
  t.close();
});

test("[surveys] a survey and its timeline are visible to its owner and admins only", async () => {
  const t = await createTestApp();
  const owner = await signInAs(t, "client");
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const survey = await submitSurvey(t, owner);
  // The request's creation a minute older than the change (events can share a timestamp).
  await makeOlder(t.sql, "survey_events", { where: t.sql`survey_id = ${survey.id}` });
  await setStatus(t, admin.cookie, survey.id, {
    status: "scheduled",
    scheduledDate: "2099-03-01",
    note: "Visit booked",
    isNoteVisibleToClient: true,
  });

  const res = await t.request("GET", `/api/surveys/${survey.id}`, { cookie: owner });
  assertEquals(res.status, 200);
  assertJson(res);
  const body = await res.json();
  assertEquals(body.survey.id, survey.id);
  assertEquals(body.survey.status, "scheduled");
  assertEquals(
    body.events.map((e: SurveyEvent) => [e.fromStatus, e.toStatus, e.note]),
    [[null, "requested", null], ["requested", "scheduled", "Visit booked"]],
  );
  // Clients see "Meridian support", admins the name (tests/routes/survey_timeline_test.ts).
  assertEquals(body.events[1].actorName, "Meridian support");
  const asAdmin = await t.request("GET", `/api/surveys/${survey.id}`, { cookie: admin.cookie });
  assertEquals(asAdmin.status, 200);
  assertEquals((await asAdmin.json()).events[1].actorName, "Ada Admin");
  for (const role of ["client", "surveyor", "technician"] as const) {
    const other = await t.request("GET", `/api/surveys/${survey.id}`, {
      cookie: await signInAs(t, role),
    });
    assertEquals(other.status, 404, role);
    assertJson(other);
    assertEquals(await other.json(), { message: "Survey not found" });
  }
  for (const id of [crypto.randomUUID(), "not-a-uuid", "1%27%20or%201=1"]) {
    const res = await t.request("GET", `/api/surveys/${id}`, { cookie: admin.cookie });
    assertEquals(res.status, 404, id);
  }
  assertEquals((await t.request("GET", `/api/surveys/${survey.id}`)).status, 401);
  t.close();
});

// --------------------------------------------------------------------------------- PATCH

test("[surveys] an admin moves a request forward; the client is notified of each change", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const { user, cookie } = await createSignedInUser(t, { role: "client" });
  const survey = await submitSurvey(t, cookie);
  const steps: [SurveyStatus, Record<string, string>][] = [
    ["scheduled", { scheduledDate: "2099-03-01" }],
    ["in_fieldwork", {}],
    ["surveyed", { surveyedDate: "2099-03-01" }],
    // Nothing was uploaded: completing without a deliverable is an override with a note.
    ["completed", { completedDate: "2099-03-05", note: "Plat delivered on paper" }],
  ];
  for (const [status, dates] of steps) {
    const res = await setStatus(t, admin, survey.id, { status, ...dates });
    assertEquals(res.status, 200, status);
    assertJson(res);
    const body = await res.json();
    assertEquals(body.message, "Status updated");
    assertEquals(body.survey.status, status);
  }
  const [row] = await t.sql`select scheduled_date::text, surveyed_date::text,
    completed_date::text from surveys where id = ${survey.id}`;
  assertEquals(row, {
    scheduledDate: "2099-03-01",
    surveyedDate: "2099-03-01",
    completedDate: "2099-03-05",
  });
  assertEquals(await countRows(t, "survey_events"), 5);
  const notes = await t.sql<{ kind: string; link: string }[]>`
    select kind, link from notifications where user_id = ${user.id}`;
  assertEquals(notes.length, 4);
  assert(notes.every((n) => n.link === `/survey/${survey.id}`));
  assertEquals(notes.map((n) => n.kind).sort(), [
    "survey_delivered",
    "survey_status_changed",
    "survey_status_changed",
    "survey_status_changed",
  ]);
  t.close();
});

test("[surveys] an admin cannot mark a request notified or assigned by changing its status", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const survey = await submitSurvey(t, await signInAs(t, "client"));
  const notified = await setStatus(t, admin, survey.id, { status: "surveyors_notified" });
  assertEquals(notified.status, 409);
  assertJson(notified);
  assertEquals(await notified.json(), { message: "Use Notify surveyors to offer the lead." });
  const assigned = await setStatus(t, admin, survey.id, { status: "assigned" });
  assertEquals(assigned.status, 409);
  assertEquals(await assigned.json(), {
    message: "A surveyor is assigned when they claim the lead or an admin assigns one.",
  });
  // Nor from surveyors_notified, once Notify surveyors has set it.
  await putSurveyInStatus(t, survey.id, "surveyors_notified");
  const later = await setStatus(t, admin, survey.id, { status: "assigned" });
  assertEquals(later.status, 409);
  assertEquals(await statusOf(t, survey.id), "surveyors_notified");
  assertEquals(await countRows(t, "survey_events"), 1);
  t.close();
});

test("[surveys] an admin schedules a visit only with its day: without one nothing changes, with one the client reads that day", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const client = await signInAs(t, "client");
  const survey = await submitSurvey(t, client);
  const events = await countRows(t, "survey_events");
  const undated = await setStatus(t, admin, survey.id, { status: "scheduled" });
  assertEquals(undated.status, 400);
  assertEquals(await undated.json(), {
    message: "Scheduled date is required when marking a survey as scheduled.",
  });
  assertEquals(await statusOf(t, survey.id), "requested");
  assertEquals(await countRows(t, "survey_events"), events);
  const dated = await setStatus(t, admin, survey.id, {
    status: "scheduled",
    scheduledDate: "2099-03-01",
  });
  assertEquals(dated.status, 200);
  await dated.body?.cancel();
  const { html } = await loadPage(t, `/survey/${survey.id}`, client);
  assertMatch(html, /<dt>Scheduled<\/dt>\s*<dd>Mar 1, 2099<\/dd>/);
  t.close();
});

test("[surveys] an admin may skip steps but never go back or leave a finished survey", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const client = await signInAs(t, "client");
  const survey = await submitSurvey(t, client);
  const scheduling = { status: "scheduled", scheduledDate: "2099-03-01" };
  assertEquals((await setStatus(t, admin, survey.id, scheduling)).status, 200);
  const back = await setStatus(t, admin, survey.id, { status: "assigned" });
  assertEquals(back.status, 409);
  assertJson(back);
  assertEquals(await back.json(), {
    message: "A survey cannot go back from Scheduled to Surveyor assigned.",
  });
  const same = await setStatus(t, admin, survey.id, scheduling);
  assertEquals(same.status, 409);
  assertEquals((await setStatus(t, admin, survey.id, { status: "cancelled" })).status, 200);
  const revive = await setStatus(t, admin, survey.id, { status: "requested" });
  assertEquals(revive.status, 409);
  assertMatch((await revive.json()).message, /can no longer change/);
  assertEquals(await statusOf(t, survey.id), "cancelled");
  assertEquals(await countRows(t, "survey_events"), 3);
  t.close();
});

test("[surveys] marking surveyed needs surveyedDate and completing needs completedDate", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const survey = await submitSurvey(t, await signInAs(t, "client"));
  const noDate = await setStatus(t, admin, survey.id, { status: "surveyed" });
  assertEquals(noDate.status, 400);
  assertJson(noDate);
  assertEquals(await noDate.json(), {
    message: "Surveyed date is required when marking a survey as surveyed.",
  });
  const wrong = await setStatus(t, admin, survey.id, {
    status: "surveyed",
    completedDate: "2099-01-01",
  });
  assertEquals(wrong.status, 400);
  assertEquals(await statusOf(t, survey.id), "requested");
  const badDate = await setStatus(t, admin, survey.id, {
    status: "surveyed",
    surveyedDate: "May 5",
  });
  assertEquals(badDate.status, 400);
  assertEquals(
    (await setStatus(t, admin, survey.id, { status: "surveyed", surveyedDate: "2099-02-10" }))
      .status,
    200,
  );
  const noCompleted = await setStatus(t, admin, survey.id, { status: "completed" });
  assertEquals(noCompleted.status, 400);
  assertEquals(await noCompleted.json(), {
    message: "Completed date is required when marking a survey as completed.",
  });
  const early = await setStatus(t, admin, survey.id, {
    status: "completed",
    completedDate: "2099-02-01",
  });
  assertEquals(early.status, 400);
  assertEquals(await early.json(), {
    message: "Completed date cannot be before the surveyed date.",
  });
  assertEquals(await statusOf(t, survey.id), "surveyed");
  assertEquals(await countRows(t, "survey_events"), 2);
  t.close();
});

test("[surveys] a client may only cancel their own request, and only before assignment", async () => {
  const t = await createTestApp();
  const owner = await signInAs(t, "client");
  const a = await submitSurvey(t, owner);
  const b = await submitSurvey(t, owner);

  const promote = await setStatus(t, owner, a.id, { status: "assigned" });
  assertEquals(promote.status, 409);
  assertEquals(await promote.json(), { message: "You can only cancel your request." });
  const stranger = await setStatus(t, await signInAs(t, "client"), a.id, { status: "cancelled" });
  assertEquals(stranger.status, 404);
  assertEquals(await statusOf(t, a.id), "requested");

  const cancel = await setStatus(t, owner, a.id, { status: "cancelled", note: "Sold already" });
  assertEquals(cancel.status, 200);
  assertEquals((await cancel.json()).survey.status, "cancelled");

  await putSurveyInStatus(t, b.id, "assigned");
  const late = await setStatus(t, owner, b.id, { status: "cancelled" });
  assertEquals(late.status, 409);
  assertEquals(await late.json(), {
    message: "This request can no longer be cancelled because a surveyor has been assigned.",
  });
  assertEquals(await statusOf(t, b.id), "assigned");
  t.close();
});

test("[surveys] surveyors, technicians and signed-out callers cannot change a status", async () => {
  const t = await createTestApp();
  const survey = await submitSurvey(t, await signInAs(t, "client"));
  for (const role of ["surveyor", "technician"] as const) {
    const res = await setStatus(t, await signInAs(t, role), survey.id, { status: "scheduled" });
    assertEquals(res.status, 404, role);
  }
  const out = await setStatus(t, "", survey.id, { status: "cancelled" });
  assertEquals(out.status, 401);
  assertEquals(await statusOf(t, survey.id), "requested");
  t.close();
});

test("[surveys] bad status updates get a 400 or 404 and change nothing", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const survey = await submitSurvey(t, await signInAs(t, "client"));
  const cases: [string, unknown, number][] = [
    ["unknown status", { status: "teleported" }, 400],
    ["missing status", {}, 400],
    ["status as number", { status: 3 }, 400],
    ["10 KB note", { status: "assigned", note: "x".repeat(10 * 1024) }, 400],
  ];
  for (const [name, body, status] of cases) {
    const res = await setStatus(t, admin, survey.id, body as Record<string, unknown>);
    assertEquals(res.status, status, name);
    assertJson(res);
    assert((await res.json()).message, name);
  }
  for (const id of [crypto.randomUUID(), "nope"]) {
    const res = await setStatus(t, admin, id, { status: "assigned" });
    assertEquals(res.status, 404, id);
  }
  assertEquals(await statusOf(t, survey.id), "requested");
  assertEquals(await countRows(t, "survey_events"), 1);
  t.close();
});

// -------------------------------------------------------------------------------- DELETE

test("[surveys] an admin deletes a survey with its timeline", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const survey = await submitSurvey(t, await signInAs(t, "client"));
  const res = await t.request("DELETE", `/api/surveys/${survey.id}`, { cookie: admin });
  assertEquals(res.status, 200);
  assertJson(res);
  assertEquals(await res.json(), { message: "Survey deleted" });
  assertEquals(await countRows(t, "surveys"), 0);
  assertEquals(await countRows(t, "survey_events"), 0);
  const again = await t.request("DELETE", `/api/surveys/${survey.id}`, { cookie: admin });
  assertEquals(again.status, 404);
  assertEquals((await t.request("DELETE", "/api/surveys/garbage", { cookie: admin })).status, 404);
  t.close();
});

test("[surveys] a client's delete cancels their own request before assignment", async () => {
  const t = await createTestApp();
  const owner = await signInAs(t, "client");
  const a = await submitSurvey(t, owner);
  const b = await submitSurvey(t, owner);
  const res = await t.request("DELETE", `/api/surveys/${a.id}`, { cookie: owner });
  assertEquals(res.status, 200);
  assertJson(res);
  assertEquals(await res.json(), { message: "Survey request cancelled" });
  assertEquals(await statusOf(t, a.id), "cancelled");
  const twice = await t.request("DELETE", `/api/surveys/${a.id}`, { cookie: owner });
  assertEquals(twice.status, 409);

  await putSurveyInStatus(t, b.id, "assigned");
  const late = await t.request("DELETE", `/api/surveys/${b.id}`, { cookie: owner });
  assertEquals(late.status, 409);
  assertEquals(await statusOf(t, b.id), "assigned");

  for (const role of ["client", "surveyor", "technician"] as const) {
    const other = await t.request("DELETE", `/api/surveys/${b.id}`, {
      cookie: await signInAs(t, role),
    });
    assertEquals(other.status, 404, role);
  }
  assertEquals((await t.request("DELETE", `/api/surveys/${b.id}`)).status, 401);
  assertEquals(await countRows(t, "surveys"), 2);
  t.close();
});

test("[surveys] an admin deletes several surveys at once", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const client = await signInAs(t, "client");
  const [a, b, c] = [
    await submitSurvey(t, client),
    await submitSurvey(t, client),
    await submitSurvey(t, client),
  ];
  const res = await t.request("POST", "/api/surveys/delete-multiple", {
    cookie: admin,
    body: { ids: [a.id, b.id, a.id, crypto.randomUUID()] },
  });
  assertEquals(res.status, 200);
  assertJson(res);
  assertEquals((await res.json()).message, "2 surveys deleted");
  const left = await t.sql`select id from surveys`;
  assertEquals(left.map((r) => r.id), [c.id]);
  const none = await t.request("POST", "/api/surveys/delete-multiple", {
    cookie: admin,
    body: { ids: [crypto.randomUUID()] },
  });
  assertEquals(none.status, 404);
  t.close();
});

test("[surveys] delete-multiple is for admins only and refuses bad input", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const client = await signInAs(t, "client");
  const survey = await submitSurvey(t, client);
  const body = { ids: [survey.id] };
  assertEquals((await t.request("POST", "/api/surveys/delete-multiple", { body })).status, 401);
  for (const role of ["client", "surveyor", "technician"] as const) {
    const res = await t.request("POST", "/api/surveys/delete-multiple", {
      cookie: role === "client" ? client : await signInAs(t, role),
      body,
    });
    assertEquals(res.status, 403, role);
  }
  for (
    const bad of [{}, { ids: [] }, { ids: "all" }, { ids: ["nope"] }, {
      ids: Array.from({ length: 101 }, () => crypto.randomUUID()),
    }]
  ) {
    const res = await t.request("POST", "/api/surveys/delete-multiple", {
      cookie: admin,
      body: bad,
    });
    assertEquals(res.status, 400, JSON.stringify(bad).slice(0, 40));
    assertJson(res);
    assert((await res.json()).message);
  }
  assertEquals(await countRows(t, "surveys"), 1);
  t.close();
});

test("[surveys] the admin list's totals stay exact through submissions, status changes and deletes", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const client = await signInAs(t, "client");
  const created: Survey[] = [];
  for (const surveyType of ["boundary", "boundary", "alta", "topographic", "boundary"]) {
    created.push(await submitSurvey(t, client, { surveyType }));
  }
  await setStatus(t, admin, created[0].id, { status: "scheduled", scheduledDate: "2099-03-01" });
  await setStatus(t, admin, created[1].id, { status: "cancelled" });
  await t.request("DELETE", `/api/surveys/${created[2].id}`, { cookie: admin });
  await t.request("POST", "/api/surveys/delete-multiple", {
    cookie: admin,
    body: { ids: [created[3].id] },
  });
  // Every filter combination agrees with a plain count.
  for (const status of [undefined, "requested", "scheduled", "cancelled", "completed"]) {
    for (const surveyType of [undefined, "boundary", "alta", "topographic"]) {
      const params = new URLSearchParams();
      if (status) params.set("status", status);
      if (surveyType) params.set("surveyType", surveyType);
      const res = await t.request("GET", `/api/surveys?${params}`, { cookie: admin });
      const [{ n }] = await t.sql`
        select count(*)::int as n from surveys
        where (${status ?? null}::text is null or status = ${status ?? null})
          and (${surveyType ?? null}::text is null or survey_type = ${surveyType ?? null})`;
      const body = await res.json();
      assertEquals(body.total, n, `${status} ${surveyType}`);
      assertEquals(body.surveys.length, n, `${status} ${surveyType}`);
    }
  }
  const [{ total }] = await t.sql`select count(*)::int as total from surveys`;
  assertEquals(total, 3);
  // The admin overview's per-status counts come from the same counters.
  const grouped = await t.sql<{ status: SurveyStatus; n: number }[]>`
    select status, count(*)::int as n from surveys group by status`;
  assertEquals(
    await countSurveysByStatus(t.sql),
    Object.fromEntries(grouped.map((r) => [r.status, r.n])),
  );
  assertEquals(await countSurveysByStatus(t.sql), { requested: 1, scheduled: 1, cancelled: 1 });
  t.close();
});

test("[surveys] parcel data from a configured provider is stored with the request", async () => {
  const queries: unknown[] = [];
  const parcels: ParcelProvider = {
    name: "fake",
    isConfigured: true,
    lookup(query) {
      queries.push(query);
      return Promise.resolve({
        parcelNumber: "0123-456",
        acreage: 0.26,
        owner: "Dana Client",
        landUse: "Residential",
        address: "1200 Barton Springs Rd",
        geometry: null,
        source: "fake",
      });
    },
  };
  const t = await createTestApp({ deps: { parcels } });
  const cookie = await signInAs(t, "client");
  const survey = await submitSurvey(t, cookie);
  assertEquals(queries, [{ lat: 30.2636, lng: -97.7589 }]);
  const [row] = await t.sql`select parcel from surveys where id = ${survey.id}`;
  assertEquals(row.parcel.parcelNumber, "0123-456");
  assertEquals(row.parcel.acreage, 0.26);
  t.close();
});

test("[surveys] a failing parcel provider does not stop a submission", async () => {
  const parcels: ParcelProvider = {
    name: "broken",
    isConfigured: true,
    lookup: () => Promise.reject(new ParcelLookupError("Regrid is down")),
  };
  const t = await createTestApp({ deps: { parcels } });
  const cookie = await signInAs(t, "client");
  const warn = console.warn;
  console.warn = () => {};
  try {
    const survey = await submitSurvey(t, cookie, { lat: undefined, lng: undefined });
    const [row] = await t.sql`select parcel from surveys where id = ${survey.id}`;
    assertEquals(row.parcel, null);
  } finally {
    console.warn = warn;
  }
  t.close();
});

// ------------------------------------------------------------- failures after the commit

/**
 * `sql` for the app, with a switch: after the next transaction commits, every query outside a
 * transaction fails the way postgres.js fails when Postgres has just gone away. (A thenable,
 * not a rejected promise, so a query fragment that is never awaited does not reject.)
 */
function downAfterNextCommit(sql: Sql) {
  let isArmed = false;
  let isDown = false;
  const down = {
    then(_: unknown, reject: (err: unknown) => void) {
      reject(Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" }));
    },
  };
  const proxy = new Proxy(sql, {
    apply: (target, self, args) => (isDown ? down : Reflect.apply(target, self, args)),
    get(target, prop, receiver) {
      if (prop !== "begin") return Reflect.get(target, prop, receiver);
      return async (...args: Parameters<Sql["begin"]>) => {
        const result = await target.begin(...args);
        if (isArmed) isDown = true;
        return result;
      };
    },
  });
  return { sql: proxy, arm: () => (isArmed = true) };
}

test("[surveys] a request that committed answers 201 with its survey even if Postgres goes away right after", async () => {
  const db = downAfterNextCommit((await testDatabase()).sql);
  const t = await createTestApp({ deps: { sql: db.sql } });
  const cookie = await signInAs(t, "client");
  const body = surveyRequest();
  db.arm();
  const res = await t.request("POST", "/api/surveys", { cookie, body });
  assertEquals(res.status, 201, await res.clone().text());
  assertJson(res);
  const { survey } = await res.json();
  const [stored] = await t.sql<{ id: string; status: string }[]>`
    select id, status from surveys where client_request_id = ${body.requestId as string}`;
  assertEquals({ id: survey.id, status: survey.status }, stored);
  assertEquals(survey.status, "requested");
  // The database really is "down" for reads now: the same request answers 503.
  const retry = await t.request("POST", "/api/surveys", { cookie, body });
  assertEquals(retry.status, 503);
  await retry.body?.cancel();
  t.close();
});

test("[surveys] a status change that committed answers 200 with the survey even if Postgres goes away right after", async () => {
  const db = downAfterNextCommit((await testDatabase()).sql);
  const t = await createTestApp({ deps: { sql: db.sql } });
  const client = await signInAs(t, "client");
  const admin = await signInAs(t, "admin");
  const { id } = await submitSurvey(t, client);
  db.arm();
  const res = await setStatus(t, admin, id, { status: "scheduled", scheduledDate: "2099-03-01" });
  assertEquals(res.status, 200, await res.clone().text());
  assertJson(res);
  const { survey } = await res.json();
  assertEquals(survey.status, "scheduled");
  assertEquals(await statusOf(t, id), "scheduled");
  t.close();
});
