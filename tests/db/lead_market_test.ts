/**
 * db/lead_market.ts: who sees which leads, what a summary may hold, buy and claim in one
 * transaction (charges, places, closing), "Not interested", the pipeline, and the last-place
 * race. The races mean something on real Postgres (DATABASE_URL set: a pool of 10, separate
 * connections, transactions overlap); on PGlite (one connection) the same calls take turns
 * and must end the same way.
 */
import { townFromAddress, zipFromAddress } from "../../lib/address_parts.ts";
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { countRows, withoutIds } from "../_fixtures.ts";
import {
  addLead,
  addMarketSurveyor,
  balanceAndLedger,
  type MarketSurveyorOptions,
  north,
} from "../_lead_fixtures.ts";
import {
  buyLead,
  claimLead,
  dismissLead,
  getLeadForSurveyor,
  getPurchasedLead,
  getSurveyorForUser,
  getSurveyorWithAvailableLeads,
  LEAD_MARKET_MESSAGES,
  LeadMarketError,
  listAvailableLeads,
  listPurchasedLeads,
  updatePipeline,
} from "../../db/lead_market.ts";
import { closeExpiredLeads, insertLeadRecipients } from "../../db/leads.ts";
import { getActivePricingConfig, insertPricingConfig } from "../../db/pricing.ts";
import { startJobWorker } from "../../lib/jobs.ts";
import { makeOlder } from "../_row_order.ts";

const isRealPostgres = Boolean(Deno.env.get("DATABASE_URL"));
// The site's origin for the links in emails (config PUBLIC_URL).
const publicUrl = "http://localhost";

// Distinctive personal data: none of it may appear in a summary.
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
  "5550199",
  "zebediah.q",
  "private.example",
  "4821",
  "Wildflower",
  "Lockbox",
  "8812",
  "Neighbour",
];

async function setup() {
  const t = await createTestApp();
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  return { t, admin, client };
}

async function surveyorId(t: TestApp, name: string, options: MarketSurveyorOptions = {}) {
  return (await addMarketSurveyor(t, name, { balanceCents: 100_00, ...options })).surveyor.id;
}

async function expectError(work: Promise<unknown>, status: number, message?: string) {
  const err = await assertRejects(() => work);
  assert(err instanceof LeadMarketError, String(err));
  assertEquals(err.status, status, err.message);
  if (message !== undefined) assertEquals(err.message, message);
  return err;
}

function page(surveyorId: string, extra: Record<string, unknown> = {}) {
  return { surveyorId, page: 1, pageSize: 20, ...extra };
}

// ------------------------------------------------------------------------------ address

test("[lead market] town and ZIP come from the formatted address, never the street", () => {
  assertEquals(townFromAddress("1 Main St, Austin, TX 78701, USA", "TX"), "Austin");
  assertEquals(zipFromAddress("1 Main St, Austin, TX 78701, USA", "TX"), "78701");
  assertEquals(zipFromAddress("1 Main St, Austin, TX 78701-1234", "TX"), "78701");
  // Only the street before the state: no town rather than the street.
  assertEquals(townFromAddress("1 Main St, TX 78701", "TX"), null);
  assertEquals(townFromAddress("Suite 4, 12 Elm, TX 78701", "TX"), null);
  assertEquals(zipFromAddress("1 Main St Austin", "TX"), null);
  assertEquals(townFromAddress(null, "TX"), null);
});

// ------------------------------------------------------------------------------ listing

test("[lead market] the list holds exactly the open leads the surveyor may take, newest first", async () => {
  const { t, client } = await setup();
  const me = await surveyorId(t, "Barton Surveying", {
    surveyTypes: ["boundary", "topographic"],
  });
  const near = await addLead(t, client.cookie);
  // Each listed lead a minute newer than the ones before: leads made back to back can share a
  // timestamp, and a tie is ordered by id, which says nothing of which came first.
  await makeOlder(t.sql, "leads");
  const topo = await addLead(t, client.cookie, { overrides: { surveyType: "topographic" } });
  // Outside the 50-mile radius (about 80 miles north of the office).
  const far = await addLead(t, client.cookie, { overrides: north(85) });
  // Another state, a type not offered, an expired lead, a closed lead, a cancelled request.
  const otherState = await addLead(t, client.cookie, { overrides: { state: "OK" } });
  const alta = await addLead(t, client.cookie, { overrides: { surveyType: "alta" } });
  const expired = await addLead(t, client.cookie);
  await t
    .sql`update leads set expires_at = now() - interval '1 minute' where id = ${expired.lead.id}`;
  const closed = await addLead(t, client.cookie);
  await t.sql`update leads set status = 'closed', closed_reason = 'expired'
    where id = ${closed.lead.id}`;
  const cancelled = await addLead(t, client.cookie);
  await t.sql`update surveys set status = 'cancelled' where id = ${cancelled.survey.id}`;
  await makeOlder(t.sql, "leads");
  const newest = await addLead(t, client.cookie);

  const { leads, total } = await listAvailableLeads(t.sql, page(me));
  assertEquals(total, 3);
  assertEquals(leads.map((l) => l.id), [newest.lead.id, topo.lead.id, near.lead.id]);
  for (const skipped of [far, otherState, alta, expired, closed, cancelled]) {
    assert(!leads.some((l) => l.id === skipped.lead.id));
  }
  const first = leads[2];
  assertEquals(first.surveyId, near.survey.id);
  assertEquals(first.city, "Austin");
  assertEquals(first.zip, "78704");
  assertEquals(first.state, "TX");
  assertEquals(first.distanceMiles, 5);
  assertEquals(first.status, "open");
  assertEquals(first.buyersCount, 0);
  assertEquals(first.maxBuyers, 3);
  assertEquals(first.priceCents, near.lead.priceCents);
  assertEquals(first.canClaim, true);
  assertEquals(first.claimFeeCents, Math.round(near.lead.priceCents * 1.5));
  assertEquals(first.viewer, { purchased: null, dismissed: false });
  // The point is rounded to 0.01°.
  assertEquals(first.approxLat, 30.26);
  assertEquals(first.approxLng, -97.76);

  // Filters: a type, a distance, a page.
  const topoOnly = await listAvailableLeads(t.sql, page(me, { surveyType: "topographic" }));
  assertEquals(topoOnly.leads.map((l) => l.id), [topo.lead.id]);
  const within2 = await listAvailableLeads(t.sql, page(me, { maxDistanceMiles: 2 }));
  assertEquals(within2.total, 0);
  const second = await listAvailableLeads(t.sql, page(me, { page: 2, pageSize: 2 }));
  assertEquals(second.leads.map((l) => l.id), [near.lead.id]);
  assertEquals(second.total, 3);
  const beyond = await listAvailableLeads(t.sql, page(me, { page: 9, pageSize: 2 }));
  assertEquals(beyond, { leads: [], total: 3 });
  t.close();
});

