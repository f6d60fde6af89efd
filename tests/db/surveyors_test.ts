import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { resetDatabase, test, testDatabase } from "../_helpers.ts";
import { createUser } from "../_auth.ts";
import { townFromAddress } from "../../lib/address_parts.ts";
import { generateDemoSurveyors, loadDemoCities } from "../../lib/demo_network.ts";
import { insertGeneratedSurveyors } from "../../lib/cli/seed.ts";
import { toSurveyorRow } from "../../islands/_surveyor_shared.ts";
import {
  addContact,
  addContactHistory,
  getSurveyor,
  getSurveyorByPlaceId,
  getSurveyorByUserId,
  insertSurveyor,
  insertSurveyorFromPlace,
  listContactHistory,
  listSurveyorDirectory,
  listSurveyorLocations,
  listSurveyors,
  listSurveyorWork,
  removeContact,
  TooManyContactsError,
  updateContact,
  updateSurveyor,
} from "../../db/surveyors.ts";
import {
  MAX_CONTACTS,
  type Place,
  SURVEYOR_STATUSES,
  SurveyorListQuerySchema,
} from "../../lib/surveyor_schema.ts";

async function freshDb() {
  const db = await testDatabase();
  await resetDatabase(db.sql);
  return db.sql;
}

const MISSING = "00000000-0000-4000-8000-000000000000";

function query(input: Record<string, string> = {}) {
  return SurveyorListQuerySchema.parse(input);
}

const place: Place = {
  placeId: "ChIJ-test-place-1",
  name: "Lone Star Land Surveying",
  address: "100 Congress Ave, Austin, TX 78701, USA",
  city: "Austin",
  state: "TX",
  zip: "78701",
  lat: 30.2672,
  lng: -97.7431,
  phone: "(512) 555-0100",
  website: "https://lonestar.example",
  rating: 4.6,
  reviewCount: 31,
};

test("[surveyors] an inserted surveyor reads back with its defaults", async () => {
  const sql = await freshDb();
  const s = await insertSurveyor(sql, {
    companyName: "Acme Surveying",
    licenseStates: ["TX", "OK"],
    surveyTypes: ["boundary", "alta"],
    lat: 30,
    lng: -97,
  });
  assertEquals(s.status, "prospect");
  assertEquals(s.source, "manual");
  assertEquals(s.inNetwork, false);
  assertEquals(s.serviceRadiusMiles, 50);
  assertEquals(s.licenseStates, ["TX", "OK"]);
  assertEquals(s.surveyTypes, ["boundary", "alta"]);
  assertEquals(s.contacts, []);
  assertEquals(await getSurveyor(sql, { id: s.id }), s);
  assertEquals(await getSurveyor(sql, { id: MISSING }), undefined);
  assertEquals(await getSurveyor(sql, { id: "not-a-uuid" }), undefined);
});

test("[surveyors] a record is found by its account", async () => {
  const sql = await freshDb();
  const user = await createUser(sql, { role: "surveyor" });
  const s = await insertSurveyor(sql, { companyName: "Mine", userId: user.id, source: "signup" });
  assertEquals((await getSurveyorByUserId(sql, { userId: user.id }))?.id, s.id);
  assertEquals(await getSurveyorByUserId(sql, { userId: MISSING }), undefined);
  assertEquals(await getSurveyorByUserId(sql, { userId: "x" }), undefined);
});

test("[surveyors] an update sets only the given fields, clears nulls and moves updated_at", async () => {
  const sql = await freshDb();
  const s = await insertSurveyor(sql, {
    companyName: "Acme",
    email: "a@example.com",
    city: "Austin",
    surveyTypes: ["boundary"],
  });
  const updated = await updateSurveyor(sql, {
    id: s.id,
    update: { email: null, surveyTypes: [], status: "active", inNetwork: true },
  });
  assert(updated);
  assertEquals(updated.email, null);
  assertEquals(updated.city, "Austin");
  assertEquals(updated.surveyTypes, []);
  assertEquals(updated.status, "active");
  assertEquals(updated.inNetwork, true);
  assert(updated.updatedAt >= s.updatedAt);
  assertEquals(await updateSurveyor(sql, { id: MISSING, update: { city: "X" } }), undefined);
});

