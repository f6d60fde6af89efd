/**
 * lib/refunds.ts: one refund per purchase whatever the path, the automatic return within the
 * window, and the buyer's notices. The concurrent case means something on real Postgres
 * (DATABASE_URL: separate connections, overlapping transactions); on PGlite the same calls
 * take turns and must end the same way.
 */
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import {
  addBuyer,
  addPurchase,
  addSurveyWithLead,
  LEAD_PRICE_CENTS,
  moneyOf,
  refundEmails,
  refundNotifications,
} from "../_refund_fixtures.ts";
import { refundPurchase, refundPurchasesForSurvey } from "../../lib/refunds.ts";
import { RETURN_WINDOW_DAYS } from "../../lib/refund_constants.ts";

async function setup() {
  const t = await createTestApp();
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  const { survey, lead } = await addSurveyWithLead(t, client.cookie);
  return { t, client, survey, lead };
}

async function ledgerRefunds(t: Awaited<ReturnType<typeof setup>>["t"], purchaseId: string) {
  return [
    ...await t.sql<{ amountCents: string; reference: string | null; note: string | null }[]>`
    select amount_cents, reference, note from surveyor_ledger
    where lead_purchase_id = ${purchaseId} and kind = 'refund'`,
  ];
}

test("[refunds] refundPurchase credits the charge once, as a refund entry, and marks the purchase", async () => {
  const { t, client, lead } = await setup();
  try {
    const buyer = await addBuyer(t, "Ortiz Land Surveying");
    const purchaseId = await addPurchase(t, lead, buyer);
    assertEquals((await moneyOf(t, buyer.surveyorId)).balance, 200_00 - LEAD_PRICE_CENTS);

    const first = await t.sql.begin((tx) =>
      refundPurchase(tx, { purchaseId, reason: "invalid_contact", actorId: client.user.id })
    );
    assertEquals(first.status, "refunded");
    assert(first.status === "refunded");
    assertEquals(first.amountCents, LEAD_PRICE_CENTS);
    assertEquals(first.balanceAfterCents, 200_00);
    const money = await moneyOf(t, buyer.surveyorId);
    assertEquals(money, { balance: 200_00, ledger: 200_00, refunds: 1, refundCents: 38_50 });
    const [entry] = await ledgerRefunds(t, purchaseId);
    assertEquals(entry.reference, "invalid_contact");
    const [purchase] = await t.sql<{ refundedAt: Date | null }[]>`
      select refunded_at from lead_purchases where id = ${purchaseId}`;
    assert(purchase.refundedAt instanceof Date);

    const second = await t.sql.begin((tx) =>
      refundPurchase(tx, { purchaseId, reason: "duplicate", actorId: null })
    );
    assertEquals(second.status, "already_refunded");
    assertEquals((await moneyOf(t, buyer.surveyorId)).refunds, 1);
    assertEquals((await moneyOf(t, buyer.surveyorId)).balance, 200_00);
  } finally {
    t.close();
  }
});

test("[refunds] a free welcome claim has nothing to refund; an unknown purchase is not found", async () => {
  const { t, lead } = await setup();
  try {
    const buyer = await addBuyer(t, "Welcome Surveying", { balanceCents: 0 });
    const purchaseId = await addPurchase(t, lead, buyer, { kind: "claim", chargedCents: 0 });
    const outcome = await t.sql.begin((tx) =>
      refundPurchase(tx, { purchaseId, reason: "client_cancelled", actorId: null })
    );
    assertEquals(outcome.status, "nothing_charged");
    assertEquals(await moneyOf(t, buyer.surveyorId), {
      balance: 0,
      ledger: 0,
      refunds: 0,
      refundCents: 0,
    });
    const unknown = await t.sql.begin((tx) =>
      refundPurchase(tx, {
        purchaseId: crypto.randomUUID(),
        reason: "client_cancelled",
        actorId: null,
      })
    );
    assertEquals(unknown.status, "not_found");
    const malformed = await t.sql.begin((tx) =>
      refundPurchase(tx, { purchaseId: "nope", reason: "client_cancelled", actorId: null })
    );
    assertEquals(malformed.status, "not_found");
  } finally {
    t.close();
  }
});