test("[lead market] paused, pending (licence check) and unlocated surveyors get no leads", async () => {
  const { t, client } = await setup();
  await addLead(t, client.cookie);
  const ok = await surveyorId(t, "Able Survey");
  const paused = await surveyorId(t, "Paused Partners", { status: "paused" });
  const pending = await surveyorId(t, "Pending Partners", { status: "pending" });
  const unlocated = await surveyorId(t, "Nowhere Partners", { lat: null, lng: null });
  assertEquals((await listAvailableLeads(t.sql, page(ok))).total, 1);
  for (const id of [paused, pending, unlocated]) {
    assertEquals(await listAvailableLeads(t.sql, page(id)), { leads: [], total: 0 });
  }
  t.close();
});

test("[lead market] /leads reads the surveyor and their list in one statement, the same as the two reads apart", async () => {
  const { t, client } = await setup();
  const older = await addLead(t, client.cookie);
  // A minute apart, oldest first (leads made back to back can share a timestamp).
  await makeOlder(t.sql, "leads");
  await addLead(t, client.cookie, { overrides: { surveyType: "topographic" } });
  await makeOlder(t.sql, "leads");
  const newest = await addLead(t, client.cookie);
  const cases: { userId: string | null; filters?: Record<string, unknown> }[] = [];
  for (
    const [name, options] of [
      ["Able Survey", { surveyTypes: ["boundary", "topographic"], balanceCents: 123_45 }],
      ["Paused Partners", { status: "paused" }],
      ["Pending Partners", { status: "pending" }],
      ["Nowhere Partners", { lat: null, lng: null }],
    ] as const
  ) {
    const fixture = await addMarketSurveyor(t, name, options as MarketSurveyorOptions);
    cases.push({ userId: fixture.userId });
  }
  const able = cases[0].userId!;
  cases.push(
    { userId: able, filters: { surveyType: "topographic" } },
    { userId: able, filters: { maxDistanceMiles: 2 } },
    { userId: able, filters: { page: 2, pageSize: 2 } },
  );
  const plain = await createSignedInUser(t, { role: "surveyor", fullName: "Unlinked Surveyor" });
  cases.push({ userId: plain.user.id }, { userId: crypto.randomUUID() }, { userId: "not-a-uuid" });
  await t.sql`update leads set buyers_count = 1 where id = ${older.lead.id}`;
  for (const { userId, filters } of cases) {
    const apart = await getSurveyorForUser(t.sql, { userId: userId! });
    const list = apart
      ? await listAvailableLeads(t.sql, { ...page(apart.id), ...filters })
      : { leads: [], total: 0 };
    const together = await getSurveyorWithAvailableLeads(t.sql, {
      userId: userId!,
      ...page("", filters),
    });
    assertEquals(together, { surveyor: apart, ...list }, `${userId} ${JSON.stringify(filters)}`);
  }
  const ableView = await getSurveyorWithAvailableLeads(t.sql, { userId: able, ...page("") });
  assertEquals(ableView.surveyor?.companyName, "Able Survey");
  assertEquals(ableView.surveyor?.balanceCents, 123_45);
  assertEquals(ableView.total, 3);
  assertEquals(ableView.leads[0].id, newest.lead.id);
  assertEquals(ableView.leads[2].buyersCount, 1);
  t.close();
});

test("[lead market] a summary never holds the client's name, phone, email, street or notes", async () => {
  const { t, client } = await setup();
  const me = await surveyorId(t, "Barton Surveying");
  const { lead, survey } = await addLead(t, client.cookie, { overrides: PRIVATE });
  await t.sql`update surveys set parcel = ${
    t.sql.json({ owner: "Zebediah Quartermaine", county: "Travis", parcelNumber: "0401" })
  } where id = ${survey.id}`;
  const list = await listAvailableLeads(t.sql, page(me));
  const one = await getLeadForSurveyor(t.sql, { leadId: lead.id, surveyorId: me });
  assertEquals(one?.county, "Travis");
  assertEquals(one?.city, "Austin");
  for (const json of [JSON.stringify(list), JSON.stringify(one)]) {
    const shown = withoutIds(json);
    for (const fragment of PRIVATE_FRAGMENTS) {
      assert(!shown.includes(fragment), `${fragment} leaked: ${json}`);
    }
  }
  // Bought, the same lead unlocks everything.
  await buyLead(t.sql, { leadId: lead.id, surveyorId: me, actorId: null, publicUrl });
  const unlocked = await getPurchasedLead(t.sql, { leadId: lead.id, surveyorId: me });
  assertEquals(unlocked?.client, {
    name: PRIVATE.contactName,
    phone: PRIVATE.contactPhone,
    email: PRIVATE.contactEmail,
  });
  assertEquals(unlocked?.address, PRIVATE.address);
  assertEquals(unlocked?.accessNotes, PRIVATE.accessNotes);
  assertEquals(unlocked?.notes, PRIVATE.notes);
  t.close();
});

