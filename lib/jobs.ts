/**
 * The job worker: runs the durable jobs of db/jobs.ts.
 *
 * Every `intervalMs` (about a second, so work enqueued by a request starts within seconds) a
 * worker claims up to `concurrency` due jobs of the kinds it has handlers for, runs them side
 * by side, and records each outcome. A backlog is drained in consecutive passes. Claims use
 * `for update skip locked`, so several workers, in one instance or many, take each job once.
 *
 * Failures: a handler that throws gets its job retried after `retryDelayMs(attempts)` —
 * 5 s, 10 s, 20 s, … doubling per attempt, capped at 10 minutes — until the job's
 * `max_attempts` (default 8, about 10.5 minutes of retries in all), when the job is recorded
 * as failed with its last error and logged. `PermanentJobError` fails a job at once (bad
 * payload: retrying cannot help). Handlers must be idempotent: a worker that dies mid-job, or
 * outlives its lease, means the job runs again.
 *
 * A throwing handler never stops the worker, and neither does the database being down: the
 * pass is abandoned and the next tick tries again. An outcome that could not be recorded (the
 * database failed just then) is kept in memory and recorded at the start of the next pass,
 * before anything is claimed, so the job neither waits out its lease nor runs again.
 *
 * Leases are short (JOB_LEASE_MS, a minute) and kept alive by a heartbeat: while a handler
 * runs, its worker extends the lease every third of it. A job whose worker died (or whose
 * failure could not be recorded before it died) is due again within a minute, whatever the
 * worker was called: lease expiry is the last resort, and a short one.
 *
 * A worker started with a `worker` name (main.ts: `workerName`, "host:port") claims under it
 * and, when it starts, takes back at once the leases held under that name: they are its
 * crashed predecessor's. It does the same after a pass that failed on the database, once the
 * database answers again (after recording the outcomes it held): a claim whose answer was lost
 * in the outage leased jobs this worker never saw, and no handler of its own is running then.
 *
 * Finished jobs are kept for a while to read (what ran, why one failed) and then deleted by
 * `sweepFinishedJobs`, which the worker runs about once an hour: done jobs after
 * DONE_JOB_RETENTION_DAYS, failed ones after FAILED_JOB_RETENTION_DAYS.
 *
 * Beside it, every EXPIRED_LEADS_SWEEP_INTERVAL_MS, the worker closes the leads past their
 * expiry (db/leads.ts `closeExpiredLeads`): reads already treat them as closed, the sweep makes
 * the stored status and the offers' outcome say so. And every SNAPSHOT_PRUNE_INTERVAL_MS it
 * prunes the records of which transactions wrote the remembered pages' tables
 * (db/snapshot_cache.ts `pruneSnapshotChanges`).
 */
import { RecurringFailures } from "./recurring_failures.ts";
import type { Db, Sql } from "../db/client.ts";
import {
  claimDueJobs,
  completeJob,
  deleteFinishedJobs,
  enqueueJob,
  failJob,
  type Job,
  releaseWorkerJobs,
  renewJobLeases,
} from "../db/jobs.ts";
import { closeExpiredLeads } from "../db/leads.ts";
import { pruneSnapshotChanges } from "../db/snapshot_cache.ts";
import type { AppDeps } from "./deps.ts";
import { dispatchSurvey } from "./dispatch.ts";
import { isPostgresDown } from "./unavailable.ts";
import { isUuid } from "../db/users.ts";

/** Runs one job; throws to have it retried (or `PermanentJobError` to fail it at once). */
export type JobHandler<D> = (deps: D, payload: unknown, job: Job) => Promise<void>;

/** Handlers by job kind. A worker claims only kinds it has a handler for. */
export type JobHandlers<D> = Record<string, JobHandler<D>>;

/** Thrown by a handler when retrying cannot help: the job fails at once. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentJobError";
  }
}

/** First retry delay; each later one doubles. */
export const RETRY_BASE_MS = 5_000;
/** Longest delay between two attempts. */
export const RETRY_MAX_MS = 10 * 60_000;
/**
 * How long a claim holds a job before another worker may take it, unless the heartbeat of the
 * worker running it extends it (every third of it): a crashed instance's jobs resume within a
 * minute, while a live handler keeps its job however long it runs.
 */
