/**
 * Return (refund) test data: a client's request with its lead, buyers with a balance and a
 * signed-in surveyor account, and purchases made the way a buy records them (a purchase row,
 * the lead_purchase ledger debit, the lead's buyers count), dated as the test needs.
 */
import type { TestApp } from "./_helpers.ts";
import { createSignedInUser } from "./_auth.ts";
import { submitSurvey } from "./_fixtures.ts";
import { insertSurveyor } from "../db/surveyors.ts";
import { insertLead, type Lead } from "../db/leads.ts";
import { postLedgerEntry } from "../db/ledger.ts";
import type { Survey } from "../lib/survey_schema.ts";

/** The fixture lead's price: 10% of the $385 boundary quote. */
export const LEAD_PRICE_CENTS = 38_50;

/** A buyer: the surveyor record, its account and session cookie. */
export interface Buyer {
  surveyorId: string;
  userId: string;
  email: string;
  cookie: string;
}

/** An active surveyor with a signed-in account and `balanceCents` topped up. */
export async function addBuyer(
  t: TestApp,
  company: string,
  { balanceCents = 200_00 }: { balanceCents?: number } = {},
): Promise<Buyer> {
  const { user, cookie } = await createSignedInUser(t, {
    role: "surveyor",
    fullName: `${company} Owner`,
  });
  const surveyor = await insertSurveyor(t.sql, {
    companyName: company,
    licenseStates: ["TX"],
    surveyTypes: ["boundary"],
    status: "active",
    inNetwork: true,
    userId: user.id,
  });
  if (balanceCents > 0) {
    await t.sql.begin((tx) =>
      postLedgerEntry(tx, {
        surveyorId: surveyor.id,
        kind: "top_up",
        amountCents: balanceCents,
        reference: `test-${crypto.randomUUID()}`,
      })
    );
  }
  return { surveyorId: surveyor.id, userId: user.id, email: user.email, cookie };
}

/** A boundary survey request in Austin, TX by the client behind `clientCookie`, with its lead. */
export async function addSurveyWithLead(
  t: TestApp,
  clientCookie: string,
): Promise<{ survey: Survey; lead: Lead }> {
  const survey = await submitSurvey(t, clientCookie);
  const lead = await insertLead(t.sql, {
    surveyId: survey.id,
    priceCents: LEAD_PRICE_CENTS,
    pricing: {
      method: "share",
      surveyType: "boundary",
      quoteCents: 385_00,
      sharePercent: 10,
      floorCents: 15_00,
      capCents: 150_00,
      shareCents: LEAD_PRICE_CENTS,
      priceCents: LEAD_PRICE_CENTS,
      configVersion: 1,
    },
    maxBuyers: 3,
    expiryDays: 7,
  });
  return { survey, lead };
}

/**
 * Records `buyer`'s purchase of `lead` as a buy does: the purchase (a 'buy' at the lead price,
 * or a 'claim' at `chargedCents`, 0 for a welcome claim), its ledger debit and the buyers
 * count; `daysAgo` dates the purchase back. Returns the purchase id.
 */
export async function addPurchase(
  t: TestApp,
  lead: Pick<Lead, "id">,
  buyer: Pick<Buyer, "surveyorId">,
  { daysAgo = 0, kind = "buy", chargedCents = LEAD_PRICE_CENTS }: {
    daysAgo?: number;
    kind?: "buy" | "claim";
    chargedCents?: number;
  } = {},
): Promise<string> {
  return await t.sql.begin(async (tx) => {
    const [{ id }] = await tx<{ id: string }[]>`
      insert into lead_purchases (lead_id, surveyor_id, kind, charged_cents, created_at)
      values (${lead.id}, ${buyer.surveyorId}, ${kind}, ${chargedCents},
        now() - make_interval(days => ${daysAgo}::int))
      returning id`;
    if (chargedCents > 0) {
      await postLedgerEntry(tx, {
        surveyorId: buyer.surveyorId,
        kind: kind === "buy" ? "lead_purchase" : "claim_fee",
        amountCents: -chargedCents,
        leadPurchaseId: id,
      });
    }
    await tx`update leads set buyers_count = buyers_count + 1 where id = ${lead.id}`;
    return id;
  });
}

/** The surveyor's balance, the sum of their ledger and their refund entries. */
export async function moneyOf(
  t: TestApp,
  surveyorId: string,
): Promise<{ balance: number; ledger: number; refunds: number; refundCents: number }> {
  const [row] = await t.sql<
    { balance: string; ledger: string; refunds: number; refundCents: string }[]
  >`
    select s.balance_cents as balance,
      coalesce((select sum(amount_cents) from surveyor_ledger where surveyor_id = s.id), 0)
        as ledger,
      (select count(*)::int from surveyor_ledger where surveyor_id = s.id and kind = 'refund')
        as refunds,
      coalesce((select sum(amount_cents) from surveyor_ledger
        where surveyor_id = s.id and kind = 'refund'), 0) as refund_cents
    from surveyors s where s.id = ${surveyorId}`;
  return {
    balance: Number(row.balance),
    ledger: Number(row.ledger),
    refunds: row.refunds,
    refundCents: Number(row.refundCents),
  };
}

/** The 'refund_decided' notifications of `userId`, newest first. */
export async function refundNotifications(
  t: TestApp,
  userId: string,
): Promise<{ title: string; body: string; link: string | null }[]> {
  return [
    ...await t.sql<{ title: string; body: string; link: string | null }[]>`
    select title, body, link from notifications
    where user_id = ${userId} and kind = 'refund_decided'
    order by created_at desc, id desc`,
  ];
}

/** The refund emails queued to `to`, newest first. */
export async function refundEmails(
  t: TestApp,
  to: string,
): Promise<{ subject: string; text: string }[]> {
  return [
    ...await t.sql<{ subject: string; text: string }[]>`
    select subject, text from email_outbox
    where to_address = ${to} and template = 'refund_decision'
    order by created_at desc`,
  ];
}