test("[lead market] a lead is visible when eligible, offered, or taken; otherwise not", async () => {
  const { t, client } = await setup();
  const { lead } = await addLead(t, client.cookie);
  const eligible = await surveyorId(t, "Near Survey");
  const far = await surveyorId(t, "Far Survey", { miles: 120 });
  const offeredFar = await surveyorId(t, "Offered Far Survey", { miles: 120 });
  await insertLeadRecipients(t.sql, {
    leadId: lead.id,
    recipients: [{ surveyorId: offeredFar, kind: "notified", distanceMiles: 120 }],
  });
  const get = (id: string) => getLeadForSurveyor(t.sql, { leadId: lead.id, surveyorId: id });
  assertEquals((await get(eligible))?.id, lead.id);
  assertEquals(await get(far), undefined);
  assertEquals((await get(offeredFar))?.id, lead.id);
  assertEquals(
    await getLeadForSurveyor(t.sql, { leadId: "not-a-uuid", surveyorId: eligible }),
    undefined,
  );
  assertEquals(
    await getLeadForSurveyor(t.sql, { leadId: crypto.randomUUID(), surveyorId: eligible }),
    undefined,
  );
  // Bought then closed: still visible to the buyer, no longer to an eligible stranger.
  await buyLead(t.sql, { leadId: lead.id, surveyorId: eligible, actorId: null, publicUrl });
  const other = await surveyorId(t, "Other Near Survey");
  await t.sql`update leads set status = 'closed', closed_reason = 'expired' where id = ${lead.id}`;
  const mine = await get(eligible);
  assertEquals(mine?.status, "closed");
  assertEquals(mine?.viewer.purchased, "buy");
  assertEquals(await get(other), undefined);
  t.close();
});

// ----------------------------------------------------------------------------------- buy

test("[lead market] buying charges the price, counts the buyer, tells the admins, closes on the last place", async () => {
  const { t, client, admin } = await setup();
  const { lead, survey } = await addLead(t, client.cookie, { maxBuyers: 2 });
  const a = await surveyorId(t, "Able Survey");
  const b = await surveyorId(t, "Baker Survey");
  await insertLeadRecipients(t.sql, {
    leadId: lead.id,
    recipients: [{ surveyorId: a, kind: "notified", distanceMiles: 5 }],
  });
  const bought = await buyLead(t.sql, { leadId: lead.id, surveyorId: a, actorId: null, publicUrl });
  assertEquals(bought.purchase.chargedCents, lead.priceCents);
  assertEquals(bought.balanceAfterCents, 100_00 - lead.priceCents);
  assertEquals(await balanceAndLedger(t, a), {
    balance: 100_00 - lead.priceCents,
    ledger: 100_00 - lead.priceCents,
    entries: 2,
  });
  const [entry] = await t.sql`
    select kind, amount_cents, lead_purchase_id from surveyor_ledger
    where surveyor_id = ${a} and kind = 'lead_purchase'`;
  assertEquals(Number(entry.amountCents), -lead.priceCents);
  assertEquals(entry.leadPurchaseId, bought.purchase.id);
  const [offer] = await t.sql`
    select outcome from lead_recipients where lead_id = ${lead.id} and surveyor_id = ${a}`;
  assertEquals(offer.outcome, "purchased");
  const [note] = await t.sql`
    select user_id, title, body, link from notifications where kind = 'lead_bought'`;
  assertEquals(note.userId, admin.user.id);
  assertEquals(note.title, "Lead bought");
  assertEquals(note.link, `/survey/${survey.id}`);
  assert(note.body.startsWith("Able Survey bought the Boundary Survey lead in Austin, TX for $"));
  assert(note.body.endsWith("(1 of 2 places sold)."), note.body);

  let [row] = await t.sql`select status, buyers_count, closed_reason from leads
    where id = ${lead.id}`;
  assertEquals([row.status, row.buyersCount, row.closedReason], ["open", 1, null]);
  await buyLead(t.sql, { leadId: lead.id, surveyorId: b, actorId: null, publicUrl });
  [row] = await t.sql`select status, buyers_count, closed_reason, closed_at from leads
    where id = ${lead.id}`;
  assertEquals([row.status, row.buyersCount, row.closedReason], ["closed", 2, "sold_out"]);
  assert(row.closedAt instanceof Date);
  t.close();
});

