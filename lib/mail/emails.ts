/**
 * The emails the app sends. Each function renders its template and inserts it into the
 * outbox using `db`, so a caller inside `sql.begin` gets the email only if its change commits.
 */
import type { Db } from "../../db/client.ts";
import { getCurrentCopy } from "../../db/email_templates.ts";
import { insertOutboxEmail } from "./outbox.ts";
import { renderEmail, type TemplateId, type TemplateProps } from "./render.tsx";

// The words are the admin's latest saved copy (/admin/email-templates/{id}), read in the
// caller's transaction like the rest of the email; undefined means the code's defaults.
async function queue<K extends TemplateId>(
  db: Db,
  to: string,
  id: K,
  props: TemplateProps[K],
): Promise<string> {
  const email = await renderEmail(id, props, await getCurrentCopy(db, { template: id }));
  return await insertOutboxEmail(db, { to, ...email });
}

/**
 * With no SMTP server, a developer still needs the reset link: the dev server (NODE_ENV set
 * to development by dev.ts) logs it. Never in production or tests.
 */
function shouldLogLinks(): boolean {
  return Deno.env.get("NODE_ENV") === "development" && !Deno.env.get("SMTP_URL");
}

/**
 * Queues the password-reset email in the outbox, inside the caller's transaction. Returns the
 * outbox id. Throws when `resetUrl` is not an http(s) URL.
 */
export async function queuePasswordResetEmail(
  db: Db,
  email: { to: string; name: string; resetUrl: string },
): Promise<string> {
  const id = await queue(db, email.to, "password_reset", {
    name: email.name,
    resetUrl: email.resetUrl,
  });
  if (shouldLogLinks()) {
    console.log(`[mail] No SMTP_URL; password reset link for ${email.to}: ${email.resetUrl}`);
  }
  return id;
}

/**
 * Queues the invitation of a surveyor whose account an admin created, with the set-password
 * link, inside the caller's transaction. Returns the outbox id. Throws when `setPasswordUrl`
 * is not an http(s) URL.
 */
export async function queueSurveyorInvitationEmail(
  db: Db,
  email: {
    to: string;
    name: string;
    companyName: string;
    setPasswordUrl: string;
    validDays: number;
  },
): Promise<string> {
  const { to, ...props } = email;
  const id = await queue(db, to, "surveyor_invitation", props);
  if (shouldLogLinks()) {
    console.log(`[mail] No SMTP_URL; surveyor invitation link for ${to}: ${props.setPasswordUrl}`);
  }
  return id;
}

/** Queues the "your password was changed" notice in the outbox, in the caller's transaction. */
export async function queuePasswordChangedEmail(
  db: Db,
  email: { to: string; name: string },
): Promise<string> {
  return await queue(db, email.to, "password_changed", { name: email.name });
}

/**
 * Where emails send a client to see their request: `/client/surveys/{id}`, which redirects to
 * `/survey/{id}`. A signed-out client signs in first with this path as returnTo, and only a
 * returnTo under /client takes a client anywhere but their dashboard (spec section 2).
 */
export function clientSurveyPath(surveyId: string): string {
  return `/client/surveys/${encodeURIComponent(surveyId)}`;
}

/**
 * Queues the client's survey-request confirmation (address, survey type, quoted price or
 * custom quote, what happens next), linking to `clientSurveyPath` on `publicUrl`. Throws when
 * `publicUrl` is not an http(s) URL.
 */
export async function queueSurveyConfirmationEmail(
  db: Db,
  email: {
    to: string;
    name: string;
    surveyId: string;
    address: string;
    surveyTypeName: string;
    quotedPriceCents: number | null;
    /** The site's public origin (PUBLIC_URL). */
    publicUrl: string;
  },
): Promise<string> {
  const { to, publicUrl, ...props } = email;
  const surveyUrl = new URL(clientSurveyPath(props.surveyId), publicUrl).href;
  return await queue(db, to, "survey_request_confirmation", { ...props, surveyUrl });
}

/** Queues the admin notice about a new survey request. Throws on a non-http(s) `adminUrl`. */
export async function queueAdminNewSurveyEmail(
  db: Db,
  email: {
    to: string;
    surveyId: string;
    clientName: string;
    address: string;
    surveyTypeName: string;
    adminUrl: string;
    /** AUTO_DISPATCH: the email says the app dispatches the request by itself. */
    isAutoDispatch: boolean;
  },
): Promise<string> {
  const { to, ...props } = email;
  return await queue(db, to, "new_survey_request_admin", props);
}

/**
 * Queues the client's "Surveyor assigned" email (company, surveyor, phone, licence, agreed
 * price) linking to `clientSurveyPath` on `publicUrl`, in the caller's transaction. Returns the
 * outbox id. Throws when `publicUrl` is not an http(s) URL.
 */
