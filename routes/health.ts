import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";
import { keys } from "../db/kv.ts";

/** Liveness and readiness probes. */
export const health = new Hono<AppEnv>()
  .get("/healthz", (c) => c.json({ status: "ok" }))
  .get("/readyz", async (c) => {
    const checks = { postgres: false, kv: false };
    try {
      await c.var.db`select 1`;
      checks.postgres = true;
    } catch (err) {
      console.error("readyz: postgres", err);
    }
    try {
      await c.var.kv.get(keys.health());
      checks.kv = true;
    } catch (err) {
      console.error("readyz: kv", err);
    }
    const ready = checks.postgres && checks.kv;
    return c.json({ status: ready ? "ok" : "unavailable", checks }, ready ? 200 : 503);
  });
