/**
 * Proposals (issue 22): a surveyor who bought a survey's lead offers the client a price, the
 * earliest visit day, a turnaround and a message; the client accepts one or declines it.
 *
 * - Sending: only a buyer (a buy or a claim) whose purchase is not refunded, from an active
 *   firm, while the survey still waits for a surveyor (requested or surveyors notified); one
 *   pending proposal per buyer per survey. The client is told (bell 'proposal_received' and the
 *   ProposalReceived email). An edit (while pending) rings the bell again; a withdrawal is
 *   shown on the client's page only.
 * - Accepting: the owning client, while the proposal is pending and the survey has no surveyor
 *   and is not cancelled or completed. The survey is assigned to that firm at the proposal's
 *   price (lib/assignments.ts `assignSurveyorInTx`, source 'proposal': accepted at once, the
 *   client told as for a claim), the buyer's pipeline marked won, every other pending proposal
 *   declined (their pipelines lost) and every proposer told (bell and email).
 * - Declining: the owning client, while pending, with an optional reason; the proposer is told.
 *
 * Exactly once: every path locks the survey row first (then the purchase, then proposals), so
 * two accepts of one survey take turns and the second finds it assigned; the unique indexes
 * (one pending per buyer, one accepted per survey, one open assignment) stand behind that.
 * Everything is written in the caller's transaction; a `ProposalError` changes nothing.
 */
import type { Db } from "../db/client.ts";
import {
  type BuyerPurchase,
  decidePendingProposal,
  declineOtherPendingProposals,
  getOwnProposal,
  insertProposal,
  lockBuyerPurchase,
  lockSurveyProposal,
  type ProposalFields,
  setPurchasesPipeline,
  updatePendingProposal,
} from "../db/proposals.ts";
import { getAssignmentParty, lockAssignableSurvey } from "../db/assignments.ts";
import { insertNotification } from "../db/notifications.ts";
import { AssignmentError, assignSurveyorInTx, surveyorJobPath } from "./assignments.ts";
import { formatVisitDate } from "./assignment_constants.ts";
import { queueProposalDecidedEmail, queueProposalReceivedEmail } from "./mail/emails.ts";
import {
  OTHER_ACCEPTED_REASON,
  type OwnProposal,
  PROPOSAL_MESSAGES,
  turnaroundText,
} from "./proposal_constants.ts";
import type { Assignment } from "./lead_market_schema.ts";
import { townFromAddress } from "./address_parts.ts";
import { formatCents } from "./quote_text.ts";
import { SURVEY_TYPE_INFO, type SurveyType } from "./survey_types.ts";
import type { SurveyStatus } from "./survey_schema.ts";

/** A refused proposal action: `status` is the HTTP status to answer, `message` the text. */
export class ProposalError extends Error {
  /** Builds the error; `status` is 404 or 409. */
  constructor(readonly status: 404 | 409, message: string) {
    super(message);
    this.name = "ProposalError";
  }
}

/** Survey statuses that still take proposals: nobody has the job yet. */
const OPEN_FOR_PROPOSALS: readonly SurveyStatus[] = ["requested", "surveyors_notified"];

/** The surveyor's page of a purchased lead (where they send and edit their proposal). */
export function purchasedLeadProposalPath(leadId: string): string {
  return `/surveyor/purchased-leads/${encodeURIComponent(leadId)}#proposal-title`;
}

/** The client's page of their request, at the proposals. */
export function clientProposalsPath(surveyId: string): string {
  return `/survey/${encodeURIComponent(surveyId)}#proposals-title`;
}

function typeName(type: SurveyType): string {
  return SURVEY_TYPE_INFO[type].name;
}

function location(address: string, state: string): string {
  const town = townFromAddress(address, state);
  return town ? `${town}, ${state}` : state;
}

/** Why the survey takes no proposal now, or null when it does. */
function closedForProposals(
  survey: { status: SurveyStatus; assignedSurveyorId: string | null },
): string | null {
  if (survey.status === "cancelled") return PROPOSAL_MESSAGES.surveyCancelled;
  if (!OPEN_FOR_PROPOSALS.includes(survey.status) || survey.assignedSurveyorId) {
    return PROPOSAL_MESSAGES.surveyTaken;
  }
  return null;
}

