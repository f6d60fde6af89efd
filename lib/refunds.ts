/**
 * Lead returns (issue 11): a buyer gets a lead's charge back as one `refund` ledger entry.
 *
 * - Automatically (`refundPurchasesForSurveys`), when the client cancels the request or an
 *   admin cancels or deletes it: every unrefunded, charged purchase of its lead made within the
 *   return window (`RETURN_WINDOW_DAYS`, 30 days, lib/refund_constants.ts) before that moment.
 *   The lead closes ('cancelled' or 'removed'), each buyer gets a 'refund_decided'
 *   notification and the RefundDecision email. The callers (routes/surveys.ts) run it in the
 *   transaction that cancels or deletes, before a delete (deleting cascades the purchases).
 * - On request (`fileRefundRequest`), within `REFUND_REQUEST_DAYS` (14) of buying, for invalid
 *   contact details, a duplicate or an out-of-scope request; an admin approves
 *   (`refundPurchase`) or denies (`decideRefundRequest`), and the buyer is told either way.
 *
 * Exactly one refund per purchase, whichever path gets there first: each locks the purchase
 * row and checks `refunded_at` before posting; the unique partial index on refund entries per
 * purchase is the last line of defence (caught in a savepoint, answered as already refunded).
 */
import type postgres from "postgres";
import type { Db, Sql } from "../db/client.ts";
import { postLedgerEntry } from "../db/ledger.ts";
import { insertNotification, notifyAdmins } from "../db/notifications.ts";
import { withdrawPendingProposalOfPurchase } from "../db/proposals.ts";
import {
  approvePendingRequests,
  closeLeadsForSurveys,
  decideRefundRequest as recordDecision,
  getOwnPurchase,
  getPurchaseParties,
  getPurchaseWork,
  getRefundRequestTarget,
  getRefundRequestView,
  insertRefundRequest,
  lockPurchase,
  lockRefundablePurchases,
  lockSurveysForRefund,
  markPurchaseRefunded,
  type PurchaseParties,
} from "../db/refunds.ts";
import { queueRefundDecisionEmail } from "./mail/emails.ts";
import { refundDecisionSentence } from "./mail/templates/RefundDecision.tsx";
import { formatLeadPrice } from "./lead_pricing.ts";
import { SURVEY_TYPE_INFO } from "./survey_types.ts";
import {
  REFUND_CAUSE_TEXT,
  REFUND_REASON_LABELS,
  REFUND_REQUEST_DAYS,
  type RefundCause,
  refundDecisionMessage,
  type RefundReason,
  type RefundRequestSummary,
  type RefundRequestView,
  RETURN_AFTER_JOB_MESSAGE,
  RETURN_WINDOW_DAYS,
  returnBlock,
} from "./refund_constants.ts";

/** What `refundPurchase` did. */
export type RefundOutcome =
  | {
    status: "refunded";
    purchaseId: string;
    surveyorId: string;
    amountCents: number;
    ledgerEntryId: string;
    balanceAfterCents: number;
  }
  | { status: "already_refunded" | "nothing_charged" | "not_found"; purchaseId: string };

/** `refundPurchase` input. */
export interface RefundInput {
  purchaseId: string;
  /** Why: an automatic return's cause or the request's reason. */
  reason: RefundCause;
  /** Who caused it (the cancelling client, the deciding admin); null for the system. */
  actorId: string | null;
  /** The return request this approves, recorded as the ledger entry's reference. */
  requestId?: string;
  /** Shown on the ledger entry. */
  note?: string | null;
}

const UNIQUE_VIOLATION = "23505";

/**
 * Gives purchase `purchaseId` its charge back, in `tx`: when it charged something and is not
 * refunded yet, posts a `refund` ledger entry of +charged_cents (reference: the request id, or
 * the automatic cause) and sets `refunded_at`. Idempotent: a second call (or a concurrent
 * path that got there first) answers `already_refunded` and changes nothing. A free welcome
 * claim answers `nothing_charged`; an unknown purchase `not_found`. Must run in a transaction.
 */
