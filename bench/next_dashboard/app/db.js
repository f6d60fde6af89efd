// One pool per server, set up as Meridian's db/client.ts sets up its own: postgres.js, column
// names camelCased (jsonb keys left alone), at most 10 connections. PGAPPNAME (set by the
// bench) names its backends, so their CPU counts as Next's.
import postgres from "postgres";
import { setSnapshotCheck } from "@meridian/db/snapshot_cache.ts";

/** The pool every request uses (one per server process, kept across requests). */
export const sql = globalThis.__meridianSql ??= postgres(process.env.DATABASE_URL, {
  transform: { column: { from: postgres.toCamel, to: postgres.fromCamel } },
  onnotice: () => {},
  max: 10,
  connect_timeout: 10,
  backoff: (attempt) => Math.min(0.05 * 2 ** attempt, 0.5),
});
// SNAPSHOT_CHECK (set for the bench) checks remembered pages as Meridian's server then does.
if (process.env.SNAPSHOT_CHECK) setSnapshotCheck(sql, process.env.SNAPSHOT_CHECK);