export const JOB_LEASE_MS = 60_000;

/** Days a done job is kept before the sweep deletes it. */
export const DONE_JOB_RETENTION_DAYS = 7;
/** Days a failed job is kept (someone may need to read its error) before the sweep deletes it. */
export const FAILED_JOB_RETENTION_DAYS = 30;
/** How often a worker sweeps finished jobs. */
export const JOB_SWEEP_INTERVAL_MS = 60 * 60_000;
/** How often a worker closes expired leads (an index-only probe when none is due). */
export const EXPIRED_LEADS_SWEEP_INTERVAL_MS = 5 * 60_000;
/** How often a worker prunes `snapshot_changes` (an update of no row until the horizon is due). */
export const SNAPSHOT_PRUNE_INTERVAL_MS = 60_000;
// Rows per delete statement, so a long backlog never holds one huge transaction.
const SWEEP_BATCH = 1000;

/**
 * Deletes done jobs older than DONE_JOB_RETENTION_DAYS and failed ones older than
 * FAILED_JOB_RETENTION_DAYS, in batches until none is left; returns how many were deleted.
 * Safe beside other instances sweeping at the same time. Throws when the database fails.
 */
export async function sweepFinishedJobs(db: Db): Promise<number> {
  let deleted = 0;
  while (true) {
    const n = await deleteFinishedJobs(db, {
      doneDays: DONE_JOB_RETENTION_DAYS,
      failedDays: FAILED_JOB_RETENTION_DAYS,
      limit: SWEEP_BATCH,
    });
    deleted += n;
    if (n < SWEEP_BATCH) return deleted;
  }
}

/** The delay before the next try after failed attempt number `attempts` (1-based). */
export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);
}

/** What one pass did. */
export interface JobPassResult {
  done: number;
  retrying: number;
  failed: number;
}

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/**
 * This instance's worker name: host and the port it listens on, stable across a restart of the
 * same instance and distinct between live instances (two cannot listen on one port). Pass the
 * port actually listened on: with PORT=0 it is a random one, so a restart gets another name and
 * its predecessor's claims come back when their (short) lease lapses. Undefined for port 0.
 */
export function workerName({ PORT }: { PORT: number }): string | undefined {
  return PORT ? `${Deno.hostname()}:${PORT}` : undefined;
}

/** An outcome to record on a job (fenced by the attempt that ran). */
type JobOutcome =
  & { id: string; attempts: number }
  & (
    | { kind: "done" }
    | { kind: "retry"; error: string; retryInMs: number }
    | { kind: "failed"; error: string }
  );

// Outcomes whose recording failed, by job id; recorded before the next claim.
const unrecordedJobs = new Map<string, JobOutcome>();

async function recordOutcome(sql: Sql, o: JobOutcome): Promise<void> {
  if (o.kind === "done") await completeJob(sql, o);
  else if (o.kind === "retry") {
    await failJob(sql, { id: o.id, attempts: o.attempts, error: o.error, retryInMs: o.retryInMs });
  } else await failJob(sql, { id: o.id, attempts: o.attempts, error: o.error, final: true });
}

/** Records `outcome`; when the database fails, keeps it for the next pass and rethrows. */
async function recordOrKeep(sql: Sql, outcome: JobOutcome): Promise<void> {
  try {
    await recordOutcome(sql, outcome);
  } catch (err) {
    unrecordedJobs.set(outcome.id, outcome);
    throw err;
  }
}

/** Records the outcomes a database failure held back; throws (keeping the rest) if it fails. */
export async function recordHeldOutcomes(sql: Sql): Promise<void> {
  for (const [id, outcome] of [...unrecordedJobs]) {
    await recordOutcome(sql, outcome);
    unrecordedJobs.delete(id);
  }
}