test("[surveyors] the directory searches name and city, filters, pages and counts", async () => {
  const sql = await freshDb();
  await insertSurveyor(sql, {
    companyName: "bravo Surveys",
    city: "Austin",
    state: "TX",
    surveyTypes: ["boundary"],
    status: "active",
    inNetwork: true,
  });
  await insertSurveyor(sql, {
    companyName: "Alpha Land",
    city: "Dallas",
    state: "TX",
    surveyTypes: ["alta"],
  });
  await insertSurveyor(sql, {
    companyName: "Charlie 50% Off",
    city: "Denver",
    state: "CO",
    surveyTypes: ["boundary"],
    status: "paused",
  });
  await insertSurveyor(sql, {
    companyName: "Delta Austin Mapping",
    city: "Boise",
    state: "ID",
    status: "active",
    inNetwork: true,
  });

  const all = await listSurveyors(sql, query());
  assertEquals(all.surveyors.map((s) => s.companyName), [
    "Alpha Land",
    "bravo Surveys",
    "Charlie 50% Off",
    "Delta Austin Mapping",
  ]);
  assertEquals(all.total, 4);
  assertEquals(all.counts, {
    total: 4,
    inNetwork: 2,
    byStatus: { prospect: 1, invited: 0, pending: 0, active: 2, paused: 1 },
  });

  // By city or by name, case-insensitively; LIKE wildcards are literal.
  const austin = await listSurveyors(sql, query({ q: "AUSTIN" }));
  assertEquals(austin.surveyors.map((s) => s.companyName), [
    "bravo Surveys",
    "Delta Austin Mapping",
  ]);
  assertEquals((await listSurveyors(sql, query({ q: "50%" }))).total, 1);
  assertEquals((await listSurveyors(sql, query({ q: "5_%" }))).total, 0);

  // State and type filters narrow the counts; status and in-network only the list.
  const tx = await listSurveyors(sql, query({ state: "TX", inNetworkOnly: "true" }));
  assertEquals(tx.surveyors.map((s) => s.companyName), ["bravo Surveys"]);
  assertEquals(tx.total, 1);
  assertEquals(tx.counts.total, 2);
  assertEquals(tx.counts.inNetwork, 1);
  const boundary = await listSurveyors(sql, query({ surveyType: "boundary", status: "paused" }));
  assertEquals(boundary.surveyors.map((s) => s.companyName), ["Charlie 50% Off"]);
  assertEquals(boundary.counts.byStatus, {
    prospect: 0,
    invited: 0,
    pending: 0,
    active: 1,
    paused: 1,
  });

  // Pages.
  const page2 = await listSurveyors(sql, query({ page: "2", pageSize: "3" }));
  assertEquals(page2.surveyors.map((s) => s.companyName), ["Delta Austin Mapping"]);
  assertEquals(page2.total, 4);
  assertEquals(page2.page, 2);
  assertEquals(page2.pageSize, 3);
  assertEquals((await listSurveyors(sql, query({ page: "9" }))).surveyors, []);
});

test("[surveyors] every page, read from either end, follows the directory's order", async () => {
  const sql = await freshDb();
  const names = ["delta", "Alpha", "echo", "Bravo", "charlie", "Foxtrot", "golf", "alpha"];
  for (const [i, companyName] of names.entries()) {
    await insertSurveyor(sql, { companyName, status: i % 2 ? "active" : "prospect" });
  }
  const expected = [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  for (const pageSize of [1, 2, 3, 5, 8]) {
    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil(names.length / pageSize); page++) {
      const r = await listSurveyors(sql, query({ page: String(page), pageSize: String(pageSize) }));
      seen.push(...r.surveyors.map((s) => s.companyName));
    }
    // The two "alpha"s tie on the name and are ordered by id: compare case-insensitively.
    assertEquals(seen.map((n) => n.toLowerCase()), expected.map((n) => n.toLowerCase()));
    assertEquals(new Set(seen).size, names.length, `page size ${pageSize}`);
  }
  const active = await listSurveyors(sql, query({ status: "active", page: "2", pageSize: "3" }));
  assertEquals(active.surveyors.map((s) => s.companyName), ["Foxtrot"]);
});

