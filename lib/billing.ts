/**
 * Surveyor billing: how much a card top-up may be, when a balance counts as low, and what
 * happens when a Stripe webhook says a Checkout session was paid. Every movement of money goes
 * through `postLedgerEntry` (db/ledger.ts) in the transaction that causes it.
 */
import { z } from "zod";
import type { Db, Sql } from "../db/client.ts";
import { postLedgerEntry } from "../db/ledger.ts";
import {
  getCheckoutSessionForUpdate,
  insertStripeEvent,
  setCheckoutSessionStatus,
} from "../db/billing.ts";
import { insertNotification } from "../db/notifications.ts";
import { queueLowBalanceEmail } from "./mail/emails.ts";
import { formatCents } from "./quote_text.ts";
import { multiLine } from "./text.ts";
import type { StripeLikeEvent } from "./payments/provider.ts";

/** The top-up amounts offered as one-click choices: $50, $100, $250, $500. */
export const TOP_UP_CHOICES_CENTS = [5_000, 10_000, 25_000, 50_000] as const;
/** Smallest custom top-up: $20 (less is mostly card fees). */
export const MIN_TOP_UP_CENTS = 2_000;
/** Largest single top-up: $2,000 (a larger one is a conversation with support). */
export const MAX_TOP_UP_CENTS = 200_000;

/**
 * Below this a balance is "low": $50, about what a typical lead costs (a 6% lead on an
 * $800 boundary survey is $48), so a surveyor under it may not be able to buy the next lead.
 */
export const LOW_BALANCE_THRESHOLD_CENTS = 5_000;

/**
 * What a surveyor is told when card top-ups are not configured (the checkout API's 409 and
 * the billing page): never a fake payment, but how credit is really added.
 */
export const TOP_UPS_DISABLED_MESSAGE =
  "Card top-ups are not set up on this Meridian yet. Ask Meridian support to add credit to your balance.";

/** The surveyor's billing page, where emails and notifications point. */
export const BILLING_PATH = "/surveyor/billing";

/** Body of `POST /api/billing/checkout`: whole cents between the minimum and maximum. */
export const TopUpSchema = z.object({
  amountCents: z.number({ error: "Choose an amount to add" })
    .int({ error: "The amount must be whole cents" })
    .min(MIN_TOP_UP_CENTS, { error: `The smallest top-up is ${formatCents(MIN_TOP_UP_CENTS)}` })
    .max(MAX_TOP_UP_CENTS, { error: `The largest top-up is ${formatCents(MAX_TOP_UP_CENTS)}` }),
}).strict();

/** Largest admin adjustment either way: $10,000. */
export const MAX_ADJUSTMENT_CENTS = 1_000_000;

/** Body of `POST /api/surveyors/{id}/balance-adjustments`: signed non-zero cents and a note. */
export const BalanceAdjustmentSchema = z.object({
  amountCents: z.number({ error: "Enter an amount" })
    .int({ error: "The amount must be whole cents" })
    .min(-MAX_ADJUSTMENT_CENTS, {
      error: `An adjustment is at most ${formatCents(MAX_ADJUSTMENT_CENTS)} either way`,
    })
    .max(MAX_ADJUSTMENT_CENTS, {
      error: `An adjustment is at most ${formatCents(MAX_ADJUSTMENT_CENTS)} either way`,
    })
    .refine((n) => n !== 0, { error: "The amount cannot be zero" }),
  note: multiLine("Note", {
    min: 1,
    max: 1000,
    messages: { missing: "Add a note saying why", min: "Add a note saying why" },
  }),
}).strict();

/**
 * Records that a debit may have taken the surveyor's balance low, in the caller's transaction
 * (call it right after the `postLedgerEntry` of a purchase, claim fee or negative adjustment,
 * with the balance it returned). When the balance is now below `LOW_BALANCE_THRESHOLD_CENTS`
 * and was at or above it before that entry, and the surveyor's account has had no low-balance
 * notice in the last 24 hours, the account gets a 'low_balance' notification and the
 * LowBalance email. Returns whether it sent them. A surveyor record with no linked (or a
 * disabled) account gets nothing. Throws on a non-http(s) `publicUrl`.
 */