test("[refunds] the unique index is the last line of defence: a refund entry already there answers already_refunded and the transaction goes on", async () => {
  const { t, lead } = await setup();
  try {
    const buyer = await addBuyer(t, "Defence Surveying");
    const purchaseId = await addPurchase(t, lead, buyer);
    // A refund entry written by some path that did not mark the purchase.
    await t.sql.begin((tx) =>
      tx`
        insert into surveyor_ledger (surveyor_id, kind, amount_cents, balance_after_cents,
          lead_purchase_id, reference)
        values (${buyer.surveyorId}, 'refund', ${LEAD_PRICE_CENTS}, 20000, ${purchaseId},
          'elsewhere')`
    );
    const after = await t.sql.begin(async (tx) => {
      const outcome = await refundPurchase(tx, {
        purchaseId,
        reason: "duplicate",
        actorId: null,
      });
      // Still usable: the failed insert was rolled back to its savepoint.
      const [{ n }] = await tx<{ n: number }[]>`select count(*)::int as n from lead_purchases`;
      return { outcome, n };
    });
    assertEquals(after.outcome.status, "already_refunded");
    assertEquals(after.n, 1);
    assertEquals((await ledgerRefunds(t, purchaseId)).length, 1);
    assertEquals(
      (await moneyOf(t, buyer.surveyorId)).balance,
      200_00 - LEAD_PRICE_CENTS,
      "the balance did not move a second time",
    );
  } finally {
    t.close();
  }
});

test(`[refunds] the automatic return refunds purchases within ${RETURN_WINDOW_DAYS} days, closes the lead and tells each buyer`, async () => {
  const { t, client, survey, lead } = await setup();
  try {
    const recent = await addBuyer(t, "Recent Surveying");
    const edge = await addBuyer(t, "Edge Surveying");
    const old = await addBuyer(t, "Old Surveying");
    const recentId = await addPurchase(t, lead, recent, { daysAgo: 2 });
    await addPurchase(t, lead, edge, { daysAgo: RETURN_WINDOW_DAYS - 1 });
    const oldId = await addPurchase(t, lead, old, { daysAgo: RETURN_WINDOW_DAYS + 1 });

    const refunds = await t.sql.begin((tx) =>
      refundPurchasesForSurvey(tx, {
        surveyId: survey.id,
        reason: "client_cancelled",
        actorId: client.user.id,
        publicUrl: "http://localhost",
      })
    );
    assertEquals(
      refunds.map((r) => r.surveyorId).sort(),
      [recent.surveyorId, edge.surveyorId].sort(),
    );
    assertEquals((await moneyOf(t, recent.surveyorId)).balance, 200_00);
    assertEquals((await moneyOf(t, edge.surveyorId)).balance, 200_00);
    assertEquals((await moneyOf(t, old.surveyorId)).refunds, 0, "outside the window");
    assertEquals((await moneyOf(t, old.surveyorId)).balance, 200_00 - LEAD_PRICE_CENTS);
    assertEquals((await ledgerRefunds(t, recentId))[0].reference, "client_cancelled");
    assertEquals(await ledgerRefunds(t, oldId), []);

    const [closed] = await t.sql<{ status: string; closedReason: string; closedAt: Date }[]>`
      select status, closed_reason, closed_at from leads where id = ${lead.id}`;
    assertEquals([closed.status, closed.closedReason], ["closed", "cancelled"]);

    const sentence =
      "Your $38.50 for the Boundary Survey lead in Austin, TX was returned: the client cancelled the request.";
    const [note] = await refundNotifications(t, recent.userId);
    assertEquals(note, { title: "Lead returned", body: sentence, link: "/surveyor/billing" });
    const [mail] = await refundEmails(t, recent.email);
    assertEquals(mail.subject, "$38.50 returned to your Meridian balance");
    assertMatch(
      mail.text.replace(/\s+/g, " "),
      /Your \$38\.50 for the Boundary Survey lead in Austin, TX was returned: the client cancelled the request\./,
    );
    assertEquals(await refundNotifications(t, old.userId), [], "no notice without a refund");
    assertEquals(await refundEmails(t, old.email), []);

    // Again (a retried cancellation): nothing more.
    const again = await t.sql.begin((tx) =>
      refundPurchasesForSurvey(tx, {
        surveyId: survey.id,
        reason: "request_removed",
        actorId: null,
        publicUrl: "http://localhost",
      })
    );
    assertEquals(again, []);
    assertEquals((await moneyOf(t, recent.surveyorId)).refunds, 1);
    assertEquals((await refundNotifications(t, recent.userId)).length, 1);
  } finally {
    t.close();
  }
});

