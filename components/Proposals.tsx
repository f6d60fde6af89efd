/**
 * Where proposals (issue 22) show on server pages, each behind one small insertion point:
 * the buyer's card on a purchased lead's page, the client's card on /survey/{id}, and the
 * proposals under a request on the client dashboard. The interactive parts are the
 * ProposalForm and SurveyProposals islands.
 */
import { Card } from "./AppPage.tsx";
import { Island } from "./Island.tsx";
import ProposalForm from "../islands/ProposalForm.tsx";
import SurveyProposals, { type SurveyProposalsProps } from "../islands/SurveyProposals.tsx";
import type { ClientProposal, OwnProposal } from "../lib/proposal_constants.ts";
import { proposalClosedReason } from "../lib/proposals.ts";
import { todayInUs } from "../lib/proposal_schema.ts";
import { PROPOSAL_MAX_DAYS_AHEAD, PROPOSAL_MESSAGES } from "../lib/proposal_constants.ts";
import type { UnlockedLead } from "../lib/lead_market_schema.ts";
import type { DashboardSurvey, Survey } from "../lib/survey_schema.ts";
import { turnaroundLine } from "../lib/quote_text.ts";

/** What the buyer does next when the client cancelled the request (after the reason). */
export const CANCELLED_NEXT_STEP =
  "There is nothing more to send here: the client no longer needs this survey. Your other leads are under Purchased leads.";

/** What the card says when the survey is already this buyer's job (a claim, an admin's). */
export const ASSIGNED_TO_YOU =
  "The survey is assigned to you (see Assignment), so no proposal is needed.";

function isOpenAssignment(lead: UnlockedLead): boolean {
  const status = lead.assignment?.status;
  return status === "offered" || status === "accepted" || status === "scheduled";
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** "Your proposal" on /surveyor/purchased-leads/{id}. */
export function SurveyorProposalCard({ lead, proposal, surveyorStatus }: {
  lead: UnlockedLead;
  proposal: OwnProposal | null;
  surveyorStatus: string;
}) {
  const today = todayInUs();
  const closedReason = proposal?.status === "accepted"
    ? null
    : isOpenAssignment(lead)
    ? ASSIGNED_TO_YOU
    : proposalClosedReason({
      refundedAt: lead.refundedAt,
      surveyStatus: lead.surveyStatus,
      surveyorStatus,
    });
  const isCancelled = closedReason === PROPOSAL_MESSAGES.surveyCancelled;
  return (
    <Card id="proposal-title" title="Your proposal">
      <Island
        component={ProposalForm}
        props={{
          leadId: lead.id,
          surveyId: lead.surveyId,
          proposal,
          closedReason: isCancelled ? `${closedReason} ${CANCELLED_NEXT_STEP}` : closedReason,
          // The offer window is the lead's, not the proposal's: a buyer may still propose.
          leadExpiredAt: new Date(lead.expiresAt).getTime() <= Date.now() ? lead.expiresAt : null,
          quotedPriceCents: lead.quote.quoteRequired ? null : lead.quotedPriceCents,
          minDate: today,
          maxDate: addDays(today, PROPOSAL_MAX_DAYS_AHEAD),
        }}
        hydrate="idle"
      />
    </Card>
  );
}

function islandProps(
  survey: DashboardSurvey,
  proposals: ClientProposal[],
  canAnswer: boolean,
  isCompact: boolean,
  leadExpiredAt: string | null = null,
): SurveyProposalsProps {
  return {
    leadExpiredAt,
    surveyId: survey.id,
    surveyStatus: survey.status,
    hasSurveyor: survey.assignedSurveyor !== null,
    canAnswer,
    quotedPriceCents: survey.quote.quoteRequired ? null : survey.quotedPriceCents,
    quoteTurnaround: turnaroundLine(survey.quote),
    proposals,
    isCompact,
  };
}

/**
 * "Proposals" on /survey/{id}: the instant quote and every proposal side by side, Accept and
 * Decline for the owning client. Shown to the owner and admins while the request is with
 * surveyors, and whenever it has proposals: otherwise there is nothing to compare.
 */
export function SurveyProposalsCard({ survey, proposals, isOwner, leadExpiredAt = null }: {
  survey: Survey;
  proposals: ClientProposal[];
  isOwner: boolean;
  /** When the request's lead stopped being offered (db/proposals.ts leadExpiredAtColumn). */
  leadExpiredAt?: string | null;
}) {
  if (proposals.length === 0 && survey.status !== "surveyors_notified") return null;
  return (
    <Card id="proposals-title" title="Proposals">
      <Island
        component={SurveyProposals}
        props={islandProps(survey, proposals, isOwner, false, leadExpiredAt)}
        hydrate="visible"
        isPure
      />
    </Card>
  );
}

/**
 * Under a request on the client dashboard: its proposals, while any exists, and what is true
 * and what to do next when its lead's offer window ran out with the request still unassigned
 * (the /survey/{id} page's words).
 */
export function DashboardProposals({ survey, proposals, leadExpiredAt = null }: {
  survey: DashboardSurvey;
  proposals: ClientProposal[];
  /** When the request's lead stopped being offered (db/proposals.ts leadExpiredAtColumn). */
  leadExpiredAt?: string | null;
}) {
  const isExpiredUnassigned = leadExpiredAt !== null && survey.status === "surveyors_notified";
  if (proposals.length === 0 && !isExpiredUnassigned) return null;
  return (
    <section className="survey-card__proposals" aria-label={`Proposals for this request`}>
      <Island
        component={SurveyProposals}
        props={islandProps(survey, proposals, true, true, leadExpiredAt)}
        hydrate="visible"
        isPure
      />
    </section>
  );
}

/** When the first proposal of `proposals` arrived (ISO), or null: the tracker's step date. */
export function firstProposalAt(proposals: readonly ClientProposal[]): string | null {
  let first: string | null = null;
  for (const p of proposals) if (first === null || p.sentAt < first) first = p.sentAt;
  return first;
}
