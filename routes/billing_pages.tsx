import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { requirePageRole } from "./_auth.ts";
import { appPage } from "./_app_page.tsx";
import { BILLING_PAGE_SIZE } from "./billing.ts";
import { Card, EmptyState, PageHeader } from "../components/AppPage.tsx";
import { Island } from "../components/Island.tsx";
import BillingTopUp from "../islands/BillingTopUp.tsx";
import BalanceAdjustment, { type BalanceAdjustmentProps } from "../islands/BalanceAdjustment.tsx";
import { TableRegion } from "../islands/_table.tsx";
import { formatDay } from "../islands/_surveyor_shared.ts";
import { signedCents } from "../islands/_billing.ts";
import { getSurveyorByUserId } from "../db/surveyors.ts";
import {
  getBalance,
  LEDGER_KIND_LABELS,
  type LedgerEntry,
  listLedgerEntries,
} from "../db/ledger.ts";
import { getCheckoutSession } from "../db/billing.ts";
import {
  BILLING_PATH,
  LOW_BALANCE_THRESHOLD_CENTS,
  MAX_TOP_UP_CENTS,
  MIN_TOP_UP_CENTS,
  TOP_UP_CHOICES_CENTS,
  TOP_UPS_DISABLED_MESSAGE,
} from "../lib/billing.ts";
import { formatCents } from "../lib/quote_text.ts";

/** What the page says after Stripe sends the payer back, before the webhook has credited. */
export const TOP_UP_PENDING_TEXT =
  "Payment received — your balance updates as soon as Stripe confirms it.";
/** What it says back from Stripe when that checkout expired unpaid. */
export const TOP_UP_EXPIRED_TEXT =
  "This checkout expired without a payment — nothing was charged or added to your balance.";
/** What it says back from Stripe when the address names no checkout of this account's. */
export const TOP_UP_UNKNOWN_TEXT =
  "We could not find that payment. Your balance below is up to date; a payment Stripe confirms is added to it.";
/** What it says when the payer went back from Stripe without paying. */
export const TOP_UP_CANCELLED_TEXT = "Payment cancelled — nothing was charged.";

// The address is only ever a hint: a bad value is dropped, never a 400 page.
const BillingQuery = z.object({
  topup: z.enum(["success", "cancelled"]).optional().catch(undefined),
  session_id: z.string().max(255).optional().catch(undefined),
  before: z.string().regex(/^\d{1,18}$/).optional().catch(undefined),
});

/** The return notices that claim no payment, by kind. */
const NO_PAYMENT_TEXTS = {
  cancelled: TOP_UP_CANCELLED_TEXT,
  expired: TOP_UP_EXPIRED_TEXT,
  unknown: TOP_UP_UNKNOWN_TEXT,
};

/** What a checkout in each status says back from Stripe (credited is built with its amount). */
const RETURN_KINDS = { open: "pending", expired: "expired" } as const;

/**
 * The return state's notice: credited (the webhook already posted it), pending (the checkout
 * is still open: Stripe sent the payer back as paid, its confirmation is on its way),
 * cancelled, expired (the checkout ran out unpaid) or unknown (no checkout of this account by
 * that id): only a paid or open checkout is called a payment received.
 */
function ReturnNotice({ state }: {
  state:
    | { kind: "credited"; amountCents: number }
    | { kind: "pending" | "cancelled" | "expired" | "unknown" }
    | null;
}) {
  if (!state) return null;
  if (state.kind !== "credited" && state.kind !== "pending") {
    return <p className="alert alert--info" role="status">{NO_PAYMENT_TEXTS[state.kind]}</p>;
  }
  return (
    <p className="alert alert--success" role="status">
      {state.kind === "credited"
        ? `Payment received — ${formatCents(state.amountCents)} was added to your balance.`
        : TOP_UP_PENDING_TEXT}
    </p>
  );
}

