/**
 * What a refund takes back (issue 20, lib/refund_constants.ts has the rule): a refunded
 * purchase no longer unlocks the client's details on /api/purchased-leads and the
 * /surveyor/purchased-leads pages, which say why; after a cancellation, refunded buyers lose
 * them and a buyer it did not refund keeps them. And returns are refused once the lead became
 * the buyer's won or assigned job, nothing changed.
 */
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { countRows, expectJson } from "../_fixtures.ts";
import {
  addBuyer,
  addPurchase,
  addSurveyWithLead,
  type Buyer,
  LEAD_PRICE_CENTS,
  moneyOf,
} from "../_refund_fixtures.ts";
import { REFUND_MESSAGES } from "../../lib/refunds.ts";
import { refundedDetailsNotice } from "../../lib/refund_constants.ts";

async function setup() {
  const t = await createTestApp();
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  const { survey, lead } = await addSurveyWithLead(t, client.cookie);
  return { t, admin, client, survey, lead };
}

// What the fixture client told us that names or reaches them (tests/_fixtures.ts).
const PERSONAL = [
  "Dana",
  "555-0100",
  "5125550100",
  "dana@example.test",
  "Barton Springs",
  "30.2636",
  "-97.7589",
  "Gate code",
  "Dog in the yard",
];

function leaks(text: string): string[] {
  return PERSONAL.filter((p) => text.includes(p));
}

/** Every place the buyer reads the lead: the API (one and list) and the pages (one and list). */
async function buyerViews(t: TestApp, buyer: Buyer, leadId: string) {
  const one = await expectJson(
    await t.request("GET", `/api/purchased-leads/${leadId}`, { cookie: buyer.cookie }),
    200,
  );
  const list = await expectJson(
    await t.request("GET", "/api/purchased-leads", { cookie: buyer.cookie }),
    200,
  );
  const page = await t.request("GET", `/surveyor/purchased-leads/${leadId}`, {
    cookie: buyer.cookie,
  });
  assertEquals(page.status, 200);
  const listPage = await t.request("GET", "/surveyor/purchased-leads", { cookie: buyer.cookie });
  assertEquals(listPage.status, 200);
  return {
    lead: one.lead,
    json: JSON.stringify(one) + JSON.stringify(list),
    html: (await page.text()) + (await listPage.text()),
  };
}

function unescapeHtml(html: string): string {
  return html.replaceAll("&#x27;", "'").replaceAll("&#39;", "'").replaceAll("&amp;", "&");
}

async function expectHidden(t: TestApp, buyer: Buyer, leadId: string) {
  const { lead, json, html } = await buyerViews(t, buyer, leadId);
  assertEquals(leaks(json), [], "no personal data in the API");
  assertEquals(leaks(html), [], "no personal data on the pages");
  assert(lead.refundedAt, "the purchase reads refunded");
  const notice = refundedDetailsNotice(lead.refundedAt);
  assertMatch(
    notice,
    /^You were refunded for this lead on \w{3} \d{1,2}, \d{4}, so the client's details are no longer shown\.$/,
  );
  assertEquals(lead.detailsHidden, notice);
  assertEquals(lead.client, null);
  assertEquals(lead.address, null);
  assertEquals(lead.lat, null);
  assertEquals(lead.lng, null);
  // The page (and the list) say why, and keep what any surveyor saw before buying.
  const text = unescapeHtml(html);
  assert(text.split(notice).length >= 3, "the notice on the lead's page and in the list");
  assert(text.includes("Austin, TX"), "the town stays");
}

async function expectShown(t: TestApp, buyer: Buyer, leadId: string) {
  const { lead, json, html } = await buyerViews(t, buyer, leadId);
  assertEquals(lead.detailsHidden, null);
  assertEquals(lead.client.name, "Dana Client");
  assert(json.includes("Barton Springs") && html.includes("Barton Springs"));
  assert(html.includes("(512) 555-0100"));
}

function requestReturn(t: TestApp, cookie: string, leadId: string) {
  return t.request("POST", `/api/purchased-leads/${leadId}/refund-request`, {
    cookie,
    body: { reason: "invalid_contact", note: "The phone number is disconnected." },
  });
}

test("[refunded leads] an approved return takes the client's details back from the buyer's API and pages", async () => {
  const { t, admin, lead } = await setup();
  try {
    const buyer = await addBuyer(t, "Alpha Surveying");
    await addPurchase(t, lead, buyer, { daysAgo: 2 });
    await expectShown(t, buyer, lead.id);
    const filed = await expectJson(await requestReturn(t, buyer.cookie, lead.id), 201);
    // A pending request changes nothing yet.
    await expectShown(t, buyer, lead.id);
    await expectJson(
      await t.request("POST", `/api/admin/refund-requests/${filed.request.id}/decision`, {
        cookie: admin.cookie,
        body: { decision: "approve", note: "" },
      }),
      200,
    );
    await expectHidden(t, buyer, lead.id);
    // Saving the pipeline answers the lead too: still nothing personal in it.
    const saved = await expectJson(
      await t.request("PATCH", `/api/purchased-leads/${lead.id}`, {
        cookie: buyer.cookie,
        body: { pipelineStatus: "lost" },
      }),
      200,
    );
    assertEquals(leaks(JSON.stringify(saved)), []);
  } finally {
    t.close();
  }
});

