import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { auditContext, requireRole } from "./_auth.ts";
import { ACTION_LIMITS, enforceActionLimits, perAccount } from "./_limits.ts";
import { NO_SURVEYOR_PROFILE, SURVEYOR_NOT_FOUND } from "./surveyor_accounts.ts";
import type { Db } from "../db/client.ts";
import { getSurveyor, getSurveyorByUserId } from "../db/surveyors.ts";
import { getUserById } from "../db/users.ts";
import {
  getBalance,
  InsufficientBalanceError,
  type LedgerEntry,
  listLedgerEntries,
  postLedgerEntry,
} from "../db/ledger.ts";
import { insertCheckoutSession } from "../db/billing.ts";
import {
  applyStripeEvent,
  BalanceAdjustmentSchema,
  BILLING_PATH,
  noteLowBalance,
  TOP_UPS_DISABLED_MESSAGE,
  TopUpSchema,
} from "../lib/billing.ts";
import {
  PaymentProviderError,
  PaymentsNotConfiguredError,
  STRIPE_WEBHOOK_PATH,
  type StripeLikeEvent,
  WebhookSignatureError,
} from "../lib/payments/provider.ts";
import { formatCents } from "../lib/quote_text.ts";
import { logLine } from "../lib/log.ts";

/** Entries per page of `GET /api/billing` and the admin's ledger. */
export const BILLING_PAGE_SIZE = 25;

/** 502 text when Stripe cannot create a payment page. */
export const CHECKOUT_FAILED_MESSAGE =
  "The payment page could not be opened right now. Nothing was charged; please try again in a few minutes.";

const IdParam = z.object({ id: z.string().max(100) });

const PageQuery = z.object({
  before: z.string().regex(/^\d{1,18}$/, { error: "before must be an entry id" }).optional(),
});

// What the webhook reads of a verified event. Stripe's ids are ASCII word characters with a
// prefix (evt_…, cs_…); anything else is not an event Stripe sent and is refused before it is
// recorded.
const STRIPE_ID = /^[A-Za-z0-9_]{1,255}$/;
const StripeEventShape = z.object({
  id: z.string().regex(/^evt_[A-Za-z0-9_]{1,250}$/),
  type: z.string().regex(/^[a-z0-9_]+(\.[a-z0-9_]+){0,5}$/).max(100),
  data: z.object({
    object: z.object({ id: z.string().regex(STRIPE_ID).optional() }).passthrough(),
  }).passthrough(),
}).passthrough();

/** A page of ledger entries and the `before` of the next page (null on the last). */
async function ledgerPage(
  db: Db,
  surveyorId: string,
  before: string | undefined,
): Promise<{ entries: LedgerEntry[]; nextBefore: string | null }> {
  // One extra row says whether another page exists.
  const rows = await listLedgerEntries(db, { surveyorId, before, limit: BILLING_PAGE_SIZE + 1 });
  const entries = rows.slice(0, BILLING_PAGE_SIZE);
  return {
    entries,
    nextBefore: rows.length > BILLING_PAGE_SIZE ? entries[entries.length - 1].id : null,
  };
}

/** The signed-in surveyor's own record, or 404 when no record is linked to the account. */
async function ownSurveyor(db: Db, userId: string) {
  const surveyor = await getSurveyorByUserId(db, { userId });
  if (!surveyor) throw new HTTPException(404, { message: NO_SURVEYOR_PROFILE });
  return surveyor;
}

/** "$12.50" with a sign for the adjustment message. */
function describeAdjustment(amountCents: number): string {
  return amountCents > 0
    ? `Added ${formatCents(amountCents)} to the balance`
    : `Took ${formatCents(-amountCents)} from the balance`;
}

/**
 * Surveyor balances and payments.
 *
 * Surveyor (their own record, found by their account, never by a path id):
 * `GET /api/billing?before=` → `{balanceCents, entries, nextBefore, topUpsEnabled}` (ledger
 * newest first, 25 a page); `POST /api/billing/checkout` `{amountCents}` → `{url}` of a Stripe
 * Checkout page for a top-up, after storing the session (409 with how to get credit when card
 * top-ups are not configured; 502 when Stripe fails).
 *
 * Stripe: `POST /api/stripe/webhook`, public, authenticated by its `Stripe-Signature` over the
 * raw body (400 `{message}` when it does not verify); each event is applied once
 * (`applyStripeEvent`) and answered 200 whether it credited or was ignored, so Stripe stops
 * sending it; a database outage answers 503 and Stripe retries.
 *
 * Admin: `GET /api/surveyors/{id}/ledger?before=` → `{balanceCents, entries, nextBefore}`;
 * `POST /api/surveyors/{id}/balance-adjustments` `{amountCents (signed), note}` → 201
 * `{message, balanceCents, entry}`; a debit beyond the balance is 409 naming the balance.
 */