test("[lead market] buying twice, a closed lead, or without eligibility is refused and charges nothing", async () => {
  const { t, client } = await setup();
  const { lead } = await addLead(t, client.cookie, { maxBuyers: 2 });
  const me = await surveyorId(t, "Able Survey");
  await buyLead(t.sql, { leadId: lead.id, surveyorId: me, actorId: null, publicUrl });
  const before = await countRows(t, "lead_purchases");
  await expectError(
    buyLead(t.sql, { leadId: lead.id, surveyorId: me, actorId: null, publicUrl }),
    409,
    LEAD_MARKET_MESSAGES.alreadyBought,
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
    [
      { licenseStates: ["OK"] },
      "This property is in Texas, where Meridian has not verified a licence of yours. Contact us to have your Texas licence checked; leads there open once an admin has verified it.",
    ],
  ];
  for (const [options, message] of cases) {
    const id = await surveyorId(t, `Case ${message.slice(0, 20)}`, options);
    await expectError(
      buyLead(t.sql, { leadId: lead.id, surveyorId: id, actorId: null, publicUrl }),
      409,
      message,
    );
    assertEquals(await balanceAndLedger(t, id), { balance: 100_00, ledger: 100_00, entries: 1 });
  }
  await expectError(
    buyLead(t.sql, { leadId: crypto.randomUUID(), surveyorId: me, actorId: null, publicUrl }),
    404,
    LEAD_MARKET_MESSAGES.notFound,
  );
  await expectError(
    buyLead(t.sql, { leadId: "nope", surveyorId: me, actorId: null, publicUrl }),
    404,
  );
  // Closed (expired by the clock) and sold out.
  const expired = await addLead(t, client.cookie);
  await t
    .sql`update leads set expires_at = now() - interval '1 second' where id = ${expired.lead.id}`;
  await expectError(
    buyLead(t.sql, { leadId: expired.lead.id, surveyorId: me, actorId: null, publicUrl }),
    409,
    LEAD_MARKET_MESSAGES.expired,
  );
  const other = await surveyorId(t, "Baker Survey");
  await buyLead(t.sql, { leadId: lead.id, surveyorId: other, actorId: null, publicUrl });
  const third = await surveyorId(t, "Charlie Survey");
  await expectError(
    buyLead(t.sql, { leadId: lead.id, surveyorId: third, actorId: null, publicUrl }),
    409,
    LEAD_MARKET_MESSAGES.soldOut,
  );
  assertEquals(await countRows(t, "lead_purchases"), before + 1);
  assertEquals(await balanceAndLedger(t, third), { balance: 100_00, ledger: 100_00, entries: 1 });
  t.close();
});

test("[lead market] a balance too low is a 402 with the figures; nothing stored, nothing charged", async () => {
  const { t, client } = await setup();
  const { lead } = await addLead(t, client.cookie);
  assertEquals(lead.priceCents, 38_50);
  const poor = await surveyorId(t, "Poor Survey", { balanceCents: 12_00 });
  await expectError(
    buyLead(t.sql, { leadId: lead.id, surveyorId: poor, actorId: null, publicUrl }),
    402,
    "Your balance is $12.00; this lead costs $38.50. Add credit to buy it.",
  );
  assertEquals(await countRows(t, "lead_purchases"), 0);
  const [{ n }] = await t.sql`select count(*)::int as n from notifications
    where kind = 'lead_bought'`;
  assertEquals(n, 0);
  assertEquals(await balanceAndLedger(t, poor), { balance: 12_00, ledger: 12_00, entries: 1 });
  const [row] = await t.sql`select buyers_count, status from leads where id = ${lead.id}`;
  assertEquals([row.buyersCount, row.status], [0, "open"]);
  t.close();
});

// -------------------------------------------------------------------------------- claim

function claim(t: TestApp, leadId: string, surveyorId: string) {
  return claimLead(t.sql, { leadId, surveyorId, actorId: null, publicUrl });
}

test("[lead market] the claim fee is the multiple of the configuration the lead was priced with, not today's", async () => {
  const { t, client, admin } = await setup();
  const base = (await getActivePricingConfig(t.sql)).config;
  await insertPricingConfig(t.sql, {
    config: { ...base, lead: { ...base.lead, claimFeeMultiple: 2 } },
    createdBy: admin.user.id,
  });
  const { lead } = await addLead(t, client.cookie);
  // An admin changes the multiple after the lead was priced: the lead keeps its own.
  await insertPricingConfig(t.sql, {
    config: { ...base, lead: { ...base.lead, claimFeeMultiple: 3 } },
    createdBy: admin.user.id,
  });
  const later = await addLead(t, client.cookie);
  const me = await surveyorId(t, "Able Survey");
  const fees = new Map(
    (await listAvailableLeads(t.sql, { surveyorId: me, page: 1, pageSize: 20 })).leads.map(
      (l) => [l.id, l.claimFeeCents],
    ),
  );
  assertEquals(fees.get(lead.id), Math.round(lead.priceCents * 2));
  assertEquals(fees.get(later.lead.id), Math.round(later.lead.priceCents * 3));
  const result = await claim(t, lead.id, me);
  assertEquals(result.purchase.chargedCents, Math.round(lead.priceCents * 2));
  t.close();
});

test("[lead market] claiming charges the claim fee, closes the lead and assigns the claimer at the quote", async () => {
  const { t, client, admin } = await setup();
  const { lead, survey } = await addLead(t, client.cookie);
  const me = await surveyorId(t, "Able Survey");
  const other = await surveyorId(t, "Baker Survey");
  const summary = await getLeadForSurveyor(t.sql, { leadId: lead.id, surveyorId: me });
  const fee = Math.round(lead.priceCents * 1.5);
  assertEquals(summary?.claimFeeCents, fee);
  const result = await claim(t, lead.id, me);
  assertEquals(result.purchase.chargedCents, fee);
  assertEquals(result.balanceAfterCents, 100_00 - fee);
  const [entry] = await t.sql`select kind, amount_cents from surveyor_ledger
    where surveyor_id = ${me} and kind <> 'top_up'`;
  assertEquals([entry.kind, Number(entry.amountCents)], ["claim_fee", -fee]);
  const [row] = await t.sql`select status, closed_reason, claimed_by, buyers_count from leads
    where id = ${lead.id}`;
  assertEquals([row.status, row.closedReason, row.claimedBy, row.buyersCount], [
    "closed",
    "claimed",
    me,
    1,
  ]);
  const [assignment] = await t.sql`select surveyor_id, agreed_price_cents, status, source
    from survey_assignments where survey_id = ${survey.id}`;
  assertEquals(assignment, {
    surveyorId: me,
    agreedPriceCents: survey.quotedPriceCents,
    status: "accepted",
    source: "claim",
  });
  const [s] = await t.sql`select status, assigned_surveyor_id from surveys
    where id = ${survey.id}`;
  assertEquals([s.status, s.assignedSurveyorId], ["assigned", me]);
  const [note] = await t.sql`select user_id, title, body from notifications
    where kind = 'lead_claimed'`;
  assertEquals([note.userId, note.title], [admin.user.id, "Lead claimed"]);
  assert(note.body.includes(`claim fee ${"$" + (fee / 100).toFixed(2)}`), note.body);
  const unlocked = await getPurchasedLead(t.sql, { leadId: lead.id, surveyorId: me });
  assertEquals(unlocked?.kind, "claim");
  assertEquals(unlocked?.assignment?.status, "accepted");
  assertEquals(unlocked?.assignment?.agreedPriceCents, survey.quotedPriceCents);
  // Closed for everyone else, whichever way they try.
  await expectError(claim(t, lead.id, other), 409, LEAD_MARKET_MESSAGES.claimed);
  await expectError(
    buyLead(t.sql, { leadId: lead.id, surveyorId: other, actorId: null, publicUrl }),
    409,
    LEAD_MARKET_MESSAGES.claimed,
  );
  await expectError(claim(t, lead.id, me), 409, LEAD_MARKET_MESSAGES.alreadyClaimed);
  assertEquals(await balanceAndLedger(t, other), { balance: 100_00, ledger: 100_00, entries: 1 });
  t.close();
});