function History({ entries, nextBefore, isFirstPage }: {
  entries: LedgerEntry[];
  nextBefore: string | null;
  isFirstPage: boolean;
}) {
  return (
    <Card id="billing-history-title" title="History">
      {entries.length === 0
        ? (
          <p className="muted">
            {isFirstPage ? "No charges or credits yet." : "No older entries."}
          </p>
        )
        : (
          <TableRegion label="Balance history">
            <table className="table table--cards billing-history">
              <caption className="visually-hidden">
                Charges and credits to your balance, newest first
              </caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">What</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Balance after</th>
                  <th scope="col">Reference</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => (
                  <tr key={e.id}>
                    <td data-label="Date">
                      <time dateTime={e.createdAt}>{formatDay(e.createdAt)}</time>
                    </td>
                    <th scope="row" data-label="What">{LEDGER_KIND_LABELS[e.kind]}</th>
                    <td data-label="Amount" className="billing-history__num">
                      {signedCents(e.amountCents)}
                    </td>
                    <td data-label="Balance after" className="billing-history__num">
                      {formatCents(e.balanceAfterCents)}
                    </td>
                    {/* The lead, never an internal reference (refund_request:…, payment ids). */}
                    <td data-label="Reference" className="billing-history__ref">
                      {e.note ?? (e.leadId ? null : "—")}
                      {e.leadId
                        ? (
                          <a
                            className="billing-history__sub"
                            href={`/surveyor/purchased-leads/${e.leadId}`}
                          >
                            The lead
                          </a>
                        )
                        : null}
                      {e.actorName && e.kind === "adjustment"
                        ? <span className="billing-history__sub">{`by ${e.actorName}`}</span>
                        : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
      {isFirstPage && !nextBefore
        ? null
        : (
          <nav className="cluster billing-pager" aria-label="History pages">
            {isFirstPage
              ? null
              : <a className="btn btn--secondary btn--sm" href={BILLING_PATH}>Newest entries</a>}
            {nextBefore
              ? (
                <a
                  className="btn btn--secondary btn--sm"
                  href={`${BILLING_PATH}?before=${encodeURIComponent(nextBefore)}`}
                >
                  Older entries
                </a>
              )
              : null}
          </nav>
        )}
    </Card>
  );
}

/** How many ledger entries the admin's Balance card shows before "Show older entries". */
export const ADMIN_LEDGER_SHOWN = 10;

/**
 * The Balance card's data for surveyor record `surveyorId` from its balance and its newest
 * ledger entries, read with one more than the card shows (`ADMIN_LEDGER_SHOWN + 1`: whether
 * there are older ones), as the record's statement reads them (db/surveyor_record.ts).
 */
export function balanceCardProps(
  surveyorId: string,
  balanceCents: number,
  rows: LedgerEntry[],
): BalanceAdjustmentProps {
  const entries = rows.slice(0, ADMIN_LEDGER_SHOWN);
  return {
    surveyorId,
    balanceCents,
    entries,
    nextBefore: rows.length > ADMIN_LEDGER_SHOWN ? entries[entries.length - 1].id : null,
    kindLabels: LEDGER_KIND_LABELS,
  };
}

/**
 * The admin's "Balance" card on /surveyor-detail/{id} (islands/BalanceAdjustment): balance,
 * add or remove credit with a note, and the newest ledger entries.
 */
export function BalanceCard({ card }: { card: BalanceAdjustmentProps }) {
  return (
    <Card id="surveyor-balance-title" title="Balance">
      <Island component={BalanceAdjustment} props={card} hydrate="visible" />
    </Card>
  );
}

/**
 * The surveyor's billing page (/surveyor/billing, surveyors only): the balance, adding credit
 * (Stripe Checkout when configured, otherwise how to get credit from Meridian support), the
 * history of charges and credits (25 a page, `?before=` for older ones), and the return
 * states from Stripe (`?topup=success` never claims credit the webhook has not posted;
 * `?topup=cancelled`).
 */
export const billingPages = new Hono<AppEnv>()
  .get(
    BILLING_PATH,
    requirePageRole("surveyor"),
    zValidator("query", BillingQuery, onInvalid),
    async (c) => {
      const query = c.req.valid("query");
      const db = c.var.db;
      const meta = { title: "Billing", active: BILLING_PATH };
      const surveyor = await getSurveyorByUserId(db, { userId: c.var.user!.id });
      if (!surveyor) {
        return appPage(
          c,
          meta,
          <>
            <PageHeader title="Billing" />
            <EmptyState
              title="No surveyor profile yet"
              action={<a className="btn btn--secondary" href="/support/contact">Contact us</a>}
            >
              Your account is not linked to a surveyor record yet, so it has no balance. Ask
              Meridian support to link it.
            </EmptyState>
          </>,
        );
      }
      const [balance, rows, session] = await Promise.all([
        getBalance(db, { surveyorId: surveyor.id }),
        listLedgerEntries(db, {
          surveyorId: surveyor.id,
          before: query.before,
          limit: BILLING_PAGE_SIZE + 1,
        }),
        query.topup === "success" && query.session_id
          ? getCheckoutSession(db, { id: query.session_id, surveyorId: surveyor.id })
          : undefined,
      ]);
      const entries = rows.slice(0, BILLING_PAGE_SIZE);
      const nextBefore = rows.length > BILLING_PAGE_SIZE ? entries[entries.length - 1].id : null;
      const balanceCents = balance ?? 0;
      const returnState = query.topup === "cancelled"
        ? { kind: "cancelled" as const }
        : query.topup === "success"
        ? session?.status === "paid"
          ? { kind: "credited" as const, amountCents: session.amountCents }
          : { kind: session ? RETURN_KINDS[session.status] : "unknown" as const }
        : null;
      const isEnabled = c.var.deps.payments.isEnabled;
      return appPage(
        c,
        meta,
        <div className="billing-page stack">
          <PageHeader
            title="Billing"
            intro="Your balance pays for the leads you buy and the fees of leads you claim."
          />
          <ReturnNotice state={returnState} />
          <div className="billing-page__top">
            <Card id="billing-balance-title" title="Balance">
              <p className="billing-balance">
                <strong className="billing-balance__value">{formatCents(balanceCents)}</strong>
              </p>
              {balanceCents < LOW_BALANCE_THRESHOLD_CENTS
                ? (
                  <p className="alert alert--warning">
                    {`Your balance is below ${
                      formatCents(LOW_BALANCE_THRESHOLD_CENTS)
                    }, less than a typical lead costs. Add credit to buy your next lead.`}
                  </p>
                )
                : (
                  <p className="muted">
                    Each lead shows its price before you buy or claim it.
                  </p>
                )}
            </Card>
            <Card id="billing-topup-title" title="Add credit">
              {isEnabled
                ? (
                  <Island
                    component={BillingTopUp}
                    props={{
                      choicesCents: [...TOP_UP_CHOICES_CENTS],
                      minCents: MIN_TOP_UP_CENTS,
                      maxCents: MAX_TOP_UP_CENTS,
                    }}
                    hydrate="load"
                  />
                )
                : (
                  <div className="stack">
                    <p>{TOP_UPS_DISABLED_MESSAGE}</p>
                    <p className="muted">
                      Support adds it to your balance with a note, and it shows in the history
                      below.
                    </p>
                    <p>
                      <a className="btn btn--secondary" href="/support/contact">
                        Contact Meridian support
                      </a>
                    </p>
                  </div>
                )}
            </Card>
          </div>
          <History
            entries={entries}
            nextBefore={nextBefore}
            isFirstPage={query.before === undefined}
          />
        </div>,
      );
    },
  );