export const billing = new Hono<AppEnv>()
  .get(
    "/api/billing",
    requireRole("surveyor"),
    zValidator("query", PageQuery, onInvalid),
    async (c) => {
      const { before } = c.req.valid("query");
      const surveyor = await ownSurveyor(c.var.db, c.var.user!.id);
      const [balanceCents, page] = await Promise.all([
        getBalance(c.var.db, { surveyorId: surveyor.id }),
        ledgerPage(c.var.db, surveyor.id, before),
      ]);
      return c.json({
        balanceCents: balanceCents ?? 0,
        ...page,
        topUpsEnabled: c.var.deps.payments.isEnabled,
      });
    },
  )
  .post(
    "/api/billing/checkout",
    requireRole("surveyor"),
    zValidator("json", TopUpSchema, onInvalid),
    async (c) => {
      const { amountCents } = c.req.valid("json");
      const { payments, config } = c.var.deps;
      if (!payments.isEnabled) throw new HTTPException(409, { message: TOP_UPS_DISABLED_MESSAGE });
      await enforceActionLimits(c, "checkout attempts", [
        perAccount(c, "checkouts", ACTION_LIMITS.checkouts),
      ]);
      const user = c.var.user!;
      const surveyor = await ownSurveyor(c.var.db, user.id);
      const account = await getUserById(c.var.db, user.id);
      const billingUrl = new URL(BILLING_PATH, config.PUBLIC_URL).href;
      let session;
      try {
        session = await payments.createCheckoutSession({
          surveyorId: surveyor.id,
          amountCents,
          customerEmail: account?.email ?? null,
          // Stripe fills in {CHECKOUT_SESSION_ID}; URL() would percent-encode the braces.
          successUrl: `${billingUrl}?topup=success&session_id={CHECKOUT_SESSION_ID}`,
          cancelUrl: `${billingUrl}?topup=cancelled`,
        });
      } catch (err) {
        if (err instanceof PaymentsNotConfiguredError) {
          throw new HTTPException(409, { message: TOP_UPS_DISABLED_MESSAGE });
        }
        if (err instanceof PaymentProviderError) {
          console.error(`[${c.var.requestId}] billing: ${err.message}`);
          throw new HTTPException(502, { message: CHECKOUT_FAILED_MESSAGE });
        }
        throw err;
      }
      // Stored before the payer gets the URL, so the webhook always finds it.
      await insertCheckoutSession(c.var.db, {
        id: session.id,
        surveyorId: surveyor.id,
        amountCents,
        createdBy: auditContext(c).actorId,
      });
      return c.json({ url: session.url }, 201);
    },
  )
  .post(STRIPE_WEBHOOK_PATH, async (c) => {
    const rawBody = await c.req.text();
    let event: StripeLikeEvent;
    try {
      event = await c.var.deps.payments.parseWebhook(
        rawBody,
        c.req.header("stripe-signature") ?? null,
      );
    } catch (err) {
      if (err instanceof WebhookSignatureError) {
        throw new HTTPException(400, { message: err.message });
      }
      throw err;
    }
    if (!StripeEventShape.safeParse(event).success) {
      throw new HTTPException(400, { message: "Not a Stripe event" });
    }
    const result = await applyStripeEvent(c.var.db, event);
    if (result.outcome === "ignored" && result.reason !== `event type ${event.type}`) {
      logLine(`stripe: ignored ${event.type} ${event.id}: ${result.reason}`);
    }
    return c.json({ received: true, outcome: result.outcome });
  })
  .get(
    "/api/surveyors/:id/ledger",
    requireRole("admin"),
    zValidator("param", IdParam, onInvalid),
    zValidator("query", PageQuery, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const { before } = c.req.valid("query");
      const surveyor = await getSurveyor(c.var.db, { id });
      if (!surveyor) throw new HTTPException(404, { message: SURVEYOR_NOT_FOUND });
      const [balanceCents, page] = await Promise.all([
        getBalance(c.var.db, { surveyorId: surveyor.id }),
        ledgerPage(c.var.db, surveyor.id, before),
      ]);
      return c.json({ balanceCents: balanceCents ?? 0, ...page });
    },
  )
  .post(
    "/api/surveyors/:id/balance-adjustments",
    requireRole("admin"),
    zValidator("param", IdParam, onInvalid),
    zValidator("json", BalanceAdjustmentSchema, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const { amountCents, note } = c.req.valid("json");
      const surveyor = await getSurveyor(c.var.db, { id });
      if (!surveyor) throw new HTTPException(404, { message: SURVEYOR_NOT_FOUND });
      const actorId = auditContext(c).actorId;
      const publicUrl = c.var.deps.config.PUBLIC_URL;
      const posted = await c.var.db.begin(async (tx) => {
        let entry;
        try {
          entry = await postLedgerEntry(tx, {
            surveyorId: surveyor.id,
            kind: "adjustment",
            amountCents,
            note,
            actorId,
          });
        } catch (err) {
          if (err instanceof InsufficientBalanceError) {
            throw new HTTPException(409, {
              message: `The balance is ${
                formatCents(err.balanceCents)
              }: an adjustment cannot take it below zero.`,
            });
          }
          throw err;
        }
        if (!entry) throw new HTTPException(404, { message: SURVEYOR_NOT_FOUND });
        if (amountCents < 0) {
          await noteLowBalance(tx, {
            surveyorId: surveyor.id,
            balanceAfterCents: entry.balanceAfterCents,
            publicUrl,
          });
        }
        const [row] = await listLedgerEntries(tx, { surveyorId: surveyor.id, limit: 1 });
        return { balanceCents: entry.balanceAfterCents, entry: row };
      });
      return c.json({ message: describeAdjustment(amountCents), ...posted }, 201);
    },
  );
