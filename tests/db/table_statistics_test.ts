/**
 * Planner statistics where no autovacuum keeps them (db/table_statistics.ts): a table whose
 * rows changed past autovacuum's threshold is analyzed once, and not again until it changes
 * again; small changes wait.
 */
import { assert, assertEquals } from "../_assert.ts";
import { resetDatabase, test, testDatabase } from "../_helpers.ts";
import { analyzeChangedTables, statisticsAreOurs } from "../../db/table_statistics.ts";
import type { Sql } from "../../db/client.ts";

async function addOutboxRows(sql: Sql, n: number) {
  await sql`
    insert into email_outbox (to_address, subject, html, text, template)
    select 'probe' || g || '@example.com', 'Probe', '<p>Probe</p>', 'Probe', 'probe'
    from generate_series(1, ${n}::int) g`;
}

async function lastAnalyze(sql: Sql): Promise<Date | null> {
  await sql`select pg_stat_force_next_flush()`;
  const [row] = await sql<{ lastAnalyze: Date | null }[]>`
    select last_analyze from pg_stat_user_tables
    where schemaname = current_schema() and relname = 'email_outbox'`;
  return row.lastAnalyze;
}

test("[table statistics] a table that changed is analyzed once; a few more rows wait for the threshold", async () => {
  const db = await testDatabase();
  await resetDatabase(db.sql);
  // One session for the changes and the pass: a session's row counts reach the statistics
  // views when it flushes them, and the pass flushes its own (PGlite has one session; a
  // Postgres pool that has opened several takes them in turn).
  const sql = await db.sql.reserve();
  try {
    await analyzeChangedTables(sql);
    await addOutboxRows(sql, 300);
    const first = await analyzeChangedTables(sql);
    assert(first.includes("email_outbox"), `analyzed: ${first.join(", ")}`);
    const analyzedAt = await lastAnalyze(sql);
    assert(analyzedAt !== null, "email_outbox has statistics");
    const [{ rows }] = await sql<{ rows: number }[]>`
      select reltuples::int as rows from pg_class where relname = 'email_outbox'`;
    assert(rows >= 300, `the planner knows the table's rows (${rows})`);

    assertEquals((await analyzeChangedTables(sql)).includes("email_outbox"), false);
    await addOutboxRows(sql, 10);
    assertEquals((await analyzeChangedTables(sql)).includes("email_outbox"), false);
    await addOutboxRows(sql, 200);
    assert((await analyzeChangedTables(sql)).includes("email_outbox"));
  } finally {
    sql.release();
  }
});

test("[table statistics] the server keeps them on the embedded database and where autovacuum is off", async () => {
  const db = await testDatabase();
  const [{ autovacuum }] = await db.sql<{ autovacuum: string }[]>`
    select current_setting('autovacuum') as autovacuum`;
  assertEquals(
    await statisticsAreOurs(db.sql, db.kind),
    db.kind === "pglite" || autovacuum !== "on",
  );
});
