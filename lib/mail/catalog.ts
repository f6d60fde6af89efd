/**
 * What sends each transactional email and who gets it, for the admin's list of emails
 * (/admin/email-templates). Kept beside the template registry (render.tsx) and typed by its ids,
 * so adding a template without saying when it goes out fails type checking, and
 * tests/lib/mail_catalog_test.ts fails at run time too.
 */
import type { TemplateId } from "./render.tsx";

/** When an email is sent and to whom, in words an admin reads. */
export interface EmailCatalogEntry {
  /** The event that queues it ("A client submits a survey request"). */
  trigger: string;
  /** Who receives it ("The client who submitted it"). */
  recipient: string;
}

/** Every template's trigger and recipient, by template id. */
export const EMAIL_CATALOG: Record<TemplateId, EmailCatalogEntry> = {
  password_reset: {
    trigger: "Someone asks for a password reset on /forgot-password for an existing account.",
    recipient: "The account's email address.",
  },
  password_changed: {
    trigger: "A user changes their password on /profile, or sets a new one with a reset link.",
    recipient: "The user whose password changed.",
  },
  survey_request_confirmation: {
    trigger: "A client submits a survey request.",
    recipient: "The client who submitted it.",
  },
  new_survey_request_admin: {
    trigger: "A client submits a survey request.",
    recipient: "Every active administrator.",
  },
  surveyor_invitation: {
    trigger: "An admin creates the account of a surveyor record (Invite on the surveyor's page).",
    recipient: "The surveyor record's email address.",
  },
  new_survey_lead: {
    trigger: "A request is dispatched (automatically or by an admin): its lead opens.",
    recipient: "In-network surveyors whose service area covers the property.",
  },
  surveyor_assigned: {
    trigger: "A surveyor takes a survey: claims its lead, or accepts an admin's assignment.",
    recipient: "The survey's client.",
  },
  assignment_offered: {
    trigger: "An admin assigns a surveyor to a survey.",
    recipient: "The assigned surveying firm.",
  },
  visit_scheduled: {
    trigger: "The working surveyor books the field visit date.",
    recipient: "The survey's client.",
  },
  lead_invitation: {
    trigger: "A request is dispatched and nearby firms outside the network are found.",
    recipient: "Each of those firms with an email address.",
  },
  low_balance: {
    trigger:
      "A lead purchase or claim fee takes a surveyor's balance below the low mark (once a day at most).",
    recipient: "The surveyor's account.",
  },
  refund_decision: {
    trigger:
      "A bought lead is returned automatically, or an admin approves or denies a return request.",
    recipient: "The surveyor who bought the lead.",
  },
  technician_invitation: {
    trigger: "A surveyor or an admin adds a technician to a field crew, or invites them again.",
    recipient: "The new technician.",
  },
  technician_job_assigned: {
    trigger: "A surveyor or an admin assigns a technician to a survey's fieldwork.",
    recipient: "The assigned technician.",
  },
  survey_delivered: {
    trigger: "The surveyor marks the survey completed with its deliverables.",
    recipient: "The survey's client.",
  },
  proposal_received: {
    trigger: "A surveyor who bought the lead sends the client a proposal.",
    recipient: "The survey's client.",
  },
  proposal_accepted: {
    trigger: "The client accepts a surveyor's proposal.",
    recipient: "The surveyor who sent it.",
  },
  proposal_declined: {
    trigger:
      "The client declines a proposal, or accepts another one (every other pending proposal is declined).",
    recipient: "The surveyor who sent it.",
  },
  licence_verified: {
    trigger:
      "An admin verifies a surveyor's licence (Verify licence, or setting a never-verified record active).",
    recipient: "The surveyor's account.",
  },
  message_received: {
    trigger:
      "Someone writes in a survey's conversation (client, firm, technician or Meridian support), unless the recipient was emailed about it in the last 15 minutes.",
    recipient: "The conversation's other readers: the client, the firm's account, its technician.",
  },
  review_replied: {
    trigger: "A firm publishes its one reply to a client's review (on its /firms page).",
    recipient: "The client who wrote the review.",
  },
  surveyor_join_decided: {
    trigger:
      "An admin approves or declines a sign-up's request to join a firm already on record, or rejects the licence of a firm waiting for its check.",
    recipient: "The surveyor's account that signed up.",
  },
};
