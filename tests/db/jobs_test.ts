/**
 * Durable jobs (db/jobs.ts) and the worker (lib/jobs.ts) against the database. With
 * DATABASE_URL set, the concurrent-workers test gives each worker its own connection pool, so
 * claims truly overlap; on PGlite (one connection) the same test runs the claims serialised.
 * Time is moved by rewriting run_at / locked_until in SQL, never by waiting.
 */
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { claimDueJobs, completeJob, enqueueJob, failJob, getJob } from "../../db/jobs.ts";
import { openDatabase, type Sql } from "../../db/client.ts";
import {
  enqueueSurveyDispatch,
  type JobHandlers,
  PermanentJobError,
  RETRY_BASE_MS,
  RETRY_MAX_MS,
  retryDelayMs,
  runDueJobsOnce,
  startJobWorker,
  sweepFinishedJobs,
} from "../../lib/jobs.ts";

const DATABASE_URL = Deno.env.get("DATABASE_URL");

/** Makes every pending job due now (as if its retry delay had passed). */
async function makeDue(sql: Sql) {
  await sql`update jobs set run_at = now() - interval '1 second'
    where done_at is null and failed_at is null`;
}

/** Makes every lease lapse (as if the worker holding it had died long ago). */
async function expireLeases(sql: Sql) {
  await sql`update jobs set locked_until = now() - interval '1 second'
    where locked_until is not null`;
}

async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const { warn, error } = console;
  console.warn = () => {};
  console.error = () => {};
  try {
    return await fn();
  } finally {
    console.warn = warn;
    console.error = error;
  }
}

