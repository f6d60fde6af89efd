/**
 * Whether the emails Meridian queues really leave: only when a mail server is configured
 * (SMTP_URL), since main.ts starts the outbox sender only then. Without one every email stays
 * in the outbox, where admins can open it (/admin/email-outbox/{id}); every message that tells
 * a user about an email says which of the two happened, never "sent" when nothing was.
 */
import type { Config } from "../config.ts";

/** "smtp": the outbox sender delivers queued emails; "none": they stay in the outbox. */
export type MailDelivery = "smtp" | "none";

/** How this configuration delivers mail. */
export function mailDelivery(config: Pick<Config, "SMTP_URL">): MailDelivery {
  return config.SMTP_URL ? "smtp" : "none";
}

/**
 * Who tells a user that something arrived: `bell` ("the bell") and an email only where an
 * email really leaves; with no mail server, the bell alone.
 */
export function whoTellsYou(delivery: MailDelivery, bell: string): string {
  return delivery === "smtp" ? `${bell} and an email tell you` : `${bell} tells you`;
}

/** The admin page of one outbox message. */
export function outboxMessagePath(emailId: string): string {
  return `/admin/email-outbox/${encodeURIComponent(emailId)}`;
}

/**
 * What a response says about an email it just queued. `text` is one true sentence for the
 * toast; `href` (admins only) opens the message in the outbox, with its links.
 */
export interface EmailNotice {
  delivery: MailDelivery;
  text: string;
  href: string | null;
}

/** The sentence shown to an admin after queueing with no mail server; the link follows it. */
export const NOT_SENT_ADMIN =
  "No mail server is configured, so it was not sent; open it in Emails to read it and copy its links.";
/** The same for everyone else: true, and without a page they cannot open. */
export const NOT_SENT_OTHERS =
  "No mail server is configured on this Meridian, so it was not emailed; an administrator can pass the link on.";
/** The label of the toast's link to the outbox message. */
export const OPEN_IN_EMAILS = "Open in Emails";

/**
 * The notice for email `emailId` just queued (`what`: "The invitation to jo@example.com").
 * With a mail server: "… is queued and goes out within a few seconds." Without: it says so,
 * and an admin (`isAdmin`) gets the message's outbox page.
 */
export function emailNotice(
  config: Pick<Config, "SMTP_URL">,
  { emailId, isAdmin, what }: { emailId: string; isAdmin: boolean; what: string },
): EmailNotice {
  const delivery = mailDelivery(config);
  if (delivery === "smtp") {
    return {
      delivery,
      text: `${what} is queued; the mail server sends it within a few seconds.`,
      href: isAdmin ? outboxMessagePath(emailId) : null,
    };
  }
  return {
    delivery,
    text: `${what} is queued. ${isAdmin ? NOT_SENT_ADMIN : NOT_SENT_OTHERS}`,
    href: isAdmin ? outboxMessagePath(emailId) : null,
  };
}

/**
 * With no mail server, what 'Surveyors notified' adds: the lead emails to the `notified`
 * surveyors and the invitations to `invited` prospects were not sent. Empty when nobody was
 * emailed.
 */
export function leadEmailsNotSentText(
  { notified, invited }: { notified: number; invited: number },
): string {
  if (notified + invited === 0) return "";
  const invitations = invited === 1 ? "the invitation" : `the ${invited} invitations`;
  const what = invited === 0
    ? "the lead emails were"
    : notified === 0
    ? `${invitations} ${invited === 1 ? "was" : "were"}`
    : `the lead emails and ${invitations} were`;
  const inApp = notified ? "; surveyors with an account see the lead in the app" : "";
  return `No mail server is configured, so ${what} not sent${inApp}.`;
}