async function runJob<D extends { sql: Sql }>(
  deps: D,
  handlers: JobHandlers<D>,
  job: Job,
  result: JobPassResult,
): Promise<void> {
  try {
    await handlers[job.kind](deps, job.payload, job);
  } catch (err) {
    const error = errorText(err);
    const isFinal = err instanceof PermanentJobError || job.attempts >= job.maxAttempts;
    if (isFinal) {
      result.failed++;
      console.error(
        `[jobs] ${job.kind} job ${job.id} failed for good after ${job.attempts} attempt(s):`,
        err,
      );
      await recordOrKeep(deps.sql, { id: job.id, attempts: job.attempts, kind: "failed", error });
    } else {
      result.retrying++;
      const delay = retryDelayMs(job.attempts);
      console.warn(
        `[jobs] ${job.kind} job ${job.id} attempt ${job.attempts} failed (retry in ${
          delay / 1000
        } s): ${error}`,
      );
      await recordOrKeep(deps.sql, {
        id: job.id,
        attempts: job.attempts,
        kind: "retry",
        error,
        retryInMs: delay,
      });
    }
    return;
  }
  await recordOrKeep(deps.sql, { id: job.id, attempts: job.attempts, kind: "done" });
  result.done++;
}

/**
 * One pass: records any outcome a database failure held back, then claims up to `limit` due
 * jobs of the handled kinds (as `worker`) and runs them concurrently, recording each outcome.
 * Resolves when all have finished. Throws only when the database fails (claiming, or
 * recording an outcome, which is then kept for the next pass); a handler's error is recorded
 * on its job.
 */
export async function runDueJobsOnce<D extends { sql: Sql }>(
  deps: D,
  handlers: JobHandlers<D>,
  { limit = 100, leaseMs = JOB_LEASE_MS, worker }: {
    limit?: number;
    leaseMs?: number;
    worker?: string;
  } = {},
): Promise<JobPassResult> {
  const result: JobPassResult = { done: 0, retrying: 0, failed: 0 };
  await recordHeldOutcomes(deps.sql);
  const jobs = await claimDueJobs(deps.sql, {
    limit,
    leaseMs,
    kinds: Object.keys(handlers),
    worker,
  });
  // The heartbeat: leases of the jobs still running are extended every third of a lease.
  const running = new Map(jobs.map((job) => [job.id, { id: job.id, attempts: job.attempts }]));
  const heartbeat = jobs.length > 0
    ? setInterval(() => {
      renewJobLeases(deps.sql, { jobs: [...running.values()], leaseMs }).catch((err) => {
        // The next beat tries again; the lease itself is the last resort.
        console.warn(`[jobs] Could not extend the leases of running jobs: ${errorText(err)}`);
      });
    }, Math.max(10, Math.floor(leaseMs / 3)))
    : undefined;
  let outcomes: PromiseSettledResult<void>[];
  try {
    outcomes = await Promise.allSettled(
      jobs.map((job) => runJob(deps, handlers, job, result).finally(() => running.delete(job.id))),
    );
  } finally {
    clearInterval(heartbeat);
  }
  const rejected = outcomes.find((o) => o.status === "rejected");
  if (rejected) throw (rejected as PromiseRejectedResult).reason;
  return result;
}

/**
 * Runs due jobs every `intervalMs` (passes never overlap; a full pass is followed at once by
 * another) until the returned `stop` is called, and after its first pass and then every
 * `sweepEveryMs` deletes old finished jobs (`sweepFinishedJobs`), every `leadSweepEveryMs`
 * closes expired leads (`closeExpiredLeads`), and every `snapshotPruneEveryMs` prunes
 * `snapshot_changes` (`pruneSnapshotChanges`). `stop` resolves once the pass in flight, and
 * every handler in it, has finished.
 */