export async function refundPurchase(tx: Db, input: RefundInput): Promise<RefundOutcome> {
  const { purchaseId } = input;
  const purchase = await lockPurchase(tx, { purchaseId });
  if (!purchase) return { status: "not_found", purchaseId };
  if (purchase.refundedAt) return { status: "already_refunded", purchaseId };
  if (purchase.chargedCents <= 0) return { status: "nothing_charged", purchaseId };
  let entry: { id: string; balanceAfterCents: number } | undefined;
  try {
    entry = await savepoint(tx, (sp) =>
      postLedgerEntry(sp, {
        surveyorId: purchase.surveyorId,
        kind: "refund",
        amountCents: purchase.chargedCents,
        leadPurchaseId: purchase.id,
        reference: input.requestId ? `refund_request:${input.requestId}` : input.reason,
        note: input.note ?? `Returned: ${REFUND_CAUSE_TEXT[input.reason]}`,
        actorId: input.actorId,
      }));
  } catch (err) {
    if ((err as { code?: string }).code === UNIQUE_VIOLATION) {
      return { status: "already_refunded", purchaseId };
    }
    throw err;
  }
  // The purchase's surveyor row cannot vanish while the purchase is locked.
  if (!entry) return { status: "not_found", purchaseId };
  await markPurchaseRefunded(tx, { purchaseId });
  // A returned lead's proposal no longer stands (issue 22).
  await withdrawPendingProposalOfPurchase(tx, { purchaseId });
  return {
    status: "refunded",
    purchaseId,
    surveyorId: purchase.surveyorId,
    amountCents: purchase.chargedCents,
    ledgerEntryId: entry.id,
    balanceAfterCents: entry.balanceAfterCents,
  };
}

function savepoint<T>(db: Db, fn: (sp: postgres.TransactionSql) => Promise<T>): Promise<T> {
  if ("savepoint" in db) return db.savepoint(fn) as Promise<T>;
  return (db as Sql).begin(fn) as Promise<T>;
}

/** Where the return notices link: pages of the site, made absolute for emails. */
export interface RefundLinks {
  /** The site's public origin (PUBLIC_URL). */
  publicUrl: string;
}

/** The surveyor's page of a purchased lead. */
export function purchasedLeadPath(leadId: string): string {
  return `/surveyor/purchased-leads/${encodeURIComponent(leadId)}`;
}

/** The surveyor's billing page, where a refund shows in the history. */
export const BILLING_PATH = "/surveyor/billing";

async function notifyBuyer(
  tx: Db,
  buyer: Pick<
    PurchaseParties,
    "leadId" | "surveyType" | "place" | "chargedCents" | "userId" | "email" | "name"
  >,
  notice: {
    decision: "approved" | "denied";
    isRequested: boolean;
    cause: RefundCause;
    note: string | null;
    /** False when the lead is about to be deleted: its page will not exist. */
    hasLeadPage: boolean;
    publicUrl: string;
  },
): Promise<void> {
  const props = {
    decision: notice.decision,
    isRequested: notice.isRequested,
    amount: formatLeadPrice(buyer.chargedCents),
    surveyTypeName: SURVEY_TYPE_INFO[buyer.surveyType].name,
    location: buyer.place,
    cause: REFUND_CAUSE_TEXT[notice.cause],
  };
  const sentence = refundDecisionSentence(props);
  const link = notice.decision === "approved" || !notice.hasLeadPage
    ? BILLING_PATH
    : purchasedLeadPath(buyer.leadId);
  if (buyer.userId) {
    await insertNotification(tx, {
      userId: buyer.userId,
      kind: "refund_decided",
      title: notice.decision === "approved"
        ? notice.isRequested ? "Return approved" : "Lead returned"
        : "Return denied",
      body: notice.note ? `${sentence} ${notice.note}` : sentence,
      link,
    });
  }
  if (buyer.email) {
    await queueRefundDecisionEmail(tx, {
      to: buyer.email,
      name: buyer.name,
      ...props,
      note: notice.note,
      url: new URL(link, notice.publicUrl).href,
    });
  }
}

/** One automatic return, as `refundPurchasesForSurveys` reports it. */
export interface AutomaticRefund {
  purchaseId: string;
  surveyId: string;
  surveyorId: string;
  amountCents: number;
  balanceAfterCents: number;
}

/** `refundPurchasesForSurveys` input. */
export interface SurveyRefundInput extends RefundLinks {
  surveyIds: string[];
  /** 'client_cancelled' (the client cancels) or 'request_removed' (an admin cancels/deletes). */
  reason: "client_cancelled" | "request_removed";
  /** How the lead closes: 'cancelled' (the request stays, cancelled) or 'removed' (deleted). */
  closeAs: "cancelled" | "removed";
  actorId: string | null;
}

/**
 * The automatic return, in the caller's transaction (the one that cancels or deletes the
 * surveys, BEFORE a delete): closes the leads of `surveyIds` (`closeAs`), refunds every
 * unrefunded, charged purchase of them made within `RETURN_WINDOW_DAYS`, closes those
 * purchases' pending return requests as approved, and tells each buyer (a 'refund_decided'
 * notification for a linked account and the RefundDecision email). Returns the refunds made.
 * A purchase refunded meanwhile by another path is skipped (never twice).
 */