test("[refunds] an automatic return closes the purchase's pending request as approved", async () => {
  const { t, survey, lead } = await setup();
  try {
    const buyer = await addBuyer(t, "Pending Surveying");
    const purchaseId = await addPurchase(t, lead, buyer, { daysAgo: 1 });
    await t.sql`
      insert into lead_refund_requests (lead_purchase_id, reason, note)
      values (${purchaseId}, 'invalid_contact', 'The phone number is disconnected')`;
    await t.sql.begin((tx) =>
      refundPurchasesForSurvey(tx, {
        surveyId: survey.id,
        reason: "request_removed",
        closeAs: "cancelled",
        actorId: null,
        publicUrl: "http://localhost",
      })
    );
    const [request] = await t.sql<{ status: string; decisionNote: string }[]>`
      select status, decision_note from lead_refund_requests where lead_purchase_id = ${purchaseId}`;
    assertEquals(request, {
      status: "approved",
      decisionNote: "Returned automatically: the request was withdrawn.",
    });
    assertEquals((await moneyOf(t, buyer.surveyorId)).refunds, 1);
  } finally {
    t.close();
  }
});

test("[refunds] two transactions refunding one purchase at once make exactly one refund entry", async () => {
  const { t, survey, lead } = await setup();
  try {
    const buyer = await addBuyer(t, "Race Surveying");
    const purchaseId = await addPurchase(t, lead, buyer);
    const outcomes = await Promise.all([
      t.sql.begin((tx) => refundPurchase(tx, { purchaseId, reason: "duplicate", actorId: null })),
      t.sql.begin((tx) =>
        refundPurchasesForSurvey(tx, {
          surveyId: survey.id,
          reason: "client_cancelled",
          actorId: null,
          publicUrl: "http://localhost",
        })
      ),
      t.sql.begin((tx) =>
        refundPurchase(tx, { purchaseId, reason: "out_of_scope", actorId: null })
      ),
    ]);
    const refunded = [
      outcomes[0].status === "refunded",
      outcomes[1].length === 1,
      outcomes[2].status === "refunded",
    ].filter(Boolean);
    assertEquals(refunded.length, 1, JSON.stringify(outcomes));
    const money = await moneyOf(t, buyer.surveyorId);
    assertEquals(money, { balance: 200_00, ledger: 200_00, refunds: 1, refundCents: 38_50 });
  } finally {
    t.close();
  }
});

test("[refunds] the ledger stays append-only: only a deleted purchase's link may be cleared", async () => {
  const { t, client, lead } = await setup();
  try {
    const buyer = await addBuyer(t, "Ledger Surveying");
    await addPurchase(t, lead, buyer);
    const changes = [
      t.sql`update surveyor_ledger set amount_cents = 1`,
      t.sql`update surveyor_ledger set note = 'edited'`,
      t.sql`update surveyor_ledger set lead_purchase_id = ${crypto.randomUUID()}
        where lead_purchase_id is not null`,
    ];
    for (const change of changes) {
      const err = await change.then(() => null, (e: Error) => e);
      assertMatch(String(err), /append-only|foreign key/);
    }
    // Deleting the request cascades to the purchase; the debit stays, unlinked.
    await t.sql`delete from surveys where client_id = ${client.user.id}`;
    const entries = await t.sql<{ kind: string; amountCents: string; leadPurchaseId: null }[]>`
      select kind, amount_cents, lead_purchase_id from surveyor_ledger
      where surveyor_id = ${buyer.surveyorId} order by id`;
    assertEquals(entries.map((e) => [e.kind, Number(e.amountCents), e.leadPurchaseId]), [
      ["top_up", 200_00, null],
      ["lead_purchase", -LEAD_PRICE_CENTS, null],
    ]);
  } finally {
    t.close();
  }
});
