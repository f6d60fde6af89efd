/**
 * Lead returns (refunds) without zod, so islands can import them without bundling the schemas
 * (lib/lead_market_schema.ts re-exports the reasons and the request window).
 *
 * Two ways a surveyor gets a lead's charge back, both one `refund` ledger entry per purchase:
 *
 * - Automatically, when the client cancels the request or an admin cancels or removes it,
 *   for every purchase made within `RETURN_WINDOW_DAYS` before that moment.
 * - On request, within `REFUND_REQUEST_DAYS` of buying, for one of `REFUND_REASONS`, approved
 *   or denied by an admin from the queue on /admin?tab=returns.
 *
 * What a refund takes back (issue 20): a purchase unlocks the client's personal data — name,
 * phone, email, street address, exact position, parcel (its owner of record) and the client's
 * notes — only while it stands. Once it is refunded, by an approved return or by the automatic
 * return of a cancelled or removed request, that buyer sees none of it again (the API and the
 * pages say why: `refundedDetailsNotice`); what they keep is what any eligible surveyor saw
 * before buying (type, town, ZIP, approximate point, quote) and their own purchase record.
 * After a cancellation that is the rule per buyer: every buyer refunded by it loses the
 * details; a buyer it did not refund (bought before the return window, or a free welcome
 * claim: nothing to give back) keeps them, since they keep what they paid for or were given.
 *
 * Who may ask for a return (`returnBlock`): the buyer, within `REFUND_REQUEST_DAYS`, once,
 * for a charged purchase — and not after the lead turned into work for them: a lead they
 * marked won, or whose survey is assigned to them (offered, accepted, scheduled or completed),
 * cannot be returned for any reason, since the contact evidently worked. An admin's approval
 * checks the same rule again.
 */

/** Why a buyer asks for a lead to be returned. */
export const REFUND_REASONS = ["invalid_contact", "duplicate", "out_of_scope"] as const;
/** A return request's reason. */
export type RefundReason = typeof REFUND_REASONS[number];
/** Label per reason. */
export const REFUND_REASON_LABELS: Record<RefundReason, string> = {
  invalid_contact: "Invalid contact details",
  duplicate: "Duplicate request",
  out_of_scope: "Out of scope",
};
/** Days after a purchase in which a return may be requested. */
export const REFUND_REQUEST_DAYS = 14;

/**
 * The return window: a purchase made at most this many days before its request is cancelled
 * or removed is refunded automatically. A fixed business rule kept here (not in the pricing
 * configuration): a month covers every lead's open days plus the time a buyer needs to reach
 * the client, and an older purchase had its chance at the job.
 */
export const RETURN_WINDOW_DAYS = 30;

/** Why a refund happened: an automatic return or a request's reason. */
export type RefundCause = "client_cancelled" | "request_removed" | RefundReason;

/** The end of "…was returned: {cause}" per cause. */
export const REFUND_CAUSE_TEXT: Record<RefundCause, string> = {
  client_cancelled: "the client cancelled the request",
  request_removed: "the request was withdrawn",
  invalid_contact: "the client's contact details were invalid",
  duplicate: "the request was a duplicate",
  out_of_scope: "the request was out of scope",
};

/** Where a return request stands. */
export const REFUND_REQUEST_STATUSES = ["pending", "approved", "denied"] as const;
/** A return request's status. */
export type RefundRequestStatus = typeof REFUND_REQUEST_STATUSES[number];
/** Label per request status. */
export const REFUND_REQUEST_STATUS_LABELS: Record<RefundRequestStatus, string> = {
  pending: "Waiting for a decision",
  approved: "Approved",
  denied: "Denied",
};

/** The success toasts of a decision (the API's `message`), word for word. */
export function refundDecisionMessage(
  decision: "approve" | "deny",
  amount: string,
): string {
  return decision === "approve" ? `Return approved — ${amount} credited` : "Return denied";
}

/** Longest note on a request or a decision, in characters. */
export const REFUND_NOTE_MAX = 2000;

/** A return request as its surveyor sees it. */
export interface RefundRequestSummary {
  id: string;
  reason: RefundReason;
  note: string;
  status: RefundRequestStatus;
  /** The admin's note with the decision, shown to the surveyor. */
  decisionNote: string | null;
  /** ISO timestamps. */
  createdAt: string;
  decidedAt: string | null;
}

/** A return request as the admin queue lists it. */
export interface RefundRequestView extends RefundRequestSummary {
  /** Whole days since it was filed. */
  ageDays: number;
  decidedByName: string | null;
  purchaseId: string;
  /** ISO timestamp of the purchase. */
  purchasedAt: string;
  /** What the purchase charged: what an approval credits. */
  amountCents: number;
  isRefunded: boolean;
  leadId: string;
  surveyId: string;
  surveyType: string;
  surveyTypeName: string;
  /** "Austin, TX". */
  place: string;
  surveyorId: string;
  companyName: string;
  /** Where the buyer's own pipeline has the lead ("Contacted"), and their note on it. */
  pipelineLabel: string;
  pipelineNote: string | null;
  /** Return requests the same surveyor filed before this one (any outcome). */
  earlierReturns: number;
}

/** `GET /api/admin/refund-requests`. */
export interface RefundRequestPage {
  requests: RefundRequestView[];
  total: number;
  page: number;
  pageSize: number;
  status: RefundRequestStatus;
}

const REFUND_DATE = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/**
 * Why a refunded purchase shows no client details, word for word: "You were refunded for this
 * lead on Nov 28, 2026, so the client's details are no longer shown."
 */
export function refundedDetailsNotice(refundedAt: string | Date): string {
  return `You were refunded for this lead on ${
    REFUND_DATE.format(new Date(refundedAt))
  }, so the client's details are no longer shown.`;
}

/** Assignment statuses that make a lead the surveyor's job: no return after them. */
export const JOB_ASSIGNMENT_STATUSES = ["offered", "accepted", "scheduled", "completed"] as const;

/** The refusal when the lead became the surveyor's won or assigned job, word for word. */
export const RETURN_AFTER_JOB_MESSAGE =
  "This lead became your job (marked won or assigned to you), so it can no longer be returned.";

/**
 * Why a return may not be asked for on account of the work done (the rule in this file's
 * comment): the job message when the buyer marked the lead won or holds an assignment in
 * `JOB_ASSIGNMENT_STATUSES` on its survey, else null.
 */
export function returnBlock(
  lead: { pipelineStatus: string; assignmentStatus: string | null },
): string | null {
  const isJob = lead.pipelineStatus === "won" ||
    (lead.assignmentStatus !== null &&
      (JOB_ASSIGNMENT_STATUSES as readonly string[]).includes(lead.assignmentStatus));
  return isJob ? RETURN_AFTER_JOB_MESSAGE : null;
}