/** The buyer's locked purchase, or the 404/409 that refuses them any proposal action. */
async function buyerPurchase(
  tx: Db,
  { leadId, surveyorId }: { leadId: string; surveyorId: string },
): Promise<BuyerPurchase> {
  const purchase = await lockBuyerPurchase(tx, { leadId, surveyorId });
  if (!purchase) throw new ProposalError(404, PROPOSAL_MESSAGES.leadNotFound);
  return purchase;
}

/** Tells the client of a new or changed proposal: the bell, and for a new one the email. */
async function tellClient(
  tx: Db,
  purchase: BuyerPurchase,
  proposal: OwnProposal,
  { isNew, publicUrl }: { isNew: boolean; publicUrl: string },
): Promise<void> {
  const price = formatCents(proposal.priceCents);
  const visit = formatVisitDate(proposal.earliestVisitDate);
  const turnaround = turnaroundText(proposal.turnaroundDays);
  await insertNotification(tx, {
    userId: purchase.clientId,
    kind: "proposal_received",
    title: isNew
      ? `New proposal from ${purchase.companyName}`
      : `${purchase.companyName} updated their proposal`,
    body: `${price} for your ${
      typeName(purchase.surveyType)
    }: earliest visit ${visit}, ${turnaround} after the visit.`,
    link: clientProposalsPath(purchase.surveyId),
  });
  if (!isNew || !purchase.clientEmail) return;
  await queueProposalReceivedEmail(tx, {
    to: purchase.clientEmail,
    name: purchase.clientName,
    surveyTypeName: typeName(purchase.surveyType),
    address: purchase.address,
    companyName: purchase.companyName,
    price,
    earliestVisit: visit,
    turnaround,
    message: proposal.message,
    surveyId: purchase.surveyId,
    publicUrl,
  });
}

/**
 * Sends the client a proposal from `surveyorId`, the buyer of lead `leadId`, in `tx`. Returns
 * it (pending). Throws `ProposalError` 404 when they did not buy the lead; 409 when the purchase
 * was refunded, the firm is not active, the survey is cancelled or has a surveyor, or they
 * already have a pending proposal on it.
 */
export async function sendProposal(
  tx: Db,
  input: { leadId: string; surveyorId: string; fields: ProposalFields; publicUrl: string },
): Promise<OwnProposal> {
  const purchase = await buyerPurchase(tx, input);
  if (purchase.refundedAt) throw new ProposalError(409, PROPOSAL_MESSAGES.refunded);
  if (purchase.surveyorStatus !== "active") {
    throw new ProposalError(409, PROPOSAL_MESSAGES.firmNotActive);
  }
  const closed = closedForProposals({
    status: purchase.surveyStatus,
    assignedSurveyorId: purchase.assignedSurveyorId,
  });
  if (closed) throw new ProposalError(409, closed);
  const existing = await getOwnProposal(tx, { purchaseId: purchase.purchaseId });
  if (existing?.status === "pending") {
    throw new ProposalError(409, PROPOSAL_MESSAGES.alreadyPending);
  }
  const proposal = await insertProposal(tx, {
    ...input.fields,
    surveyId: purchase.surveyId,
    purchaseId: purchase.purchaseId,
    surveyorId: purchase.surveyorId,
  });
  await tellClient(tx, purchase, proposal, { isNew: true, publicUrl: input.publicUrl });
  return proposal;
}

/**
 * Changes the buyer's pending proposal on lead `leadId` (the fields given), in `tx`, and rings
 * the client's bell. Returns it. Throws `ProposalError` 404 when they did not buy the lead; 409
 * when they have no pending proposal, the purchase was refunded or the survey no longer takes
 * proposals.
 */