test("[jobs] several workers take each of many jobs exactly once", async () => {
  const t = await createTestApp();
  const N = 40;
  for (let i = 0; i < N; i++) await enqueueJob(t.sql, { kind: "count", payload: { i } });
  // Four workers, each with its own connections on Postgres.
  const pools = DATABASE_URL
    ? await Promise.all(
      [0, 1, 2, 3].map(() => openDatabase({ DATABASE_URL, DATA_DIR: ".data/test" })),
    )
    : [];
  const sqls: Sql[] = pools.length ? pools.map((p) => p.sql) : [t.sql, t.sql, t.sql, t.sql];
  const ran: number[] = [];
  const byWorker = [0, 0, 0, 0];
  try {
    await Promise.all(sqls.map(async (sql, w) => {
      const handlers: JobHandlers<{ sql: Sql }> = {
        count: async (_deps, payload) => {
          // Yield so the other workers' claims interleave with this one's.
          await new Promise((resolve) => setTimeout(resolve, 1));
          ran.push((payload as { i: number }).i);
          byWorker[w]++;
        },
      };
      while (true) {
        const r = await runDueJobsOnce({ sql }, handlers, { limit: 3 });
        if (r.done === 0) break;
      }
    }));
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
  assertEquals(ran.length, N, "every job ran once, none twice");
  assertEquals(new Set(ran).size, N);
  const [{ done, pending }] = await t.sql<{ done: number; pending: number }[]>`
    select count(*) filter (where done_at is not null)::int as done,
      count(*) filter (where done_at is null)::int as pending
    from jobs`;
  assertEquals({ done, pending }, { done: N, pending: 0 });
  const [{ attempts }] = await t.sql<{ attempts: number }[]>`
    select sum(attempts)::int as attempts from jobs`;
  assertEquals(attempts, N, "no job was claimed twice");
  if (DATABASE_URL) assert(byWorker.filter((n) => n > 0).length > 1, "the work was shared");
  t.close();
});

test("[jobs] a failed job is retried after a doubling delay, then succeeds", async () => {
  const t = await createTestApp();
  const id = (await enqueueJob(t.sql, { kind: "flaky", payload: { x: 1 } }))!;
  let calls = 0;
  const handlers: JobHandlers<{ sql: Sql }> = {
    flaky: () => {
      calls++;
      return calls < 3 ? Promise.reject(new Error(`boom ${calls}`)) : Promise.resolve();
    },
  };
  const first = await quietly(() => runDueJobsOnce(t, handlers));
  assertEquals(first, { done: 0, retrying: 1, failed: 0 });
  let job = (await getJob(t.sql, { id }))!;
  assertEquals([job.attempts, job.lastError, job.doneAt, job.failedAt], [
    1,
    "Error: boom 1",
    null,
    null,
  ]);
  const [{ delay }] = await t.sql<{ delay: number }[]>`
    select extract(epoch from run_at - now())::float8 * 1000 as delay from jobs where id = ${id}`;
  assert(delay > RETRY_BASE_MS - 1000 && delay <= RETRY_BASE_MS, `first retry in ~5 s: ${delay}`);

  // Not due yet: nothing runs.
  assertEquals(await runDueJobsOnce(t, handlers), { done: 0, retrying: 0, failed: 0 });
  assertEquals(calls, 1);

  await makeDue(t.sql);
  await quietly(() => runDueJobsOnce(t, handlers));
  job = (await getJob(t.sql, { id }))!;
  assertEquals([job.attempts, job.lastError], [2, "Error: boom 2"]);
  await makeDue(t.sql);
  assertEquals(await runDueJobsOnce(t, handlers), { done: 1, retrying: 0, failed: 0 });
  job = (await getJob(t.sql, { id }))!;
  assertEquals(job.attempts, 3);
  assert(job.doneAt instanceof Date && job.failedAt === null && job.lockedUntil === null);

  assertEquals(retryDelayMs(1), RETRY_BASE_MS);
  assertEquals(retryDelayMs(2), 2 * RETRY_BASE_MS);
  assertEquals(retryDelayMs(3), 4 * RETRY_BASE_MS);
  assertEquals(retryDelayMs(30), RETRY_MAX_MS);
  t.close();
});

test("[jobs] a job that keeps failing is recorded as failed after its last attempt", async () => {
  const t = await createTestApp();
  const id = (await enqueueJob(t.sql, { kind: "doomed", maxAttempts: 3 }))!;
  let calls = 0;
  const handlers: JobHandlers<{ sql: Sql }> = {
    doomed: () => {
      calls++;
      return Promise.reject(new Error(`still broken (${calls})`));
    },
  };
  const results = [];
  for (let i = 0; i < 5; i++) {
    results.push(await quietly(() => runDueJobsOnce(t, handlers)));
    await makeDue(t.sql);
  }
  assertEquals(calls, 3, "never tried more than max_attempts times");
  assertEquals(results.map((r) => r.failed), [0, 0, 1, 0, 0]);
  const job = (await getJob(t.sql, { id }))!;
  assert(job.failedAt instanceof Date && job.doneAt === null);
  assertEquals([job.attempts, job.lastError], [3, "Error: still broken (3)"]);
  t.close();
});

test("[jobs] a permanent error fails the job at once; unknown kinds are left alone", async () => {
  const t = await createTestApp();
  const bad = (await enqueueJob(t.sql, { kind: "strict", payload: { nope: true } }))!;
  const other = (await enqueueJob(t.sql, { kind: "someone_elses" }))!;
  const handlers: JobHandlers<{ sql: Sql }> = {
    strict: () => Promise.reject(new PermanentJobError("Bad payload")),
  };
  assertEquals(await quietly(() => runDueJobsOnce(t, handlers)), {
    done: 0,
    retrying: 0,
    failed: 1,
  });
  const job = (await getJob(t.sql, { id: bad }))!;
  assertEquals([job.attempts, job.lastError], [1, "PermanentJobError: Bad payload"]);
  assert(job.failedAt instanceof Date);
  const untouched = (await getJob(t.sql, { id: other }))!;
  assertEquals([untouched.attempts, untouched.lockedUntil, untouched.doneAt], [0, null, null]);
  t.close();
});

test("[jobs] a pending dedupe key is enqueued once; after it is done, again", async () => {
  const t = await createTestApp();
  const surveyId = crypto.randomUUID();
  const first = await enqueueSurveyDispatch(t.sql, { surveyId });
  assert(first);
  assertEquals(await enqueueSurveyDispatch(t.sql, { surveyId }), undefined);
  // Racing enqueues add one row between them.
  const raced = await Promise.all(
    [1, 2, 3].map(() => enqueueJob(t.sql, { kind: "x", dedupeKey: "same" })),
  );
  assertEquals(raced.filter(Boolean).length, 1);
  const [{ n }] = await t.sql<{ n: number }[]>`
    select count(*)::int as n from jobs where dedupe_key = ${"dispatch:" + surveyId}`;
  assertEquals(n, 1);
  const job = (await getJob(t.sql, { id: first }))!;
  assertEquals([job.kind, job.payload], ["dispatch_survey", { surveyId }]);

  const [claimed] = await claimDueJobs(t.sql, {
    limit: 1,
    leaseMs: 60_000,
    kinds: ["dispatch_survey"],
  });
  assert(await completeJob(t.sql, { id: claimed.id, attempts: claimed.attempts }));
  assert(await enqueueSurveyDispatch(t.sql, { surveyId }), "a done job frees its key");
  t.close();
});

test("[jobs] a job whose worker died runs again once its lease lapses", async () => {
  const t = await createTestApp();
  const id = (await enqueueJob(t.sql, { kind: "crashy", maxAttempts: 2 }))!;
  const [claimed] = await claimDueJobs(t.sql, { limit: 10, leaseMs: 60_000 });
  assertEquals([claimed.id, claimed.attempts], [id, 1]);
  // The worker "dies" here. While the lease holds, nobody else takes the job.
  assertEquals((await claimDueJobs(t.sql, { limit: 10, leaseMs: 60_000 })).length, 0);
  await expireLeases(t.sql);
  const [again] = await claimDueJobs(t.sql, { limit: 10, leaseMs: 60_000 });
  assertEquals([again.id, again.attempts], [id, 2]);
  // The first worker waking up late cannot record an outcome over the second claim.
  assertEquals(await completeJob(t.sql, { id, attempts: 1 }), false);
  assertEquals(
    await failJob(t.sql, { id, attempts: 1, error: "late", retryInMs: 0 }),
    false,
  );
  // The second worker dies too, on the last allowed attempt: the job is failed, not rerun.
  await expireLeases(t.sql);
  assertEquals((await claimDueJobs(t.sql, { limit: 10, leaseMs: 60_000 })).length, 0);
  const job = (await getJob(t.sql, { id }))!;
  assert(job.failedAt instanceof Date);
  assertEquals(job.lastError, "The worker stopped during its last attempt.");
  t.close();
});

test("[jobs] the worker runs due jobs, survives a throwing handler, and stop waits", async () => {
  const t = await createTestApp();
  await enqueueJob(t.sql, { kind: "throws" });
  const id = (await enqueueJob(t.sql, { kind: "slow" }))!;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const isStarted = new Promise<void>((resolve) => (started = resolve));
  let finished = false;
  const handlers: JobHandlers<{ sql: Sql }> = {
    throws: () => {
      throw new Error("handler bug");
    },
    slow: async () => {
      started();
      await gate;
      finished = true;
    },
  };
  const stop = await quietly(() => {
    const s = startJobWorker(t, { handlers, intervalMs: 10 });
    return isStarted.then(() => s);
  });
  const stopping = stop();
  release();
  await quietly(() => stopping);
  assert(finished, "stop waited for the running handler");
  const job = (await getJob(t.sql, { id }))!;
  assert(job.doneAt instanceof Date, "its outcome was recorded before stop resolved");
  const [thrown] = await t.sql<{ lastError: string; doneAt: Date | null }[]>`
    select last_error, done_at from jobs where kind = 'throws'`;
  assertEquals([thrown.lastError, thrown.doneAt], ["Error: handler bug", null]);
  t.close();
});

test("[jobs] the worker waits out a database outage instead of stopping", async () => {
  const t = await createTestApp();
  const id = (await enqueueJob(t.sql, { kind: "later" }))!;
  let isDown = true;
  let passes = 0;
  let recovered!: () => void;
  const isRecovered = new Promise<void>((resolve) => (recovered = resolve));
  // A database that refuses the first two passes (connection refused), then works.
  const sql = new Proxy(t.sql, {
    apply(target, self, args) {
      if (isDown) {
        if (++passes >= 2) isDown = false;
        throw Object.assign(new Error("connect failed"), { code: "ECONNREFUSED" });
      }
      return Reflect.apply(target, self, args);
    },
  }) as Sql;
  const handlers: JobHandlers<{ sql: Sql }> = {
    later: () => {
      recovered();
      return Promise.resolve();
    },
  };
  const stop = await quietly(async () => {
    const s = startJobWorker({ sql }, { handlers, intervalMs: 5 });
    await isRecovered;
    return s;
  });
  await quietly(stop);
  assertEquals(passes, 2);
  assert((await getJob(t.sql, { id }))!.doneAt instanceof Date);
  t.close();
});

/** Adds a finished job of `kind` that finished `days` days ago (done or failed). */
async function finishedJob(sql: Sql, kind: string, state: "done" | "failed", days: number) {
  const id = (await enqueueJob(sql, { kind }))!;
  const at = sql`now() - make_interval(days => ${days}::int)`;
  if (state === "done") await sql`update jobs set done_at = ${at} where id = ${id}`;
  else await sql`update jobs set failed_at = ${at}, last_error = 'boom' where id = ${id}`;
  return id;
}

test("[jobs] the sweep deletes done jobs after 7 days and failed ones after 30; pending ones stay", async () => {
  const t = await createTestApp();
  const kept = [
    await finishedJob(t.sql, "done-6d", "done", 6),
    await finishedJob(t.sql, "failed-8d", "failed", 8),
    await finishedJob(t.sql, "failed-29d", "failed", 29),
  ];
  const gone = [
    await finishedJob(t.sql, "done-8d", "done", 8),
    await finishedJob(t.sql, "failed-31d", "failed", 31),
  ];
  // Pending for months (created long ago, retried, never finished): not the sweep's to drop.
  const pending = (await enqueueJob(t.sql, { kind: "pending-old" }))!;
  await t.sql`update jobs set created_at = now() - interval '90 days',
    run_at = now() - interval '60 days', attempts = 3 where id = ${pending}`;

  assertEquals(await sweepFinishedJobs(t.sql), 2);
  for (const id of gone) assertEquals(await getJob(t.sql, { id }), undefined, id);
  for (const id of [...kept, pending]) assert(await getJob(t.sql, { id }), id);
  assertEquals(await sweepFinishedJobs(t.sql), 0, "nothing left to delete");
  t.close();
});

test("[jobs] the sweep clears a backlog larger than one batch", async () => {
  const t = await createTestApp();
  await t.sql`
    insert into jobs (kind, done_at)
    select 'old', now() - interval '10 days' from generate_series(1, 2500)`;
  const recent = await finishedJob(t.sql, "recent", "done", 1);
  assertEquals(await sweepFinishedJobs(t.sql), 2500);
  const [{ n }] = await t.sql<{ n: number }[]>`select count(*)::int as n from jobs`;
  assertEquals(n, 1);
  assert(await getJob(t.sql, { id: recent }));
  t.close();
});

test("[jobs] the worker sweeps old finished jobs by itself", async () => {
  const t = await createTestApp();
  const old = await finishedJob(t.sql, "old", "done", 8);
  const stop = startJobWorker(t, { handlers: {}, intervalMs: 5 });
  // Wait for the condition (the worker's first tick), not for a fixed time.
  for (let i = 0; i < 2000 && await getJob(t.sql, { id: old }); i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await stop();
  assertEquals(await getJob(t.sql, { id: old }), undefined);
  t.close();
});

test("[jobs] a restarted worker takes back its own jobs at once; another worker's keep their lease", async () => {
  const t = await createTestApp();
  const mine = (await enqueueJob(t.sql, { kind: "resume", payload: { n: 1 } }))!;
  const theirs = (await enqueueJob(t.sql, { kind: "resume", payload: { n: 2 } }))!;
  // Both are claimed and leased for five minutes; then this instance's process dies.
  await claimDueJobs(t.sql, { limit: 1, leaseMs: 5 * 60_000, worker: "host-a:8000" });
  await claimDueJobs(t.sql, { limit: 1, leaseMs: 5 * 60_000, worker: "host-b:8000" });
  const ran: number[] = [];
  let ranMine!: () => void;
  const isMineDone = new Promise<void>((resolve) => (ranMine = resolve));
  const handlers: JobHandlers<{ sql: Sql }> = {
    resume: (_deps, payload) => {
      ran.push((payload as { n: number }).n);
      ranMine();
      return Promise.resolve();
    },
  };
  const stop = startJobWorker(t, { handlers, intervalMs: 10, worker: "host-a:8000" });
  const timeout = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 3000));
  const outcome = await quietly(() => Promise.race([isMineDone.then(() => "ran"), timeout]));
  await quietly(stop);
  assertEquals(outcome, "ran", "the restarted worker's own job runs within seconds");
  assertEquals(ran, [1]);
  assert((await getJob(t.sql, { id: mine }))!.doneAt instanceof Date);
  assertEquals((await getJob(t.sql, { id: theirs }))!.doneAt, null, "host-b may still be on it");
  t.close();
});