test("[surveyors] the directory counts stay exact through inserts, updates and deletes", async () => {
  const sql = await freshDb();
  const a = await insertSurveyor(sql, { companyName: "A", state: "TX", surveyTypes: ["alta"] });
  const b = await insertSurveyor(sql, {
    companyName: "B",
    state: "TX",
    surveyTypes: ["alta", "boundary", "alta"],
    status: "active",
    inNetwork: true,
  });
  await insertSurveyor(sql, { companyName: "C", surveyTypes: [] });
  await updateSurveyor(sql, { id: a.id, update: { state: "OK", status: "paused" } });
  await updateSurveyor(sql, { id: b.id, update: { surveyTypes: ["boundary"] } });
  await addContact(sql, { id: b.id, contact: { name: "Touches the row, not the counts" } });
  await sql`delete from surveyors where company_name = 'C'`;
  // Each filter's counts equal a direct count of the rows.
  const filters: Record<string, string>[] = [
    {},
    { state: "TX" },
    { state: "OK" },
    { surveyType: "alta" },
    { surveyType: "boundary" },
    { state: "TX", surveyType: "boundary", status: "active", inNetworkOnly: "true" },
  ];
  for (const f of filters) {
    const r = await listSurveyors(sql, query(f));
    const [direct] = await sql<
      { all: number; inNetwork: number; active: number; paused: number }[]
    >`
      select count(*)::int as all, count(*) filter (where in_network)::int as in_network,
        count(*) filter (where status = 'active')::int as active,
        count(*) filter (where status = 'paused')::int as paused
      from surveyors
      where (${f.state ?? null}::text is null or state = ${f.state ?? null})
        and (${f.surveyType ?? null}::text is null or ${f.surveyType ?? null} = any(survey_types))`;
    const label = JSON.stringify(f);
    assertEquals(r.counts.total, direct.all, label);
    assertEquals(r.counts.inNetwork, direct.inNetwork, label);
    assertEquals(r.counts.byStatus.active, direct.active, label);
    assertEquals(r.counts.byStatus.paused, direct.paused, label);
  }
  const all = await listSurveyors(sql, query());
  assertEquals(all.counts, {
    total: 2,
    inNetwork: 1,
    byStatus: { prospect: 0, invited: 0, pending: 0, active: 1, paused: 1 },
  });
  assertEquals((await listSurveyors(sql, query({ surveyType: "alta" }))).total, 1);
});

test("[surveyors] joined surveyors waiting for the licence check are counted and filtered", async () => {
  const sql = await freshDb();
  await insertSurveyor(sql, {
    companyName: "Pending Peak Surveying",
    city: "Austin",
    state: "TX",
    surveyTypes: ["boundary"],
    status: "pending",
    source: "signup",
  });
  await insertSurveyor(sql, {
    companyName: "Pending Plains Mapping",
    city: "Tulsa",
    state: "OK",
    status: "pending",
    source: "signup",
  });
  const active = await insertSurveyor(sql, {
    companyName: "Active Austin Land",
    city: "Austin",
    state: "TX",
    status: "active",
  });
  await insertSurveyor(sql, { companyName: "Prospect Co", state: "TX" });
  const zeroes = Object.fromEntries(SURVEYOR_STATUSES.map((s) => [s, 0]));

  // From the counters (no search), for every status the directory knows.
  const all = await listSurveyors(sql, query());
  assertEquals(all.counts.byStatus, { ...zeroes, pending: 2, active: 1, prospect: 1 });
  const tx = await listSurveyors(sql, query({ state: "TX" }));
  assertEquals(tx.counts.byStatus, { ...zeroes, pending: 1, active: 1, prospect: 1 });
  // From a search's own aggregate.
  const austin = await listSurveyors(sql, query({ q: "austin" }));
  assertEquals(austin.counts.byStatus, { ...zeroes, pending: 1, active: 1 });
  const pendingOnly = await listSurveyors(sql, query({ q: "pending" }));
  assertEquals(pendingOnly.counts.byStatus, { ...zeroes, pending: 2 });

  // The pending filter lists exactly them; verifying one moves it to active in the counts.
  const listed = await listSurveyors(sql, query({ status: "pending" }));
  assertEquals(listed.surveyors.map((s) => s.companyName), [
    "Pending Peak Surveying",
    "Pending Plains Mapping",
  ]);
  assertEquals(listed.total, 2);
  const [peak] = listed.surveyors;
  await updateSurveyor(sql, { id: peak.id, update: { status: "active" } });
  const after = await listSurveyors(sql, query());
  assertEquals(after.counts.byStatus, { ...zeroes, pending: 1, active: 2, prospect: 1 });
  assertEquals((await listSurveyors(sql, query({ status: "pending" }))).total, 1);
  assert(after.surveyors.some((s) => s.id === active.id));
});

