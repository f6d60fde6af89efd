/**
 * The email components, with jsx-email's renderer: loaded by render.tsx on the first email
 * rendered, not at start-up (jsx-email's single entry point loads all its components, the
 * Tailwind, code-highlighting and barcode ones among them: about 15 MB of heap).
 */
import type { ReactElement } from "react";
import { render } from "jsx-email";
import type { FilledCopy } from "./copy.ts";
import type { TemplateId, TemplateProps } from "./render.tsx";
import { PasswordReset } from "./components/PasswordReset.tsx";
import { PasswordChanged } from "./components/PasswordChanged.tsx";
import { SurveyRequestConfirmation } from "./components/SurveyRequestConfirmation.tsx";
import { NewSurveyRequestAdmin } from "./components/NewSurveyRequestAdmin.tsx";
import { SurveyorInvitation } from "./components/SurveyorInvitation.tsx";
import { NewSurveyLead } from "./components/NewSurveyLead.tsx";
import { SurveyorAssigned } from "./components/SurveyorAssigned.tsx";
import { AssignmentOffered } from "./components/AssignmentOffered.tsx";
import { VisitScheduled } from "./components/VisitScheduled.tsx";
import { LeadInvitation } from "./components/LeadInvitation.tsx";
import { LicenceVerified } from "./components/LicenceVerified.tsx";
import { ReviewReplied } from "./components/ReviewReplied.tsx";
import { SurveyorJoinDecided } from "./components/SurveyorJoinDecided.tsx";
import { LowBalance } from "./components/LowBalance.tsx";
import { RefundDecision } from "./components/RefundDecision.tsx";
import { TechnicianInvitation } from "./components/TechnicianInvitation.tsx";
import { TechnicianJobAssigned } from "./components/TechnicianJobAssigned.tsx";
import { SurveyDelivered } from "./components/SurveyDelivered.tsx";
import { ProposalReceived } from "./components/ProposalReceived.tsx";
import { ProposalAccepted, ProposalDeclined } from "./components/ProposalDecided.tsx";
import { MessageReceived } from "./components/MessageReceived.tsx";

/**
 * A template's component, taking its copy filled in. Typed here so each component takes its
 * own block names (FilledCopy<K>) while ELEMENTS holds one shape for all.
 */
function withCopy<C extends { copy: FilledCopy<string> }>(
  Component: (props: C) => ReactElement,
): (props: Omit<C, "copy">, copy: FilledCopy) => ReactElement {
  return (props, copy) => <Component {...props as C} copy={copy as C["copy"]} />;
}

/** Each template's email, by id. */
const ELEMENTS: {
  [K in TemplateId]: (props: TemplateProps[K], copy: FilledCopy) => ReactElement;
} = {
  password_reset: withCopy(PasswordReset),
  password_changed: withCopy(PasswordChanged),
  survey_request_confirmation: withCopy(SurveyRequestConfirmation),
  new_survey_request_admin: withCopy(NewSurveyRequestAdmin),
  surveyor_invitation: withCopy(SurveyorInvitation),
  new_survey_lead: withCopy(NewSurveyLead),
  surveyor_assigned: withCopy(SurveyorAssigned),
  assignment_offered: withCopy(AssignmentOffered),
  visit_scheduled: withCopy(VisitScheduled),
  lead_invitation: withCopy(LeadInvitation),
  low_balance: withCopy(LowBalance),
  refund_decision: withCopy(RefundDecision),
  technician_invitation: withCopy(TechnicianInvitation),
  technician_job_assigned: withCopy(TechnicianJobAssigned),
  survey_delivered: withCopy(SurveyDelivered),
  proposal_received: withCopy(ProposalReceived),
  proposal_accepted: withCopy(ProposalAccepted),
  proposal_declined: withCopy(ProposalDeclined),
  licence_verified: withCopy(LicenceVerified),
  message_received: withCopy(MessageReceived),
  review_replied: withCopy(ReviewReplied),
  surveyor_join_decided: withCopy(SurveyorJoinDecided),
};

/** Template `id`'s email for `props` with its copy filled in, as HTML and as plain text. */
export async function renderHtmlAndText<K extends TemplateId>(
  id: K,
  props: TemplateProps[K],
  copy: FilledCopy,
): Promise<{ html: string; text: string }> {
  const element = (ELEMENTS[id] as (props: TemplateProps[K], copy: FilledCopy) => ReactElement)(
    props,
    copy,
  );
  const [html, text] = await Promise.all([
    render(element),
    render(element, { plainText: true }),
  ]);
  return { html, text };
}
