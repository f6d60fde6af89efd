/**
 * Proposals (issue 22) without zod, so islands can import them: limits, statuses, labels and
 * the texts the API and the islands share. The rules live in lib/proposals.ts.
 */

/** Highest price a proposal may ask: $250,000. */
export const PROPOSAL_MAX_PRICE_CENTS = 250_000_00;
/** Longest turnaround in business days. */
export const PROPOSAL_MAX_TURNAROUND_DAYS = 90;
/** Longest message. */
export const PROPOSAL_MESSAGE_MAX = 4000;
/** Longest decline reason. */
export const PROPOSAL_DECLINE_REASON_MAX = 500;
/** How far ahead the earliest visit may be: a year. */
export const PROPOSAL_MAX_DAYS_AHEAD = 366;

/** A proposal's status. */
export const PROPOSAL_STATUSES = ["pending", "accepted", "declined", "withdrawn"] as const;
/** A proposal's status. */
export type ProposalStatus = typeof PROPOSAL_STATUSES[number];

/** Label per status, as the client and the surveyor see it. */
export const PROPOSAL_STATUS_LABELS: Record<ProposalStatus, string> = {
  pending: "Waiting for the client",
  accepted: "Accepted",
  declined: "Declined",
  withdrawn: "Withdrawn",
};

/** The badge variant (static/css/base.css) per status. */
export const PROPOSAL_STATUS_BADGES: Record<ProposalStatus, string> = {
  pending: "info",
  accepted: "success",
  declined: "neutral",
  withdrawn: "neutral",
};

/** What the API answers with, word for word (toasts show them). */
export const PROPOSAL_MESSAGES = {
  sent: "Proposal sent",
  updated: "Proposal updated",
  withdrawn: "Proposal withdrawn",
  accepted: "Proposal accepted",
  declined: "Proposal declined",
  leadNotFound: "Lead not found",
  surveyNotFound: "Survey not found",
  proposalNotFound: "Proposal not found",
  refunded: "This lead was returned to you, so you can no longer send the client a proposal.",
  firmNotActive: "Your firm is not active on Meridian, so it cannot send proposals.",
  alreadyPending: "You already sent a proposal for this survey; edit it or withdraw it instead.",
  noPending: "You have no pending proposal for this survey.",
  surveyCancelled: "This request was cancelled; it no longer takes proposals.",
  surveyTaken: "This survey already has a surveyor; it no longer takes proposals.",
  acceptCancelled: "This request was cancelled, so a proposal can no longer be accepted.",
  acceptTaken: "This survey already has a surveyor; nothing was changed.",
  notPending: "This proposal is no longer waiting for an answer; nothing was changed.",
  acceptFailed: "Failed to accept the proposal",
  declineFailed: "Failed to decline the proposal",
  sendFailed: "Failed to send the proposal",
} as const;

/** The reason stored on the other pending proposals when the client accepts one. */
export const OTHER_ACCEPTED_REASON = "The client accepted another surveyor's proposal.";

/** Why a pending proposal was withdrawn for its buyer: the lead was returned to them. */
export const RETURNED_REASON = "The lead was returned to the surveyor.";
/** Why the others' pending proposals were declined when the survey was assigned another way. */
export const ASSIGNED_ELSEWHERE_REASON = "The survey was assigned to another surveyor.";
/** Why the assignee's own pending proposal was withdrawn when assigned another way. */
export const ASSIGNED_DIRECTLY_REASON =
  "The survey was assigned to this surveyor directly (a claim or Meridian's assignment).";

/** A proposal as the surveyor who sent it sees it (the API's `proposal`). */
export interface OwnProposal {
  id: string;
  surveyId: string;
  leadId: string;
  status: ProposalStatus;
  priceCents: number;
  /** YYYY-MM-DD. */
  earliestVisitDate: string;
  turnaroundDays: number;
  message: string;
  declineReason: string | null;
  /** ISO timestamps. */
  sentAt: string;
  updatedAt: string;
  decidedAt: string | null;
}

/** The firm behind a proposal, as the client sees it. */
export interface ProposalSurveyor {
  id: string;
  companyName: string;
  /** Average stars over every review (places and Meridian), one decimal; null without any. */
  rating: number | null;
  reviewCount: number;
  /** Meridian checked the firm's licence, and it is licensed in the survey's state. */
  licenceVerified: boolean;
  /** Office to property, one decimal; null when either has no location. */
  distanceMiles: number | null;
  /**
   * `/firms/{slug}` (lib/firm_slug.ts) when the firm has a public page (active and verified);
   * null for a paused, prospect, invited or unverified firm.
   */
  profileUrl: string | null;
}

/** A proposal as the client (and admins) see it: `GET /api/surveys/{id}/proposals`. */
export interface ClientProposal {
  id: string;
  status: ProposalStatus;
  priceCents: number;
  /** YYYY-MM-DD. */
  earliestVisitDate: string;
  turnaroundDays: number;
  message: string;
  /** ISO timestamp of the first sending. */
  sentAt: string;
  /** Why it was declined, when it was. */
  declineReason: string | null;
  surveyor: ProposalSurveyor;
}

/** "5 business days", "1 business day". */
export function turnaroundText(days: number): string {
  return `${days} business ${days === 1 ? "day" : "days"}`;
}