export function startJobWorker<D extends { sql: Sql }>(
  deps: D,
  {
    handlers,
    intervalMs = 1000,
    concurrency = 4,
    leaseMs = JOB_LEASE_MS,
    sweepEveryMs = JOB_SWEEP_INTERVAL_MS,
    leadSweepEveryMs = EXPIRED_LEADS_SWEEP_INTERVAL_MS,
    snapshotPruneEveryMs = SNAPSHOT_PRUNE_INTERVAL_MS,
    worker,
  }: {
    handlers: JobHandlers<D>;
    /** This worker's name (`workerName`): its predecessor's leases are taken back at start. */
    worker?: string;
    intervalMs?: number;
    concurrency?: number;
    leaseMs?: number;
    sweepEveryMs?: number;
    leadSweepEveryMs?: number;
    snapshotPruneEveryMs?: number;
  },
): () => Promise<void> {
  let isStopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  let wasDown = false;
  let nextSweepAt = 0;
  let nextLeadSweepAt = 0;
  let nextSnapshotPruneAt = 0;
  let isReleased = !worker;
  // Any other failure that repeats (a database dropped under the server) is logged once.
  const failures = new RecurringFailures("[jobs] Job pass");

  const tick = () => {
    inFlight = (async () => {
      try {
        if (!isReleased && worker) {
          // Held outcomes first: a released job must not run again before its outcome is in.
          await recordHeldOutcomes(deps.sql);
          const n = await releaseWorkerJobs(deps.sql, { worker });
          isReleased = true;
          if (n > 0) console.log(`[jobs] Took back ${n} job(s) a previous run left in flight.`);
        }
        while (!isStopped) {
          const r = await runDueJobsOnce(deps, handlers, {
            limit: concurrency,
            leaseMs,
            worker,
          });
          if (wasDown) console.log("[jobs] The database is back; jobs run again.");
          wasDown = false;
          if (r.done + r.retrying + r.failed < concurrency) break;
        }
        if (!isStopped && Date.now() >= nextSweepAt) {
          // Set first: a failing sweep waits for the next interval instead of every tick.
          nextSweepAt = Date.now() + sweepEveryMs;
          const deleted = await sweepFinishedJobs(deps.sql);
          if (deleted > 0) console.log(`[jobs] Deleted ${deleted} finished job(s).`);
        }
        if (!isStopped && Date.now() >= nextLeadSweepAt) {
          nextLeadSweepAt = Date.now() + leadSweepEveryMs;
          const closed = await closeExpiredLeads(deps.sql);
          if (closed > 0) console.log(`[jobs] Closed ${closed} expired lead(s).`);
        }
        if (!isStopped && Date.now() >= nextSnapshotPruneAt) {
          nextSnapshotPruneAt = Date.now() + snapshotPruneEveryMs;
          await pruneSnapshotChanges(deps.sql);
        }
        failures.succeeded();
      } catch (err) {
        if (isPostgresDown(err)) {
          // Said once per outage; the next tick tries again, first taking back what a claim
          // lost in the outage may have leased under this name.
          if (worker) isReleased = false;
          if (!wasDown) console.warn("[jobs] The database is unavailable; jobs wait.");
          wasDown = true;
        } else {
          failures.failed(err);
        }
      }
      if (!isStopped) timer = setTimeout(tick, intervalMs);
    })();
  };
  tick();

  return async () => {
    isStopped = true;
    clearTimeout(timer);
    await inFlight;
  };
}

/** Job kind: match a new survey request and notify the surveyors found (lib/dispatch.ts). */
export const DISPATCH_SURVEY_JOB = "dispatch_survey";

/**
 * Enqueues the automatic dispatch of survey `surveyId` in the caller's transaction, so the
 * request and its job commit together. One pending dispatch per survey (dedupe key
 * `dispatch:<id>`). Returns the job id, or undefined when one was already pending.
 */
export async function enqueueSurveyDispatch(
  db: Db,
  { surveyId }: { surveyId: string },
): Promise<string | undefined> {
  return await enqueueJob(db, {
    kind: DISPATCH_SURVEY_JOB,
    payload: { surveyId },
    dedupeKey: `dispatch:${surveyId}`,
  });
}

/** What the app's job handlers need. */
export type JobDeps = Pick<AppDeps, "sql" | "config" | "places">;

/**
 * The app's job handlers, by kind; main.ts runs them with `startJobWorker`.
 *
 * - `dispatch_survey` `{surveyId}`: lib/dispatch.ts `dispatchSurvey` (match, then notify; or
 *   tell the admins nobody covers the property). Idempotent, so a retry or a second run
 *   notifies nobody twice. A payload without a survey id fails at once.
 */
export const APP_JOB_HANDLERS: JobHandlers<JobDeps> = {
  [DISPATCH_SURVEY_JOB]: async (deps, payload) => {
    const surveyId = (payload as { surveyId?: unknown } | null)?.surveyId;
    if (typeof surveyId !== "string" || !isUuid(surveyId)) {
      throw new PermanentJobError("The dispatch job has no valid surveyId");
    }
    await dispatchSurvey(deps, { surveyId });
  },
};
