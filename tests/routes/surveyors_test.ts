import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { expectJson, submitSurvey } from "../_fixtures.ts";
import { addContact, getSurveyor, insertSurveyor } from "../../db/surveyors.ts";
import { listAuditEvents } from "../../db/audit.ts";
import { MAX_CONTACTS, type Surveyor } from "../../lib/surveyor_schema.ts";

const MISSING = "00000000-0000-4000-8000-000000000000";

/** Every surveyor endpoint with a valid body, for the guard checks. */
function endpoints(id: string): [string, string, unknown?][] {
  return [
    ["GET", "/api/surveyors"],
    ["POST", "/api/surveyors", { companyName: "Sneaky Surveys" }],
    ["GET", `/api/surveyors/${id}`],
    ["PATCH", `/api/surveyors/${id}`, { companyName: "Renamed" }],
    ["POST", `/api/surveyors/${id}/contact-history`, { channel: "note", summary: "Hi" }],
    ["POST", `/api/surveyors/${id}/contacts`, { name: "Eve" }],
    ["PATCH", `/api/surveyors/${id}/contacts/0`, { name: "Eve" }],
    ["DELETE", `/api/surveyors/${id}/contacts/0`],
    ["GET", `/api/surveys/by-surveyor/${id}`],
    ["POST", "/api/convert-place-to-surveyor", { placeId: "p1", name: "X", lat: 30, lng: -97 }],
  ];
}

/** Everything the surveyor API can change, as one comparable value. */
async function state(t: TestApp) {
  const surveyors = await t.sql`
    select id, company_name, service_radius_miles, contacts::text, updated_at from surveyors
    order by id`;
  const [{ n }] = await t.sql<{ n: number }[]>`
    select count(*)::int as n from surveyor_contact_history`;
  return { surveyors: JSON.stringify(surveyors), history: n };
}

async function seeded(t: TestApp): Promise<Surveyor> {
  const s = await insertSurveyor(t.sql, {
    companyName: "Acme Surveying",
    city: "Austin",
    state: "TX",
    surveyTypes: ["boundary"],
    serviceRadiusMiles: 40,
  });
  return (await addContact(t.sql, { id: s.id, contact: { name: "Ann Office" } }))!;
}

test("[surveyors api] signed out is 401 and other roles 403 on every endpoint; nothing changes", async () => {
  const t = await createTestApp();
  const s = await seeded(t);
  const before = await state(t);
  const cookies = {
    client: await signInAs(t, "client"),
    surveyor: await signInAs(t, "surveyor"),
    technician: await signInAs(t, "technician"),
  };
  for (const [method, path, body] of endpoints(s.id)) {
    const out = await expectJson(await t.request(method, path, { body }), 401);
    assert(out.message, `${method} ${path}`);
    for (const [role, cookie] of Object.entries(cookies)) {
      const res = await t.request(method, path, { body, cookie });
      assertEquals(res.status, 403, `${method} ${path} as ${role}`);
      assertEquals((await res.json()).message, "You do not have permission to do this");
    }
  }
  assertEquals(await state(t), before);
  t.close();
});

test("[surveyors api] an admin creates a surveyor, finds it in the directory and opens it", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const created = await expectJson(
    await t.request("POST", "/api/surveyors", {
      cookie: admin,
      body: {
        companyName: "Hill Country Surveying",
        city: "Austin",
        state: "TX",
        email: "",
        lat: 30.25,
        lng: -97.75,
        surveyTypes: ["boundary", "alta"],
        status: "active",
        inNetwork: true,
      },
    }),
    201,
  );
  assertEquals(created.message, "Surveyor created");
  assertEquals(created.surveyor.companyName, "Hill Country Surveying");
  assertEquals(created.surveyor.email, null);
  assertEquals(created.surveyor.source, "manual");
  assertEquals(created.surveyor.serviceRadiusMiles, 50);
  await insertSurveyor(t.sql, { companyName: "Prairie Plats", city: "Wichita", state: "KS" });

  const res = await t.request("GET", "/api/surveyors?q=austin&inNetworkOnly=true", {
    cookie: admin,
  });
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  const list = await expectJson(res, 200);
  assertEquals(list.surveyors.map((s: Surveyor) => s.companyName), ["Hill Country Surveying"]);
  assertEquals(list.total, 1);
  assertEquals(list.page, 1);
  assertEquals(list.pageSize, 25);
  assertEquals(list.counts.total, 1);
  const everyone = await expectJson(
    await t.request("GET", "/api/surveyors", { cookie: admin }),
    200,
  );
  assertEquals(everyone.counts, {
    total: 2,
    inNetwork: 1,
    byStatus: { prospect: 1, invited: 0, pending: 0, active: 1, paused: 0 },
  });

  const detailRes = await t.request("GET", `/api/surveyors/${created.surveyor.id}`, {
    cookie: admin,
  });
  assertEquals(detailRes.headers.get("cache-control"), "private, no-store");
  const detail = await expectJson(detailRes, 200);
  assertEquals(detail.surveyor, created.surveyor);
  assertEquals(detail.history, []);
  t.close();
});