export async function updateProposal(
  tx: Db,
  input: {
    leadId: string;
    surveyorId: string;
    fields: Partial<ProposalFields>;
    publicUrl: string;
  },
): Promise<OwnProposal> {
  const purchase = await buyerPurchase(tx, input);
  const existing = await getOwnProposal(tx, { purchaseId: purchase.purchaseId });
  if (existing?.status !== "pending") throw new ProposalError(409, PROPOSAL_MESSAGES.noPending);
  if (purchase.refundedAt) throw new ProposalError(409, PROPOSAL_MESSAGES.refunded);
  const closed = closedForProposals({
    status: purchase.surveyStatus,
    assignedSurveyorId: purchase.assignedSurveyorId,
  });
  if (closed) throw new ProposalError(409, closed);
  const updated = await updatePendingProposal(tx, { id: existing.id, fields: input.fields });
  if (!updated) throw new ProposalError(409, PROPOSAL_MESSAGES.noPending);
  await tellClient(tx, purchase, updated, { isNew: false, publicUrl: input.publicUrl });
  return updated;
}

/**
 * Withdraws the buyer's pending proposal on lead `leadId`, in `tx`. Returns it (withdrawn).
 * Throws `ProposalError` 404 when they did not buy the lead, 409 when nothing is pending.
 */
export async function withdrawProposal(
  tx: Db,
  input: { leadId: string; surveyorId: string },
): Promise<OwnProposal> {
  const purchase = await buyerPurchase(tx, input);
  const existing = await getOwnProposal(tx, { purchaseId: purchase.purchaseId });
  if (existing?.status !== "pending") throw new ProposalError(409, PROPOSAL_MESSAGES.noPending);
  const withdrawn = await decidePendingProposal(tx, { id: existing.id, status: "withdrawn" });
  if (!withdrawn) throw new ProposalError(409, PROPOSAL_MESSAGES.noPending);
  return withdrawn;
}

/** Tells a proposer their proposal was accepted or declined: the bell and the email. */
async function tellProposer(
  tx: Db,
  proposal: OwnProposal & { surveyorId: string },
  survey: { id: string; surveyType: SurveyType; address: string; state: string },
  { accepted, publicUrl }: { accepted: boolean; publicUrl: string },
): Promise<void> {
  const party = await getAssignmentParty(tx, { surveyorId: proposal.surveyorId });
  if (!party) return;
  const where = `${typeName(survey.surveyType)} in ${location(survey.address, survey.state)}`;
  const price = formatCents(proposal.priceCents);
  const path = accepted ? surveyorJobPath(survey.id) : purchasedLeadProposalPath(proposal.leadId);
  if (party.userId) {
    await insertNotification(tx, {
      userId: party.userId,
      kind: accepted ? "proposal_accepted" : "proposal_declined",
      title: accepted
        ? "Your proposal was accepted"
        : proposal.declineReason === OTHER_ACCEPTED_REASON
        ? "The client chose another surveyor"
        : "The client declined your proposal",
      body: accepted
        ? `${where} at ${price}: the survey is assigned to you. Call the client and book the visit.`
        : `${where}, ${price}.${
          proposal.declineReason ? ` Reason: ${proposal.declineReason}` : ""
        }`,
      link: path,
    });
  }
  if (!party.email) return;
  await queueProposalDecidedEmail(tx, {
    template: accepted ? "proposal_accepted" : "proposal_declined",
    to: party.email,
    companyName: party.companyName,
    surveyTypeName: typeName(survey.surveyType),
    location: location(survey.address, survey.state),
    price,
    reason: accepted ? null : proposal.declineReason,
    path,
    publicUrl,
  });
}

/** The owning client's survey locked, and the proposal of it locked, or the 404. */
async function clientsProposal(
  tx: Db,
  { surveyId, proposalId, clientId }: { surveyId: string; proposalId: string; clientId: string },
) {
  const survey = await lockAssignableSurvey(tx, { surveyId });
  if (!survey || survey.clientId !== clientId) {
    throw new ProposalError(404, PROPOSAL_MESSAGES.surveyNotFound);
  }
  const proposal = await lockSurveyProposal(tx, { surveyId: survey.id, proposalId });
  if (!proposal) throw new ProposalError(404, PROPOSAL_MESSAGES.proposalNotFound);
  return { survey, proposal };
}

/**
 * The owning client `clientId` accepts proposal `proposalId` of survey `surveyId`, in `tx`
 * (see the module comment for what follows). Returns the accepted proposal and the new
 * assignment. Throws `ProposalError` 404 for a survey that is not theirs or a proposal not of
 * it; 409, changing nothing, when the survey is cancelled, completed or already has a surveyor,
 * or the proposal is not pending (or its purchase was refunded, or the firm is paused).
 */
