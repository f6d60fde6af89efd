/**
 * Every email template, with its editable copy (subject and blocks, issue 13) and sample data,
 * rendered to HTML and plain text. The queue functions (emails.ts), the admin preview page and
 * the copy editor all go through here.
 *
 * This module holds what the admin pages and the copy editor need (names, copy, samples) and no
 * jsx-email code: the components and the renderer (render_html.tsx) are imported on the first
 * email rendered, so a server that sends none never loads them (about 15 MB of heap).
 */
import { type CopyTexts, fillCopy, type FilledCopy, type TemplateCopyDef } from "./copy.ts";
import { passwordResetCopy, type PasswordResetProps } from "./templates/PasswordReset.tsx";
import { passwordChangedCopy, type PasswordChangedProps } from "./templates/PasswordChanged.tsx";
import {
  surveyRequestConfirmationCopy,
  type SurveyRequestConfirmationProps,
} from "./templates/SurveyRequestConfirmation.tsx";
import {
  newSurveyRequestAdminCopy,
  type NewSurveyRequestAdminProps,
} from "./templates/NewSurveyRequestAdmin.tsx";
import {
  surveyorInvitationCopy,
  type SurveyorInvitationProps,
} from "./templates/SurveyorInvitation.tsx";
import { type LeadSummaryProps, newSurveyLeadCopy } from "./templates/NewSurveyLead.tsx";
import { surveyorAssignedCopy, type SurveyorAssignedProps } from "./templates/SurveyorAssigned.tsx";
import {
  assignmentOfferedCopy,
  type AssignmentOfferedProps,
} from "./templates/AssignmentOffered.tsx";
import { visitScheduledCopy, type VisitScheduledProps } from "./templates/VisitScheduled.tsx";
import { leadInvitationCopy, type LeadInvitationProps } from "./templates/LeadInvitation.tsx";
import { licenceVerifiedCopy, type LicenceVerifiedProps } from "./templates/LicenceVerified.tsx";
import { reviewRepliedCopy, type ReviewRepliedProps } from "./templates/ReviewReplied.tsx";
import {
  type SurveyorJoinDecidedBlock,
  surveyorJoinDecidedCopy,
  type SurveyorJoinDecidedProps,
  surveyorJoinDecidedSubject,
} from "./templates/SurveyorJoinDecided.tsx";
import { lowBalanceCopy, type LowBalanceProps } from "./templates/LowBalance.tsx";
import {
  type RefundDecisionBlock,
  refundDecisionCopy,
  type RefundDecisionProps,
  refundDecisionSubject,
} from "./templates/RefundDecision.tsx";
import {
  technicianInvitationCopy,
  type TechnicianInvitationProps,
} from "./templates/TechnicianInvitation.tsx";
import {
  technicianJobAssignedCopy,
  type TechnicianJobAssignedProps,
} from "./templates/TechnicianJobAssigned.tsx";
import { surveyDeliveredCopy, type SurveyDeliveredProps } from "./templates/SurveyDelivered.tsx";
import { proposalReceivedCopy, type ProposalReceivedProps } from "./templates/ProposalReceived.tsx";
import {
  proposalAcceptedCopy,
  type ProposalDecidedProps,
  proposalDeclinedCopy,
} from "./templates/ProposalDecided.tsx";
import { messageReceivedCopy, type MessageReceivedProps } from "./templates/MessageReceived.tsx";

/** A rendered email ready for the outbox. */
export interface RenderedEmail {
  template: TemplateId;
  subject: string;
  html: string;
  text: string;
}

