/**
 * What a client hears when the firm they reviewed publishes its one reply (issue 22): a bell
 * notification and the ReviewReplied email, both in the firm's transaction, so neither exists
 * unless the reply was stored.
 */
import type { Db } from "../db/client.ts";
import { insertNotification } from "../db/notifications.ts";
import { queueReviewRepliedEmail } from "./mail/emails.ts";
import type { MailDelivery } from "./mail/delivery.ts";
import { firmProfilePath } from "./firm_slug.ts";
import { SURVEY_TYPE_INFO, type SurveyType } from "./survey_types.ts";

/** The bell notification's title: "Ortiz Land Surveying replied to your review". */
export function reviewRepliedTitle(companyName: string): string {
  return `${companyName} replied to your review`;
}

/**
 * Tells client `clientId` that `companyName` replied `reply` to their review of a `surveyType`
 * survey: the bell and an email (links on `publicUrl`). A disabled account is told nothing.
 */
export async function notifyReviewReplied(
  db: Db,
  { clientId, companyName, firmId, surveyType, reply, publicUrl }: {
    clientId: string;
    companyName: string;
    firmId: string;
    surveyType: string;
    reply: string;
    publicUrl: string;
  },
): Promise<void> {
  const [client] = await db<{ email: string; fullName: string }[]>`
    select email, full_name from users where id = ${clientId} and disabled_at is null`;
  if (!client) return;
  const path = firmProfilePath(companyName, firmId);
  await insertNotification(db, {
    userId: clientId,
    kind: "review_replied",
    title: reviewRepliedTitle(companyName),
    body: reply.length > 200 ? `${reply.slice(0, 199)}…` : reply,
    link: path,
  });
  await queueReviewRepliedEmail(db, {
    to: client.email,
    name: client.fullName,
    companyName,
    surveyTypeName: SURVEY_TYPE_INFO[surveyType as SurveyType]?.name ?? surveyType,
    replyText: reply,
    profileUrl: new URL(path, publicUrl).href,
  });
}

/** How the client hears of the reply, said truly for this mail setup (the firm's toast). */
export function reviewReplyToldText(delivery: MailDelivery): string {
  return delivery === "smtp"
    ? "The client is told in the app and by email."
    : "The client is told in the app. No mail server is configured on this Meridian, so no email was sent.";
}
