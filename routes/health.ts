import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";
import { keys, withKv } from "../db/kv.ts";

// One probe key per process, so instances sharing a KV file never read each other's probe.
const PROBE_ID = crypto.randomUUID();
// The probe outlives a check by far, then KV drops it by itself.
const PROBE_TTL_MS = 60_000;

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

async function postgresAnswers(db: AppEnv["Variables"]["db"]): Promise<boolean> {
  try {
    await db`select 1`;
    return true;
  } catch (err) {
    console.error("readyz: postgres", err);
    return false;
  }
}

/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: Postgres answers a
 * query and KV takes a write and reads it back; 503 with the failing check otherwise).
 */
export const health = new Hono<AppEnv>()
  .get("/healthz", (c) => c.json({ status: "ok" }))
  .get("/readyz", async (c) => {
    const [postgres, kv] = await Promise.all([postgresAnswers(c.var.db), kvWritable(c.var.kv)]);
    const checks = { postgres, kv };
    const ready = postgres && kv;
    c.header("Cache-Control", "no-store");
    return c.json({ status: ready ? "ok" : "unavailable", checks }, ready ? 200 : 503);
  });