/** Props of each template, by id. */
export interface TemplateProps {
  password_reset: PasswordResetProps;
  password_changed: PasswordChangedProps;
  survey_request_confirmation: SurveyRequestConfirmationProps;
  new_survey_request_admin: NewSurveyRequestAdminProps;
  surveyor_invitation: SurveyorInvitationProps;
  new_survey_lead: LeadSummaryProps;
  surveyor_assigned: SurveyorAssignedProps;
  assignment_offered: AssignmentOfferedProps;
  visit_scheduled: VisitScheduledProps;
  lead_invitation: LeadInvitationProps;
  low_balance: LowBalanceProps;
  refund_decision: RefundDecisionProps;
  technician_invitation: TechnicianInvitationProps;
  technician_job_assigned: TechnicianJobAssignedProps;
  survey_delivered: SurveyDeliveredProps;
  proposal_received: ProposalReceivedProps;
  proposal_accepted: ProposalDecidedProps;
  proposal_declined: ProposalDecidedProps;
  licence_verified: LicenceVerifiedProps;
  message_received: MessageReceivedProps;
  review_replied: ReviewRepliedProps;
  surveyor_join_decided: SurveyorJoinDecidedProps;
}

/** Template ids as stored in `email_outbox.template`. */
export type TemplateId = keyof TemplateProps;

interface TemplateDef<P> {
  name: string;
  audience: string;
  description: string;
  /** The editable words: subject, blocks and the variables they may use. */
  copy: TemplateCopyDef<P, string>;
  /** The subject line when it is not simply the copy's subject (a denied return request). */
  pickSubject?(props: P, copy: FilledCopy): string;
  sample: P;
}

const LEAD_SAMPLE: LeadSummaryProps = {
  surveyTypeName: "ALTA/NSPS Survey",
  location: "Austin, TX",
  size: "5 acres",
  neededBy: "Jan 15, 2027",
  quotedPrice: "$1,285",
  leadPrice: "$77.10",
  formula: "6% of the $1,285.00 quote, at least $15, at most $150 = $77.10",
  maxBuyers: 3,
  expiresOn: "Jan 8, 2027",
  leadUrl: "https://meridian.example/lead/sample-lead",
};