export async function refundPurchasesForSurveys(
  tx: Db,
  input: SurveyRefundInput,
): Promise<AutomaticRefund[]> {
  if (input.surveyIds.length === 0) return [];
  await lockSurveysForRefund(tx, { surveyIds: input.surveyIds });
  // Then the lead rows: a buy of the same lead waits for this transaction, then finds it closed.
  await closeLeadsForSurveys(tx, { surveyIds: input.surveyIds, reason: input.closeAs });
  const targets = await lockRefundablePurchases(tx, {
    surveyIds: input.surveyIds,
    windowDays: RETURN_WINDOW_DAYS,
  });
  const refunds: AutomaticRefund[] = [];
  for (const target of targets) {
    const outcome = await refundPurchase(tx, {
      purchaseId: target.purchaseId,
      reason: input.reason,
      actorId: input.actorId,
    });
    if (outcome.status !== "refunded") continue;
    refunds.push({
      purchaseId: target.purchaseId,
      surveyId: target.surveyId,
      surveyorId: target.surveyorId,
      amountCents: outcome.amountCents,
      balanceAfterCents: outcome.balanceAfterCents,
    });
    await notifyBuyer(tx, target, {
      decision: "approved",
      isRequested: false,
      cause: input.reason,
      note: null,
      hasLeadPage: input.closeAs !== "removed",
      publicUrl: input.publicUrl,
    });
  }
  await approvePendingRequests(tx, {
    purchaseIds: refunds.map((r) => r.purchaseId),
    note: `Returned automatically: ${REFUND_CAUSE_TEXT[input.reason]}.`,
  });
  return refunds;
}

/**
 * `refundPurchasesForSurveys` for one survey: the client cancelled ('client_cancelled', the lead
 * closes 'cancelled') or an admin removed it ('request_removed', the lead closes 'removed'
 * unless `closeAs` says 'cancelled': an admin's cancellation keeps the request).
 */
export function refundPurchasesForSurvey(
  tx: Db,
  input: Omit<SurveyRefundInput, "surveyIds" | "closeAs"> & {
    surveyId: string;
    closeAs?: SurveyRefundInput["closeAs"];
  },
): Promise<AutomaticRefund[]> {
  const { surveyId, closeAs, ...rest } = input;
  return refundPurchasesForSurveys(tx, {
    ...rest,
    surveyIds: [surveyId],
    closeAs: closeAs ?? (input.reason === "client_cancelled" ? "cancelled" : "removed"),
  });
}

/** A request the rules refuse: the route answers `status` with `message`. */
export class RefundRuleError extends Error {
  constructor(readonly status: 404 | 409, message: string) {
    super(message);
    this.name = "RefundRuleError";
  }
}

/** What the return API answers with, word for word. */
export const REFUND_MESSAGES = {
  requested: "Return requested",
  leadNotFound: "Lead not found",
  requestNotFound: "Return request not found",
  tooLate:
    `Returns can be requested within ${REFUND_REQUEST_DAYS} days of buying a lead; this one was bought longer ago.`,
  alreadyRefunded: "This lead was already returned to your balance.",
  pending: "A return request for this lead is already waiting for a decision.",
  alreadyDecided: "Your return request for this lead was already decided.",
  nothingCharged: "Nothing was charged for this lead, so there is nothing to return.",
  decidedTwice: "This return request was already decided.",
  purchaseRefunded: "This lead was already returned; the request needs no decision.",
  afterJob: RETURN_AFTER_JOB_MESSAGE,
  approveAfterJob:
    "This lead became the surveyor's job (marked won or assigned to them), so it can no longer be returned; deny the request instead.",
} as const;

/**
 * Files a return request for the lead `leadId` (or purchase id) bought by `surveyorId`, in
 * `tx`. Throws `RefundRuleError`: 404 when this surveyor did not buy it; 409 when it is already
 * refunded, charged nothing (a welcome claim), became their job (marked won, or the survey
 * assigned to them: lib/refund_constants.ts `returnBlock`), has a request pending or already
 * decided, or was bought more than `REFUND_REQUEST_DAYS` days ago.
 */