test("[surveyors api] an unknown or malformed surveyor id is a 404 everywhere", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  await seeded(t);
  const before = await state(t);
  for (const id of [MISSING, "not-a-uuid", "12345"]) {
    for (const [method, path, body] of endpoints(id)) {
      if (!path.includes(id)) continue;
      const out = await expectJson(await t.request(method, path, { body, cookie: admin }), 404);
      assertEquals(out.message, "Surveyor not found", `${method} ${path}`);
    }
  }
  assertEquals(await state(t), before);
  t.close();
});

test("[surveyors api] an update changes the given fields; bad values are 400 and change nothing", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const s = await seeded(t);
  const patch = (body: unknown) =>
    t.request("PATCH", `/api/surveyors/${s.id}`, { cookie: admin, body });

  const before = await state(t);
  const bad: [unknown, string][] = [
    [{ serviceRadiusMiles: -5 }, "Service radius must be at least 1 mile"],
    [{ serviceRadiusMiles: 301 }, "Service radius must be at most 300 miles"],
    [{ serviceRadiusMiles: "40" }, "Service radius must be a number"],
    [{ companyName: "x".repeat(10_000) }, "Company name must be at most 200 characters"],
    [{ notes: "y".repeat(10_000) }, "Notes must be at most 4000 characters"],
    [{ inNetwork: "yes" }, "In-network must be true or false"],
    [{ status: "retired" }, "Unknown status"],
    [{ lat: 30 }, "Give both latitude and longitude, or neither"],
    [{ surveyTypes: ["boundary", "moon"] }, "Unknown survey type"],
    [{}, "Nothing to update"],
    [{ companyName: "Fine", id: MISSING }, ""],
  ];
  for (const [body, message] of bad) {
    const out = await expectJson(await patch(body), 400);
    if (message) assertEquals(out.message, message, JSON.stringify(body).slice(0, 80));
  }
  assertEquals(await state(t), before);

  const ok = await expectJson(
    await patch({ serviceRadiusMiles: 120, status: "active", city: "", surveyTypes: ["alta"] }),
    200,
  );
  assertEquals(ok.message, "Surveyor updated");
  assertEquals(ok.surveyor.serviceRadiusMiles, 120);
  assertEquals(ok.surveyor.status, "active");
  assertEquals(ok.surveyor.city, null);
  assertEquals(ok.surveyor.surveyTypes, ["alta"]);
  assertEquals(ok.surveyor.companyName, "Acme Surveying");
  assertEquals(ok.surveyor.contacts, s.contacts);
  assertEquals(await getSurveyor(t.sql, { id: s.id }), ok.surveyor);
  t.close();
});

test("[surveyors api] contacts are added, edited and removed by index", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const s = await seeded(t);
  const base = `/api/surveyors/${s.id}/contacts`;

  const added = await expectJson(
    await t.request("POST", base, {
      cookie: admin,
      body: { name: "Sam Field", title: "Party chief", email: "sam@example.com", isPrimary: true },
    }),
    201,
  );
  assertEquals(added.message, "Contact added");
  assertEquals(added.surveyor.contacts.map((c: { name: string }) => c.name), [
    "Ann Office",
    "Sam Field",
  ]);
  assertEquals(added.surveyor.contacts[1].isPrimary, true);

  const updated = await expectJson(
    await t.request("PATCH", `${base}/0`, {
      cookie: admin,
      body: { phone: "512-555-0100", isPrimary: true },
    }),
    200,
  );
  assertEquals(updated.message, "Contact updated");
  assertEquals(updated.surveyor.contacts, [
    { name: "Ann Office", title: null, email: null, phone: "512-555-0100", isPrimary: true },
    {
      name: "Sam Field",
      title: "Party chief",
      email: "sam@example.com",
      phone: null,
      isPrimary: false,
    },
  ]);

  const removed = await expectJson(await t.request("DELETE", `${base}/0`, { cookie: admin }), 200);
  assertEquals(removed.message, "Contact removed");
  assertEquals(removed.surveyor.contacts.map((c: { name: string }) => c.name), ["Sam Field"]);
  t.close();
});