export async function noteLowBalance(
  tx: Db,
  { surveyorId, balanceAfterCents, publicUrl }: {
    surveyorId: string;
    balanceAfterCents: number;
    /** The site's public origin (PUBLIC_URL), for the email's link. */
    publicUrl: string;
  },
): Promise<boolean> {
  if (balanceAfterCents >= LOW_BALANCE_THRESHOLD_CENTS) return false;
  // The newest ledger row is the caller's: the balance update it made holds the surveyor's
  // row lock until commit, so nobody else can have posted since.
  const [row] = await tx<
    {
      lastAmountCents: string | null;
      companyName: string;
      userId: string | null;
      email: string | null;
      fullName: string | null;
      hasRecentNotice: boolean;
    }[]
  >`
    select
      (select amount_cents from surveyor_ledger where surveyor_id = s.id
        order by id desc limit 1) as last_amount_cents,
      s.company_name, u.id as user_id, u.email, u.full_name,
      exists (
        select 1 from notifications n
        where n.user_id = u.id and n.kind = 'low_balance'
          and n.created_at > now() - interval '24 hours'
      ) as has_recent_notice
    from surveyors s left join users u on u.id = s.user_id and u.disabled_at is null
    where s.id = ${surveyorId}`;
  if (!row || !row.userId || !row.email || row.hasRecentNotice) return false;
  const lastAmount = Number(row.lastAmountCents ?? 0);
  const balanceBefore = balanceAfterCents - lastAmount;
  if (lastAmount >= 0 || balanceBefore < LOW_BALANCE_THRESHOLD_CENTS) return false;
  const balance = formatCents(balanceAfterCents);
  const threshold = formatCents(LOW_BALANCE_THRESHOLD_CENTS);
  await insertNotification(tx, {
    userId: row.userId,
    kind: "low_balance",
    title: `Your balance is low: ${balance}`,
    body: `Your balance fell below ${threshold}. Add credit so you can buy your next lead.`,
    link: BILLING_PATH,
  });
  await queueLowBalanceEmail(tx, {
    to: row.email,
    name: row.fullName ?? row.companyName,
    companyName: row.companyName,
    balance,
    threshold,
    billingUrl: new URL(BILLING_PATH, publicUrl).href,
  });
  return true;
}

/** What a webhook event did. */
export type StripeEventOutcome =
  | { outcome: "credited"; surveyorId: string; amountCents: number; balanceAfterCents: number }
  | { outcome: "duplicate" }
  | { outcome: "expired" }
  | { outcome: "ignored"; reason: string };

/** The parts of a Checkout session object the webhook reads. */
interface SessionObject {
  id?: unknown;
  payment_status?: unknown;
  amount_total?: unknown;
  currency?: unknown;
}

/**
 * Applies a verified Stripe event, exactly once, in one transaction: the event id goes into
 * `stripe_events` first (a replay conflicts there and changes nothing). A paid
 * `checkout.session.completed` (or `checkout.session.async_payment_succeeded`) for a session
 * Meridian created, for the amount it was created with, in US dollars, marks the session paid
 * and credits the surveyor with a 'top_up' ledger entry referenced by the session id (the
 * ledger's unique index refuses a second credit of one session, whatever the event id).
 * `checkout.session.expired` marks an open session expired. Anything else (an unknown session,
 * another amount, a session already paid, an unpaid completion, other event types) is recorded
 * and ignored. A session that expired on our side but whose payment Stripe reports as paid is
 * credited: the money was taken. Database errors propagate (the webhook answers 503 and Stripe
 * retries).
 */
export async function applyStripeEvent(
  sql: Sql,
  event: StripeLikeEvent,
): Promise<StripeEventOutcome> {
  try {
    return await sql.begin(async (tx) => {
      if (!await insertStripeEvent(tx, { id: event.id, type: event.type })) {
        return { outcome: "duplicate" } as const;
      }
      const session = (event.data?.object ?? {}) as SessionObject;
      const sessionId = typeof session.id === "string" ? session.id : undefined;
      const isPaidEvent = event.type === "checkout.session.completed" ||
        event.type === "checkout.session.async_payment_succeeded";
      if (!sessionId || !(isPaidEvent || event.type === "checkout.session.expired")) {
        return { outcome: "ignored", reason: `event type ${event.type}` } as const;
      }
      const row = await getCheckoutSessionForUpdate(tx, { id: sessionId });
      if (!row) return { outcome: "ignored", reason: "unknown session" } as const;
      if (row.status === "paid") return { outcome: "ignored", reason: "already paid" } as const;
      if (event.type === "checkout.session.expired") {
        await setCheckoutSessionStatus(tx, { id: row.id, status: "expired" });
        return { outcome: "expired" } as const;
      }
      if (session.payment_status !== "paid") {
        return { outcome: "ignored", reason: "not paid yet" } as const;
      }
      if (session.amount_total !== row.amountCents || session.currency !== "usd") {
        return { outcome: "ignored", reason: "amount mismatch" } as const;
      }
      await setCheckoutSessionStatus(tx, { id: row.id, status: "paid" });
      const entry = await postLedgerEntry(tx, {
        surveyorId: row.surveyorId,
        kind: "top_up",
        amountCents: row.amountCents,
        reference: row.id,
        note: "Card payment (Stripe Checkout)",
      });
      if (!entry) throw new Error(`checkout session ${row.id} has no surveyor`);
      return {
        outcome: "credited",
        surveyorId: row.surveyorId,
        amountCents: row.amountCents,
        balanceAfterCents: entry.balanceAfterCents,
      } as const;
    });
  } catch (err) {
    // The same event (stripe_events) or the same session (the ledger's top-up index) committed
    // by a concurrent delivery: this one changed nothing.
    if ((err as { code?: unknown }).code === "23505") return { outcome: "duplicate" };
    throw err;
  }
}