export async function acceptProposal(
  tx: Db,
  input: {
    surveyId: string;
    proposalId: string;
    clientId: string;
    /** Who is recorded on the survey's timeline: the client, or the admin impersonating them. */
    actorId?: string;
    publicUrl: string;
  },
): Promise<{ proposal: OwnProposal; assignment: Assignment }> {
  const { survey, proposal } = await clientsProposal(tx, input);
  if (survey.status === "cancelled") {
    throw new ProposalError(409, PROPOSAL_MESSAGES.acceptCancelled);
  }
  if (!OPEN_FOR_PROPOSALS.includes(survey.status) || survey.assignedSurveyorId) {
    throw new ProposalError(409, PROPOSAL_MESSAGES.acceptTaken);
  }
  if (proposal.status !== "pending" || proposal.refundedAt) {
    throw new ProposalError(409, PROPOSAL_MESSAGES.notPending);
  }
  let assignment: Assignment;
  try {
    assignment = await assignSurveyorInTx(tx, {
      surveyId: survey.id,
      surveyorId: proposal.surveyorId,
      agreedPriceCents: proposal.priceCents,
      source: "proposal",
      actorId: input.actorId ?? input.clientId,
      publicUrl: input.publicUrl,
    });
  } catch (err) {
    if (err instanceof AssignmentError) {
      throw new ProposalError(err.status === 404 ? 404 : 409, err.message);
    }
    throw err;
  }
  const accepted = await decidePendingProposal(tx, { id: proposal.id, status: "accepted" });
  if (!accepted) throw new ProposalError(409, PROPOSAL_MESSAGES.notPending);
  const others = await declineOtherPendingProposals(tx, {
    surveyId: survey.id,
    reason: OTHER_ACCEPTED_REASON,
  });
  await setPurchasesPipeline(tx, { purchaseIds: [proposal.purchaseId], status: "won" });
  await setPurchasesPipeline(tx, { purchaseIds: others.map((o) => o.purchaseId), status: "lost" });
  await tellProposer(tx, { ...accepted, surveyorId: proposal.surveyorId }, survey, {
    accepted: true,
    publicUrl: input.publicUrl,
  });
  for (const other of others) {
    await tellProposer(tx, other, survey, { accepted: false, publicUrl: input.publicUrl });
  }
  return { proposal: accepted, assignment };
}

/**
 * The owning client declines pending proposal `proposalId` of survey `surveyId` with an
 * optional reason, in `tx`; the proposer is told. Returns it. Throws `ProposalError` 404 as
 * `acceptProposal`, 409 when it is not pending.
 */
export async function declineProposal(
  tx: Db,
  input: {
    surveyId: string;
    proposalId: string;
    clientId: string;
    reason: string | null;
    publicUrl: string;
  },
): Promise<OwnProposal> {
  const { survey, proposal } = await clientsProposal(tx, input);
  if (proposal.status !== "pending") throw new ProposalError(409, PROPOSAL_MESSAGES.notPending);
  const declined = await decidePendingProposal(tx, {
    id: proposal.id,
    status: "declined",
    reason: input.reason,
  });
  if (!declined) throw new ProposalError(409, PROPOSAL_MESSAGES.notPending);
  await tellProposer(tx, { ...declined, surveyorId: proposal.surveyorId }, survey, {
    accepted: false,
    publicUrl: input.publicUrl,
  });
  return declined;
}

/**
 * Why the buyer may not send or change a proposal on their purchased lead now, or null: the
 * lead was returned to them, their firm is not active, or the survey was cancelled or has a
 * surveyor. What the purchased lead's page says instead of the form.
 */
export function proposalClosedReason(input: {
  refundedAt: string | null;
  surveyStatus: SurveyStatus;
  surveyorStatus: string;
}): string | null {
  if (input.refundedAt) return PROPOSAL_MESSAGES.refunded;
  if (input.surveyStatus === "cancelled") return PROPOSAL_MESSAGES.surveyCancelled;
  if (!OPEN_FOR_PROPOSALS.includes(input.surveyStatus)) return PROPOSAL_MESSAGES.surveyTaken;
  if (input.surveyorStatus !== "active") return PROPOSAL_MESSAGES.firmNotActive;
  return null;
}