test("[lead market] the available list gives each surveyor the lead as its own read does (the welcome claim's fee), read after read, and a change at the next read", async () => {
  const { t, client } = await setup();
  // Two offices at the same place, one with its welcome claim unused: the same lead reads the
  // same to both but for the claim's fee.
  const fresh = await surveyorId(t, "Fresh Lines", { welcomeUsed: false });
  const seasoned = await surveyorId(t, "Seasoned Lines");
  const { lead } = await addLead(t, client.cookie);
  for (let round = 0; round < 2; round++) {
    for (const [me, fee] of [[fresh, 0], [seasoned, Math.round(lead.priceCents * 1.5)]] as const) {
      const { leads } = await listAvailableLeads(t.sql, page(me));
      assertEquals(leads.length, 1);
      assertEquals(leads[0].claimFeeCents, fee);
      assertEquals(leads[0], await getLeadForSurveyor(t.sql, { leadId: lead.id, surveyorId: me }));
    }
  }
  await t.sql`update leads set buyers_count = 1 where id = ${lead.id}`;
  const { leads } = await listAvailableLeads(t.sql, page(seasoned));
  assertEquals(leads[0].buyersCount, 1);
  assertEquals(leads[0].canClaim, false);
  t.close();
});

test("[lead market] the welcome claim is free once: no ledger entry, then the fee applies", async () => {
  const { t, client } = await setup();
  const me = await surveyorId(t, "New Survey", { welcomeUsed: false });
  const first = await addLead(t, client.cookie);
  const second = await addLead(t, client.cookie);
  const summary = await getLeadForSurveyor(t.sql, { leadId: first.lead.id, surveyorId: me });
  assertEquals(summary?.claimFeeCents, 0);
  const free = await claim(t, first.lead.id, me);
  assertEquals(free.purchase.chargedCents, 0);
  assertEquals(free.balanceAfterCents, 100_00);
  assertEquals(await balanceAndLedger(t, me), { balance: 100_00, ledger: 100_00, entries: 1 });
  const [row] = await t.sql`select welcome_claim_used_at from surveyors where id = ${me}`;
  assert(row.welcomeClaimUsedAt instanceof Date);
  const next = await getLeadForSurveyor(t.sql, { leadId: second.lead.id, surveyorId: me });
  assertEquals(next?.claimFeeCents, Math.round(second.lead.priceCents * 1.5));
  const paid = await claim(t, second.lead.id, me);
  assertEquals(paid.purchase.chargedCents, Math.round(second.lead.priceCents * 1.5));
  t.close();
});

test("[lead market] no claim of a subdivision, of a lead someone bought, or beyond the balance", async () => {
  const { t, client } = await setup();
  const me = await surveyorId(t, "Able Survey", { surveyTypes: ["boundary", "subdivision"] });
  const buyer = await surveyorId(t, "Baker Survey");
  const subdivision = await addLead(t, client.cookie, {
    overrides: { surveyType: "subdivision", acreage: 12 },
  });
  assertEquals(subdivision.survey.quotedPriceCents, null);
  const summary = await getLeadForSurveyor(t.sql, {
    leadId: subdivision.lead.id,
    surveyorId: me,
  });
  assertEquals(summary?.canClaim, false);
  await expectError(
    claim(t, subdivision.lead.id, me),
    409,
    LEAD_MARKET_MESSAGES.claimQuoteRequired,
  );

  const bought = await addLead(t, client.cookie);
  await buyLead(t.sql, { leadId: bought.lead.id, surveyorId: buyer, actorId: null, publicUrl });
  assertEquals(
    (await getLeadForSurveyor(t.sql, { leadId: bought.lead.id, surveyorId: me }))?.canClaim,
    false,
  );
  await expectError(claim(t, bought.lead.id, me), 409, LEAD_MARKET_MESSAGES.claimAfterBuy);

  const poor = await surveyorId(t, "Poor Survey", { balanceCents: 12_00 });
  const open = await addLead(t, client.cookie);
  await expectError(
    claim(t, open.lead.id, poor),
    402,
    `Your balance is $12.00; claiming this lead costs $${
      (Math.round(open.lead.priceCents * 1.5) / 100).toFixed(2)
    }. Add credit to claim it.`,
  );
  assertEquals(await balanceAndLedger(t, me), { balance: 100_00, ledger: 100_00, entries: 1 });
  assertEquals(await balanceAndLedger(t, poor), { balance: 12_00, ledger: 12_00, entries: 1 });
  assertEquals(await countRows(t, "survey_assignments"), 0);
  const [row] = await t.sql`select status, buyers_count from leads where id = ${open.lead.id}`;
  assertEquals([row.status, row.buyersCount], ["open", 0]);
  const [s] = await t.sql`select status from surveys where id = ${open.survey.id}`;
  assertEquals(s.status, "requested");
  t.close();
});