/** Each template's display name, who receives it, copy and sample data. */
export const TEMPLATES: { [K in TemplateId]: TemplateDef<TemplateProps[K]> } = {
  password_reset: {
    name: "Password reset",
    audience: "Any user who asks to reset their password",
    description: "The one-hour, single-use link to choose a new password.",
    copy: passwordResetCopy,
    sample: {
      name: "Jordan Rivera",
      resetUrl: "https://meridian.example/reset-password?token=sample-token",
    },
  },
  password_changed: {
    name: "Password changed",
    audience: "A user whose password was changed or reset",
    description: "Confirms the change and says what to do if it was not them.",
    copy: passwordChangedCopy,
    sample: { name: "Jordan Rivera" },
  },
  survey_request_confirmation: {
    name: "Survey request confirmation",
    audience: "The client who submitted a survey request",
    description: "Address, survey type, quoted price and what happens next.",
    copy: surveyRequestConfirmationCopy,
    sample: {
      name: "Jordan Rivera",
      surveyId: "3f1c2a9e-0000-4000-8000-000000000001",
      address: "1600 Pennsylvania Ave NW, Washington, DC 20500",
      surveyTypeName: "Boundary Survey",
      quotedPriceCents: 38500,
      surveyUrl: "https://meridian.example/client/surveys/3f1c2a9e-0000-4000-8000-000000000001",
    },
  },
  new_survey_request_admin: {
    name: "New survey request (admin)",
    audience: "Administrators",
    description:
      "Tells the team a new request came in, and whether surveyors are being matched and notified automatically.",
    copy: newSurveyRequestAdminCopy,
    sample: {
      surveyId: "3f1c2a9e-0000-4000-8000-000000000001",
      clientName: "Jordan Rivera",
      address: "1600 Pennsylvania Ave NW, Washington, DC 20500",
      surveyTypeName: "Boundary Survey",
      adminUrl: "https://meridian.example/admin-dashboard",
      isAutoDispatch: true,
    },
  },
  surveyor_invitation: {
    name: "Surveyor invitation",
    audience: "A surveyor whose account an admin created from their record",
    description: "The link to choose a first password; it lasts 7 days and works once.",
    copy: surveyorInvitationCopy,
    sample: {
      name: "Sam Ortiz",
      companyName: "Ortiz Land Surveying",
      setPasswordUrl: "https://meridian.example/reset-password?token=sample-token",
      validDays: 7,
    },
  },
  new_survey_lead: {
    name: "New survey lead",
    audience: "In-network surveyors whose service area covers a new request",
    description: "The job (no client details), the lead price with its formula and a link.",
    copy: newSurveyLeadCopy,
    sample: LEAD_SAMPLE,
  },
  surveyor_assigned: {
    name: "Surveyor assigned",
    audience: "The client, once a surveyor has taken their survey",
    description: "The surveyor's company, name, phone and licence, and the agreed price.",
    copy: surveyorAssignedCopy,
    sample: {
      name: "Jordan Rivera",
      surveyTypeName: "Boundary Survey",
      address: "1600 Pennsylvania Ave NW, Washington, DC 20500",
      companyName: "Ortiz Land Surveying",
      surveyorName: "Sam Ortiz",
      phone: "(512) 555-0142",
      license: "DC 6012",
      agreedPrice: "$1,285",
      surveyUrl: "https://meridian.example/client/surveys/3f1c2a9e-0000-4000-8000-000000000001",
    },
  },
  assignment_offered: {
    name: "Assignment offered",
    audience: "A surveyor an admin assigned to a survey",
    description: "The job (town and state only) and the agreed price, to accept or decline.",
    copy: assignmentOfferedCopy,
    sample: {
      companyName: "Ortiz Land Surveying",
      surveyTypeName: "Boundary Survey",
      location: "Austin, TX",
      agreedPrice: "$1,285",
      actionUrl: "https://meridian.example/surveyor-dashboard",
    },
  },
  visit_scheduled: {
    name: "Visit scheduled",
    audience: "The client, when their surveyor books the field visit",
    description: "The visit date, the surveying company and its phone.",
    copy: visitScheduledCopy,
    sample: {
      name: "Jordan Rivera",
      surveyTypeName: "Boundary Survey",
      address: "1600 Pennsylvania Ave NW, Washington, DC 20500",
      companyName: "Ortiz Land Surveying",
      phone: "(512) 555-0142",
      visitDate: "Tuesday, March 3, 2026",
      surveyUrl: "https://meridian.example/client/surveys/3f1c2a9e-0000-4000-8000-000000000001",
    },
  },
  lead_invitation: {
    name: "Lead invitation",
    audience: "Surveying firms near a request that are not in the network yet",
    description:
      "The same job summary, inviting them to the public lead page and to join with their own link.",
    copy: leadInvitationCopy,
    sample: {
      ...LEAD_SAMPLE,
      leadUrl: "https://meridian.example/lead/sample-lead?token=sample-token",
      claimUrl: "https://meridian.example/surveyor/claim?token=sample-token",
      claimValidDays: 30,
    },
  },
  low_balance: {
    name: "Low balance",
    audience: "A surveyor whose balance a lead purchase or claim fee took below the low mark",
    description: "The balance left and a link to the billing page; at most once a day.",
    copy: lowBalanceCopy,
    sample: {
      name: "Sam Ortiz",
      companyName: "Ortiz Land Surveying",
      balance: "$32.50",
      threshold: "$50",
      billingUrl: "https://meridian.example/surveyor/billing",
    },
  },
  refund_decision: {
    name: "Lead returned / return decision",
    audience: "A surveyor whose lead was returned, or whose return request an admin decided",
    description:
      "What came back to the balance and why (client cancelled, request withdrawn, request approved), or that a request was denied, with the admin's note.",
    copy: refundDecisionCopy,
    pickSubject: (props, copy) =>
      refundDecisionSubject(props, copy as FilledCopy<RefundDecisionBlock>),
    sample: {
      name: "Sam Ortiz",
      decision: "approved",
      isRequested: false,
      amount: "$38.50",
      surveyTypeName: "Boundary Survey",
      location: "Austin, TX",
      cause: "the client cancelled the request",
      note: null,
      url: "https://meridian.example/surveyor/billing",
    },
  },
  technician_invitation: {
    name: "Technician invitation",
    audience: "A technician a surveyor (or an admin) added to a field crew",
    description: "The firm, who invited them and the 7-day link to choose a password.",
    copy: technicianInvitationCopy,
    sample: {
      name: "Riley Chen",
      companyName: "Ortiz Land Surveying",
      inviterName: "Sam Ortiz",
      setPasswordUrl: "https://meridian.example/reset-password?token=sample-token",
      validDays: 7,
    },
  },
  technician_job_assigned: {
    name: "Technician job assigned",
    audience: "A technician assigned the fieldwork of a survey",
    description: "Address, visit date, survey type, the crew notes and a link to the job.",
    copy: technicianJobAssignedCopy,
    sample: {
      name: "Riley Chen",
      companyName: "Ortiz Land Surveying",
      surveyTypeName: "Boundary Survey",
      address: "1200 Barton Springs Rd, Austin, TX 78704",
      visitDate: "Tuesday, March 3, 2026",
      notes: "Gate code 1234. Dog in the yard; the owner will be home.",
      jobUrl:
        "https://meridian.example/technician-survey-detail/3f1c2a9e-0000-4000-8000-000000000001",
    },
  },
  survey_delivered: {
    name: "Survey delivered",
    audience: "The client, when their surveyor completes the survey",
    description:
      "The survey is complete: the company, the completion date, how many files to download, and a link to the request's page to download them and rate the surveyor.",
    copy: surveyDeliveredCopy,
    sample: {
      name: "Jordan Rivera",
      surveyTypeName: "Boundary Survey",
      address: "1600 Pennsylvania Ave NW, Washington, DC 20500",
      companyName: "Ortiz Land Surveying",
      completedDate: "March 5, 2026",
      fileCount: 2,
      surveyUrl: "https://meridian.example/client/surveys/3f1c2a9e-0000-4000-8000-000000000001",
    },
  },
  proposal_received: {
    name: "Proposal received",
    audience: "The client, when a surveyor who bought their lead sends a proposal",
    description:
      "The firm, its price, earliest visit, turnaround and message, with a link to compare and accept.",
    copy: proposalReceivedCopy,
    sample: {
      name: "Jordan Rivera",
      surveyTypeName: "Boundary Survey",
      address: "1200 Barton Springs Rd, Austin, TX 78704",
      companyName: "Ortiz Land Surveying",
      price: "$1,150",
      earliestVisit: "Tuesday, March 3, 2026",
      turnaround: "5 business days",
      message: "We set all four corners and deliver a signed plat. Please have the deed ready.",
      surveyUrl: "https://meridian.example/client/surveys/3f1c2a9e-0000-4000-8000-000000000001",
    },
  },
  proposal_accepted: {
    name: "Proposal accepted",
    audience: "The surveyor whose proposal the client accepted",
    description: "The job is theirs at their price: call the client and book the visit.",
    copy: proposalAcceptedCopy,
    sample: {
      companyName: "Ortiz Land Surveying",
      surveyTypeName: "Boundary Survey",
      location: "Austin, TX",
      price: "$1,150",
      reason: null,
      url: "https://meridian.example/surveyor/jobs/3f1c2a9e-0000-4000-8000-000000000001",
    },
  },
  proposal_declined: {
    name: "Proposal declined",
    audience: "A surveyor whose proposal the client declined or who lost to another proposal",
    description: "Which proposal, and the client's reason when they gave one.",
    copy: proposalDeclinedCopy,
    sample: {
      companyName: "Ortiz Land Surveying",
      surveyTypeName: "Boundary Survey",
      location: "Austin, TX",
      price: "$1,150",
      reason: "The client accepted another surveyor's proposal.",
      url: "https://meridian.example/surveyor/purchased-leads/3f1c2a9e-0000-4000-8000-000000000002",
    },
  },
  licence_verified: {
    name: "Licence verified",
    audience: "A surveyor whose licence an admin verified",
    description: "Says the licence was checked and leads are open to them, with a link to leads.",
    copy: licenceVerifiedCopy,
    sample: {
      name: "Sam Ortiz",
      companyName: "Ortiz Land Surveying",
      licence: "TX 6012",
      leadsUrl: "https://meridian.example/leads",
    },
  },
  message_received: {
    name: "New message",
    audience: "The client, a firm or its technician, when a survey's conversation has a message",
    description:
      "Who wrote, the message as text and a link to the conversation; at most one every 15 minutes per conversation while it stays unread.",
    copy: messageReceivedCopy,
    sample: {
      name: "Jordan Rivera",
      senderName: "Ortiz Land Surveying",
      surveyTypeName: "Boundary Survey",
      address: "1600 Pennsylvania Ave NW, Washington, DC 20500",
      messageText:
        "Thanks for the request. Could you send the deed? The county copy is at https://example.com/deed.pdf",
      threadUrl:
        "https://meridian.example/client/surveys/3f1c2a9e-0000-4000-8000-000000000001#messages",
    },
  },
  review_replied: {
    name: "Reply to a review",
    audience: "A client whose review the firm answered",
    description: "Says the firm replied, quotes the reply as text and links the firm's profile.",
    copy: reviewRepliedCopy,
    sample: {
      name: "Jordan Rivera",
      companyName: "Ortiz Land Surveying",
      surveyTypeName: "Boundary Survey",
      replyText: "Thank you, Jordan! It was a pleasure to stake your corners.",
      profileUrl: "https://meridian.example/firms/ortiz-land-surveying-3f1c2a9e",
    },
  },
  surveyor_join_decided: {
    name: "Surveyor sign-up decision",
    audience: "A surveyor who joined on /for-surveyors",
    description:
      "An admin linked their account to a firm on record, declined that request, or could not verify their firm's licence.",
    copy: surveyorJoinDecidedCopy,
    pickSubject: (props, copy) =>
      surveyorJoinDecidedSubject(props, copy as FilledCopy<SurveyorJoinDecidedBlock>),
    sample: {
      name: "Sam Ortiz",
      companyName: "Ortiz Land Surveying",
      decision: "linked",
      url: "https://meridian.example/surveyor-dashboard",
    },
  },
};