test("[jobs] an outcome that could not be recorded is recorded by the next pass, not left to the lease", async () => {
  const t = await createTestApp();
  const failing = (await enqueueJob(t.sql, { kind: "fails" }))!;
  const working = (await enqueueJob(t.sql, { kind: "works" }))!;
  let isDown = false;
  const sql = new Proxy(t.sql, {
    apply(target, self, args) {
      if (isDown) throw Object.assign(new Error("connect failed"), { code: "ECONNREFUSED" });
      return Reflect.apply(target, self, args);
    },
  }) as Sql;
  let runs = 0;
  const handlers: JobHandlers<{ sql: Sql }> = {
    // The database goes away while the handlers run.
    fails: () => {
      runs++;
      isDown = true;
      return Promise.reject(new Error("geocoder timeout"));
    },
    works: () => {
      runs++;
      isDown = true;
      return Promise.resolve();
    },
  };
  const error = await quietly(() => runDueJobsOnce({ sql }, handlers)).then(() => null, (e) => e);
  assert(error, "the pass reports the database failure");
  isDown = false;
  await quietly(() => runDueJobsOnce({ sql }, handlers));
  const failed = (await getJob(t.sql, { id: failing }))!;
  assertEquals(failed.lastError, "Error: geocoder timeout");
  assertEquals(failed.lockedUntil, null, "the lease is over, the retry is scheduled");
  assert(failed.runAt.getTime() > Date.now(), "due after its retry delay");
  assert((await getJob(t.sql, { id: working }))!.doneAt instanceof Date);
  assertEquals(runs, 2, "nothing ran twice");
  t.close();
});