test("[refunded leads] after the client cancels: refunded buyers lose the details, a buyer it did not refund keeps them", async () => {
  const { t, client, survey, lead } = await setup();
  try {
    const recent = await addBuyer(t, "Alpha Surveying");
    const old = await addBuyer(t, "Bravo Surveying");
    await addPurchase(t, lead, recent, { daysAgo: 1 });
    await addPurchase(t, lead, old, { daysAgo: 45 });
    const res = await t.request("DELETE", `/api/surveys/${survey.id}`, { cookie: client.cookie });
    assertEquals((await expectJson(res, 200)).message, "Survey request cancelled");
    assertEquals((await moneyOf(t, recent.surveyorId)).refunds, 1);
    assertEquals((await moneyOf(t, old.surveyorId)).refunds, 0);
    await expectHidden(t, recent, lead.id);
    // Bought before the return window: not refunded, so it keeps what it paid for.
    await expectShown(t, old, lead.id);
  } finally {
    t.close();
  }
});

async function addAssignment(t: TestApp, surveyId: string, buyer: Buyer, status: string) {
  await t.sql`
    insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, status, source)
    values (${surveyId}, ${buyer.surveyorId}, 40000, ${status}, 'admin')`;
}

test("[refunded leads] a lead that became the buyer's won or assigned job cannot be returned; nothing is stored", async () => {
  const { t, survey, lead } = await setup();
  try {
    await t.sql`update leads set max_buyers = 10 where id = ${lead.id}`;
    const cases: [string, (b: Buyer) => Promise<unknown>][] = [
      ["won", (b) =>
        t.sql`update lead_purchases set pipeline_status = 'won'
        where surveyor_id = ${b.surveyorId}`],
      ["completed job", (b) => addAssignment(t, survey.id, b, "completed")],
      ["scheduled job", (b) => addAssignment(t, survey.id, b, "scheduled")],
    ];
    for (const [name, makeJob] of cases) {
      const buyer = await addBuyer(t, `${name} Surveying`);
      await addPurchase(t, lead, buyer, { daysAgo: 1 });
      await makeJob(buyer);
      const res = await requestReturn(t, buyer.cookie, lead.id);
      assertEquals((await expectJson(res, 409)).message, REFUND_MESSAGES.afterJob, name);
      const page = await t.request("GET", `/surveyor/purchased-leads/${lead.id}`, {
        cookie: buyer.cookie,
      });
      assert(unescapeHtml(await page.text()).includes(REFUND_MESSAGES.afterJob), name);
    }
    assertEquals(await countRows(t, "lead_refund_requests"), 0);
    // A declined assignment is no job: that buyer may still ask.
    const declined = await addBuyer(t, "Declined Surveying");
    await addPurchase(t, lead, declined, { daysAgo: 1 });
    await addAssignment(t, survey.id, declined, "declined");
    await expectJson(await requestReturn(t, declined.cookie, lead.id), 201);
  } finally {
    t.close();
  }
});

test("[refunded leads] an admin cannot approve a return once the lead became the buyer's job", async () => {
  const { t, admin, survey, lead } = await setup();
  try {
    const buyer = await addBuyer(t, "Alpha Surveying");
    await addPurchase(t, lead, buyer, { daysAgo: 1 });
    const filed = await expectJson(await requestReturn(t, buyer.cookie, lead.id), 201);
    await addAssignment(t, survey.id, buyer, "completed");
    const res = await t.request("POST", `/api/admin/refund-requests/${filed.request.id}/decision`, {
      cookie: admin.cookie,
      body: { decision: "approve", note: "" },
    });
    assertEquals((await expectJson(res, 409)).message, REFUND_MESSAGES.approveAfterJob);
    assertEquals(await moneyOf(t, buyer.surveyorId), {
      balance: 200_00 - LEAD_PRICE_CENTS,
      ledger: 200_00 - LEAD_PRICE_CENTS,
      refunds: 0,
      refundCents: 0,
    });
    const [request] = await t.sql<{ status: string }[]>`select status from lead_refund_requests`;
    assertEquals(request.status, "pending");
    await expectShown(t, buyer, lead.id);
    // Denying stays possible.
    await expectJson(
      await t.request("POST", `/api/admin/refund-requests/${filed.request.id}/decision`, {
        cookie: admin.cookie,
        body: { decision: "deny", note: "You completed the survey." },
      }),
      200,
    );
  } finally {
    t.close();
  }
});

test("[refunded leads] the job page of a cancelled request shows a refunded buyer no client details either", async () => {
  const { t, client, survey, lead } = await setup();
  try {
    const buyer = await addBuyer(t, "Alpha Surveying");
    await addPurchase(t, lead, buyer, { daysAgo: 1 });
    await addAssignment(t, survey.id, buyer, "offered");
    const before = await t.request("GET", `/surveyor/jobs/${survey.id}`, { cookie: buyer.cookie });
    assertEquals(before.status, 200);
    assert((await before.text()).includes("Barton Springs"), "unlocked while the purchase stands");
    const res = await t.request("DELETE", `/api/surveys/${survey.id}`, { cookie: client.cookie });
    assertEquals((await expectJson(res, 200)).message, "Survey request cancelled");
    assertEquals((await moneyOf(t, buyer.surveyorId)).refunds, 1);
    const after = await t.request("GET", `/surveyor/jobs/${survey.id}`, { cookie: buyer.cookie });
    assertEquals(after.status, 200);
    assertEquals(leaks(await after.text()), []);
  } finally {
    t.close();
  }
});
