import type postgres from "postgres";
import type { Db } from "../db/client.ts";

/**
 * Makes `table`'s rows (those `where` selects, else every row) older by `by` (a minute), so
 * that the rows a test makes next are later for certain. Rows made back to back can share a
 * timestamp (PGlite's `now()` steps by a millisecond: 461 of 500 back-to-back insert pairs shared
 * one), and a tie is ordered by id, which says nothing of which came first: a test asserting an
 * order by time makes the earlier rows older before it makes the next.
 */
export function makeOlder(
  sql: Db,
  table: string,
  { where, by = "1 minute" }: { where?: postgres.PendingQuery<postgres.Row[]>; by?: string } = {},
): postgres.PendingQuery<postgres.Row[]> {
  return sql`update ${sql(table)} set created_at = created_at - ${by}::interval
    where ${where ?? sql`true`}`;
}
