/**
 * The admin's view of the email outbox: counts per template, the paged message list and
 * "Retry now". Delivery itself (claiming, backoff, giving up) stays in lib/mail/outbox.ts;
 * a retried row simply becomes due again for that sender.
 */
import type { Db } from "./client.ts";
import type { OutboxStatus } from "../lib/mail/outbox.ts";

/** One outbox row as the admin list shows it: no bodies, which may hold links with tokens. */
export interface OutboxListItem {
  id: string;
  toAddress: string;
  template: string;
  subject: string;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
  createdAt: Date;
  sentAt: Date | null;
}

/** Rows per page of the admin's outbox list. */
export const OUTBOX_PAGE_SIZE = 25;

const listColumns = [
  "id",
  "to_address",
  "template",
  "subject",
  "status",
  "attempts",
  "last_error",
  "next_attempt_at",
  "created_at",
  "sent_at",
];

/**
 * One page of the outbox, newest first, optionally only one `status` and/or `template`.
 * `before` is the id of the last row of the previous page (keyset on created_at, id, so rows
 * queued meanwhile never shift a page). Returns undefined when `before` is no outbox row.
 */
export async function listOutboxPage(
  db: Db,
  { status, template, before, limit = OUTBOX_PAGE_SIZE }: {
    status?: OutboxStatus;
    template?: string;
    before?: string;
    limit?: number;
  },
): Promise<{ items: OutboxListItem[]; nextBefore: string | null } | undefined> {
  if (before) {
    const [row] = await db`select id from email_outbox where id = ${before}`;
    if (!row) return undefined;
  }
  // The cursor row's own timestamp is compared in SQL: a JS Date would drop its microseconds.
  const rows = await db<OutboxListItem[]>`
    select ${db(listColumns)} from email_outbox
    where true
      ${status ? db`and status = ${status}` : db``}
      ${template ? db`and template = ${template}` : db``}
      ${
    before
      ? db`and (created_at, id) < (select created_at, id from email_outbox where id = ${before})`
      : db``
  }
    order by created_at desc, id desc
    limit ${limit + 1}`;
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  return { items, nextBefore: hasMore ? items[items.length - 1].id : null };
}

/** What `retryFailedEmail` did. */
export type RetryResult =
  | { outcome: "queued"; email: OutboxListItem }
  | { outcome: "not_failed"; status: OutboxStatus }
  | { outcome: "not_found" };

/**
 * Makes a 'failed' email due now, so the sender's next pass tries it once more. Attempts keep
 * counting: the row is past MAX_ATTEMPTS, so if this try fails too it is 'failed' again at
 * once (with the new error) rather than starting another hour of backoff nobody asked for.
 * Only a 'failed' row moves; any other status is reported back unchanged.
 */
export async function retryFailedEmail(db: Db, { id }: { id: string }): Promise<RetryResult> {
  const [email] = await db<OutboxListItem[]>`
    update email_outbox set status = 'queued', next_attempt_at = now()
    where id = ${id} and status = 'failed'
    returning ${db(listColumns)}`;
  if (email) return { outcome: "queued", email };
  const [row] = await db<{ status: OutboxStatus }[]>`
    select status from email_outbox where id = ${id}`;
  return row ? { outcome: "not_failed", status: row.status } : { outcome: "not_found" };
}