test("[surveyors] contacts are added, updated and removed by index; one primary at a time", async () => {
  const sql = await freshDb();
  const s = await insertSurveyor(sql, { companyName: "Acme" });
  await addContact(sql, { id: s.id, contact: { name: "Ann", isPrimary: true } });
  await addContact(sql, { id: s.id, contact: { name: "Bob", email: "bob@example.com" } });
  let r = await addContact(sql, { id: s.id, contact: { name: "Cat", isPrimary: true } });
  assertEquals(r?.contacts.map((c) => [c.name, c.isPrimary]), [
    ["Ann", false],
    ["Bob", false],
    ["Cat", true],
  ]);
  r = await updateContact(sql, { id: s.id, index: 1, update: { isPrimary: true, title: "CEO" } });
  assertEquals(r?.contacts, [
    { name: "Ann", title: null, email: null, phone: null, isPrimary: false },
    { name: "Bob", title: "CEO", email: "bob@example.com", phone: null, isPrimary: true },
    { name: "Cat", title: null, email: null, phone: null, isPrimary: false },
  ]);
  r = await updateContact(sql, { id: s.id, index: 1, update: { email: null } });
  assertEquals(r?.contacts[1].email, null);
  assertEquals(r?.contacts[1].title, "CEO");
  r = await removeContact(sql, { id: s.id, index: 0 });
  assertEquals(r?.contacts.map((c) => c.name), ["Bob", "Cat"]);
});

test("[surveyors] a contact index out of range or an unknown surveyor changes nothing", async () => {
  const sql = await freshDb();
  const s = await insertSurveyor(sql, { companyName: "Acme" });
  const withOne = await addContact(sql, { id: s.id, contact: { name: "Ann" } });
  for (const index of [1, 5, -1, 1.5, 1e9]) {
    assertEquals(await updateContact(sql, { id: s.id, index, update: { name: "X" } }), undefined);
    assertEquals(await removeContact(sql, { id: s.id, index }), undefined);
  }
  assertEquals(await addContact(sql, { id: MISSING, contact: { name: "X" } }), undefined);
  assertEquals(await removeContact(sql, { id: MISSING, index: 0 }), undefined);
  assertEquals(await getSurveyor(sql, { id: s.id }), withOne);
});

test("[surveyors] a full contact list refuses another and keeps what it had", async () => {
  const sql = await freshDb();
  const s = await insertSurveyor(sql, { companyName: "Acme" });
  for (let i = 0; i < MAX_CONTACTS; i++) {
    await addContact(sql, { id: s.id, contact: { name: `P${i}` } });
  }
  const err = await assertRejects(
    () => addContact(sql, { id: s.id, contact: { name: "One too many" } }),
  );
  assert(err instanceof TooManyContactsError);
  const after = await getSurveyor(sql, { id: s.id });
  assertEquals(after?.contacts.length, MAX_CONTACTS);
  assertEquals(after?.contacts.at(-1)?.name, `P${MAX_CONTACTS - 1}`);
});

test("[surveyors] concurrent contact additions are all kept", async () => {
  const sql = await freshDb();
  const s = await insertSurveyor(sql, { companyName: "Acme" });
  // On Postgres the pool runs these on separate connections at once.
  await Promise.all(
    ["A", "B", "C", "D", "E", "F"].map((name) => addContact(sql, { id: s.id, contact: { name } })),
  );
  const after = await getSurveyor(sql, { id: s.id });
  assertEquals(after?.contacts.map((c) => c.name).sort(), ["A", "B", "C", "D", "E", "F"]);
  // A removal racing additions loses none of them either.
  await Promise.all([
    removeContact(sql, { id: s.id, index: 0 }),
    addContact(sql, { id: s.id, contact: { name: "G" } }),
    addContact(sql, { id: s.id, contact: { name: "H" } }),
  ]);
  const final = await getSurveyor(sql, { id: s.id });
  assertEquals(final?.contacts.length, 7);
  assert(final?.contacts.some((c) => c.name === "G"));
  assert(final?.contacts.some((c) => c.name === "H"));
});

