/**
 * Lead returns over HTTP: the automatic return when a client cancels or an admin removes a
 * request (single and delete-multiple), return requests and their rules, the admin queue and
 * decisions, and the race of an approval with an automatic return (meaningful on Postgres:
 * DATABASE_URL set, separate connections; on PGlite the two take turns).
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
  refundEmails,
  refundNotifications,
} from "../_refund_fixtures.ts";
import { REFUND_MESSAGES } from "../../lib/refunds.ts";
import { RETURN_WINDOW_DAYS } from "../../lib/refund_constants.ts";

async function setup() {
  const t = await createTestApp();
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  const { survey, lead } = await addSurveyWithLead(t, client.cookie);
  return { t, admin, client, survey, lead };
}

const CANCELLED =
  "Your $38.50 for the Boundary Survey lead in Austin, TX was returned: the client cancelled the request.";
const WITHDRAWN =
  "Your $38.50 for the Boundary Survey lead in Austin, TX was returned: the request was withdrawn.";

async function expectRefunded(t: TestApp, buyer: Buyer, sentence: string) {
  assertEquals(await moneyOf(t, buyer.surveyorId), {
    balance: 200_00,
    ledger: 200_00,
    refunds: 1,
    refundCents: LEAD_PRICE_CENTS,
  });
  const notes = await refundNotifications(t, buyer.userId);
  assertEquals(notes.length, 1);
  assertEquals(notes[0].body, sentence);
  assertEquals(notes[0].link, "/surveyor/billing");
  const mails = await refundEmails(t, buyer.email);
  assertEquals(mails.length, 1);
  assertMatch(mails[0].text.replace(/\s+/g, " "), new RegExp(sentence.replace(/[$.]/g, "\\$&")));
}

async function expectNotRefunded(t: TestApp, buyer: Buyer) {
  const money = await moneyOf(t, buyer.surveyorId);
  assertEquals(money.refunds, 0);
  assertEquals(money.balance, 200_00 - LEAD_PRICE_CENTS);
  assertEquals(await refundNotifications(t, buyer.userId), []);
  assertEquals(await refundEmails(t, buyer.email), []);
}

async function leadState(t: TestApp, leadId: string) {
  const [row] = await t.sql<{ status: string; closedReason: string | null }[]>`
    select status, closed_reason from leads where id = ${leadId}`;
  return row ? `${row.status}/${row.closedReason}` : "gone";
}

// ---------------------------------------------------------------------------------------------
// Automatic returns.

test("[refunds] a client cancelling within the return window returns every buyer's charge and closes the lead", async () => {
  const { t, client, survey, lead } = await setup();
  try {
    const a = await addBuyer(t, "Alpha Surveying");
    const b = await addBuyer(t, "Bravo Surveying");
    await addPurchase(t, lead, a, { daysAgo: 1 });
    await addPurchase(t, lead, b, { daysAgo: 3 });
    const res = await t.request("DELETE", `/api/surveys/${survey.id}`, { cookie: client.cookie });
    assertEquals((await expectJson(res, 200)).message, "Survey request cancelled");
    await expectRefunded(t, a, CANCELLED);
    await expectRefunded(t, b, CANCELLED);
    assertEquals(await leadState(t, lead.id), "closed/cancelled");
    const [{ reference }] = await t.sql<{ reference: string }[]>`
      select reference from surveyor_ledger where kind = 'refund' and surveyor_id = ${a.surveyorId}`;
    assertEquals(reference, "client_cancelled");
  } finally {
    t.close();
  }
});

test("[refunds] a client cancelling through the status API returns the charge too", async () => {
  const { t, client, survey, lead } = await setup();
  try {
    const a = await addBuyer(t, "Alpha Surveying");
    await addPurchase(t, lead, a);
    const res = await t.request("PATCH", `/api/surveys/${survey.id}/status`, {
      cookie: client.cookie,
      body: { status: "cancelled" },
    });
    await expectJson(res, 200);
    await expectRefunded(t, a, CANCELLED);
  } finally {
    t.close();
  }
});

test("[refunds] an admin deleting a request returns the charge before the purchase is gone", async () => {
  const { t, admin, survey, lead } = await setup();
  try {
    const a = await addBuyer(t, "Alpha Surveying");
    await addPurchase(t, lead, a, { daysAgo: 5 });
    const res = await t.request("DELETE", `/api/surveys/${survey.id}`, { cookie: admin.cookie });
    assertEquals((await expectJson(res, 200)).message, "Survey deleted");
    await expectRefunded(t, a, WITHDRAWN);
    assertEquals(await leadState(t, lead.id), "gone");
    assertEquals(await countRows(t, "lead_purchases"), 0);
    // The ledger keeps the refund; only its link to the deleted purchase is cleared.
    const [entry] = await t.sql<{ leadPurchaseId: string | null; reference: string }[]>`
      select lead_purchase_id, reference from surveyor_ledger where kind = 'refund'`;
    assertEquals(entry, { leadPurchaseId: null, reference: "request_removed" });
  } finally {
    t.close();
  }
});

test("[refunds] an admin deleting several requests returns each one's buyers in one go", async () => {
  const { t, admin, client, survey, lead } = await setup();
  try {
    const second = await addSurveyWithLead(t, client.cookie);
    const a = await addBuyer(t, "Alpha Surveying");
    const b = await addBuyer(t, "Bravo Surveying");
    await addPurchase(t, lead, a);
    await addPurchase(t, second.lead, b);
    const res = await t.request("POST", "/api/surveys/delete-multiple", {
      cookie: admin.cookie,
      body: { ids: [survey.id, second.survey.id] },
    });
    assertEquals((await expectJson(res, 200)).message, "2 surveys deleted");
    await expectRefunded(t, a, WITHDRAWN);
    await expectRefunded(t, b, WITHDRAWN);
  } finally {
    t.close();
  }
});

test(`[refunds] a purchase older than the ${RETURN_WINDOW_DAYS}-day window is not returned; a free welcome claim neither`, async () => {
  const { t, client, survey, lead } = await setup();
  try {
    const old = await addBuyer(t, "Old Surveying");
    await addPurchase(t, lead, old, { daysAgo: RETURN_WINDOW_DAYS + 1 });
    const welcome = await addBuyer(t, "Welcome Surveying", { balanceCents: 0 });
    await addPurchase(t, lead, welcome, { kind: "claim", chargedCents: 0 });
    const res = await t.request("DELETE", `/api/surveys/${survey.id}`, { cookie: client.cookie });
    await expectJson(res, 200);
    await expectNotRefunded(t, old);
    assertEquals(await moneyOf(t, welcome.surveyorId), {
      balance: 0,
      ledger: 0,
      refunds: 0,
      refundCents: 0,
    });
    assertEquals(await refundNotifications(t, welcome.userId), []);
    assertEquals(await countRows(t, "surveyor_ledger where kind = 'refund'"), 0);
    assertEquals(await leadState(t, lead.id), "closed/cancelled", "the lead closes anyway");
  } finally {
    t.close();
  }
});

test("[refunds] cancelled then deleted: the buyer is refunded once", async () => {
  const { t, admin, client, survey, lead } = await setup();
  try {
    const a = await addBuyer(t, "Alpha Surveying");
    await addPurchase(t, lead, a);
    await expectJson(
      await t.request("DELETE", `/api/surveys/${survey.id}`, { cookie: client.cookie }),
      200,
    );
    await expectJson(
      await t.request("DELETE", `/api/surveys/${survey.id}`, { cookie: admin.cookie }),
      200,
    );
    await expectRefunded(t, a, CANCELLED);
  } finally {
    t.close();
  }
});

// ---------------------------------------------------------------------------------------------
// Return requests.

function requestReturn(t: TestApp, cookie: string, leadId: string, body?: unknown) {
  return t.request("POST", `/api/purchased-leads/${leadId}/refund-request`, {
    cookie,
    body: body ?? { reason: "invalid_contact", note: "The phone number is disconnected." },
  });
}

test("[refunds] a buyer asks for a return within 14 days: 201, pending, in the admin queue", async () => {
  const { t, admin, lead } = await setup();
  try {
    const a = await addBuyer(t, "Alpha Surveying");
    const purchaseId = await addPurchase(t, lead, a, { daysAgo: 13 });
    const body = await expectJson(await requestReturn(t, a.cookie, lead.id), 201);
    assertEquals(body.message, "Return requested");
    assertEquals(body.request.status, "pending");
    assertEquals(body.request.reason, "invalid_contact");
    assertEquals(body.request.note, "The phone number is disconnected.");
    assertEquals((await moneyOf(t, a.surveyorId)).refunds, 0, "a request moves no money");

    const list = await expectJson(
      await t.request("GET", "/api/admin/refund-requests?status=pending", { cookie: admin.cookie }),
      200,
    );
    assertEquals(list.total, 1);
    const [item] = list.requests;
    assertEquals(item.id, body.request.id);
    assertEquals(item.companyName, "Alpha Surveying");
    assertEquals(item.surveyTypeName, "Boundary Survey");
    assertEquals(item.place, "Austin, TX");
    assertEquals(item.amountCents, LEAD_PRICE_CENTS);
    assertEquals(item.purchaseId, purchaseId);
    assertEquals(item.ageDays, 0);
    // The queue names the lead, never the client.
    assert(!JSON.stringify(list).includes("Dana"), "no client name in the queue");
    assert(!JSON.stringify(list).includes("Barton Springs"), "no street in the queue");

    // By the purchase's own id as well (the purchased-lead pages may hold either).
    const again = await requestReturn(t, a.cookie, purchaseId);
    assertEquals((await expectJson(again, 409)).message, REFUND_MESSAGES.pending);
  } finally {
    t.close();
  }
});

test("[refunds] return request rules: 14 days, one pending, already returned, a free claim, not theirs, wrong role", async () => {
  const { t, admin, client, lead } = await setup();
  try {
    await t.sql`update leads set max_buyers = 10 where id = ${lead.id}`;
    const late = await addBuyer(t, "Late Surveying");
    await addPurchase(t, lead, late, { daysAgo: 14 });
    assertEquals(
      (await expectJson(await requestReturn(t, late.cookie, lead.id), 409)).message,
      REFUND_MESSAGES.tooLate,
    );

    const welcome = await addBuyer(t, "Welcome Surveying", { balanceCents: 0 });
    await addPurchase(t, lead, welcome, { kind: "claim", chargedCents: 0 });
    assertEquals(
      (await expectJson(await requestReturn(t, welcome.cookie, lead.id), 409)).message,
      REFUND_MESSAGES.nothingCharged,
    );

    const refunded = await addBuyer(t, "Refunded Surveying");
    const refundedId = await addPurchase(t, lead, refunded);
    await t.sql`update lead_purchases set refunded_at = now() where id = ${refundedId}`;
    assertEquals(
      (await expectJson(await requestReturn(t, refunded.cookie, lead.id), 409)).message,
      REFUND_MESSAGES.alreadyRefunded,
    );

    // A surveyor who did not buy it, an unknown lead, a malformed id: the same 404.
    const stranger = await addBuyer(t, "Stranger Surveying");
    for (const id of [lead.id, crypto.randomUUID(), "not-a-lead"]) {
      assertEquals(
        (await expectJson(await requestReturn(t, stranger.cookie, id), 404)).message,
        "Lead not found",
      );
    }
    // A surveyor account with no record.
    const bare = await createSignedInUser(t, { role: "surveyor" });
    await expectJson(await requestReturn(t, bare.cookie, lead.id), 404);
    // Clients and admins do not file returns.
    await expectJson(await requestReturn(t, client.cookie, lead.id), 403);
    await expectJson(await requestReturn(t, admin.cookie, lead.id), 403);
    await expectJson(await requestReturn(t, "", lead.id), 401);

    // Bad input: 400 by the field, nothing stored.
    const buyer = await addBuyer(t, "Buyer Surveying");
    await addPurchase(t, lead, buyer);
    const bad = await expectJson(
      await requestReturn(t, buyer.cookie, lead.id, { reason: "bored", note: "" }),
      400,
    );
    assert(bad.errors.reason && bad.errors.note, JSON.stringify(bad));
    assertEquals(await countRows(t, "lead_refund_requests"), 0);
  } finally {
    t.close();
  }
});

// ---------------------------------------------------------------------------------------------
// Decisions.

async function pendingRequest(t: TestApp, leadId: string) {
  const buyer = await addBuyer(t, "Alpha Surveying");
  await addPurchase(t, { id: leadId }, buyer, { daysAgo: 2 });
  const body = await expectJson(
    await requestReturn(t, buyer.cookie, leadId, {
      reason: "duplicate",
      note: "Same client asked last week.",
    }),
    201,
  );
  return { buyer, requestId: body.request.id as string };
}

function decide(t: TestApp, cookie: string, id: string, body: unknown) {
  return t.request("POST", `/api/admin/refund-requests/${id}/decision`, { cookie, body });
}

test("[refunds] an admin approves: the charge comes back as a refund entry, the buyer is told; twice is a 409", async () => {
  const { t, admin, lead } = await setup();
  try {
    const { buyer, requestId } = await pendingRequest(t, lead.id);
    const res = await decide(t, admin.cookie, requestId, { decision: "approve", note: "" });
    const body = await expectJson(res, 200);
    assertEquals(body.message, "Return approved — $38.50 credited");
    assertEquals(body.request.status, "approved");
    assertEquals(body.request.decidedByName, "Ada Admin");
    assertEquals(body.request.isRefunded, true);
    assertEquals(await moneyOf(t, buyer.surveyorId), {
      balance: 200_00,
      ledger: 200_00,
      refunds: 1,
      refundCents: LEAD_PRICE_CENTS,
    });
    const [entry] = await t.sql<{ reference: string }[]>`
      select reference from surveyor_ledger where kind = 'refund'`;
    assertEquals(entry.reference, `refund_request:${requestId}`);
    const [note] = await refundNotifications(t, buyer.userId);
    assertEquals(note.title, "Return approved");
    assertMatch(note.body, /Your \$38\.50 for the Boundary Survey lead in Austin, TX was returned/);
    assertEquals((await refundEmails(t, buyer.email)).length, 1);

    for (const decision of ["approve", "deny"]) {
      const twice = await decide(t, admin.cookie, requestId, { decision, note: "Again" });
      assertEquals((await expectJson(twice, 409)).message, REFUND_MESSAGES.decidedTwice);
    }
    assertEquals((await moneyOf(t, buyer.surveyorId)).refunds, 1);
    assertEquals((await refundNotifications(t, buyer.userId)).length, 1);
    // After a decision the buyer cannot ask again.
    const again = await requestReturn(t, buyer.cookie, lead.id);
    assertEquals((await expectJson(again, 409)).message, REFUND_MESSAGES.alreadyRefunded);
  } finally {
    t.close();
  }
});

test("[refunds] an admin denies with a note: no money moves, the buyer is told why, and may not ask again", async () => {
  const { t, admin, lead } = await setup();
  try {
    const { buyer, requestId } = await pendingRequest(t, lead.id);
    const noNote = await decide(t, admin.cookie, requestId, { decision: "deny" });
    assertEquals((await expectJson(noNote, 400)).errors.note, "Say why the return is denied");

    const res = await decide(t, admin.cookie, requestId, {
      decision: "deny",
      note: "The client confirmed the request is new.",
    });
    const body = await expectJson(res, 200);
    assertEquals(body.message, "Return denied");
    assertEquals(body.request.status, "denied");
    assertEquals(body.request.decisionNote, "The client confirmed the request is new.");
    assertEquals((await moneyOf(t, buyer.surveyorId)).refunds, 0);
    const [note] = await refundNotifications(t, buyer.userId);
    assertEquals(note.title, "Return denied");
    assertEquals(
      note.body,
      "Your request to return the Boundary Survey lead in Austin, TX ($38.50) was denied. The client confirmed the request is new.",
    );
    assertEquals(note.link, `/surveyor/purchased-leads/${lead.id}`);
    const [mail] = await refundEmails(t, buyer.email);
    assertMatch(mail.subject, /was denied/);
    assertMatch(mail.text, /The client confirmed the request is new\./);

    const again = await requestReturn(t, buyer.cookie, lead.id);
    assertEquals((await expectJson(again, 409)).message, REFUND_MESSAGES.alreadyDecided);
  } finally {
    t.close();
  }
});

test("[refunds] only admins see the queue and decide; unknown requests are 404", async () => {
  const { t, admin, client, lead } = await setup();
  try {
    const { buyer, requestId } = await pendingRequest(t, lead.id);
    for (const cookie of [client.cookie, buyer.cookie]) {
      await expectJson(
        await t.request("GET", "/api/admin/refund-requests", { cookie }),
        403,
      );
      await expectJson(await decide(t, cookie, requestId, { decision: "approve" }), 403);
    }
    await expectJson(await decide(t, "", requestId, { decision: "approve" }), 401);
    for (const id of [crypto.randomUUID(), "nope"]) {
      const res = await decide(t, admin.cookie, id, { decision: "approve" });
      assertEquals((await expectJson(res, 404)).message, "Return request not found");
    }
    assertEquals((await moneyOf(t, buyer.surveyorId)).refunds, 0);
    const [{ status }] = await t.sql<{ status: string }[]>`
      select status from lead_refund_requests where id = ${requestId}`;
    assertEquals(status, "pending");
  } finally {
    t.close();
  }
});

test("[refunds] the queue pages by status: pending oldest first, decided ones apart", async () => {
  const { t, admin, client } = await setup();
  try {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { lead } = await addSurveyWithLead(t, client.cookie);
      const { requestId } = await pendingRequest(t, lead.id);
      await t.sql`
        update lead_refund_requests set created_at = now() - make_interval(days => ${3 - i}::int)
        where id = ${requestId}`;
      ids.push(requestId);
    }
    await expectJson(await decide(t, admin.cookie, ids[1], { decision: "approve" }), 200);
    const page1 = await expectJson(
      await t.request("GET", "/api/admin/refund-requests?pageSize=1", { cookie: admin.cookie }),
      200,
    );
    assertEquals([page1.total, page1.status, page1.pageSize], [2, "pending", 1]);
    assertEquals(page1.requests.map((r: { id: string }) => r.id), [ids[0]]);
    assertEquals(page1.requests[0].ageDays, 3);
    const page2 = await expectJson(
      await t.request("GET", "/api/admin/refund-requests?pageSize=1&page=2", {
        cookie: admin.cookie,
      }),
      200,
    );
    assertEquals(page2.requests.map((r: { id: string }) => r.id), [ids[2]]);
    // Past the last page: none, and still the total.
    const page3 = await expectJson(
      await t.request("GET", "/api/admin/refund-requests?pageSize=1&page=3", {
        cookie: admin.cookie,
      }),
      200,
    );
    assertEquals([page3.requests, page3.total, page3.page], [[], 2, 3]);
    const approved = await expectJson(
      await t.request("GET", "/api/admin/refund-requests?status=approved", {
        cookie: admin.cookie,
      }),
      200,
    );
    assertEquals(approved.requests.map((r: { id: string }) => r.id), [ids[1]]);
    const bad = await t.request("GET", "/api/admin/refund-requests?status=lost", {
      cookie: admin.cookie,
    });
    await expectJson(bad, 400);
  } finally {
    t.close();
  }
});

test("[refunds] an approval racing the client's cancellation makes exactly one refund entry", async () => {
  const { t, admin, client, survey, lead } = await setup();
  try {
    const { buyer, requestId } = await pendingRequest(t, lead.id);
    const [approve, cancel] = await Promise.all([
      decide(t, admin.cookie, requestId, { decision: "approve" }),
      t.request("DELETE", `/api/surveys/${survey.id}`, { cookie: client.cookie }),
    ]);
    await expectJson(cancel, 200);
    // The approval wins (200) or finds the request closed by the automatic return (409).
    assert([200, 409].includes(approve.status), `${approve.status} ${await approve.text()}`);
    assertEquals(await moneyOf(t, buyer.surveyorId), {
      balance: 200_00,
      ledger: 200_00,
      refunds: 1,
      refundCents: LEAD_PRICE_CENTS,
    });
    assertEquals((await refundNotifications(t, buyer.userId)).length, 1, "told once");
    const [{ status }] = await t.sql<{ status: string }[]>`
      select status from lead_refund_requests where id = ${requestId}`;
    assertEquals(status, "approved");
  } finally {
    t.close();
  }
});