export async function queueSurveyorAssignedEmail(
  db: Db,
  email: Omit<TemplateProps["surveyor_assigned"], "surveyUrl"> & {
    to: string;
    surveyId: string;
    publicUrl: string;
  },
): Promise<string> {
  const { to, surveyId, publicUrl, ...props } = email;
  const surveyUrl = new URL(clientSurveyPath(surveyId), publicUrl).href;
  return await queue(db, to, "surveyor_assigned", { ...props, surveyUrl });
}

/**
 * Queues the offer of an admin's assignment to the surveyor (accept or decline at
 * `actionPath` on `publicUrl`), in the caller's transaction. Returns the outbox id. Throws on
 * a non-http(s) URL.
 */
export async function queueAssignmentOfferedEmail(
  db: Db,
  email: Omit<TemplateProps["assignment_offered"], "actionUrl"> & {
    to: string;
    actionPath: string;
    publicUrl: string;
  },
): Promise<string> {
  const { to, actionPath, publicUrl, ...props } = email;
  const actionUrl = new URL(actionPath, publicUrl).href;
  return await queue(db, to, "assignment_offered", { ...props, actionUrl });
}

/**
 * Queues the client's "visit scheduled" email with the day, in the caller's transaction.
 * Returns the outbox id. Throws when `publicUrl` is not an http(s) URL.
 */
export async function queueVisitScheduledEmail(
  db: Db,
  email: Omit<TemplateProps["visit_scheduled"], "surveyUrl"> & {
    to: string;
    surveyId: string;
    publicUrl: string;
  },
): Promise<string> {
  const { to, surveyId, publicUrl, ...props } = email;
  const surveyUrl = new URL(clientSurveyPath(surveyId), publicUrl).href;
  return await queue(db, to, "visit_scheduled", { ...props, surveyUrl });
}

/**
 * Queues the client's "survey delivered" email (the company, the day, how many files), linking
 * to `clientSurveyPath` on `publicUrl`, in the caller's transaction. Returns the outbox id.
 * Throws when `publicUrl` is not an http(s) URL.
 */
export async function queueSurveyDeliveredEmail(
  db: Db,
  email: Omit<TemplateProps["survey_delivered"], "surveyUrl"> & {
    to: string;
    surveyId: string;
    publicUrl: string;
  },
): Promise<string> {
  const { to, surveyId, publicUrl, ...props } = email;
  const surveyUrl = new URL(clientSurveyPath(surveyId), publicUrl).href;
  return await queue(db, to, "survey_delivered", { ...props, surveyUrl });
}

/** The path of a lead's public page (built with the lead market, issue 11). */
export function publicLeadPath(leadId: string): string {
  return `/lead/${encodeURIComponent(leadId)}`;
}

/** The join page of an invited firm: `/surveyor/claim?token=…`. */
export function surveyorClaimPath(token: string): string {
  return `/surveyor/claim?token=${encodeURIComponent(token)}`;
}

/**
 * Queues the lead invitation to one prospect (`lead_invitation`: the job summary, the lead
 * page and the firm's own join link), in the caller's transaction. Returns the outbox id.
 * Throws on a non-http(s) `leadUrl` or `claimUrl`.
 */
export async function queueLeadInvitationEmail(
  db: Db,
  email: { to: string } & TemplateProps["lead_invitation"],
): Promise<string> {
  const { to, ...props } = email;
  return await queue(db, to, "lead_invitation", props);
}

/** A lead email: which one, to whom, and the job summary it shows. */
export type LeadEmail = TemplateProps["new_survey_lead"] & {
  template: "new_survey_lead" | "lead_invitation";
  to: string[];
};

/**
 * Queues one lead email (`new_survey_lead` for in-network surveyors, `lead_invitation` for
 * prospects) to each address in `to`, in the caller's transaction. The job summary has nothing
 * personal in it, so it is rendered once. Returns the outbox ids. Throws on a non-http(s)
 * `leadUrl`.
 */
export async function queueLeadEmails(
  db: Db,
  email: LeadEmail,
): Promise<string[]> {
  const { template, to, ...props } = email;
  if (to.length === 0) return [];
  const rendered = await renderEmail(template, props, await getCurrentCopy(db, { template }));
  const ids: string[] = [];
  for (const address of to) ids.push(await insertOutboxEmail(db, { to: address, ...rendered }));
  return ids;
}

/**
 * Queues the low-balance notice to a surveyor's account, in the caller's transaction (see
 * `noteLowBalance` in lib/billing.ts for when). Returns the outbox id. Throws when `billingUrl`
 * is not an http(s) URL.
 */
export async function queueLowBalanceEmail(
  db: Db,
  email: { to: string } & TemplateProps["low_balance"],
): Promise<string> {
  const { to, ...props } = email;
  return await queue(db, to, "low_balance", props);
}

