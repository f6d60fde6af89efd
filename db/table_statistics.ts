/**
 * Planner statistics where nothing else keeps them. The embedded database (PGlite) is a
 * single-user Postgres: no autovacuum launcher runs in it, so without this no table was ever
 * analyzed and every query was planned on default guesses. Measured on the lead market (a
 * surveyor's /leads, 60 open leads among 1,500): with no statistics the planner scanned the
 * leads first and ran the surveys' GiST box scan once per lead (110 ms in Postgres, most of the
 * page's cost on PGlite); after ANALYZE, one box scan and 1 ms. A Postgres server with
 * `autovacuum = off` is in the same state, so it gets the same pass.
 *
 * `analyzeChangedTables` does what autovacuum's analyze does by default: a table is analyzed
 * once more than 50 rows plus 10 % of its rows changed since its last analyze, or when it was
 * never analyzed and has rows.
 */
import type { Db, Sql } from "./client.ts";

/** How often the server runs the pass when statistics are its job (main.ts). */
export const TABLE_STATISTICS_INTERVAL_MS = 60_000;

/** Whether nothing else analyzes this database: PGlite, or a Postgres with autovacuum off. */
export async function statisticsAreOurs(sql: Sql, kind: "postgres" | "pglite"): Promise<boolean> {
  if (kind === "pglite") return true;
  const [row] = await sql<
    { autovacuum: string }[]
  >`select current_setting('autovacuum') as autovacuum`;
  return row?.autovacuum !== "on";
}

/**
 * Analyzes the current schema's tables whose rows changed as autovacuum's thresholds count;
 * returns their names. Row counts reach the statistics views when a session flushes them:
 * the pass flushes its own first (PGlite's one session makes every change).
 */
export async function analyzeChangedTables(db: Db): Promise<string[]> {
  await db`select pg_stat_force_next_flush()`;
  const tables = await db<{ relname: string }[]>`
    select relname from pg_stat_user_tables
    where schemaname = current_schema()
      and (n_mod_since_analyze > 50 + 0.1 * n_live_tup
        or (last_analyze is null and last_autoanalyze is null and n_live_tup > 0))
    order by relname`;
  for (const { relname } of tables) await db`analyze ${db(relname)}`;
  return tables.map((t) => t.relname);
}