test("[lead market] a claim racing buyers: either the claim wins alone or the buyers do", async () => {
  const { t, client } = await setup();
  for (let round = 0; round < (isRealPostgres ? 4 : 1); round++) {
    const { lead } = await addLead(t, client.cookie);
    const claimer = await surveyorId(t, `Claimer ${round}`);
    const buyers: string[] = [];
    for (let i = 0; i < 4; i++) buyers.push(await surveyorId(t, `Buyer ${round}-${i}`));
    const results = await Promise.allSettled([
      claim(t, lead.id, claimer),
      ...buyers.map((id) =>
        buyLead(t.sql, { leadId: lead.id, surveyorId: id, actorId: null, publicUrl })
      ),
    ]);
    const [row] = await t.sql`select l.status, l.closed_reason, l.buyers_count,
        (select count(*)::int from lead_purchases p where p.lead_id = l.id) as purchases,
        (select count(*)::int from survey_assignments a where a.survey_id = l.survey_id)
          as assignments
      from leads l where l.id = ${lead.id}`;
    assertEquals(row.buyersCount, row.purchases);
    if (results[0].status === "fulfilled") {
      assertEquals([row.closedReason, row.purchases, row.assignments], ["claimed", 1, 1]);
    } else {
      assertEquals([row.closedReason, row.purchases, row.assignments], ["sold_out", 3, 0]);
    }
    for (const id of [claimer, ...buyers]) {
      const money = await balanceAndLedger(t, id);
      assertEquals(money.balance, money.ledger);
    }
  }
  t.close();
});

// ---------------------------------------------------------------------------- dismiss

test("[lead market] Not interested hides the lead, declines the offer, is idempotent and free", async () => {
  const { t, client } = await setup();
  const { lead } = await addLead(t, client.cookie);
  const me = await surveyorId(t, "Able Survey");
  await insertLeadRecipients(t.sql, {
    leadId: lead.id,
    recipients: [{ surveyorId: me, kind: "notified", distanceMiles: 5 }],
  });
  await dismissLead(t.sql, { leadId: lead.id, surveyorId: me });
  await dismissLead(t.sql, { leadId: lead.id, surveyorId: me });
  assertEquals((await listAvailableLeads(t.sql, page(me))).total, 0);
  assertEquals(await countRows(t, "lead_dismissals"), 1);
  const [offer] = await t.sql`select outcome from lead_recipients where lead_id = ${lead.id}`;
  assertEquals(offer.outcome, "declined");
  const summary = await getLeadForSurveyor(t.sql, { leadId: lead.id, surveyorId: me });
  assertEquals(summary?.viewer.dismissed, true);
  assertEquals(await balanceAndLedger(t, me), { balance: 100_00, ledger: 100_00, entries: 1 });
  // A lead they may not see, or one they bought, is refused.
  const far = await surveyorId(t, "Far Survey", { miles: 200 });
  await expectError(dismissLead(t.sql, { leadId: lead.id, surveyorId: far }), 404);
  const other = await addLead(t, client.cookie);
  await buyLead(t.sql, { leadId: other.lead.id, surveyorId: me, actorId: null, publicUrl });
  await expectError(
    dismissLead(t.sql, { leadId: other.lead.id, surveyorId: me }),
    409,
    LEAD_MARKET_MESSAGES.dismissPurchased,
  );
  t.close();
});

// --------------------------------------------------------------------- purchased leads

test("[lead market] purchased leads: newest first, paged, only the buyer's; the pipeline is theirs to edit", async () => {
  const { t, client } = await setup();
  const me = await surveyorId(t, "Able Survey");
  const other = await surveyorId(t, "Baker Survey");
  const one = await addLead(t, client.cookie);
  const two = await addLead(t, client.cookie);
  await buyLead(t.sql, { leadId: one.lead.id, surveyorId: me, actorId: null, publicUrl });
  // A minute older: two purchases in a row can share a timestamp (ties go by id).
  await makeOlder(t.sql, "lead_purchases");
  await buyLead(t.sql, { leadId: two.lead.id, surveyorId: me, actorId: null, publicUrl });
  const list = await listPurchasedLeads(t.sql, { surveyorId: me, page: 1, pageSize: 1 });
  assertEquals(list.total, 2);
  assertEquals(list.leads.map((l) => l.id), [two.lead.id]);
  assertEquals(list.leads[0].kind, "buy");
  assertEquals(list.leads[0].pipelineStatus, "new");
  assertEquals(list.leads[0].client?.name, "Dana Client");
  assertEquals(list.leads[0].assignment, null);
  assertEquals(list.leads[0].refundRequest, null);
  assertEquals(
    (await listPurchasedLeads(t.sql, { surveyorId: other, page: 1, pageSize: 20 })).total,
    0,
  );
  assertEquals(
    await getPurchasedLead(t.sql, { leadId: one.lead.id, surveyorId: other }),
    undefined,
  );

  const saved = await updatePipeline(t.sql, {
    leadId: one.lead.id,
    surveyorId: me,
    update: { pipelineStatus: "contacted", pipelineNote: "Called, site visit Tuesday" },
  });
  assertEquals(saved?.pipelineStatus, "contacted");
  assertEquals(saved?.pipelineNote, "Called, site visit Tuesday");
  const cleared = await updatePipeline(t.sql, {
    leadId: one.lead.id,
    surveyorId: me,
    update: { pipelineNote: null },
  });
  assertEquals([cleared?.pipelineStatus, cleared?.pipelineNote], ["contacted", null]);
  assertEquals(
    await updatePipeline(t.sql, {
      leadId: one.lead.id,
      surveyorId: other,
      update: { pipelineStatus: "won" },
    }),
    undefined,
  );
  const [row] = await t.sql`select pipeline_status from lead_purchases
    where lead_id = ${one.lead.id}`;
  assertEquals(row.pipelineStatus, "contacted");
  t.close();
});