test("[surveyors] contact history is newest first, names its author and is append-only", async () => {
  const sql = await freshDb();
  const admin = await createUser(sql, { role: "admin", fullName: "Ada Admin" });
  const s = await insertSurveyor(sql, { companyName: "Acme" });
  const first = await addContactHistory(sql, {
    surveyorId: s.id,
    authorId: admin.id,
    entry: { channel: "call", summary: "Left a message", nextFollowUp: "2030-01-15" },
  });
  assertEquals(first?.authorName, "Ada Admin");
  assertEquals(first?.nextFollowUp, "2030-01-15");
  // Distinct times, so "newest first" is about the clock and not the id tie-break.
  await new Promise((r) => setTimeout(r, 2));
  const second = await addContactHistory(sql, {
    surveyorId: s.id,
    authorId: admin.id,
    entry: { channel: "email", summary: "Sent the brochure", outcome: "Interested" },
  });
  const history = await listContactHistory(sql, { surveyorId: s.id });
  assertEquals(history.map((h) => h.id), [second!.id, first!.id]);
  assertEquals(history[0].outcome, "Interested");
  assertEquals(
    (await listContactHistory(sql, { surveyorId: s.id, before: second!.createdAt }))
      .map((h) => h.id),
    [first!.id],
  );
  assertEquals((await listContactHistory(sql, { surveyorId: s.id, limit: 1 })).length, 1);

  assertEquals(
    await addContactHistory(sql, {
      surveyorId: MISSING,
      authorId: admin.id,
      entry: { channel: "note", summary: "x" },
    }),
    undefined,
  );
  const refused = await assertRejects(
    () => sql`update surveyor_contact_history set summary = 'rewritten' where id = ${first!.id}`,
  );
  assert(refused.message.includes("append-only"), refused.message);
  assertEquals((await listContactHistory(sql, { surveyorId: s.id }))[1].summary, "Left a message");
});

test("[surveyors] converting a place makes a prospect once, even concurrently", async () => {
  const sql = await freshDb();
  const first = await insertSurveyorFromPlace(sql, { place });
  assertEquals(first.created, true);
  assertEquals(first.surveyor.status, "prospect");
  assertEquals(first.surveyor.source, "place");
  assertEquals(first.surveyor.inNetwork, false);
  assertEquals(first.surveyor.placeId, place.placeId);
  assertEquals(first.surveyor.city, "Austin");
  assertEquals(first.surveyor.rating, 4.6);
  const again = await insertSurveyorFromPlace(sql, { place: { ...place, name: "Renamed" } });
  assertEquals(again, { surveyor: first.surveyor, created: false });
  assertEquals(
    (await getSurveyorByPlaceId(sql, { placeId: place.placeId }))?.id,
    first.surveyor.id,
  );

  const other = { ...place, placeId: "ChIJ-test-place-2" };
  const racing = await Promise.all(
    [1, 2, 3, 4].map(() => insertSurveyorFromPlace(sql, { place: other })),
  );
  assertEquals(racing.filter((r) => r.created).length, 1);
  assertEquals(new Set(racing.map((r) => r.surveyor.id)).size, 1);
  const [{ count }] = await sql<{ count: number }[]>`
    select count(*)::int as count from surveyors where place_id = ${other.placeId}`;
  assertEquals(count, 1);
});

