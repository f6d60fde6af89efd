/**
 * Stripe bookkeeping: the Checkout sessions Meridian created (so a webhook credits only what
 * was asked for, to whom) and the webhook events already handled (so a replay changes
 * nothing). The money itself moves through db/ledger.ts.
 */
import type { Db } from "./client.ts";

/** A Checkout session as stored. */
export interface CheckoutSessionRow {
  id: string;
  surveyorId: string;
  amountCents: number;
  status: "open" | "paid" | "expired";
}

/** Records a Checkout session Stripe just created for `surveyorId`. */
export async function insertCheckoutSession(
  db: Db,
  input: { id: string; surveyorId: string; amountCents: number; createdBy: string | null },
): Promise<void> {
  await db`
    insert into stripe_checkout_sessions (id, surveyor_id, amount_cents, created_by)
    values (${input.id}, ${input.surveyorId}, ${input.amountCents}, ${input.createdBy})`;
}

/**
 * The stored session `id`, locked until the transaction ends (concurrent events of one
 * session take turns), or undefined when Meridian never created it.
 */
export async function getCheckoutSessionForUpdate(
  tx: Db,
  { id }: { id: string },
): Promise<CheckoutSessionRow | undefined> {
  const [row] = await tx<CheckoutSessionRow[]>`
    select id, surveyor_id, amount_cents, status from stripe_checkout_sessions
    where id = ${id} for update`;
  return row;
}

/** Marks a session paid (with its completion time) or expired. */
export async function setCheckoutSessionStatus(
  tx: Db,
  { id, status }: { id: string; status: "paid" | "expired" },
): Promise<void> {
  await tx`
    update stripe_checkout_sessions
    set status = ${status}, completed_at = case when ${status} = 'paid' then now() end
    where id = ${id}`;
}

/**
 * Records a webhook event as handled. Returns false when it already was (a replay): the
 * primary key makes a concurrent second delivery wait for the first and then find it.
 */
export async function insertStripeEvent(
  tx: Db,
  { id, type }: { id: string; type: string },
): Promise<boolean> {
  const rows = await tx`
    insert into stripe_events (id, type) values (${id}, ${type.slice(0, 200)})
    on conflict (id) do nothing
    returning id`;
  return rows.length === 1;
}

/** The session `id` if it belongs to `surveyorId` (the billing page's return state), else undefined. */
export async function getCheckoutSession(
  db: Db,
  { id, surveyorId }: { id: string; surveyorId: string },
): Promise<CheckoutSessionRow | undefined> {
  const [row] = await db<CheckoutSessionRow[]>`
    select id, surveyor_id, amount_cents, status from stripe_checkout_sessions
    where id = ${id} and surveyor_id = ${surveyorId}`;
  return row;
}
