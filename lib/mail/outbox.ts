/**
 * The email outbox: rows are inserted in the caller's transaction, claimed by the sender with
 * `for update skip locked` (so several instances never send the same row twice), and end as
 * 'sent' or, after MAX_ATTEMPTS failures, 'failed'. Nothing here deletes a row.
 */
import type { Db } from "../../db/client.ts";

/** Delivery state of an outbox row. */
export type OutboxStatus = "queued" | "sending" | "sent" | "failed";

/** One outbox row. */
export interface OutboxEmail {
  id: string;
  toAddress: string;
  subject: string;
  html: string;
  text: string;
  template: string;
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
  /** The Message-ID header every try of this row uses, fixed at its first claim. */
  messageId: string | null;
  /** The current claim's id; outcomes are recorded only for the claim that is current. */
  attemptId: string | null;
}

/** Attempts before a row is marked 'failed'. */
export const MAX_ATTEMPTS = 8;
/** First retry delay; each further failure doubles it. */
export const RETRY_BASE_MS = 30_000;
/** Longest wait between retries. */
export const RETRY_MAX_MS = 60 * 60_000;
/** How long a claimed row may stay 'sending' before another sender may take it over. */
export const CLAIM_LEASE_MS = 5 * 60_000;

/** Delay before the next try after `attempts` failed tries: 30 s, 1 min, 2 min… capped at 1 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

const columns = [
  "id",
  "to_address",
  "subject",
  "html",
  "text",
  "template",
  "status",
  "attempts",
  "next_attempt_at",
  "last_error",
  "created_at",
  "sent_at",
  "message_id",
  "attempt_id",
];

/** Inserts a queued email, due now. Returns its id. */
export async function insertOutboxEmail(
  db: Db,
  email: { to: string; subject: string; html: string; text: string; template: string },
): Promise<string> {
  const [row] = await db<{ id: string }[]>`
    insert into email_outbox (to_address, subject, html, text, template)
    values (${email.to}, ${email.subject}, ${email.html}, ${email.text}, ${email.template})
    returning id`;
  return row.id;
}

/** What `last_error` says when a row is claimed again after a try that never reported. */
export const IN_DOUBT_NOTE =
  "The previous try ended without a recorded outcome (the sender stopped or lost the database); sent again with the same Message-ID.";

/**
 * Claims up to `limit` due rows (queued and due, or 'sending' whose lease lapsed): marks them
 * 'sending', counts the attempt, gives the claim a fresh `attemptId` and sets the lease. Rows
 * locked by another sender are skipped. The row's Message-ID is fixed at its first claim
 * (`<id@messageDomain>`) and kept for every later try. A lapsed 'sending' row is in doubt (its
 * message may have been delivered): it is tried again with the same Message-ID, and
 * `last_error` says so.
 */
export async function claimDueEmails(
  db: Db,
  { limit = 10, leaseMs = CLAIM_LEASE_MS, messageDomain = "meridian.local", worker }: {
    limit?: number;
    leaseMs?: number;
    messageDomain?: string;
    /** Who claims (see `releaseSenderEmails`). */
    worker?: string;
  } = {},
): Promise<OutboxEmail[]> {
  return await db<OutboxEmail[]>`
    update email_outbox set
      status = 'sending',
      attempts = attempts + 1,
      attempt_id = gen_random_uuid(),
      claimed_by = ${worker ?? null},
      message_id = coalesce(message_id, '<' || id::text || '@' || ${messageDomain}::text || '>'),
      last_error = case when status = 'sending' then ${IN_DOUBT_NOTE} else last_error end,
      next_attempt_at = now() + ${leaseMs} * interval '1 millisecond'
    where id in (
      select id from email_outbox
      where status in ('queued', 'sending') and next_attempt_at <= now()
      order by next_attempt_at, created_at
      limit ${limit}
      for update skip locked
    )
    returning ${db(columns)}`;
}

/**
 * Ends the leases `worker` holds on 'sending' rows, so they are due at once: called when a
 * sender starts, since such a row was claimed by its crashed predecessor. Those rows are in
 * doubt and go out again with their Message-ID. Returns how many were released.
 */
export async function releaseSenderEmails(db: Db, { worker }: { worker: string }): Promise<number> {
  const result = await db`
    update email_outbox set next_attempt_at = now()
    where status = 'sending' and claimed_by = ${worker} and next_attempt_at > now()`;
  return result.count;
}

/**
 * Marks a row delivered: the mail server accepted it. That is a fact whichever claim made the
 * hand-off, so it is not fenced by attempt (only a row already 'sent' is left alone).
 */
export async function markEmailSent(db: Db, { id }: { id: string }): Promise<void> {
  await db`
    update email_outbox set status = 'sent', sent_at = now(), last_error = null
    where id = ${id} and status <> 'sent'`;
}

/**
 * Records a failed try: back to 'queued' with exponential backoff, or 'failed' once the row
 * has had `maxAttempts` tries. Returns the new status.
 */
export async function markEmailFailed(
  db: Db,
  { id, attemptId, error, maxAttempts = MAX_ATTEMPTS }: {
    id: string;
    /** The claim that failed: when given, a row claimed again since is left alone. */
    attemptId?: string | null;
    error: string;
    maxAttempts?: number;
  },
): Promise<OutboxStatus | undefined> {
  const [row] = await db<{ attempts: number }[]>`
    select attempts from email_outbox where id = ${id} and status = 'sending'
      ${attemptId ? db`and attempt_id = ${attemptId}` : db``}`;
  if (!row) return undefined;
  const isFinal = row.attempts >= maxAttempts;
  const status: OutboxStatus = isFinal ? "failed" : "queued";
  const delay = retryDelayMs(row.attempts);
  await db`
    update email_outbox set
      status = ${status},
      last_error = ${error.slice(0, 1000)},
      next_attempt_at = now() + ${delay} * interval '1 millisecond'
    where id = ${id} and status = 'sending'
      ${attemptId ? db`and attempt_id = ${attemptId}` : db``}`;
  return status;
}

/** One outbox row by id, or undefined. */
export async function getOutboxEmail(db: Db, { id }: { id: string }) {
  const [row] = await db<OutboxEmail[]>`
    select ${db(columns)} from email_outbox where id = ${id}`;
  return row;
}

/** The newest emails to `to` (case-insensitive), newest first. */
export async function listOutboxEmailsTo(
  db: Db,
  { to, limit = 20 }: { to: string; limit?: number },
): Promise<OutboxEmail[]> {
  return await db<OutboxEmail[]>`
    select ${db(columns)} from email_outbox
    where lower(to_address) = lower(${to})
    order by created_at desc, id
    limit ${limit}`;
}