test("[surveyors] the work list gives surveys and leads without the client's details", async () => {
  const sql = await freshDb();
  const client = await createUser(sql, { role: "client", fullName: "Carla Client" });
  const s = await insertSurveyor(sql, { companyName: "Acme" });
  const other = await insertSurveyor(sql, { companyName: "Other" });
  const [survey] = await sql<{ id: string }[]>`
    insert into surveys (client_id, client_request_id, survey_type, address, formatted_address,
      property_type, acreage, terrain, vegetation, state, purpose, contact_name, contact_phone,
      contact_email, quote, quoted_price_cents, assigned_surveyor_id)
    values (${client.id}, gen_random_uuid(), 'boundary', '12 Secret Lane',
      '12 Secret Lane, Austin, TX 78701, USA', 'residential', 1, 'flat', 'light', 'TX',
      'purchase', 'Carla Client', '555-0199', 'carla@example.com', '{}'::jsonb, 125000,
      ${s.id})
    returning id`;
  const [lead] = await sql<{ id: string }[]>`
    insert into leads (survey_id, price_cents, pricing, expires_at)
    values (${survey.id}, 7710, '{}'::jsonb, now() + interval '7 days') returning id`;
  await sql`insert into lead_recipients (lead_id, surveyor_id, kind, distance_miles)
    values (${lead.id}, ${s.id}, 'notified', 12.5)`;

  const work = await listSurveyorWork(sql, { surveyorId: s.id });
  assertEquals(work.surveys.length, 1);
  assertEquals(work.surveys[0].id, survey.id);
  assertEquals(work.surveys[0].city, "Austin");
  assertEquals(work.surveys[0].state, "TX");
  assertEquals(work.leads.length, 1);
  assertEquals(work.leads[0].leadId, lead.id);
  assertEquals(work.leads[0].surveyId, survey.id);
  assertEquals(work.leads[0].priceCents, 7710);
  assertEquals(work.leads[0].kind, "notified");
  assertEquals(work.leads[0].outcome, "sent");
  assertEquals(work.leads[0].city, "Austin");
  const text = JSON.stringify(work);
  for (const secret of ["Carla", "555-0199", "carla@example.com", "Secret Lane"]) {
    assert(!text.includes(secret), `work list leaks ${secret}`);
  }
  assertEquals(await listSurveyorWork(sql, { surveyorId: other.id }), { surveys: [], leads: [] });
  assertEquals(await listSurveyorWork(sql, { surveyorId: "nope" }), { surveys: [], leads: [] });
});

test("[surveyors] the city is read from an address only where it can be told", () => {
  assertEquals(townFromAddress("1 Main St, Austin, TX 78701, USA", "TX"), "Austin");
  assertEquals(townFromAddress("1 Main St, Austin, TX", "TX"), "Austin");
  assertEquals(townFromAddress("1 Main St Austin TX", "TX"), null);
  assertEquals(townFromAddress(null, "TX"), null);
  assertEquals(townFromAddress("a, b, TX", "T.*"), null);
});

test("[surveyors] the map's points are the directory's first 100 records, as the old statement read them", async () => {
  const sql = await freshDb();
  const records = generateDemoSurveyors(await loadDemoCities(), { count: 400, seed: 7 });
  await sql.begin((tx) => insertGeneratedSurveyors(tx, records, { isDemo: false }));
  // Some records without an office point, which the map leaves out but the list keeps.
  await sql`update surveyors set lat = null, lng = null
    where id in (select id from surveyors order by lower(company_name), id limit 3)`;
  const filters: Record<string, string>[] = [
    {},
    { state: "TX" },
    { status: "prospect" },
    { inNetworkOnly: "true" },
    { surveyType: "alta" },
    { q: "land" },
    { q: "surv", state: "CA", status: "active" },
    { state: "VT", inNetworkOnly: "true" },
  ];
  for (const input of filters) {
    const q = query(input);
    const points = await listSurveyorLocations(sql, q, 100);
    // The same records as the table's first page of 100, in its order.
    const { surveyors } = await listSurveyors(sql, { ...q, page: 1, pageSize: 100 });
    assertEquals(
      [...points],
      surveyors.map((s) => ({
        id: s.id,
        companyName: s.companyName,
        lat: s.lat,
        lng: s.lng,
        inNetwork: s.inNetwork,
        status: s.status,
      })),
      JSON.stringify(input),
    );
    // And the same rows as the statement before 0051 (page of ids, then a join for the columns).
    const state = q.state ?? null;
    const old = await sql`
      with first as (
        select id, lower(company_name) as sort_name from surveyors
        where (${q.q ?? null}::text is null
            or lower(company_name || ' ' || coalesce(city, '')) like '%' || ${q.q ?? ""} || '%')
          and (${state}::text is null or state = ${state})
          and (${q.surveyType ?? null}::text is null
            or survey_types @> array[${q.surveyType ?? ""}]::text[])
          and (${q.status ?? null}::text is null or status = ${q.status ?? ""})
          and (${q.inNetworkOnly ?? false} = false or in_network)
        order by lower(company_name), id
        limit 100
      )
      select s.id, s.company_name, s.lat, s.lng, s.in_network, s.status
      from first f join surveyors s using (id)
      order by f.sort_name, f.id`;
    assertEquals([...points], [...old], JSON.stringify(input));
  }
  assert((await listSurveyorLocations(sql, query(), 100)).length === 100);
  assert((await listSurveyorLocations(sql, query({ state: "TX" }), 100)).length > 0);
});

