/**
 * Durable background jobs (table `jobs`, migration 0008).
 *
 * A job is enqueued in the caller's transaction, so it exists exactly when the change that
 * needs it commits. Workers claim due jobs with `for update skip locked`: any number of them,
 * in any number of app instances, each take a given job once. A claim counts the attempt and
 * leases the row (`locked_until`); a worker that dies mid-job leaves the lease to lapse, after
 * which the job is due again. Completing or failing a job is fenced by the attempt it claimed,
 * so a worker that outlived its lease cannot overwrite the outcome of the one that took over.
 *
 * States: pending (done_at and failed_at null), done (done_at set), failed (failed_at set,
 * with last_error). The time in every comparison is the database's, never the app's clock.
 */
import type postgres from "postgres";
import type { Db } from "./client.ts";

/** One job as a worker sees it. */
export interface Job {
  /** A bigint, as text (postgres.js reads int8 as a string). */
  id: string;
  kind: string;
  payload: unknown;
  dedupeKey: string | null;
  runAt: Date;
  /** Attempts so far, including the one a claim just started. */
  attempts: number;
  maxAttempts: number;
  lockedUntil: Date | null;
  lastError: string | null;
  doneAt: Date | null;
  failedAt: Date | null;
  createdAt: Date;
}

const columns = [
  "id",
  "kind",
  "payload",
  "dedupe_key",
  "run_at",
  "attempts",
  "max_attempts",
  "locked_until",
  "last_error",
  "done_at",
  "failed_at",
  "created_at",
] as const;

/** Longest error text kept on a job. */
export const MAX_JOB_ERROR_LENGTH = 2000;

/** What `enqueueJob` stores. */
export interface NewJob {
  kind: string;
  payload?: postgres.JSONValue;
  /** At most one pending job per key: enqueueing again while one is pending adds nothing. */
  dedupeKey?: string;
  /** When the job becomes due (default: now). */
  runAt?: Date;
  /** Attempts before the job is recorded as failed (default 8, the column's default). */
  maxAttempts?: number;
}

/**
 * Adds a pending job and returns its id, or undefined when a pending job with the same
 * `dedupeKey` already exists (the partial unique index decides, so two racing enqueues add
 * one row). A done or failed job with the key does not block a new one.
 */
export async function enqueueJob(db: Db, job: NewJob): Promise<string | undefined> {
  const [row] = await db<{ id: string }[]>`
    insert into jobs (kind, payload, dedupe_key, run_at, max_attempts)
    values (
      ${job.kind}, ${db.json(job.payload ?? {})}, ${job.dedupeKey ?? null},
      coalesce(${job.runAt ?? null}::timestamptz, now()), ${job.maxAttempts ?? 8}
    )
    on conflict (dedupe_key)
      where dedupe_key is not null and done_at is null and failed_at is null
      do nothing
    returning id`;
  return row?.id;
}

/**
 * Claims up to `limit` due jobs of the given `kinds` (all kinds when omitted) in one
 * statement: due means pending, `run_at` reached and no live lease. Each claimed row gets
 * `attempts + 1` and a lease of `leaseMs`; rows another worker holds are skipped, not waited
 * for. Oldest due first.
 *
 * Before claiming, jobs whose last allowed attempt was claimed and whose lease lapsed (the
 * worker died on its last try) are recorded as failed, so they neither run once too often nor
 * stay pending forever.
 */
export async function claimDueJobs(
  db: Db,
  { limit, leaseMs, kinds, worker }: {
    limit: number;
    leaseMs: number;
    kinds?: readonly string[];
    /** Who claims (see `releaseWorkerJobs`). */
    worker?: string;
  },
): Promise<Job[]> {
  if (kinds && kinds.length === 0) return [];
  const kindFilter = kinds ? db`and kind in ${db(kinds as string[])}` : db``;
  await db`
    update jobs set
      failed_at = now(),
      locked_until = null,
      last_error = left(coalesce(last_error || ' / ', '') ||
        'The worker stopped during its last attempt.', ${MAX_JOB_ERROR_LENGTH})
    where done_at is null and failed_at is null and run_at <= now()
      and attempts >= max_attempts and locked_until <= now() ${kindFilter}`;
  return await db<Job[]>`
    update jobs set
      attempts = attempts + 1,
      claimed_by = ${worker ?? null},
      locked_until = now() + ${leaseMs} * interval '1 millisecond'
    where id in (
      select id from jobs
      where done_at is null and failed_at is null and run_at <= now()
        and (locked_until is null or locked_until <= now())
        and attempts < max_attempts ${kindFilter}
      order by run_at, id
      limit ${limit}
      for update skip locked
    )
    returning ${db(columns)}`;
}