test("[surveyors api] a contact index out of range is 404, a malformed one 400; nothing changes", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const s = await seeded(t);
  const before = await state(t);
  for (const index of ["1", "7", "999999999"]) {
    for (const [method, body] of [["PATCH", { name: "X" }], ["DELETE", undefined]] as const) {
      const out = await expectJson(
        await t.request(method, `/api/surveyors/${s.id}/contacts/${index}`, {
          cookie: admin,
          body,
        }),
        404,
      );
      assertEquals(out.message, "Contact not found", `${method} ${index}`);
    }
  }
  for (const index of ["-1", "1.5", "abc", "1e3", "0x1"]) {
    for (const [method, body] of [["PATCH", { name: "X" }], ["DELETE", undefined]] as const) {
      const out = await expectJson(
        await t.request(method, `/api/surveyors/${s.id}/contacts/${index}`, {
          cookie: admin,
          body,
        }),
        400,
      );
      assertEquals(out.message, "Contact index must be a whole number of 0 or more");
    }
  }
  // A bad contact body is refused before any index is looked at.
  for (
    const body of [
      { name: "" },
      { email: "not an email" },
      { name: "z".repeat(10_000) },
      { isPrimary: "true" },
      {},
    ]
  ) {
    await expectJson(
      await t.request("PATCH", `/api/surveyors/${s.id}/contacts/0`, { cookie: admin, body }),
      400,
    );
    await expectJson(
      await t.request("POST", `/api/surveyors/${s.id}/contacts`, { cookie: admin, body }),
      400,
    );
  }
  assertEquals(await state(t), before);
  t.close();
});

test("[surveyors api] a full contact list answers 409 and keeps its contacts", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const s = await seeded(t);
  for (let i = 1; i < MAX_CONTACTS; i++) {
    await addContact(t.sql, { id: s.id, contact: { name: `Person ${i}` } });
  }
  const before = await state(t);
  const out = await expectJson(
    await t.request("POST", `/api/surveyors/${s.id}/contacts`, {
      cookie: admin,
      body: { name: "One too many" },
    }),
    409,
  );
  assertEquals(
    out.message,
    `A surveyor can have at most ${MAX_CONTACTS} contacts. Remove one first.`,
  );
  assertEquals(await state(t), before);
  t.close();
});

test("[surveyors api] contact history is added by the admin and shown newest first", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const s = await seeded(t);
  const url = `/api/surveyors/${s.id}/contact-history`;
  const first = await expectJson(
    await t.request("POST", url, {
      cookie,
      body: { channel: "call", summary: "Left a voicemail", nextFollowUp: "2030-02-01" },
    }),
    201,
  );
  assertEquals(first.message, "Contact history added");
  assertEquals(first.entry.authorName, user.fullName);
  assertEquals(first.entry.nextFollowUp, "2030-02-01");
  // Distinct times (the history is append-only, so not by an update): two entries in a row can
  // share a timestamp, and a tie is ordered by id, which says nothing of which came first.
  await new Promise((resolve) => setTimeout(resolve, 2));
  await t.sql`
    insert into surveyor_contact_history (surveyor_id, channel, summary, author_id, created_at)
    values (${s.id}, 'email', 'Older note', ${user.id}, now() - interval '1 day')`;
  const second = await expectJson(
    await t.request("POST", url, {
      cookie,
      body: { channel: "meeting", summary: "Met at the office\n\tTuesday", outcome: "Signed up" },
    }),
    201,
  );
  const detail = await expectJson(
    await t.request("GET", `/api/surveyors/${s.id}`, { cookie }),
    200,
  );
  assertEquals(
    detail.history.map((h: { summary: string }) => h.summary),
    [second.entry.summary, "Left a voicemail", "Older note"],
  );

  const before = await state(t);
  for (
    const body of [
      { channel: "fax", summary: "x" },
      { channel: "call", summary: "" },
      { channel: "call", summary: "s".repeat(10_000) },
      { channel: "call", summary: "x", nextFollowUp: "next week" },
      { channel: "call", summary: "x", extra: true },
      { channel: 3, summary: "x" },
    ]
  ) {
    await expectJson(await t.request("POST", url, { cookie, body }), 400);
  }
  assertEquals(await state(t), before);
  t.close();
});

test("[surveyors api] a surveyor's work lists their surveys and leads without the client's details", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const client = await createSignedInUser(t, { role: "client", fullName: "Carla Private" });
  const s = await seeded(t);
  const survey = await submitSurvey(t, client.cookie);
  await t.sql`update surveys set assigned_surveyor_id = ${s.id} where id = ${survey.id}`;
  const [lead] = await t.sql<{ id: string }[]>`
    insert into leads (survey_id, price_cents, pricing, expires_at)
    values (${survey.id}, 3850, '{}'::jsonb, now() + interval '7 days') returning id`;
  await t.sql`insert into lead_recipients (lead_id, surveyor_id, kind)
    values (${lead.id}, ${s.id}, 'notified')`;

  const res = await t.request("GET", `/api/surveys/by-surveyor/${s.id}`, { cookie: admin });
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  const work = await expectJson(res, 200);
  assertEquals(work.surveyor, { id: s.id, companyName: "Acme Surveying" });
  assertEquals(work.surveys.map((x: { id: string }) => x.id), [survey.id]);
  assertEquals(work.leads.length, 1);
  assertEquals(work.leads[0].leadId, lead.id);
  assertEquals(work.leads[0].priceCents, 3850);
  assertEquals(work.leads[0].outcome, "sent");
  const text = JSON.stringify(work);
  for (
    const secret of [survey.contactName, survey.contactPhone, client.user.email, survey.address]
  ) {
    assert(secret && !text.includes(secret), `the work list shows ${secret}`);
  }
  t.close();
});