/** Template ids in display order. */
export const TEMPLATE_IDS = Object.keys(TEMPLATES) as TemplateId[];

let renderer: Promise<typeof import("./render_html.tsx")> | undefined;

/**
 * The components and jsx-email's renderer, imported once, on first use. Not retried: Deno keeps
 * a module that failed to load for the life of the process, and a second `import()` fails the
 * same way. These are the app's own files (vendor/jsx-email, not a package that another `deno`
 * process re-copies into node_modules/ while this one reads it; vendor/postgres/README.md).
 */
function loadRenderer(): Promise<typeof import("./render_html.tsx")> {
  renderer ??= import("./render_html.tsx");
  return renderer;
}

/**
 * Renders template `id` with `props` to subject, HTML and plain text, in the words of `texts`
 * (a template's stored copy; blocks it lacks, and all of them when undefined, take the default
 * words). Throws when a link in the props is not an http(s) URL.
 */
export async function renderEmail<K extends TemplateId>(
  id: K,
  props: TemplateProps[K],
  texts?: CopyTexts,
): Promise<RenderedEmail> {
  const def = TEMPLATES[id] as TemplateDef<TemplateProps[K]>;
  const copy = fillCopy(def.copy, props, texts);
  const { renderHtmlAndText } = await loadRenderer();
  const { html, text } = await renderHtmlAndText(id, props, copy);
  // Subjects carry user input (addresses) and admins' words; one line, bounded, so no header
  // can be smuggled.
  const subject = (def.pickSubject?.(props, copy) ?? copy.subject)
    .replace(/\s+/g, " ").trim().slice(0, 200);
  return { template: id, subject, html, text: text.trim() };
}

/**
 * The copy definition of template `id`, typed for code that handles every template alike (the
 * copy editor validates and previews texts against it).
 */
export function templateCopyDef(id: TemplateId): TemplateCopyDef<unknown, string> {
  return TEMPLATES[id].copy as TemplateCopyDef<unknown, string>;
}