test("[surveyors] the directory's table rows are toSurveyorRow of listSurveyors, page by page", async () => {
  const sql = await freshDb();
  const records = generateDemoSurveyors(await loadDemoCities(), { count: 300, seed: 11 });
  await sql.begin((tx) => insertGeneratedSurveyors(tx, records, { isDemo: false }));
  // The contacts' edge cases, on the first page: none, a primary that is not the first, no
  // primary (the first one is shown), two primaries (the first of them).
  const first = await sql<{ id: string }[]>`
    select id from surveyors order by lower(company_name), id limit 4`;
  const person = (name: string, isPrimary: boolean) => ({
    name,
    title: null,
    email: null,
    phone: null,
    isPrimary,
  });
  const contacts = [
    [],
    [person("Ann First", false), person("Bo Primary", true)],
    [person("Cy First", false), person("Di Second", false)],
    [person("Ed One", false), person("Flo Two", true), person("Gus Three", true)],
  ];
  for (const [i, { id }] of first.entries()) {
    await sql`update surveyors set contacts = ${sql.json(contacts[i])} where id = ${id}`;
  }
  const cases: Record<string, string>[] = [
    {},
    { page: "2" },
    { page: "12" },
    { page: "13" },
    { page: "40" },
    { state: "TX" },
    { status: "prospect", page: "2" },
    { inNetworkOnly: "true" },
    { surveyType: "alta" },
    { q: "land" },
    { q: "surv", state: "CA", status: "active" },
  ];
  let shownRows = 0;
  for (const input of cases) {
    const q = query({ pageSize: "25", ...input });
    const { surveyors, ...rest } = await listSurveyors(sql, q);
    const { rows, located, ...restRows } = await listSurveyorDirectory(sql, q, 100);
    assertEquals(rows, surveyors.map(toSurveyorRow), JSON.stringify(input));
    assertEquals(restRows, rest, JSON.stringify(input));
    // The map's points, read in the same statement, are the first 100 records in the
    // directory's order, as the map's own query reads them.
    assertEquals(located, [...await listSurveyorLocations(sql, q, 100)], JSON.stringify(input));
    shownRows += rows.length;
  }
  assert(shownRows > 100);
  const page1 = (await listSurveyorDirectory(sql, query({ pageSize: "25" }), 100)).rows;
  assertEquals(
    page1.slice(0, 4).map((r) => [r.contactCount, r.mainContact]),
    [[0, null], [2, "Bo Primary"], [2, "Cy First"], [3, "Flo Two"]],
  );
});

test("[surveyors] a first page is the same records, in the same order, as the deferred join read them", async () => {
  const sql = await freshDb();
  const records = generateDemoSurveyors(await loadDemoCities(), { count: 300, seed: 5 });
  await sql.begin((tx) => insertGeneratedSurveyors(tx, records, { isDemo: false }));
  // Names that sort the same case-insensitively: the id decides between them.
  await sql`update surveyors set company_name = 'Abc Surveying'
    where id in (select id from surveyors order by lower(company_name), id limit 2)`;
  await sql`update surveyors set company_name = 'ABC SURVEYING'
    where id = (select id from surveyors order by lower(company_name) desc, id limit 1)`;
  const filters: Record<string, string>[] = [
    {},
    { state: "TX" },
    { status: "prospect" },
    { inNetworkOnly: "true" },
    { surveyType: "alta", inNetworkOnly: "true" },
    { state: "CA", status: "active" },
    { state: "VT", inNetworkOnly: "true" },
    { status: "pending" },
  ];
  // 25 and 100 are written into the statement; 7 and 40 stay parameters.
  for (const pageSize of ["25", "100", "7", "40"]) {
    for (const input of filters) {
      const q = query({ ...input, pageSize });
      const { rows, total } = await listSurveyorDirectory(sql, q, 100);
      const { surveyors } = await listSurveyors(sql, q);
      const state = q.state ?? null;
      const old = await sql<{ id: string }[]>`
        with page as (
          select id, lower(company_name) as sort_name from surveyors
          where (${state}::text is null or state = ${state})
            and (${q.surveyType ?? null}::text is null
              or survey_types @> array[${q.surveyType ?? ""}]::text[])
            and (${q.status ?? null}::text is null or status = ${q.status ?? ""})
            and (${q.inNetworkOnly} = false or in_network)
          order by lower(company_name), id
          limit ${q.pageSize}
        )
        select s.id from page p join surveyors s using (id) order by p.sort_name, p.id`;
      const label = JSON.stringify({ ...input, pageSize });
      assertEquals(rows.map((r) => r.id), old.map((r) => r.id), label);
      assertEquals(surveyors.map((s) => s.id), old.map((r) => r.id), label);
      assertEquals(rows.length, Math.min(q.pageSize, total), label);
    }
  }
});