test("[surveyors api] converting a place makes a prospect once; again answers the same record", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const place = {
    placeId: "ChIJ-route-test",
    name: "Capitol Land Surveys",
    address: "100 Congress Ave, Austin, TX 78701, USA",
    city: "Austin",
    state: "TX",
    zip: "78701",
    lat: 30.2672,
    lng: -97.7431,
    phone: "(512) 555-0100",
    website: "https://capitol.example",
    rating: 4.5,
    reviewCount: 20,
  };
  const convert = (body: unknown) =>
    t.request("POST", "/api/convert-place-to-surveyor", { cookie: admin, body });
  const first = await expectJson(await convert(place), 201);
  assertEquals(first.message, "Place converted to a surveyor prospect");
  assertEquals(first.surveyor.status, "prospect");
  assertEquals(first.surveyor.source, "place");
  assertEquals(first.surveyor.inNetwork, false);
  assertEquals(first.surveyor.placeId, place.placeId);
  const again = await expectJson(await convert({ ...place, name: "Another name" }), 200);
  assertEquals(again.message, "This place is already in the directory");
  assertEquals(again.surveyor, first.surveyor);

  const before = await state(t);
  for (
    const body of [
      { ...place, placeId: "new-1", lat: 95 },
      { ...place, placeId: "new-2", lat: "30" },
      { ...place, placeId: "", name: "x" },
      { ...place, placeId: "new-3", name: "n".repeat(10_000) },
      { ...place, placeId: "new-4", state: "ZZ" },
      { ...place, placeId: "new-5", rating: 7 },
      { placeId: "new-6", name: "No location" },
    ]
  ) {
    await expectJson(await convert(body), 400);
  }
  assertEquals(await state(t), before);
  t.close();
});

test("[surveyors api] bad directory queries are 400", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  for (
    const query of [
      "pageSize=1000",
      "page=0",
      "page=abc",
      "inNetworkOnly=yes",
      "state=ZZ",
      "surveyType=moon",
      "status=retired",
      `q=${"q".repeat(10_000)}`,
      "unknown=1",
    ]
  ) {
    const res = await t.request("GET", `/api/surveyors?${query}`, { cookie: admin });
    assertEquals(res.status, 400, query.slice(0, 40));
    assertMatch(res.headers.get("content-type") ?? "", /^application\/json/);
    assert((await res.json()).message);
  }
  t.close();
});

test("[surveyors api] creating and updating a surveyor is audited with the admin; refusals are not", async () => {
  const t = await createTestApp();
  const { user: admin, cookie } = await createSignedInUser(t, { role: "admin" });
  const audited = async () =>
    (await listAuditEvents(t.sql, { userId: admin.id }))
      .filter((e) => e.event.startsWith("surveyor_"))
      .map((e) => ({ event: e.event, details: e.details }));

  const created = await expectJson(
    await t.request("POST", "/api/surveyors", { cookie, body: { companyName: "Audit Surveys" } }),
    201,
  );
  const id = created.surveyor.id;
  await expectJson(
    await t.request("POST", "/api/surveyors", { cookie, body: { companyName: "" } }),
    400,
  );
  await expectJson(
    await t.request("PATCH", `/api/surveyors/${id}`, { cookie, body: { serviceRadiusMiles: -1 } }),
    400,
  );
  await expectJson(
    await t.request("PATCH", `/api/surveyors/${MISSING}`, { cookie, body: { notes: "x" } }),
    404,
  );
  assertEquals(await audited(), [
    { event: "surveyor_created", details: { surveyorId: id, companyName: "Audit Surveys" } },
  ]);

  await expectJson(
    await t.request("PATCH", `/api/surveyors/${id}`, {
      cookie,
      body: { status: "active", serviceRadiusMiles: 80 },
    }),
    200,
  );
  assertEquals(await audited(), [
    { event: "surveyor_updated", details: { surveyorId: id, fields: "serviceRadiusMiles,status" } },
    { event: "surveyor_created", details: { surveyorId: id, companyName: "Audit Surveys" } },
  ]);
  t.close();
});