/**
 * Ends the live leases `worker` holds on pending jobs, so they are due at once: called when a
 * worker starts, since a lease held under its name is one its crashed predecessor left.
 * Returns how many were released.
 */
export async function releaseWorkerJobs(db: Db, { worker }: { worker: string }): Promise<number> {
  const result = await db`
    update jobs set locked_until = now()
    where claimed_by = ${worker} and locked_until > now()
      and done_at is null and failed_at is null`;
  return result.count;
}

/**
 * Extends by `leaseMs` from now the leases of the claimed jobs still running (`jobs`: id and
 * the claim's attempts, as fencing): the heartbeat of a worker whose handlers are alive. A job
 * claimed again since, or finished, is left alone. Returns how many leases were extended.
 */
export async function renewJobLeases(
  db: Db,
  { jobs, leaseMs }: { jobs: readonly { id: string; attempts: number }[]; leaseMs: number },
): Promise<number> {
  if (jobs.length === 0) return 0;
  const ids = jobs.map((j) => j.id);
  const attempts = jobs.map((j) => j.attempts);
  // A released job (locked_until null: its outcome was just recorded) is not leased again.
  const result = await db`
    update jobs set locked_until = now() + ${leaseMs} * interval '1 millisecond'
    where done_at is null and failed_at is null and locked_until is not null
      and (id, attempts) in (select * from unnest(${ids}::bigint[], ${attempts}::int[]))`;
  return result.count;
}

/**
 * Marks a claimed job done. `attempts` is the claim's (fencing): returns false, changing
 * nothing, when the job was claimed again since or is no longer pending.
 */
export async function completeJob(
  db: Db,
  { id, attempts }: { id: string; attempts: number },
): Promise<boolean> {
  const rows = await db`
    update jobs set done_at = now(), locked_until = null
    where id = ${id} and attempts = ${attempts} and done_at is null and failed_at is null
    returning id`;
  return rows.length === 1;
}

/**
 * Records a failed attempt of a claimed job: due again `retryInMs` from now (database time),
 * or failed for good with `final: true`. The error is kept in `last_error` either way.
 * Fenced like `completeJob`; returns false when nothing changed.
 */
export async function failJob(
  db: Db,
  input:
    & { id: string; attempts: number; error: string }
    & ({ retryInMs: number; final?: false } | { final: true }),
): Promise<boolean> {
  const error = input.error.slice(0, MAX_JOB_ERROR_LENGTH);
  const rows = input.final
    ? await db`
      update jobs set failed_at = now(), locked_until = null, last_error = ${error}
      where id = ${input.id} and attempts = ${input.attempts}
        and done_at is null and failed_at is null
      returning id`
    : await db`
      update jobs set
        run_at = now() + ${Math.max(0, Math.round(input.retryInMs))} * interval '1 millisecond',
        locked_until = null,
        last_error = ${error}
      where id = ${input.id} and attempts = ${input.attempts}
        and done_at is null and failed_at is null
      returning id`;
  return rows.length === 1;
}

/** One job by id, or undefined. */
export async function getJob(db: Db, { id }: { id: string }): Promise<Job | undefined> {
  if (!/^\d{1,18}$/.test(id)) return undefined;
  const [row] = await db<Job[]>`
    select ${db(columns)} from jobs where id = ${id}`;
  return row;
}

/**
 * Deletes finished jobs: done ones whose `done_at` is more than `doneDays` days ago and failed
 * ones whose `failed_at` is more than `failedDays` days ago (database time), at most `limit`
 * rows per call. Pending jobs are never touched. Returns how many rows were deleted.
 */
export async function deleteFinishedJobs(
  db: Db,
  { doneDays, failedDays, limit = 1000 }: { doneDays: number; failedDays: number; limit?: number },
): Promise<number> {
  const result = await db`
    delete from jobs where id in (
      select id from jobs
      where done_at < now() - make_interval(days => ${doneDays}::int)
        or failed_at < now() - make_interval(days => ${failedDays}::int)
      limit ${limit}
    )`;
  return result.count;
}