// --------------------------------------------------------------------------- the race

test("[lead market] many surveyors racing for the last places: exactly the remaining places sell, losers pay nothing", async () => {
  const { t, client } = await setup();
  const racers = 8;
  for (let round = 0; round < (isRealPostgres ? 5 : 2); round++) {
    const maxBuyers = 1 + (round % 3);
    const { lead } = await addLead(t, client.cookie, { maxBuyers });
    const ids: string[] = [];
    for (let i = 0; i < racers; i++) ids.push(await surveyorId(t, `Racer ${round}-${i}`));
    const results = await Promise.allSettled(
      ids.map((id) =>
        buyLead(t.sql, { leadId: lead.id, surveyorId: id, actorId: null, publicUrl })
      ),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
    assertEquals(won.length, maxBuyers, `round ${round}`);
    for (const loss of lost) {
      assert(loss.reason instanceof LeadMarketError, String(loss.reason));
      assertEquals(loss.reason.status, 409);
      assertEquals(loss.reason.message, LEAD_MARKET_MESSAGES.soldOut);
    }
    const [row] = await t.sql`
      select l.buyers_count, l.status,
        (select count(*)::int from lead_purchases p where p.lead_id = l.id) as purchases
      from leads l where l.id = ${lead.id}`;
    assertEquals([row.buyersCount, row.purchases, row.status], [maxBuyers, maxBuyers, "closed"]);
    let charged = 0;
    for (const id of ids) {
      const money = await balanceAndLedger(t, id);
      assertEquals(money.balance, money.ledger);
      if (money.balance < 100_00) charged++;
    }
    assertEquals(charged, maxBuyers);
  }
  t.close();
});

// --------------------------------------------------------------------------- low balance

async function lowBalanceNotices(t: TestApp, userId: string | null, email: string) {
  const notes = await t.sql<{ title: string; link: string }[]>`
    select title, link from notifications where user_id = ${userId} and kind = 'low_balance'`;
  const mails = await t.sql<{ subject: string; status: string }[]>`
    select subject, status from email_outbox
    where to_address = ${email} and template = 'low_balance'`;
  return { notes, mails };
}

async function accountEmail(t: TestApp, userId: string | null): Promise<string> {
  const [row] = await t.sql<{ email: string }[]>`select email from users where id = ${userId}`;
  return row.email;
}

test("[lead market] a purchase that takes the balance below $50 tells the surveyor once (notification and email); one that stays above does not", async () => {
  const { t, client } = await setup();
  const { lead } = await addLead(t, client.cookie);
  // $40.00 left after this lead; $60.00 after it for the other.
  const low = await addMarketSurveyor(t, "Low Surveying", {
    balanceCents: lead.priceCents + 40_00,
  });
  const high = await addMarketSurveyor(t, "High Surveying", {
    balanceCents: lead.priceCents + 60_00,
  });
  assert(lead.priceCents + 40_00 >= 50_00, "the balance starts at or above the threshold");

  const bought = await buyLead(t.sql, {
    leadId: lead.id,
    surveyorId: low.surveyor.id,
    actorId: low.userId,
    publicUrl,
  });
  assertEquals(bought.balanceAfterCents, 40_00);
  const lowEmail = await accountEmail(t, low.userId);
  const lowSaw = await lowBalanceNotices(t, low.userId, lowEmail);
  assertEquals([...lowSaw.notes], [{
    title: "Your balance is low: $40",
    link: "/surveyor/billing",
  }]);
  assertEquals(lowSaw.mails.length, 1);
  assertEquals(lowSaw.mails[0].status, "queued");

  const stayed = await buyLead(t.sql, {
    leadId: lead.id,
    surveyorId: high.surveyor.id,
    actorId: high.userId,
    publicUrl,
  });
  assertEquals(stayed.balanceAfterCents, 60_00);
  const highSaw = await lowBalanceNotices(t, high.userId, await accountEmail(t, high.userId));
  assertEquals([highSaw.notes.length, highSaw.mails.length], [0, 0]);
  // Only the one crossing was told: nobody else got a low-balance notice.
  const [{ n }] = await t.sql<{ n: number }[]>`
    select count(*)::int as n from notifications where kind = 'low_balance'`;
  assertEquals(n, 1);
  t.close();
});

test("[lead market] a claim fee that takes the balance below $50 tells the surveyor", async () => {
  const { t, client } = await setup();
  const { lead } = await addLead(t, client.cookie);
  const probe = await surveyorId(t, "Probe Surveying");
  const fee = (await getLeadForSurveyor(t.sql, { leadId: lead.id, surveyorId: probe }))!
    .claimFeeCents;
  assert(fee > 0, "the claim has a fee");
  const claimer = await addMarketSurveyor(t, "Claim Surveying", { balanceCents: fee + 30_00 });
  const result = await claim(t, lead.id, claimer.surveyor.id);
  assertEquals([result.purchase.chargedCents, result.balanceAfterCents], [fee, 30_00]);
  const saw = await lowBalanceNotices(t, claimer.userId, await accountEmail(t, claimer.userId));
  assertEquals(saw.notes.map((n) => n.title), ["Your balance is low: $30"]);
  assertEquals(saw.mails.length, 1);
  t.close();
});

// ------------------------------------------------------------------------------- expiry

async function leadState(t: TestApp, leadId: string) {
  const [row] = await t.sql<
    { status: string; closedReason: string | null; closedAt: Date | null; updatedAt: Date }[]
  >`select status, closed_reason, closed_at, updated_at from leads where id = ${leadId}`;
  return row;
}

async function offerOutcomes(t: TestApp, leadId: string) {
  const rows = await t.sql<{ companyName: string; outcome: string }[]>`
    select s.company_name, r.outcome from lead_recipients r
    join surveyors s on s.id = r.surveyor_id
    where r.lead_id = ${leadId} order by s.company_name`;
  return rows.map((r) => `${r.companyName}: ${r.outcome}`);
}

test("[lead market] the expiry sweep closes leads past their expiry and their unanswered offers, leaves the rest, and is idempotent", async () => {
  const { t, client } = await setup();
  const sent = await surveyorId(t, "Sent Surveying");
  const declined = await surveyorId(t, "Declined Surveying");
  const buyer = await surveyorId(t, "Buyer Surveying");
  const expired = await addLead(t, client.cookie);
  const fresh = await addLead(t, client.cookie);
  const soldOut = await addLead(t, client.cookie, { maxBuyers: 1 });
  for (const { lead } of [expired, fresh, soldOut]) {
    await insertLeadRecipients(t.sql, {
      leadId: lead.id,
      recipients: [sent, declined, buyer].map((id) => ({
        surveyorId: id,
        kind: "notified" as const,
        distanceMiles: 5,
      })),
    });
  }
  await buyLead(t.sql, { leadId: expired.lead.id, surveyorId: buyer, actorId: null, publicUrl });
  await dismissLead(t.sql, { leadId: expired.lead.id, surveyorId: declined });
  await buyLead(t.sql, { leadId: soldOut.lead.id, surveyorId: buyer, actorId: null, publicUrl });
  const soldOutBefore = await leadState(t, soldOut.lead.id);
  // Past their expiry: one still open, one already closed (sold out).
  await t.sql`update leads set expires_at = now() - interval '1 minute'
    where id in (${expired.lead.id}, ${soldOut.lead.id})`;
  const freshBefore = await leadState(t, fresh.lead.id);

  assertEquals(await closeExpiredLeads(t.sql), 1);
  const closed = await leadState(t, expired.lead.id);
  assertEquals([closed.status, closed.closedReason], ["closed", "expired"]);
  assert(closed.closedAt, "closed_at is set");
  // Only the offer nobody answered expires; the buyer's and the refusal stay as they were.
  assertEquals(await offerOutcomes(t, expired.lead.id), [
    "Buyer Surveying: purchased",
    "Declined Surveying: declined",
    "Sent Surveying: expired",
  ]);
  // An open lead not yet expired, and a lead closed for another reason, are untouched.
  assertEquals(await leadState(t, fresh.lead.id), freshBefore);
  assertEquals(await offerOutcomes(t, fresh.lead.id), [
    "Buyer Surveying: sent",
    "Declined Surveying: sent",
    "Sent Surveying: sent",
  ]);
  const soldOutAfter = await leadState(t, soldOut.lead.id);
  assertEquals(
    [soldOutAfter.status, soldOutAfter.closedReason, soldOutAfter.closedAt],
    [soldOutBefore.status, "sold_out", soldOutBefore.closedAt],
  );
  assertEquals((await offerOutcomes(t, soldOut.lead.id))[2], "Sent Surveying: sent");

  // Again: nothing left to close, and the closed lead keeps its first closing time.
  assertEquals(await closeExpiredLeads(t.sql), 0);
  assertEquals(await leadState(t, expired.lead.id), closed);
  // The offered surveyor is still told why they cannot buy it; the buyer keeps what they bought.
  await expectError(
    buyLead(t.sql, { leadId: expired.lead.id, surveyorId: sent, actorId: null, publicUrl }),
    409,
    LEAD_MARKET_MESSAGES.expired,
  );
  assert(await getPurchasedLead(t.sql, { leadId: expired.lead.id, surveyorId: buyer }));
  t.close();
});

test("[lead market] the job worker closes expired leads by itself", async () => {
  const { t, client } = await setup();
  const { lead } = await addLead(t, client.cookie);
  await t.sql`update leads set expires_at = now() - interval '1 minute' where id = ${lead.id}`;
  const stop = startJobWorker(t, { handlers: {}, intervalMs: 5 });
  // Wait for the condition (the worker's first tick), not for a fixed time.
  for (let i = 0; i < 2000 && (await leadState(t, lead.id)).status === "open"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await stop();
  const row = await leadState(t, lead.id);
  assertEquals([row.status, row.closedReason], ["closed", "expired"]);
  t.close();
});

test("[lead market] a lead's county is its parcel's, as the parcel is now: changed, or not given as text", async () => {
  const { t, client } = await setup();
  const me = await surveyorId(t, "Barton Surveying");
  const { lead, survey } = await addLead(t, client.cookie);
  const countyShown = async () => {
    const [listed] = (await listAvailableLeads(t.sql, page(me))).leads;
    const one = await getLeadForSurveyor(t.sql, { leadId: lead.id, surveyorId: me });
    assertEquals(listed.county, one?.county, "the list and the lead agree");
    return one?.county;
  };
  assertEquals(await countyShown(), null, "no parcel, no county");
  // A provider's parcel: its outline makes it kilobytes, kept out of line by Postgres.
  const outline = Array.from({ length: 300 }, (_, i) => [-97.75 + i / 1e5, 30.27 + i / 1e5]);
  const parcel = (county: string | number) => ({
    county,
    parcelNumber: "0401",
    geometry: { type: "Polygon", coordinates: [outline] },
  });
  for (const [given, shown] of [["Travis", "Travis"], ["Hays", "Hays"], [48453, null]] as const) {
    await t.sql`update surveys set parcel = ${t.sql.json(parcel(given))} where id = ${survey.id}`;
    assertEquals(await countyShown(), shown, `county ${given}`);
  }
  await t.sql`update surveys set parcel = null where id = ${survey.id}`;
  assertEquals(await countyShown(), null, "the parcel removed");
  t.close();
});
