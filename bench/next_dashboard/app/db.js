// One pool per server, set up as Meridian's db/client.ts sets up its own: postgres.js, column
// names camelCased (jsonb keys left alone), at most 10 connections. PGAPPNAME (set by the
// bench) names its backends, so their CPU counts as Next's.
import postgres from "postgres";

/** The pool every request uses (one per server process, kept across requests). */
export const sql = globalThis.__meridianSql ??= postgres(process.env.DATABASE_URL, {
  transform: { column: { from: postgres.toCamel, to: postgres.fromCamel } },
  onnotice: () => {},
  max: 10,
  connect_timeout: 10,
  backoff: (attempt) => Math.min(0.05 * 2 ** attempt, 0.5),
});