export async function fileRefundRequest(
  tx: Db,
  input: { leadId: string; surveyorId: string; reason: RefundReason; note: string },
): Promise<RefundRequestSummary> {
  const purchase = await getOwnPurchase(tx, {
    id: input.leadId,
    surveyorId: input.surveyorId,
    lock: true,
  });
  if (!purchase) throw new RefundRuleError(404, REFUND_MESSAGES.leadNotFound);
  if (purchase.refundedAt) throw new RefundRuleError(409, REFUND_MESSAGES.alreadyRefunded);
  if (purchase.chargedCents <= 0) throw new RefundRuleError(409, REFUND_MESSAGES.nothingCharged);
  const work = await getPurchaseWork(tx, { purchaseId: purchase.id });
  if (work && returnBlock(work)) throw new RefundRuleError(409, REFUND_MESSAGES.afterJob);
  const latest = purchase.latestRequest;
  if (latest?.status === "pending") throw new RefundRuleError(409, REFUND_MESSAGES.pending);
  if (latest) throw new RefundRuleError(409, REFUND_MESSAGES.alreadyDecided);
  if (purchase.ageDays >= REFUND_REQUEST_DAYS) {
    throw new RefundRuleError(409, REFUND_MESSAGES.tooLate);
  }
  const request = await insertRefundRequest(tx, {
    purchaseId: purchase.id,
    reason: input.reason,
    note: input.note,
  });
  if (!request) throw new RefundRuleError(409, REFUND_MESSAGES.pending);
  // Admins decide returns: they hear of each one (the queue's tab counts the waiting ones).
  const parties = await getPurchaseParties(tx, { purchaseId: purchase.id });
  if (parties) {
    await notifyAdmins(tx, {
      kind: "refund_requested",
      title: "Return requested",
      body: `${parties.companyName} asked to return the ${
        SURVEY_TYPE_INFO[parties.surveyType].name
      } lead in ${parties.place} (${formatLeadPrice(parties.chargedCents)}): ${
        REFUND_REASON_LABELS[input.reason]
      }.`,
      link: "/admin?tab=returns",
    });
  }
  return request;
}

/** What deciding a request did, for the API's answer. */
export interface RefundDecisionResult {
  message: string;
  request: RefundRequestView;
}

/**
 * An admin's decision on return request `requestId`, in `tx`: approve refunds the purchase
 * (`refundPurchase`) and marks the request approved; deny marks it denied; either way the
 * buyer gets a 'refund_decided' notification and the RefundDecision email. Throws
 * `RefundRuleError` 404 for an unknown request, 409 when it was already decided (or, on
 * approval, when the purchase was refunded meanwhile by an automatic return, or the lead
 * became the buyer's job since: `returnBlock`).
 */
export async function decideRefundRequest(
  tx: Db,
  input: {
    requestId: string;
    decision: "approve" | "deny";
    note: string | null;
    adminId: string;
  } & RefundLinks,
): Promise<RefundDecisionResult> {
  const target = await getRefundRequestTarget(tx, { id: input.requestId });
  if (!target) throw new RefundRuleError(404, REFUND_MESSAGES.requestNotFound);
  // Purchase before request, the order every refund path locks in.
  await lockPurchase(tx, { purchaseId: target.purchaseId });
  const locked = await getRefundRequestTarget(tx, { id: input.requestId, lock: true });
  if (!locked) throw new RefundRuleError(404, REFUND_MESSAGES.requestNotFound);
  if (locked.status !== "pending") throw new RefundRuleError(409, REFUND_MESSAGES.decidedTwice);
  const parties = await getPurchaseParties(tx, { purchaseId: target.purchaseId });
  if (!parties) throw new RefundRuleError(404, REFUND_MESSAGES.requestNotFound);
  const view = await getRefundRequestView(tx, { id: input.requestId });
  if (!view) throw new RefundRuleError(404, REFUND_MESSAGES.requestNotFound);
  const reason = view.reason;

  let message: string;
  if (input.decision === "approve") {
    // The lead may have become the buyer's job since the request: the same rule applies.
    const work = await getPurchaseWork(tx, { purchaseId: target.purchaseId });
    if (work && returnBlock(work)) {
      throw new RefundRuleError(409, REFUND_MESSAGES.approveAfterJob);
    }
    const outcome = await refundPurchase(tx, {
      purchaseId: target.purchaseId,
      reason,
      actorId: input.adminId,
      requestId: input.requestId,
      note: input.note
        ? `Return approved: ${input.note}`
        : `Return approved: ${REFUND_CAUSE_TEXT[reason]}`,
    });
    if (outcome.status !== "refunded") {
      throw outcome.status === "not_found"
        ? new RefundRuleError(404, REFUND_MESSAGES.requestNotFound)
        : new RefundRuleError(
          409,
          outcome.status === "already_refunded"
            ? REFUND_MESSAGES.purchaseRefunded
            : REFUND_MESSAGES.nothingCharged,
        );
    }
    message = refundDecisionMessage("approve", formatLeadPrice(outcome.amountCents));
  } else {
    message = refundDecisionMessage("deny", formatLeadPrice(parties.chargedCents));
  }
  const status = input.decision === "approve" ? "approved" : "denied";
  const decided = await recordDecision(tx, {
    id: input.requestId,
    status,
    decidedBy: input.adminId,
    note: input.note,
  });
  if (!decided) throw new RefundRuleError(409, REFUND_MESSAGES.decidedTwice);
  await notifyBuyer(tx, parties, {
    decision: status,
    isRequested: true,
    cause: reason,
    note: input.note,
    hasLeadPage: true,
    publicUrl: input.publicUrl,
  });
  const request = await getRefundRequestView(tx, { id: input.requestId });
  return { message, request: request! };
}
