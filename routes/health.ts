import { Hono } from "hono";
import type { AppDeps, AppEnv } from "./_env.ts";
import { keys, withKv } from "../db/kv.ts";

// One probe key per process, so instances sharing a KV file never read each other's probe.
const PROBE_ID = crypto.randomUUID();
// The probe outlives a check by far, then KV drops it by itself.
const PROBE_TTL_MS = 60_000;

/**
 * How long a passing readiness check answers /readyz (issue 20): probes from a load
 * balancer, a monitor and an orchestrator share one round trip a second instead of each
 * queueing a query and a KV write behind the requests of a busy server. A failing check is
 * never reused, so a recovered dependency is seen at the next probe.
 */
export const READY_TTL_MS = 1000;

/** Longest a readiness check waits for Postgres before it counts Postgres as not answering. */
export const POSTGRES_CHECK_TIMEOUT_MS = 2000;

async function kvWritable(kv: Deno.Kv): Promise<boolean> {
  try {
    // A read alone passes while another process holds the file's write lock (SQLite in WAL
    // mode lets readers through), which is when sessions and rate limits fail: write, then
    // read back. withKv bounds it to about a second, so a locked file is a quick 503.
    return await withKv(kv, async () => {
      const value = crypto.randomUUID();
      await kv.set(keys.health(PROBE_ID), value, { expireIn: PROBE_TTL_MS });
      return (await kv.get<string>(keys.health(PROBE_ID))).value === value;
    });
  } catch (err) {
    const why = err instanceof Error && err.cause instanceof Error ? err.cause.message : err;
    console.error("readyz: kv unavailable:", why);
    return false;
  }
}

async function postgresAnswers(db: AppDeps["sql"]): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), POSTGRES_CHECK_TIMEOUT_MS);
  });
  try {
    const answer = await Promise.race([db`select 1`, timeout]);
    if (answer !== "timeout") return true;
    console.error(`readyz: postgres did not answer within ${POSTGRES_CHECK_TIMEOUT_MS} ms`);
    return false;
  } catch (err) {
    console.error("readyz: postgres", err);
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** What /readyz reports. */
export interface ReadinessChecks {
  postgres: boolean;
  kv: boolean;
}

interface ReadinessState {
  /** The last passing check and when it finished (performance.now()). */
  passed?: { checks: ReadinessChecks; at: number };
  /** The check under way, which every probe arriving meanwhile waits for. */
  running?: Promise<ReadinessChecks>;
}

const readiness = new WeakMap<AppDeps, ReadinessState>();

/**
 * Whether Postgres answers a query and KV takes a write and reads it back: a passing result
 * younger than READY_TTL_MS, else one fresh check shared by every concurrent caller.
 */
export async function checkReadiness(deps: AppDeps): Promise<ReadinessChecks> {
  let state = readiness.get(deps);
  if (!state) readiness.set(deps, state = {});
  if (state.passed && performance.now() - state.passed.at < READY_TTL_MS) {
    return state.passed.checks;
  }
  const current = state;
  current.running ??= (async () => {
    try {
      const [postgres, kv] = await Promise.all([postgresAnswers(deps.sql), kvWritable(deps.kv)]);
      const checks = { postgres, kv };
      current.passed = postgres && kv ? { checks, at: performance.now() } : undefined;
      return checks;
    } finally {
      current.running = undefined;
    }
  })();
  return await current.running;
}

/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: Postgres answers a
 * query and KV takes a write and reads it back; 503 with the failing check otherwise). Both
 * skip admission control (routes/_admission.ts), and a passing readiness check is reused for
 * READY_TTL_MS, so a saturated server still answers its probes at once.
 */
export const health = new Hono<AppEnv>()
  .get("/healthz", (c) => c.json({ status: "ok" }))
  .get("/readyz", async (c) => {
    const checks = await checkReadiness(c.var.deps);
    const ready = checks.postgres && checks.kv;
    c.header("Cache-Control", "no-store");
    return c.json({ status: ready ? "ok" : "unavailable", checks }, ready ? 200 : 503);
  });
