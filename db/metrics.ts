/** Counts behind `GET /metrics`: how much work is waiting in the database's queues. */
import type { Db } from "./client.ts";

/** Email outbox statuses that are still someone's concern (sent rows are history). */
export const OUTBOX_STATUSES = ["queued", "sending", "failed"] as const;

/** States of a job that is not done: due now, running (leased), scheduled later, failed. */
export const JOB_STATES = ["due", "running", "scheduled", "failed"] as const;

/**
 * Outbox messages by status, every status in `OUTBOX_STATUSES` present (0 when none). Sent
 * messages are left out: they only grow, and a depth is what is not delivered yet.
 */
export async function countOutboxByStatus(
  db: Db,
): Promise<Record<(typeof OUTBOX_STATUSES)[number], number>> {
  const rows = await db<{ status: string; count: number }[]>`
    select status, count(*)::int as count from email_outbox
    where status in ('queued', 'sending', 'failed')
    group by status`;
  const counts = { queued: 0, sending: 0, failed: 0 };
  for (const row of rows) counts[row.status as keyof typeof counts] = row.count;
  return counts;
}

/**
 * Jobs not done, by state (every state in `JOB_STATES` present): `running` holds a live
 * lease, `due` waits for a worker now, `scheduled` waits for its time (a retry's backoff
 * included), `failed` gave up after its attempts (kept until the finished-jobs sweep).
 */
export async function countJobsByState(
  db: Db,
): Promise<Record<(typeof JOB_STATES)[number], number>> {
  const rows = await db<{ state: string; count: number }[]>`
    select case
        when failed_at is not null then 'failed'
        when locked_until > now() then 'running'
        when run_at > now() then 'scheduled'
        else 'due'
      end as state,
      count(*)::int as count
    from jobs
    where done_at is null
    group by 1`;
  const counts = { due: 0, running: 0, scheduled: 0, failed: 0 };
  for (const row of rows) counts[row.state as keyof typeof counts] = row.count;
  return counts;
}
