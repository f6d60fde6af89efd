/**
 * What a surveyor hears when their licence is verified, whichever way an admin did it (Verify
 * licence on a pending record, or setting a never-verified record active): a bell notification
 * and the LicenceVerified email, both in the admin's transaction; and what the admins and the
 * surveyor hear about a state or number asked for later (lib/surveyor_licence.ts).
 */
import type { Db } from "../db/client.ts";
import { insertNotification, notifyAdmins } from "../db/notifications.ts";
import { queueLicenceVerifiedEmail, queueSurveyorJoinDecidedEmail } from "./mail/emails.ts";
import type { SurveyorJoinDecision } from "./mail/templates/SurveyorJoinDecided.tsx";
import type { StateCode } from "./survey_options.ts";
import type { Surveyor } from "./surveyor_schema.ts";
import { LICENCE_CHECKS_PATH, stateNames } from "./surveyor_licence.ts";

/** The bell notification's title when a surveyor's licence is verified. */
export const LICENCE_VERIFIED_TITLE = "Licence verified";

/** The email a notification queued: its outbox id and address (for the admin's notice). */
export interface QueuedEmail {
  emailId: string;
  to: string;
}

/**
 * Tells account `userId` that its record's licence is verified and leads are open to it: the
 * bell, and an email to the account's address (links on `publicUrl`). Returns the email queued,
 * or null: a disabled account is told nothing.
 */
export async function notifyLicenceVerified(
  db: Db,
  { userId, publicUrl }: { userId: string; publicUrl: string },
): Promise<QueuedEmail | null> {
  const [who] = await db<
    { email: string; fullName: string; companyName: string; licence: string | null }[]
  >`
    select u.email, u.full_name, v.company_name,
      nullif(concat_ws(' ', v.license_states[1], v.license_number), '') as licence
    from users u left join surveyors v on v.user_id = u.id
    where u.id = ${userId} and u.disabled_at is null
    limit 1`;
  if (!who) return null;
  await insertNotification(db, {
    userId,
    kind: "surveyor_joined",
    title: LICENCE_VERIFIED_TITLE,
    body: "Meridian checked your licence details: you can now buy and claim leads near you.",
    link: "/surveyor-dashboard",
  });
  const emailId = await queueLicenceVerifiedEmail(db, {
    to: who.email,
    name: who.fullName,
    companyName: who.companyName ?? "your firm",
    licence: who.licence ?? "",
    leadsUrl: new URL("/leads", publicUrl).href,
  });
  return { emailId, to: who.email };
}

/** The bell notification per decision on a surveyor who joined by themselves. */
export const JOIN_DECISION_NOTES: Record<
  SurveyorJoinDecision,
  { title: (companyName: string) => string; body: string; link: string }
> = {
  linked: {
    title: (companyName) => `Your account is linked to ${companyName}`,
    body: "Meridian reviewed your sign-up and linked your account to your firm's record.",
    link: "/surveyor-dashboard",
  },
  declined: {
    title: (companyName) => `Your request to join ${companyName} was declined`,
    body:
      "Meridian could not confirm that you represent this firm. Contact us if you think this is a mistake.",
    link: "/support/contact",
  },
  rejected: {
    title: () => "Licence not verified",
    body:
      "Meridian could not verify your firm's licence with the state licensing board, so leads stay closed to you. Contact us with your licence number if you think this is wrong.",
    link: "/support/contact",
  },
};

/**
 * Tells account `userId` what an admin decided about their sign-up (`decision`): the bell and
 * the SurveyorJoinDecided email (links on `publicUrl`). Returns the email queued, or null for a
 * disabled account, which is told nothing.
 */
export async function notifyJoinDecision(
  db: Db,
  { userId, companyName, decision, publicUrl }: {
    userId: string;
    companyName: string;
    decision: SurveyorJoinDecision;
    publicUrl: string;
  },
): Promise<QueuedEmail | null> {
  const [who] = await db<{ email: string; fullName: string }[]>`
    select email, full_name from users where id = ${userId} and disabled_at is null`;
  if (!who) return null;
  const note = JOIN_DECISION_NOTES[decision];
  await insertNotification(db, {
    userId,
    kind: "surveyor_joined",
    title: note.title(companyName),
    body: note.body,
    link: note.link,
  });
  const emailId = await queueSurveyorJoinDecidedEmail(db, {
    to: who.email,
    name: who.fullName,
    companyName,
    decision,
    url: new URL(note.link, publicUrl).href,
  });
  return { emailId, to: who.email };
}

/** Tells every admin that firm `surveyor` asked for a licence check. */
export async function notifyAdminsOfLicenceRequest(
  db: Db,
  { surveyor, states, number }: {
    surveyor: Pick<Surveyor, "companyName" | "licenseNumber">;
    states: readonly StateCode[];
    number: string | null;
  },
): Promise<void> {
  const what = [
    states.length ? `licence in ${stateNames(states)}` : null,
    number ? `new licence number ${number} (now ${surveyor.licenseNumber ?? "none"})` : null,
  ].filter(Boolean).join(" and ");
  await notifyAdmins(db, {
    kind: "surveyor_joined",
    title: `${surveyor.companyName} asked for a licence check`,
    body:
      `Check their ${what} with the licensing board, then verify or reject it in Licence checks. Nothing counts until you do.`,
    link: LICENCE_CHECKS_PATH,
  });
}

/** The bell notification's title when an admin verified a requested state or number. */
export const LICENCE_REQUEST_VERIFIED_TITLE = "Licence check passed";
/** The bell notification's title when an admin rejected a requested state or number. */
export const LICENCE_REQUEST_REJECTED_TITLE = "Licence check not passed";

/** Tells account `userId` what an admin decided about a requested state or licence number. */
export async function notifyLicenceDecision(
  db: Db,
  { userId, decision, state, number }: {
    userId: string;
    decision: "verify" | "reject";
    state?: StateCode;
    number?: string;
  },
): Promise<void> {
  const what = state ? `your licence in ${stateNames([state])}` : `your licence number ${number}`;
  const body = decision === "verify"
    ? state
      ? `Meridian verified ${what}: you can now buy and claim leads there.`
      : `Meridian verified ${what}; it is now the number on your profile.`
    : state
    ? `Meridian could not verify ${what}, so leads there stay closed to you. Contact us if you think this is wrong.`
    : `Meridian could not verify ${what}; your profile keeps your verified number. Contact us if you think this is wrong.`;
  await insertNotification(db, {
    userId,
    kind: "surveyor_joined",
    title: decision === "verify" ? LICENCE_REQUEST_VERIFIED_TITLE : LICENCE_REQUEST_REJECTED_TITLE,
    body,
    link: "/profile",
  });
}
