/**
 * The toast after an action that queued an email: its title says whether the email really
 * leaves (a mail server is configured) or stays in the outbox, the server's sentence says the
 * rest, and an admin gets a link to the message (lib/mail/delivery.ts builds the notice).
 */
import type { ToastInput } from "./_toast.ts";
import { type EmailNotice, OPEN_IN_EMAILS } from "../lib/mail/delivery.ts";

/** An email notice as the API sends it. */
export type EmailNoticeView = EmailNotice;

/**
 * The toast for `notice`: `titles.queued` with a mail server, `titles.notSent` without one.
 * A missing notice (an older server) falls back to `fallback` under the queued title.
 */
export function emailNoticeToast(
  notice: EmailNoticeView | undefined | null,
  titles: { queued: string; notSent: string },
  fallback?: string,
): ToastInput {
  if (!notice) return { title: titles.queued, description: fallback };
  return {
    title: notice.delivery === "smtp" ? titles.queued : titles.notSent,
    description: notice.text,
    link: notice.href ? { label: OPEN_IN_EMAILS, href: notice.href } : undefined,
  };
}