/**
 * Queues the return email to a lead's buyer (an automatic return, or an admin's decision on
 * their request), in the caller's transaction. Returns the outbox id. Throws when `url` is not
 * an http(s) URL.
 */
export async function queueRefundDecisionEmail(
  db: Db,
  email: { to: string } & TemplateProps["refund_decision"],
): Promise<string> {
  const { to, ...props } = email;
  return await queue(db, to, "refund_decision", props);
}

/**
 * Queues the invitation of a technician added to a field crew, with the set-password link,
 * inside the caller's transaction. Returns the outbox id. Throws when `setPasswordUrl` is not
 * an http(s) URL.
 */
export async function queueTechnicianInvitationEmail(
  db: Db,
  email: { to: string } & TemplateProps["technician_invitation"],
): Promise<string> {
  const { to, ...props } = email;
  const id = await queue(db, to, "technician_invitation", props);
  if (shouldLogLinks()) {
    console.log(
      `[mail] No SMTP_URL; technician invitation link for ${to}: ${props.setPasswordUrl}`,
    );
  }
  return id;
}

/**
 * Queues the "you were assigned a job" email to a technician, linking to `jobPath` on
 * `publicUrl`, in the caller's transaction. Returns the outbox id. Throws on a non-http(s) URL.
 */
export async function queueTechnicianJobAssignedEmail(
  db: Db,
  email: Omit<TemplateProps["technician_job_assigned"], "jobUrl"> & {
    to: string;
    jobPath: string;
    publicUrl: string;
  },
): Promise<string> {
  const { to, jobPath, publicUrl, ...props } = email;
  const jobUrl = new URL(jobPath, publicUrl).href;
  return await queue(db, to, "technician_job_assigned", { ...props, jobUrl });
}

/**
 * Queues the client's "You have a proposal from …" email, linking to `clientSurveyPath` on
 * `publicUrl`, in the caller's transaction. Returns the outbox id. Throws on a non-http(s) URL.
 */
export async function queueProposalReceivedEmail(
  db: Db,
  email: Omit<TemplateProps["proposal_received"], "surveyUrl"> & {
    to: string;
    surveyId: string;
    publicUrl: string;
  },
): Promise<string> {
  const { to, surveyId, publicUrl, ...props } = email;
  const surveyUrl = new URL(clientSurveyPath(surveyId), publicUrl).href;
  return await queue(db, to, "proposal_received", { ...props, surveyUrl });
}

/**
 * Queues the surveyor's "your proposal was accepted" or "… declined" email (`template`),
 * linking to `path` on `publicUrl`, in the caller's transaction. Returns the outbox id. Throws
 * on a non-http(s) URL.
 */
export async function queueProposalDecidedEmail(
  db: Db,
  email: Omit<TemplateProps["proposal_accepted"], "url"> & {
    template: "proposal_accepted" | "proposal_declined";
    to: string;
    path: string;
    publicUrl: string;
  },
): Promise<string> {
  const { template, to, path, publicUrl, ...props } = email;
  return await queue(db, to, template, { ...props, url: new URL(path, publicUrl).href });
}

/**
 * Queues the licence-verified notice to a surveyor's account, in the caller's transaction.
 * Returns the outbox id. Throws when `leadsUrl` is not an http(s) URL.
 */
export async function queueLicenceVerifiedEmail(
  db: Db,
  email: { to: string } & TemplateProps["licence_verified"],
): Promise<string> {
  const { to, ...props } = email;
  return await queue(db, to, "licence_verified", props);
}

/**
 * Queues the new-message email (who wrote, the message as text, a link to the conversation),
 * inside the caller's transaction. Returns the outbox id. Throws when `threadUrl` is not an
 * http(s) URL.
 */
export async function queueMessageReceivedEmail(
  db: Db,
  email: {
    to: string;
    name: string;
    senderName: string;
    surveyTypeName: string;
    address: string;
    messageText: string;
    threadUrl: string;
  },
): Promise<string> {
  const { to, ...props } = email;
  return await queue(db, to, "message_received", props);
}

/**
 * Queues the client's "the firm replied to your review" email, in the caller's transaction.
 * Returns the outbox id. Throws when `profileUrl` is not an http(s) URL.
 */
export async function queueReviewRepliedEmail(
  db: Db,
  email: { to: string } & TemplateProps["review_replied"],
): Promise<string> {
  const { to, ...props } = email;
  return await queue(db, to, "review_replied", props);
}

/**
 * Queues the self-joined surveyor's decision email (linked, declined, licence not verified),
 * in the caller's transaction. Returns the outbox id. Throws when `url` is not an http(s) URL.
 */
export async function queueSurveyorJoinDecidedEmail(
  db: Db,
  email: { to: string } & TemplateProps["surveyor_join_decided"],
): Promise<string> {
  const { to, ...props } = email;
  return await queue(db, to, "surveyor_join_decided", props);
}
