/**
 * The lead market API (routes/leads_api.ts): who may call it, what a surveyor sees before and
 * after paying, every refusal (with nothing charged or stored), and the last-place race over
 * HTTP. The race means something on real Postgres (DATABASE_URL set: a pool of 10); on
 * PGlite the requests take turns and must end the same way.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { countRows, expectJson, withoutIds } from "../_fixtures.ts";
import {
  addLead,
  addMarketSurveyor,
  balanceAndLedger,
  type MarketSurveyorOptions,
  north,
} from "../_lead_fixtures.ts";
import { LEAD_MARKET_MESSAGES } from "../../db/lead_market.ts";
import { LEADS_API_MESSAGES } from "../../routes/leads_api.ts";
import type { Role } from "../../lib/roles.ts";
import type { LeadSummary, UnlockedLead } from "../../lib/lead_market_schema.ts";
import { makeOlder } from "../_row_order.ts";

const isRealPostgres = Boolean(Deno.env.get("DATABASE_URL"));

// Distinctive personal data: none of it may leave the server before a purchase.
const PRIVATE = {
  contactName: "Zebediah Quartermaine",
  contactPhone: "(512) 555-0199",
  contactEmail: "zebediah.q@private.example",
  address: "4821 Wildflower Hollow Ln, Austin, TX 78704",
  formattedAddress: "4821 Wildflower Hollow Ln, Austin, TX 78704, USA",
  accessNotes: "Lockbox code 8812",
  notes: "Neighbour disputes the east fence",
};
const PRIVATE_FRAGMENTS = [
  "Zebediah",
  "Quartermaine",
  "555-0199",
  "zebediah.q",
  "private.example",
  "4821",
  "Wildflower",
  "Lockbox",
  "8812",
  "Neighbour",
];

function assertNoPersonalData(text: string, what: string) {
  const shown = withoutIds(text);
  for (const fragment of PRIVATE_FRAGMENTS) {
    assert(!shown.includes(fragment), `${what}: "${fragment}" leaked`);
  }
}

async function setup() {
  const t = await createTestApp();
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  return { t, admin, client };
}

function surveyor(t: TestApp, name: string, options: MarketSurveyorOptions = {}) {
  return addMarketSurveyor(t, name, { balanceCents: 100_00, ...options });
}

const get = (t: TestApp, cookie: string, path: string) => t.request("GET", path, { cookie });
const post = (t: TestApp, cookie: string, path: string, body?: unknown) =>
  t.request("POST", path, { cookie, body });

async function expectRefused(res: Response, status: number, message: string) {
  const body = await expectJson(res, status);
  assertEquals(body.message, message);
}

// ------------------------------------------------------------------------------ guards

test("[leads api] only surveyors with a linked record may call it: 401 signed out, 403 other roles, 404 no record", async () => {
  const { t, client } = await setup();
  const { lead } = await addLead(t, client.cookie);
  const me = await surveyor(t, "Able Survey");
  await post(t, me.cookie, `/api/leads/${lead.id}/buy`);
  const calls: [string, string, unknown?][] = [
    ["GET", "/api/leads"],
    ["GET", `/api/leads/${lead.id}`],
    ["POST", `/api/leads/${lead.id}/buy`],
    ["POST", `/api/leads/${lead.id}/claim`],
    ["POST", `/api/leads/${lead.id}/dismiss`],
    ["GET", "/api/purchased-leads"],
    ["GET", `/api/purchased-leads/${lead.id}`],
    ["PATCH", `/api/purchased-leads/${lead.id}`, { pipelineStatus: "won" }],
  ];
  const unlinked = await signInAs(t, "surveyor");
  const before = await countRows(t, "lead_purchases");
  for (const [method, path, body] of calls) {
    const out = await t.request(method, path, { body });
    assertEquals(out.status, 401, `${method} ${path} signed out`);
    for (const role of ["admin", "client", "technician"] as Role[]) {
      const cookie = role === "client" ? client.cookie : await signInAs(t, role);
      const res = await t.request(method, path, { cookie, body });
      await expectRefused(res, 403, "You do not have permission to do this");
    }
    await expectRefused(
      await t.request(method, path, { cookie: unlinked, body }),
      404,
      LEADS_API_MESSAGES.noProfile,
    );
  }
  assertEquals(await countRows(t, "lead_purchases"), before);
  const [row] = await t.sql`select pipeline_status from lead_purchases`;
  assertEquals(row.pipelineStatus, "new");
  t.close();
});

// ------------------------------------------------------------------------------ reading

test("[leads api] GET /api/leads lists the surveyor's leads with filters, paging and the balance", async () => {
  const { t, client } = await setup();
  const me = await surveyor(t, "Able Survey", { surveyTypes: ["boundary", "topographic"] });
  const boundary = await addLead(t, client.cookie);
  // A minute older: leads made back to back can share a timestamp (ties go by id).
  await makeOlder(t.sql, "leads");
  const topo = await addLead(t, client.cookie, { overrides: { surveyType: "topographic" } });
  await addLead(t, client.cookie, { overrides: north(90) });
  const all = await expectJson(await get(t, me.cookie, "/api/leads"), 200);
  assertEquals(all.total, 2);
  assertEquals(all.page, 1);
  assertEquals(all.pageSize, 20);
  assertEquals(all.balanceCents, 100_00);
  assertEquals(all.leads.map((l: LeadSummary) => l.id), [topo.lead.id, boundary.lead.id]);
  const filtered = await expectJson(
    await get(t, me.cookie, "/api/leads?surveyType=boundary&maxDistance=10&page=1"),
    200,
  );
  assertEquals(filtered.leads.map((l: LeadSummary) => l.id), [boundary.lead.id]);
  const near = await expectJson(await get(t, me.cookie, "/api/leads?maxDistance=2"), 200);
  assertEquals(near.total, 0);
  const blank = await expectJson(
    await get(t, me.cookie, "/api/leads?surveyType=&maxDistance="),
    200,
  );
  assertEquals(blank.total, 2);
  const second = await expectJson(await get(t, me.cookie, "/api/leads?page=2"), 200);
  assertEquals([second.leads, second.total, second.page], [[], 2, 2]);
  for (
    const [query, message] of [
      ["surveyType=castle", "Unknown survey type"],
      ["maxDistance=0", "maxDistance must be more than 0 miles"],
      ["maxDistance=far", "maxDistance must be a number of miles"],
      ["maxDistance=301", "maxDistance must be at most 300 miles"],
      ["page=0", "page must be at least 1"],
      ["page=1.5", "page must be a whole number"],
    ]
  ) {
    await expectRefused(await get(t, me.cookie, `/api/leads?${query}`), 400, message);
  }
  const unknown = await expectJson(await get(t, me.cookie, "/api/leads?sort=price"), 400);
  assert(unknown.message.length > 0);
  t.close();
});

test("[leads api] a lead's JSON never holds the client's name, phone, email, street or notes until bought", async () => {
  const { t, client } = await setup();
  const me = await surveyor(t, "Able Survey");
  const { lead, survey } = await addLead(t, client.cookie, { overrides: PRIVATE });
  await t.sql`update surveys set parcel = ${
    t.sql.json({ owner: "Zebediah Quartermaine", county: "Travis" })
  } where id = ${survey.id}`;
  const listText = await (await get(t, me.cookie, "/api/leads")).text();
  assertStringIncludes(listText, lead.id);
  assertNoPersonalData(listText, "GET /api/leads");
  const oneRes = await get(t, me.cookie, `/api/leads/${lead.id}`);
  const one = await expectJson(oneRes.clone(), 200);
  assertNoPersonalData(await oneRes.text(), "GET /api/leads/{id}");
  assertEquals(one.lead.city, "Austin");
  assertEquals(one.lead.county, "Travis");
  assertEquals(one.lead.zip, "78704");
  assertEquals(one.balanceCents, 100_00);
  assertEquals(oneRes.headers.get("cache-control"), "private, no-store");

  const bought = await expectJson(await post(t, me.cookie, `/api/leads/${lead.id}/buy`), 201);
  assertEquals(bought.message, "Lead purchased");
  assertEquals(bought.balanceCents, 100_00 - lead.priceCents);
  const unlocked: UnlockedLead = bought.lead;
  assertEquals(unlocked.client, {
    name: PRIVATE.contactName,
    phone: PRIVATE.contactPhone,
    email: PRIVATE.contactEmail,
  });
  assertEquals(unlocked.address, PRIVATE.address);
  assertEquals(unlocked.notes, PRIVATE.notes);
  assertEquals(unlocked.accessNotes, PRIVATE.accessNotes);
  assertEquals((unlocked.parcel as { owner: string }).owner, "Zebediah Quartermaine");
  const list = await expectJson(await get(t, me.cookie, "/api/purchased-leads"), 200);
  assertEquals(list.total, 1);
  assertEquals(list.leads[0].client.name, PRIVATE.contactName);
  const detail = await expectJson(await get(t, me.cookie, `/api/purchased-leads/${lead.id}`), 200);
  assertEquals(detail.lead.client.email, PRIVATE.contactEmail);

  // Another eligible surveyor still sees it locked.
  const other = await surveyor(t, "Baker Survey");
  const theirs = await get(t, other.cookie, `/api/leads/${lead.id}`);
  assertEquals(theirs.status, 200);
  assertNoPersonalData(await theirs.text(), "another surveyor's GET /api/leads/{id}");
  await expectRefused(
    await get(t, other.cookie, `/api/purchased-leads/${lead.id}`),
    404,
    LEAD_MARKET_MESSAGES.notFound,
  );
  t.close();
});

test("[leads api] a lead the surveyor may not see, or no lead at all, is a 404", async () => {
  const { t, client } = await setup();
  const { lead } = await addLead(t, client.cookie);
  const far = await surveyor(t, "Far Survey", { miles: 150 });
  for (const id of [lead.id, crypto.randomUUID(), "not-a-uuid"]) {
    await expectRefused(
      await get(t, far.cookie, `/api/leads/${id}`),
      404,
      LEAD_MARKET_MESSAGES.notFound,
    );
    await expectRefused(
      await post(t, far.cookie, `/api/leads/${id}/dismiss`),
      404,
      LEAD_MARKET_MESSAGES.notFound,
    );
  }
  const long = await get(t, far.cookie, `/api/leads/${"x".repeat(200)}`);
  assertEquals(long.status, 400);
  t.close();
});

// ----------------------------------------------------------------------------------- buy

test("[leads api] buying: twice, closed, paused, pending (licence check), outside the area, type not offered — 409 and nothing charged", async () => {
  const { t, client } = await setup();
  const { lead } = await addLead(t, client.cookie);
  const me = await surveyor(t, "Able Survey");
  await expectJson(await post(t, me.cookie, `/api/leads/${lead.id}/buy`), 201);
  await expectRefused(
    await post(t, me.cookie, `/api/leads/${lead.id}/buy`),
    409,
    "You already bought this lead.",
  );
  const cases: [MarketSurveyorOptions, string][] = [
    [{ status: "paused" }, LEAD_MARKET_MESSAGES.paused],
    [{ status: "pending" }, LEAD_MARKET_MESSAGES.unverified],
    [
      { miles: 80 },
      "This property is outside your service area: about 80 miles from your office, and your radius is 50 miles.",
    ],
    [
      { surveyTypes: ["alta"] },
      "You do not offer Boundary Surveys; add the type to your coverage to take this lead.",
    ],
  ];
  for (const [options, message] of cases) {
    const s = await surveyor(t, `Case ${message.slice(0, 24)}`, options);
    await expectRefused(await post(t, s.cookie, `/api/leads/${lead.id}/buy`), 409, message);
    await expectRefused(await post(t, s.cookie, `/api/leads/${lead.id}/claim`), 409, message);
    assertEquals(await balanceAndLedger(t, s.surveyor.id), {
      balance: 100_00,
      ledger: 100_00,
      entries: 1,
    });
  }
  const closed = await addLead(t, client.cookie);
  await t.sql`update leads set status = 'closed', closed_reason = 'expired', closed_at = now()
    where id = ${closed.lead.id}`;
  await expectRefused(
    await post(t, me.cookie, `/api/leads/${closed.lead.id}/buy`),
    409,
    LEAD_MARKET_MESSAGES.expired,
  );
  await expectRefused(
    await post(t, me.cookie, `/api/leads/${crypto.randomUUID()}/buy`),
    404,
    LEAD_MARKET_MESSAGES.notFound,
  );
  assertEquals(await countRows(t, "lead_purchases"), 1);
  t.close();
});

test("[leads api] a balance too low: 402 with the figures, nothing stored, nothing charged", async () => {
  const { t, client } = await setup();
  const { lead } = await addLead(t, client.cookie);
  const poor = await surveyor(t, "Poor Survey", { balanceCents: 12_00 });
  await expectRefused(
    await post(t, poor.cookie, `/api/leads/${lead.id}/buy`),
    402,
    "Your balance is $12.00; this lead costs $38.50. Add credit to buy it.",
  );
  assertEquals(await countRows(t, "lead_purchases"), 0);
  assertEquals(await balanceAndLedger(t, poor.surveyor.id), {
    balance: 12_00,
    ledger: 12_00,
    entries: 1,
  });
  const summary = await expectJson(await get(t, poor.cookie, `/api/leads/${lead.id}`), 200);
  assertEquals([summary.lead.buyersCount, summary.lead.status], [0, "open"]);
  t.close();
});

test("[leads api] buy, claim and dismiss take no body: one sent is a 400 and changes nothing", async () => {
  const { t, client } = await setup();
  const { lead } = await addLead(t, client.cookie);
  const me = await surveyor(t, "Able Survey");
  for (const action of ["buy", "claim", "dismiss"]) {
    await expectRefused(
      await post(t, me.cookie, `/api/leads/${lead.id}/${action}`, { confirm: true }),
      400,
      LEADS_API_MESSAGES.noBody,
    );
  }
  assertEquals(await countRows(t, "lead_purchases"), 0);
  assertEquals(await countRows(t, "lead_dismissals"), 0);
  assertEquals((await balanceAndLedger(t, me.surveyor.id)).balance, 100_00);
  t.close();
});

// -------------------------------------------------------------------------------- claim

test("[leads api] claiming assigns the claimer at the quote; a welcome claim is free once", async () => {
  const { t, client } = await setup();
  const me = await surveyor(t, "New Survey", { welcomeUsed: false });
  const first = await addLead(t, client.cookie);
  const second = await addLead(t, client.cookie);
  const free = await expectJson(await post(t, me.cookie, `/api/leads/${first.lead.id}/claim`), 201);
  assertEquals(free.message, "Lead claimed — you are assigned to this survey");
  assertEquals(free.balanceCents, 100_00);
  assertEquals(free.lead.kind, "claim");
  assertEquals(free.lead.chargedCents, 0);
  assertEquals(free.lead.client.name, "Dana Client");
  assertEquals(free.lead.assignment.status, "accepted");
  assertEquals(free.lead.assignment.agreedPriceCents, first.survey.quotedPriceCents);
  assertEquals(free.lead.surveyStatus, "assigned");
  const fee = Math.round(second.lead.priceCents * 1.5);
  const preview = await expectJson(await get(t, me.cookie, `/api/leads/${second.lead.id}`), 200);
  assertEquals(preview.lead.claimFeeCents, fee);
  const paid = await expectJson(
    await post(t, me.cookie, `/api/leads/${second.lead.id}/claim`),
    201,
  );
  assertEquals(paid.lead.chargedCents, fee);
  assertEquals(paid.balanceCents, 100_00 - fee);
  assertEquals(await balanceAndLedger(t, me.surveyor.id), {
    balance: 100_00 - fee,
    ledger: 100_00 - fee,
    entries: 2,
  });
  // The client hears of it (lib/assignments.ts).
  const [note] = await t.sql`select title from notifications
    where user_id = ${client.user.id} and kind = 'surveyor_assigned'
      and link = ${`/survey/${first.survey.id}`}`;
  assertEquals(note?.title, "Surveyor assigned");
  t.close();
});

test("[leads api] no claim of a subdivision lead, nor of one someone bought", async () => {
  const { t, client } = await setup();
  const me = await surveyor(t, "Able Survey", { surveyTypes: ["boundary", "subdivision"] });
  const buyer = await surveyor(t, "Baker Survey");
  const sub = await addLead(t, client.cookie, {
    overrides: { surveyType: "subdivision", acreage: 12 },
  });
  const summary = await expectJson(await get(t, me.cookie, `/api/leads/${sub.lead.id}`), 200);
  assertEquals(summary.lead.canClaim, false);
  await expectRefused(
    await post(t, me.cookie, `/api/leads/${sub.lead.id}/claim`),
    409,
    LEAD_MARKET_MESSAGES.claimQuoteRequired,
  );
  const bought = await addLead(t, client.cookie);
  await expectJson(await post(t, buyer.cookie, `/api/leads/${bought.lead.id}/buy`), 201);
  await expectRefused(
    await post(t, me.cookie, `/api/leads/${bought.lead.id}/claim`),
    409,
    LEAD_MARKET_MESSAGES.claimAfterBuy,
  );
  assertEquals(await countRows(t, "survey_assignments"), 0);
  assertEquals(await balanceAndLedger(t, me.surveyor.id), {
    balance: 100_00,
    ledger: 100_00,
    entries: 1,
  });
  t.close();
});

// ------------------------------------------------------------------ dismiss, pipeline

test("[leads api] Not interested hides the lead and is idempotent", async () => {
  const { t, client } = await setup();
  const { lead } = await addLead(t, client.cookie);
  const me = await surveyor(t, "Able Survey");
  for (let i = 0; i < 2; i++) {
    const res = await expectJson(await post(t, me.cookie, `/api/leads/${lead.id}/dismiss`), 200);
    assertEquals(res, { message: "Lead hidden" });
  }
  const list = await expectJson(await get(t, me.cookie, "/api/leads"), 200);
  assertEquals(list.total, 0);
  assertEquals((await balanceAndLedger(t, me.surveyor.id)).balance, 100_00);
  t.close();
});

test("[leads api] the pipeline: the buyer saves status and note; another surveyor gets 404; bad input 400", async () => {
  const { t, client } = await setup();
  const { lead } = await addLead(t, client.cookie);
  const me = await surveyor(t, "Able Survey");
  const other = await surveyor(t, "Baker Survey");
  await expectJson(await post(t, me.cookie, `/api/leads/${lead.id}/buy`), 201);
  const path = `/api/purchased-leads/${lead.id}`;
  const saved = await expectJson(
    await t.request("PATCH", path, {
      cookie: me.cookie,
      body: { pipelineStatus: "quoted", pipelineNote: "Quoted $450\nWaiting" },
    }),
    200,
  );
  assertEquals(saved.message, "Saved");
  assertEquals([saved.lead.pipelineStatus, saved.lead.pipelineNote], [
    "quoted",
    "Quoted $450\nWaiting",
  ]);
  await expectRefused(
    await t.request("PATCH", path, { cookie: other.cookie, body: { pipelineStatus: "won" } }),
    404,
    LEAD_MARKET_MESSAGES.notFound,
  );
  await expectRefused(
    await t.request("PATCH", path, { cookie: me.cookie, body: { pipelineStatus: "paid" } }),
    400,
    "Unknown pipeline status",
  );
  await expectRefused(
    await t.request("PATCH", path, { cookie: me.cookie, body: {} }),
    400,
    "Nothing to update",
  );
  const [row] = await t.sql`select pipeline_status from lead_purchases`;
  assertEquals(row.pipelineStatus, "quoted");
  t.close();
});

// --------------------------------------------------------------------------- the race

test("[leads api] surveyors racing over HTTP for the last place: exactly one wins, the losers get 409 and pay nothing", async () => {
  const { t, client } = await setup();
  for (let round = 0; round < (isRealPostgres ? 4 : 1); round++) {
    const { lead } = await addLead(t, client.cookie, { maxBuyers: 3 });
    // Two places already sold: one left.
    for (const name of ["Early A", "Early B"]) {
      const early = await surveyor(t, `${name} ${round}`);
      await expectJson(await post(t, early.cookie, `/api/leads/${lead.id}/buy`), 201);
    }
    const racers = [];
    for (let i = 0; i < 6; i++) racers.push(await surveyor(t, `Racer ${round}-${i}`));
    const responses = await Promise.all(
      racers.map((r) => post(t, r.cookie, `/api/leads/${lead.id}/buy`)),
    );
    const statuses = responses.map((r) => r.status).sort();
    assertEquals(statuses, [201, 409, 409, 409, 409, 409]);
    for (const res of responses) {
      const body = await res.json();
      if (res.status === 409) assertEquals(body.message, LEAD_MARKET_MESSAGES.soldOut);
    }
    const [row] = await t.sql`select l.buyers_count, l.status, l.closed_reason,
        (select count(*)::int from lead_purchases p where p.lead_id = l.id) as purchases
      from leads l where l.id = ${lead.id}`;
    assertEquals([row.buyersCount, row.purchases, row.status, row.closedReason], [
      3,
      3,
      "closed",
      "sold_out",
    ]);
    let charged = 0;
    for (const r of racers) {
      const money = await balanceAndLedger(t, r.surveyor.id);
      assertEquals(money.balance, money.ledger);
      if (money.balance < 100_00) charged++;
    }
    assertEquals(charged, 1);
  }
  t.close();
});
