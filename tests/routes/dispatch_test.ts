/**
 * Dispatch API: find-surveyors (cache, places), notify-surveyors (the lead, who is offered
 * it and how, the status move) and the panel's read, plus automatic dispatch. The concurrent
 * notify test means something on real Postgres (DATABASE_URL set: a pool of 10, transactions
 * overlap); on PGlite (one connection) the same calls run one after the other.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, createUser, signInAs } from "../_auth.ts";
import { countRows, expectJson, submitSurvey } from "../_fixtures.ts";
import { insertSurveyor, type InsertSurveyorInput } from "../../db/surveyors.ts";
import { getActivePricingConfig } from "../../db/pricing.ts";
import { describeLeadPrice, priceLead } from "../../lib/lead_pricing.ts";
import {
  DISPATCH_MESSAGES,
  dispatchSurvey,
  LEAD_OFFERED_TITLE,
  notifiedToastText,
} from "../../lib/dispatch.ts";
import type { Place } from "../../lib/surveyor_schema.ts";
import type {
  FindSurveyorsResponse,
  NearbySurveyorInfo,
  NotifySurveyorsResponse,
} from "../../lib/surveyor_schema.ts";
import type { Survey } from "../../lib/survey_schema.ts";
import type { Role } from "../../lib/roles.ts";
import type { PlacesProvider } from "../../lib/places/provider.ts";
import { makeOlder } from "../_row_order.ts";

// The fixture survey is at 1200 Barton Springs Rd, Austin, TX (30.2636, -97.7589).
const SITE = { lat: 30.2636, lng: -97.7589 };
const MILES_PER_DEGREE_LAT = 69.05;
const isRealPostgres = Boolean(Deno.env.get("DATABASE_URL"));

function north(miles: number) {
  return { lat: SITE.lat + miles / MILES_PER_DEGREE_LAT, lng: SITE.lng };
}

function addSurveyor(
  t: TestApp,
  name: string,
  input: Partial<InsertSurveyorInput> & { miles?: number } = {},
) {
  const { miles = 5, ...rest } = input;
  return insertSurveyor(t.sql, {
    companyName: name,
    ...north(miles),
    licenseStates: ["TX"],
    surveyTypes: ["boundary"],
    status: "active",
    inNetwork: true,
    ...rest,
  });
}

async function setup(options: Parameters<typeof createTestApp>[0] = {}) {
  const t = await createTestApp(options);
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  const survey = await submitSurvey(t, client.cookie);
  return { t, admin, client, survey };
}

function find(t: TestApp, cookie: string, id: string, query = "") {
  return t.request("POST", `/api/surveys/${id}/find-surveyors${query}`, { cookie });
}

function notify(t: TestApp, cookie: string, id: string) {
  return t.request("POST", `/api/surveys/${id}/notify-surveyors`, { cookie });
}

async function statusOf(t: TestApp, id: string) {
  const [row] = await t.sql<{ status: string }[]>`select status from surveys where id = ${id}`;
  return row.status;
}

async function leadEmails(t: TestApp) {
  return await t.sql<{ toAddress: string; template: string; subject: string; text: string }[]>`
    select to_address, template, subject, text from email_outbox
    where template in ('new_survey_lead', 'lead_invitation') order by template, to_address`;
}

async function leadNotifications(t: TestApp) {
  return await t.sql<{ userId: string; title: string; body: string; link: string }[]>`
    select user_id, title, body, link from notifications where kind = 'lead_offered'
    order by user_id`;
}

// ----------------------------------------------------------------------------- guards

test("[dispatch] only admins may find or notify; reading the surveyors, admins and the survey's own client", async () => {
  const { t, admin, client, survey } = await setup();
  await addSurveyor(t, "Barton Surveying", { email: "office@barton.example" });
  const calls = [
    ["POST", `/api/surveys/${survey.id}/find-surveyors`],
    ["POST", `/api/surveys/${survey.id}/notify-surveyors`],
    ["GET", `/api/surveys/${survey.id}/surveyors`],
  ] as const;
  for (const [method, path] of calls) {
    const out = await t.request(method, path);
    assertEquals(out.status, 401, `${method} ${path} signed out`);
    for (const role of ["client", "surveyor", "technician"] as Role[]) {
      // The survey's own client is refused like anyone else.
      const cookie = role === "client" ? client.cookie : await signInAs(t, role);
      const res = await t.request(method, path, { cookie });
      if (role === "client" && method === "GET") {
        // The client's own view (names and companies only: tests/routes/assignments_test.ts).
        assertEquals(res.status, 200, `${method} ${path} as the survey's client`);
        await res.body?.cancel();
        continue;
      }
      assertEquals(res.status, 403, `${method} ${path} as ${role}`);
      assertEquals((await res.json()).message, "You do not have permission to do this");
    }
  }
  assertEquals(await countRows(t, "leads"), 0);
  assertEquals(await statusOf(t, survey.id), "requested");
  const [row] = await t.sql`select nearby_surveyors from surveys where id = ${survey.id}`;
  assertEquals(row.nearbySurveyors, null);
  for (const [method, path] of calls) {
    const res = await t.request(method, path, { cookie: admin.cookie });
    assertEquals(res.status, 200, `${method} ${path} as admin`);
  }
  t.close();
});

// ------------------------------------------------------------------------------- find

test("[dispatch] find-surveyors answers the spec's shape, stores it, then serves it from cache until refresh", async () => {
  const { t, admin, survey } = await setup();
  const near = await addSurveyor(t, "Barton Surveying", { miles: 3, rating: 4.8, reviewCount: 40 });
  const far = await addSurveyor(t, "Hill Country Survey", { miles: 30 });
  await addSurveyor(t, "Paused Partners", { miles: 1, status: "paused" });

  const first: FindSurveyorsResponse = await expectJson(
    await find(t, admin.cookie, survey.id),
    200,
  );
  assertEquals(first.fromCache, false);
  assertEquals(first.survey.id, survey.id);
  assertEquals(first.survey.nearbySurveyorsInfo, first.surveyors);
  assertEquals(first.surveyors.map((s) => s.surveyorId), [near.id, far.id]);
  const top = first.surveyors[0];
  assertEquals(top.name, "Barton Surveying");
  assertEquals(top.distanceMiles, 3);
  assertEquals(top.inNetwork, true);
  assertEquals(top.source, "manual");
  assertEquals(top.status, "active");
  assertEquals(top.notified, false);
  assertEquals(top.place, null);
  assert(top.score > first.surveyors[1].score);
  assert(top.score >= 0 && top.score <= 100);
  // No contact details leave with the matches.
  assert(!JSON.stringify(first).includes("@"));

  const [row] = await t.sql<{ n: number; foundAt: Date }[]>`
    select jsonb_array_length(nearby_surveyors) as n, nearby_surveyors_found_at as found_at
    from surveys where id = ${survey.id}`;
  assertEquals(row.n, 2);
  assertEquals(first.survey.nearbySurveyorsFoundAt, row.foundAt.toISOString());

  // A surveyor added now is not in the cached answer…
  const newcomer = await addSurveyor(t, "Newcomer Land Survey", { miles: 2 });
  const cached: FindSurveyorsResponse = await expectJson(
    await find(t, admin.cookie, survey.id),
    200,
  );
  assertEquals(cached.fromCache, true);
  assertEquals(cached.surveyors, first.surveyors);
  assertEquals(cached.survey.nearbySurveyorsFoundAt, first.survey.nearbySurveyorsFoundAt);
  // …until the admin refreshes.
  const fresh: FindSurveyorsResponse = await expectJson(
    await find(t, admin.cookie, survey.id, "?refresh=true"),
    200,
  );
  assertEquals(fresh.fromCache, false);
  assert(fresh.surveyors.some((s) => s.surveyorId === newcomer.id));
  const notRefreshed: FindSurveyorsResponse = await expectJson(
    await find(t, admin.cookie, survey.id, "?refresh=false"),
    200,
  );
  assertEquals(notRefreshed.fromCache, true);
  assertEquals(notRefreshed.surveyors.length, 3);
  t.close();
});

test("[dispatch] businesses from the places provider that are not records are appended as prospects; a failing provider changes nothing else", async () => {
  const place = (id: string, miles: number, name = `Place ${id}`): Place => ({
    placeId: id,
    name,
    address: "1 Congress Ave, Austin, TX 78701",
    city: "Austin",
    state: "TX",
    zip: "78701",
    ...north(miles),
    phone: null,
    website: null,
    rating: 4.5,
    reviewCount: 12,
  });
  let failing = false;
  const places: PlacesProvider = {
    name: "fake",
    nearbySurveyors(point, radiusMiles) {
      assertEquals(point, SITE);
      assertEquals(radiusMiles, 50);
      if (failing) return Promise.reject(new Error("quota exceeded"));
      return Promise.resolve([
        place("p-new", 4, "Lone Star Surveying"),
        place("p-known", 2),
        place("p-new", 4, "Lone Star Surveying"),
        place("p-far", 80),
      ]);
    },
  };
  const { t, admin, survey } = await setup({ deps: { places } });
  await addSurveyor(t, "Barton Surveying", { miles: 3 });
  await addSurveyor(t, "Converted Place", {
    miles: 2,
    placeId: "p-known",
    source: "place",
    status: "prospect",
    inNetwork: false,
  });

  const found: FindSurveyorsResponse = await expectJson(
    await find(t, admin.cookie, survey.id),
    200,
  );
  const prospects = found.surveyors.filter((s) => s.surveyorId === null);
  assertEquals(prospects.length, 1);
  const [p] = prospects as NearbySurveyorInfo[];
  assertEquals(p.name, "Lone Star Surveying");
  assertEquals(p.source, "place");
  assertEquals(p.inNetwork, false);
  assertEquals(p.status, null);
  assertEquals(p.place?.placeId, "p-new");
  assertEquals(p.distanceMiles, 4);
  // The record made from a place is listed once, as the record.
  assertEquals(found.surveyors.map((s) => s.name), [
    "Barton Surveying",
    "Converted Place",
    "Lone Star Surveying",
  ]);

  failing = true;
  const withoutPlaces: FindSurveyorsResponse = await expectJson(
    await find(t, admin.cookie, survey.id, "?refresh=true"),
    200,
  );
  assertEquals(withoutPlaces.surveyors.map((s) => s.name), ["Barton Surveying", "Converted Place"]);
  t.close();
});

test("[dispatch] an unknown, malformed, closed or unlocated survey is refused with a clear message", async () => {
  const { t, admin, client, survey } = await setup();
  for (const id of [crypto.randomUUID(), "not-a-uuid", "12345"]) {
    for (
      const [method, path] of [
        ["POST", `/api/surveys/${id}/find-surveyors`],
        ["POST", `/api/surveys/${id}/notify-surveyors`],
        ["GET", `/api/surveys/${id}/surveyors`],
      ] as const
    ) {
      const res = await t.request(method, path, { cookie: admin.cookie });
      assertEquals(
        await expectJson(res, 404),
        { message: "Survey not found" },
        `${method} ${path}`,
      );
    }
  }

  const unlocated = await submitSurvey(t, client.cookie, { lat: undefined, lng: undefined });
  for (const call of [find, notify]) {
    const res = await call(t, admin.cookie, unlocated.id);
    assertEquals(await expectJson(res, 409), { message: DISPATCH_MESSAGES.noLocation });
  }
  assertMatch(DISPATCH_MESSAGES.noLocation, /^This request has no map location yet; /);

  await t.sql`update surveys set status = 'cancelled' where id = ${survey.id}`;
  for (const call of [find, notify]) {
    const res = await call(t, admin.cookie, survey.id);
    assertEquals(await expectJson(res, 409), { message: DISPATCH_MESSAGES.cancelled });
  }
  await t.sql`update surveys set status = 'completed' where id = ${survey.id}`;
  assertEquals(
    await expectJson(await notify(t, admin.cookie, survey.id), 409),
    { message: DISPATCH_MESSAGES.completed },
  );
  // Taken by a surveyor: the matches may be looked at, but nobody more is offered the job.
  await t.sql`update surveys set status = 'assigned' where id = ${survey.id}`;
  await expectJson(await find(t, admin.cookie, survey.id), 200);
  assertEquals(
    await expectJson(await notify(t, admin.cookie, survey.id), 409),
    { message: DISPATCH_MESSAGES.taken },
  );
  assertEquals(await countRows(t, "leads"), 0);
  t.close();
});

test("[dispatch] junk input is refused and changes nothing", async () => {
  const { t, admin, survey } = await setup();
  await addSurveyor(t, "Barton Surveying", { email: "office@barton.example" });
  for (const query of ["?refresh=yes", "?refresh=true&refresh=true", "?other=1", "?refresh=%00"]) {
    const res = await find(t, admin.cookie, survey.id, query);
    assertEquals(res.status, 400, query);
    assert(typeof (await res.json()).message === "string");
  }
  for (const path of ["find-surveyors", "notify-surveyors"]) {
    for (const body of ['{"refresh":true}', "[1]", "{", '"x"']) {
      const res = await t.request("POST", `/api/surveys/${survey.id}/${path}`, {
        cookie: admin.cookie,
        body,
      });
      const json = await expectJson(res, 400);
      assert(typeof json.message === "string" && json.message.length > 0, `${path} ${body}`);
    }
  }
  const [row] = await t.sql`select nearby_surveyors, status from surveys where id = ${survey.id}`;
  assertEquals(row, { nearbySurveyors: null, status: "requested" });
  assertEquals(await countRows(t, "leads"), 0);
  assertEquals((await leadEmails(t)).length, 0);
  t.close();
});

// ----------------------------------------------------------------------------- notify

test("[dispatch] notify creates one priced lead, notifies in-network surveyors (in-app only with an account), invites prospects by email, and moves the request", async () => {
  const { t, admin, client, survey } = await setup();
  const account = await createUser(t.sql, { role: "surveyor", email: "sam@ortiz.example" });
  const linked = await addSurveyor(t, "Ortiz Land Surveying", { miles: 2, userId: account.id });
  const emailOnly = await addSurveyor(t, "Barton Surveying", {
    miles: 4,
    email: "office@barton.example",
  });
  const unreachable = await addSurveyor(t, "No Contact Survey", { miles: 6 });
  const outside = await addSurveyor(t, "Independent Surveys", {
    miles: 8,
    inNetwork: false,
    email: "hi@independent.example",
  });
  const prospect = await addSurveyor(t, "Recruit Surveying", {
    miles: 9,
    status: "prospect",
    inNetwork: false,
    email: "hello@recruit.example",
  });
  await addSurveyor(t, "Silent Prospect", { miles: 9, status: "prospect", inNetwork: false });
  await addSurveyor(t, "Paused Partners", {
    miles: 1,
    status: "paused",
    email: "p@paused.example",
  });

  // The request's creation a minute older than its dispatch (events can share a timestamp).
  await makeOlder(t.sql, "survey_events", { where: t.sql`survey_id = ${survey.id}` });
  const res = await notify(t, admin.cookie, survey.id);
  const body: NotifySurveyorsResponse = await expectJson(res, 200);

  const active = await getActivePricingConfig(t.sql);
  const expected = priceLead(active.config.lead, survey);
  const [lead] = await t.sql<
    { id: string; priceCents: number; pricing: Record<string, unknown>; maxBuyers: number }[]
  >`select id, price_cents, pricing, max_buyers from leads where survey_id = ${survey.id}`;
  assertEquals(await countRows(t, "leads"), 1);
  assertEquals(lead.priceCents, expected.priceCents);
  assertEquals(lead.pricing, { ...expected.inputs, configVersion: active.version });
  assertEquals(lead.maxBuyers, 3);
  assertEquals(body, {
    notified: 2,
    totalSurveyors: 4,
    leadPrice: expected.priceCents / 100,
    leadId: lead.id,
    invited: 2,
    // No SMTP_URL in tests: the prospects' invitations wait in the outbox, and the toast says so.
    mailDelivery: "none",
  });
  assertEquals(
    notifiedToastText(body),
    `Notified 2 surveyors · lead price $${(expected.priceCents / 100).toFixed(2)}`,
  );

  const recipients = await t.sql<{ surveyorId: string; kind: string; outcome: string }[]>`
    select surveyor_id, kind, outcome from lead_recipients where lead_id = ${lead.id}`;
  const kinds = Object.fromEntries(recipients.map((r) => [r.surveyorId, r.kind]));
  assertEquals(kinds, {
    [linked.id]: "notified",
    [emailOnly.id]: "notified",
    [outside.id]: "invited",
    [prospect.id]: "invited",
  });
  assert(!(unreachable.id in kinds), "a record nobody can reach is not counted as notified");
  assert(recipients.every((r) => r.outcome === "sent"));

  // In-app: only the linked account, pointing at the surveyor's lead page.
  const notes = await leadNotifications(t);
  assertEquals(notes.length, 1);
  assertEquals(notes[0].userId, account.id);
  assertEquals(notes[0].title, LEAD_OFFERED_TITLE);
  assertEquals(notes[0].link, `/surveyor/leads/${lead.id}`);
  assertStringIncludes(notes[0].body, "Boundary Survey in Austin, TX");

  // Email: the new-lead email to each notified address, one invitation to each prospect.
  const emails = await leadEmails(t);
  assertEquals(
    emails.map((e) => [e.template, e.toAddress]),
    [
      ["lead_invitation", "hello@recruit.example"],
      ["lead_invitation", "hi@independent.example"],
      ["new_survey_lead", "office@barton.example"],
      ["new_survey_lead", "sam@ortiz.example"],
    ],
  );
  const formula = describeLeadPrice(expected.inputs);
  for (const email of emails) {
    // The plain-text part wraps long lines.
    const text = email.text.replace(/\s+/g, " ");
    assertStringIncludes(text, `http://localhost/lead/${lead.id}`);
    assertStringIncludes(text, "Austin, TX");
    assertStringIncludes(text, formula);
    // The job, never the client: no name, phone, email, street address or private notes.
    for (const secret of ["Dana", "555-0100", "dana@example.test", "Barton Springs", "Gate code"]) {
      assert(!email.text.includes(secret), `${email.template} leaks ${secret}`);
      assert(!email.subject.includes(secret), `${email.template} subject leaks ${secret}`);
    }
  }
  assertEquals(
    emails.find((e) => e.template === "new_survey_lead")?.subject,
    "New survey lead near you: Boundary Survey in Austin, TX",
  );

  // The request moved, with its event and the client's notification.
  assertEquals(await statusOf(t, survey.id), "surveyors_notified");
  const events = await t.sql<{ fromStatus: string | null; toStatus: string; actorId: string }[]>`
    select from_status, to_status, actor_id from survey_events where survey_id = ${survey.id}
    order by created_at, id`;
  assertEquals(events.at(-1), {
    fromStatus: "requested",
    toStatus: "surveyors_notified",
    actorId: admin.user.id,
  });
  const told = await t.sql<{ title: string }[]>`
    select title from notifications where user_id = ${client.user.id}
      and kind = 'survey_status_changed'`;
  assertEquals(told.map((n) => n.title), ["Your request was sent to local surveyors"]);

  // The panel's read shows who was offered the lead, and the lead with its formula.
  const state = await expectJson(
    await t.request("GET", `/api/surveys/${survey.id}/surveyors`, { cookie: admin.cookie }),
    200,
  );
  assertEquals(state.lead.id, lead.id);
  assertEquals(state.lead.priceCents, expected.priceCents);
  assertEquals(state.lead.status, "open");
  assertEquals(state.lead.maxBuyers, 3);
  assertEquals(state.lead.formula, formula);
  assertMatch(state.foundAt, /^\d{4}-\d\d-\d\dT/);
  const flags = Object.fromEntries(
    (state.surveyors as NearbySurveyorInfo[]).map((s) => [s.name, s.notified]),
  );
  assertEquals(flags, {
    "Ortiz Land Surveying": true,
    "Barton Surveying": true,
    "No Contact Survey": false,
    "Independent Surveys": true,
    "Recruit Surveying": true,
    "Silent Prospect": false,
  });
  t.close();
});

test("[dispatch] a prospect sent a lead invitation becomes 'invited'; nobody else's status moves", async () => {
  const { t, admin, survey } = await setup();
  await addSurveyor(t, "Network Surveying", { miles: 2, email: "office@network.example" });
  const prospect = await addSurveyor(t, "Recruit Surveying", {
    miles: 3,
    status: "prospect",
    inNetwork: false,
    email: "hello@recruit.example",
  });
  const silent = await addSurveyor(t, "Silent Prospect", {
    miles: 4,
    status: "prospect",
    inNetwork: false,
  });
  const outside = await addSurveyor(t, "Independent Surveys", {
    miles: 5,
    inNetwork: false,
    email: "hi@independent.example",
  });
  const joined = await addSurveyor(t, "Joined Surveying", {
    miles: 6,
    status: "pending",
    inNetwork: false,
    email: "new@joined.example",
  });
  const statuses = async () =>
    Object.fromEntries(
      (await t.sql<{ id: string; status: string }[]>`select id, status from surveyors`)
        .map((r) => [r.id, r.status]),
    );
  const directory = async () =>
    (await expectJson(await t.request("GET", "/api/surveyors", { cookie: admin.cookie }), 200))
      .counts.byStatus;
  assertEquals((await directory()).prospect, 2);

  const body: NotifySurveyorsResponse = await expectJson(
    await notify(t, admin.cookie, survey.id),
    200,
  );
  // The firm waiting for its licence check is not matched (lib/matching.ts), so not invited.
  assertEquals([body.notified, body.invited], [1, 2]);
  const after = await statuses();
  assertEquals(after[prospect.id], "invited");
  // No email, no invitation: still a prospect. Other statuses are not the funnel's to move.
  assertEquals(after[silent.id], "prospect");
  assertEquals(after[outside.id], "active");
  assertEquals(after[joined.id], "pending");
  const [invitation] = await t.sql<{ count: number }[]>`
    select count(*)::int as count from email_outbox
    where template = 'lead_invitation' and to_address = 'hello@recruit.example'`;
  assertEquals(invitation.count, 1);
  // The directory's counts follow.
  const counts = await directory();
  assertEquals([counts.prospect, counts.invited, counts.pending], [1, 1, 1]);

  // Set back by hand, it stays a prospect when notify runs again: no new invitation was sent.
  await t.sql`update surveyors set status = 'prospect' where id = ${prospect.id}`;
  await expectJson(await notify(t, admin.cookie, survey.id), 200);
  assertEquals((await statuses())[prospect.id], "prospect");
  t.close();
});

test("[dispatch] notifying again offers the lead only to surveyors not offered it yet", async () => {
  const { t, admin, survey } = await setup();
  await addSurveyor(t, "Barton Surveying", { email: "office@barton.example" });
  await addSurveyor(t, "Recruit Surveying", {
    status: "prospect",
    inNetwork: false,
    email: "hello@recruit.example",
  });
  const first: NotifySurveyorsResponse = await expectJson(
    await notify(t, admin.cookie, survey.id),
    200,
  );
  assertEquals([first.notified, first.invited, first.totalSurveyors], [1, 1, 2]);

  const again: NotifySurveyorsResponse = await expectJson(
    await notify(t, admin.cookie, survey.id),
    200,
  );
  assertEquals(again, { ...first, notified: 0, invited: 0 });
  assertEquals((await leadEmails(t)).length, 2);
  assertEquals(await countRows(t, "leads"), 1);
  assertEquals(await countRows(t, "lead_recipients"), 2);
  const events = await t.sql`select 1 from survey_events where survey_id = ${survey.id}
    and to_status = 'surveyors_notified'`;
  assertEquals(events.length, 1);

  // A newcomer is notified once the matches are refreshed; the others are not notified twice.
  await addSurveyor(t, "Newcomer Land Survey", { email: "new@newcomer.example" });
  await expectJson(await find(t, admin.cookie, survey.id, "?refresh=true"), 200);
  const third: NotifySurveyorsResponse = await expectJson(
    await notify(t, admin.cookie, survey.id),
    200,
  );
  assertEquals([third.notified, third.invited, third.totalSurveyors], [1, 0, 3]);
  assertEquals(third.leadId, first.leadId);
  assertEquals(
    (await leadEmails(t)).map((e) => e.toAddress).sort(),
    ["hello@recruit.example", "new@newcomer.example", "office@barton.example"],
  );
  t.close();
});

test("[dispatch] two notify calls at once notify each surveyor once", async () => {
  const { t, admin, survey } = await setup();
  for (let i = 0; i < 5; i++) {
    const account = await createUser(t.sql, { role: "surveyor" });
    await addSurveyor(t, `Firm ${i}`, { miles: i + 1, userId: account.id });
  }
  // Matched first, so both calls go straight to the offers.
  await expectJson(await find(t, admin.cookie, survey.id), 200);
  const results: NotifySurveyorsResponse[] = await Promise.all(
    [0, 1, 2].map(async () => await expectJson(await notify(t, admin.cookie, survey.id), 200)),
  );
  assertEquals(results.map((r) => r.notified).reduce((a, b) => a + b), 5);
  assertEquals(new Set(results.map((r) => r.leadId)).size, 1);
  assert(results.every((r) => r.totalSurveyors === 5));
  assertEquals(await countRows(t, "leads"), 1);
  assertEquals((await leadNotifications(t)).length, 5);
  assertEquals((await leadEmails(t)).length, 5);
  const events = await t.sql`select 1 from survey_events where survey_id = ${survey.id}
    and to_status = 'surveyors_notified'`;
  assertEquals(events.length, 1, isRealPostgres ? "overlapping" : "serialised");
  t.close();
});

test("[dispatch] when nobody can be offered the request, notify says so and changes nothing", async () => {
  const { t, admin, client, survey } = await setup();
  await addSurveyor(t, "Oklahoma Only", { licenseStates: ["OK"], email: "ok@ok.example" });
  await addSurveyor(t, "Quiet Prospect", { status: "prospect", inNetwork: false });
  await addSurveyor(t, "Member Without Contact", {});
  const res = await notify(t, admin.cookie, survey.id);
  assertEquals(await expectJson(res, 409), { message: DISPATCH_MESSAGES.nobody });
  assertEquals(await statusOf(t, survey.id), "requested");
  assertEquals(await countRows(t, "leads"), 0);
  assertEquals(await countRows(t, "lead_recipients"), 0);
  const events = await t.sql`select to_status from survey_events where survey_id = ${survey.id}`;
  assertEquals(events.map((e) => e.toStatus), ["requested"]);
  const told = await t.sql`select 1 from notifications where user_id = ${client.user.id}
    and kind = 'survey_status_changed'`;
  assertEquals(told.length, 0);
  assertEquals((await leadEmails(t)).length, 0);

  // Only a prospect with an email: invited, but the request is not "sent to surveyors".
  await addSurveyor(t, "Recruit Surveying", {
    status: "prospect",
    inNetwork: false,
    email: "hello@recruit.example",
  });
  await expectJson(await find(t, admin.cookie, survey.id, "?refresh=true"), 200);
  const invitedOnly: NotifySurveyorsResponse = await expectJson(
    await notify(t, admin.cookie, survey.id),
    200,
  );
  assertEquals([invitedOnly.notified, invitedOnly.invited], [0, 1]);
  assertEquals(await statusOf(t, survey.id), "requested");
  assertEquals(
    (await t.sql`select 1 from notifications where user_id = ${client.user.id}`).length,
    0,
  );
  t.close();
});

test("[dispatch] the panel's read before any search: no matches, no lead", async () => {
  const { t, admin, survey } = await setup();
  const res = await t.request("GET", `/api/surveys/${survey.id}/surveyors`, {
    cookie: admin.cookie,
  });
  assertEquals(await expectJson(res, 200), {
    surveyors: [],
    lead: null,
    foundAt: null,
    buyers: [],
    assignment: null,
  });
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  t.close();
});

// --------------------------------------------------------------------- automatic dispatch

test("[dispatch] automatic dispatch notifies the matches once, however often it runs", async () => {
  const { t, survey } = await setup();
  const account = await createUser(t.sql, { role: "surveyor" });
  await addSurveyor(t, "Ortiz Land Surveying", { userId: account.id });
  await addSurveyor(t, "Independent Surveys", { inNetwork: false, email: "hi@ind.example" });
  const deps = { sql: t.sql, config: t.deps.config };
  assertEquals(await dispatchSurvey(deps, { surveyId: survey.id }), { matched: 1, notified: 1 });
  assertEquals(await dispatchSurvey(deps, { surveyId: survey.id }), { matched: 1, notified: 0 });
  assertEquals((await leadNotifications(t)).map((n) => n.userId), [account.id]);
  assertEquals(await statusOf(t, survey.id), "surveyors_notified");
  const [event] = await t.sql`select actor_id from survey_events where survey_id = ${survey.id}
    and to_status = 'surveyors_notified'`;
  assertEquals(event.actorId, null);
  assertEquals((await leadEmails(t)).length, 2);
  t.close();
});

test("[dispatch] automatic dispatch with nobody in the network tells the admins once and leaves the request", async () => {
  const { t, admin, client, survey } = await setup();
  const otherAdmin = await createUser(t.sql, { role: "admin" });
  await addSurveyor(t, "Independent Surveys", { inNetwork: false, email: "hi@ind.example" });
  const deps = { sql: t.sql, config: t.deps.config };
  for (let run = 0; run < 2; run++) {
    assertEquals(await dispatchSurvey(deps, { surveyId: survey.id }), { matched: 0, notified: 0 });
  }
  const notes = await t.sql<{ userId: string; title: string; link: string }[]>`
    select user_id, title, link from notifications where kind = 'dispatch_unmatched'
    order by user_id`;
  assertEquals(
    notes.map((n) => n.userId).sort(),
    [admin.user.id, otherAdmin.id].sort(),
  );
  assert(notes.every((n) => n.title === "No surveyor covers Austin, TX"));
  assert(notes.every((n) => n.link === `/survey/${survey.id}`));
  assertEquals(await statusOf(t, survey.id), "requested");
  assertEquals(await countRows(t, "leads"), 0);
  assertEquals((await leadEmails(t)).length, 0);

  // In the network but unreachable (no email, no account): the admins are told too.
  const second = await submitSurvey(t, client.cookie);
  await addSurveyor(t, "Member Without Contact", {});
  assertEquals(await dispatchSurvey(deps, { surveyId: second.id }), { matched: 1, notified: 0 });
  const [secondNote] = await t.sql`select count(*)::int as n from notifications
    where kind = 'dispatch_unmatched' and link = ${`/survey/${second.id}`}`;
  assertEquals(secondNote.n, 2);
  assertEquals(await statusOf(t, second.id), "requested");

  // A request without a location: the admins are told why, by its address.
  const unlocated: Survey = await submitSurvey(t, client.cookie, {
    lat: undefined,
    lng: undefined,
    formattedAddress: undefined,
    address: "Lot 7, County Road 12",
  });
  assertEquals(await dispatchSurvey(deps, { surveyId: unlocated.id }), { matched: 0, notified: 0 });
  const [unlocatedNote] = await t.sql<{ title: string; body: string }[]>`
    select title, body from notifications where kind = 'dispatch_unmatched'
    and link = ${`/survey/${unlocated.id}`} limit 1`;
  assertEquals(unlocatedNote.title, "No surveyor covers Lot 7, County Road 12");
  assertStringIncludes(unlocatedNote.body, "no map location");

  // Gone or cancelled: nothing to do, nothing thrown.
  await t.sql`update surveys set status = 'cancelled' where id = ${survey.id}`;
  assertEquals(await dispatchSurvey(deps, { surveyId: survey.id }), { matched: 0, notified: 0 });
  assertEquals(
    await dispatchSurvey(deps, { surveyId: crypto.randomUUID() }),
    { matched: 0, notified: 0 },
  );
  t.close();
});

test("[dispatch] a place converted from the panel reads as its record afterwards: no Convert on reload, and notify reaches it", async () => {
  const lonePlace: Place = {
    placeId: "p-lone",
    name: "Lone Star Surveying",
    address: "1 Congress Ave, Austin, TX 78701",
    city: "Austin",
    state: "TX",
    zip: "78701",
    ...north(4),
    phone: null,
    website: null,
    rating: 4.5,
    reviewCount: 12,
  };
  const places: PlacesProvider = {
    name: "fake",
    nearbySurveyors: () => Promise.resolve([lonePlace]),
  };
  const { t, admin, survey } = await setup({ deps: { places } });
  await addSurveyor(t, "Barton Surveying", { miles: 3, email: "barton@survey.example" });
  const first: FindSurveyorsResponse = await expectJson(
    await find(t, admin.cookie, survey.id),
    200,
  );
  assertEquals(first.surveyors.map((s) => [s.name, s.surveyorId === null]), [
    ["Barton Surveying", false],
    ["Lone Star Surveying", true],
  ]);
  const page = async () =>
    await (await t.request("GET", `/survey/${survey.id}`, { cookie: admin.cookie })).text();
  assertStringIncludes(await page(), "Lone Star Surveying to a surveyor record");

  const converted = await expectJson(
    await t.request("POST", "/api/convert-place-to-surveyor", {
      cookie: admin.cookie,
      body: lonePlace,
    }),
    201,
  );
  const recordId: string = converted.surveyor.id;
  await t.sql`update surveyors set email = 'lone@survey.example', company_name = 'Lone Star LLC'
    where id = ${recordId}`;

  const lone = (list: NearbySurveyorInfo[]) => list.find((s) => s.distanceMiles === 4)!;
  const read = await expectJson(
    await t.request("GET", `/api/surveys/${survey.id}/surveyors`, { cookie: admin.cookie }),
    200,
  );
  assertEquals(lone(read.surveyors), {
    ...lone(first.surveyors),
    surveyorId: recordId,
    name: "Lone Star LLC",
    inNetwork: false,
    status: "prospect",
    place: null,
  });
  const cached: FindSurveyorsResponse = await expectJson(
    await find(t, admin.cookie, survey.id),
    200,
  );
  assertEquals(cached.fromCache, true);
  assertEquals(lone(cached.surveyors).surveyorId, recordId);
  assertEquals(lone(cached.survey.nearbySurveyorsInfo).place, null);
  const html = await page();
  assert(!html.includes("to a surveyor record"), "no Convert button after a reload");
  assertStringIncludes(html, `/surveyor-detail/${recordId}`);

  const notified: NotifySurveyorsResponse = await expectJson(
    await notify(t, admin.cookie, survey.id),
    200,
  );
  assertEquals([notified.notified, notified.invited], [1, 1]);
  assertEquals(
    (await leadEmails(t)).map((e) => [e.template, e.toAddress]),
    [["lead_invitation", "lone@survey.example"], ["new_survey_lead", "barton@survey.example"]],
  );
  const after = await expectJson(
    await t.request("GET", `/api/surveys/${survey.id}/surveyors`, { cookie: admin.cookie }),
    200,
  );
  assertEquals(lone(after.surveyors).notified, true);
  t.close();
});