test("[surveyors] the directory's one statement gives every page, total, count and map point a plain query gives", async () => {
  const sql = await freshDb();
  const records = generateDemoSurveyors(await loadDemoCities(), { count: 300, seed: 13 });
  await sql.begin((tx) => insertGeneratedSurveyors(tx, records, { isDemo: false }));
  await sql`update surveyors set lat = null, lng = null
    where id in (select id from surveyors order by lower(company_name), id limit 2)`;
  const filters: Record<string, string>[] = [
    {},
    { state: "TX" },
    { status: "active" },
    { inNetworkOnly: "true", surveyType: "boundary" },
    { q: "land" },
    { q: "SURV", status: "prospect" },
    { q: "no such firm" },
  ];
  let pagesFromEnd = 0;
  for (const input of filters) {
    // 25 is written into the statement, 7 stays a parameter.
    for (const pageSize of [25, 7]) {
      const q = query({ ...input, pageSize: String(pageSize) });
      const state = q.state ?? null;
      const search = q.q ? `%${q.q.toLowerCase()}%` : null;
      // The counts and the rows as the simplest statements read them: no counters table, no
      // walk from the end.
      const where = sql`(${search}::text is null
          or lower(company_name || ' ' || coalesce(city, '')) like ${search ?? ""})
        and (${state}::text is null or state = ${state})
        and (${q.surveyType ?? null}::text is null
          or survey_types @> array[${q.surveyType ?? ""}]::text[])`;
      const [counts] = await sql<{ all: number; inNetwork: number; total: number }[]>`
        select count(*)::int as all, count(*) filter (where in_network)::int as in_network,
          count(*) filter (where (${q.status ?? null}::text is null or status = ${q.status ?? ""})
            and (${q.inNetworkOnly} = false or in_network))::int as total
        from surveyors where ${where}`;
      const located = await listSurveyorLocations(sql, q, 100);
      const lastPage = Math.ceil(counts.total / pageSize);
      // Every page in the first half, the middle, the second half (read from the end), the
      // last (short) one and one past the end.
      for (let page = 1; page <= lastPage + 1; page++) {
        const label = JSON.stringify({ ...input, pageSize, page });
        const got = await listSurveyorDirectory(sql, { ...q, page }, 100);
        const expected = await sql<{ id: string }[]>`
          select id from surveyors
          where ${where}
            and (${q.status ?? null}::text is null or status = ${q.status ?? ""})
            and (${q.inNetworkOnly} = false or in_network)
          order by lower(company_name), id
          limit ${pageSize} offset ${(page - 1) * pageSize}`;
        assertEquals(got.rows.map((r) => r.id), expected.map((r) => r.id), label);
        assertEquals(got.total, counts.total, label);
        assertEquals(got.counts.total, counts.all, label);
        assertEquals(got.counts.inNetwork, counts.inNetwork, label);
        assertEquals(got.located, [...located], label);
        assertEquals([got.page, got.pageSize], [page, pageSize], label);
        if ((page - 1) * pageSize + pageSize / 2 > counts.total / 2 && got.rows.length) {
          pagesFromEnd++;
        }
      }
    }
  }
  assert(pagesFromEnd > 20, `${pagesFromEnd} pages read from the end`);
});
