/**
 * Jobs under faults (issue 20): work in flight when Postgres restarts or the process dies does
 * not wait out a 5-minute lease once the app is back, and a live handler keeps its job however
 * long it runs. Outages are simulated by a database proxy that fails statements the way a
 * restarting Postgres does (CONNECTION_CLOSED); time is never waited out, conditions are.
 */
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { claimDueJobs, enqueueJob, getJob } from "../../db/jobs.ts";
import type { Sql } from "../../db/client.ts";
import { JOB_LEASE_MS, type JobHandlers, runDueJobsOnce, startJobWorker } from "../../lib/jobs.ts";

function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const { log, warn, error } = console;
  console.log = console.warn = console.error = () => {};
  return fn().finally(() => {
    console.log = log;
    console.warn = warn;
    console.error = error;
  });
}

function connectionClosed(): Error {
  return Object.assign(new Error("write CONNECTION_CLOSED 127.0.0.1:5432"), {
    code: "CONNECTION_CLOSED",
  });
}

/** Resolves "ok" once `condition` holds, or "timeout" after `ms` (a bound, not a measurement). */
async function eventually(condition: () => Promise<boolean>, ms = 5000): Promise<"ok" | "timeout"> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return "ok";
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return "timeout";
}

test("[jobs fault] a claim whose answer was lost in a database restart runs as soon as the database is back", async () => {
  const t = await createTestApp();
  const id = (await enqueueJob(t.sql, { kind: "dispatch" }))!;
  let loseNextClaim = true;
  // The claim commits, then the connection drops before its answer arrives.
  const sql = new Proxy(t.sql, {
    apply(target, self, args) {
      const result = Reflect.apply(target, self, args);
      const text = Array.isArray(args[0]) ? (args[0] as string[]).join("?") : "";
      if (loseNextClaim && /attempts = attempts \+ 1/.test(text)) {
        loseNextClaim = false;
        return Promise.resolve(result).then(() => Promise.reject(connectionClosed()));
      }
      return result;
    },
  }) as Sql;
  let runs = 0;
  const handlers: JobHandlers<{ sql: Sql }> = {
    dispatch: () => {
      runs++;
      return Promise.resolve();
    },
  };
  const stop = startJobWorker({ sql }, { handlers, intervalMs: 10, worker: "host-a:8000" });
  const outcome = await quietly(() =>
    eventually(async () => (await getJob(t.sql, { id }))?.doneAt instanceof Date)
  );
  await quietly(stop);
  assertEquals(outcome, "ok", "the job ran within seconds, not after its lease");
  assertEquals(runs, 1);
  assertEquals((await getJob(t.sql, { id }))?.attempts, 2, "the lost claim counted as a try");
  t.close();
});

test("[jobs fault] a job whose worker died comes back within a minute, whatever the worker was called", async () => {
  const t = await createTestApp();
  const id = (await enqueueJob(t.sql, { kind: "dispatch" }))!;
  // A worker with no name (or one that restarts under another) claims with the default lease…
  const [claimed] = await claimDueJobs(t.sql, { limit: 1, leaseMs: JOB_LEASE_MS });
  assertEquals(claimed.id, id);
  // …and dies. Its lease ends within a minute, not five.
  const [{ seconds }] = await t.sql<{ seconds: number }[]>`
    select extract(epoch from locked_until - now())::float8 as seconds from jobs where id = ${id}`;
  assert(seconds <= 60, `the lease runs ${seconds} s`);
  t.close();
});

test("[jobs fault] a live handler keeps its job past its lease: nobody runs it a second time", async () => {
  const t = await createTestApp();
  const id = (await enqueueJob(t.sql, { kind: "slow" }))!;
  // Long enough that the heartbeat (every third of it) survives a loaded machine's stalls: with
  // 300 ms, a CI run beside a browser walk saw a claim go through (a 200 ms stall).
  const leaseMs = 900;
  let runs = 0;
  let finish!: () => void;
  const isFinished = new Promise<void>((resolve) => (finish = resolve));
  let started!: () => void;
  const isStarted = new Promise<void>((resolve) => (started = resolve));
  const handlers: JobHandlers<{ sql: Sql }> = {
    slow: async () => {
      runs++;
      started();
      await isFinished;
    },
  };
  const first = quietly(() => runDueJobsOnce({ sql: t.sql }, handlers, { leaseMs }));
  await isStarted;
  // Another worker polls for several lease lengths while the first handler is still running.
  let stolen = 0;
  for (let i = 0; i < 6; i++) {
    await new Promise((resolve) => setTimeout(resolve, leaseMs / 2));
    stolen += (await claimDueJobs(t.sql, { limit: 5, leaseMs, kinds: ["slow"] })).length;
  }
  finish();
  const result = await first;
  assertEquals(stolen, 0, "the heartbeat kept the lease");
  assertEquals(runs, 1);
  assertEquals(result.done, 1);
  assert((await getJob(t.sql, { id }))?.doneAt instanceof Date);
  t.close();
});

test("[jobs fault] a failure whose recording failed is recorded once the database answers; the job is not stranded", async () => {
  const t = await createTestApp();
  const id = (await enqueueJob(t.sql, { kind: "flaky" }))!;
  let isDown = false;
  const sql = new Proxy(t.sql, {
    apply(target, self, args) {
      if (isDown) return Promise.reject(connectionClosed());
      return Reflect.apply(target, self, args);
    },
  }) as Sql;
  let runs = 0;
  const handlers: JobHandlers<{ sql: Sql }> = {
    flaky: () => {
      runs++;
      if (runs === 1) {
        isDown = true; // Postgres restarts while the handler fails.
        return Promise.reject(new Error("geocoder timeout"));
      }
      return Promise.resolve();
    },
  };
  const stop = startJobWorker({ sql }, { handlers, intervalMs: 10, worker: "host-a:8000" });
  await quietly(() => eventually(() => Promise.resolve(runs === 1)));
  // The outage lasts a few ticks; then the database is back.
  await new Promise((resolve) => setTimeout(resolve, 100));
  isDown = false;
  const recorded = await quietly(() =>
    eventually(async () => (await getJob(t.sql, { id }))?.lastError === "Error: geocoder timeout")
  );
  await quietly(stop);
  assertEquals(recorded, "ok");
  const job = (await getJob(t.sql, { id }))!;
  assertEquals(job.lockedUntil, null, "not left leased");
  assertEquals(job.doneAt, null);
  assert(job.runAt.getTime() > Date.now(), "its retry is scheduled");
  assertEquals(runs, 1, "it did not run again before its retry time");
  t.close();
});
