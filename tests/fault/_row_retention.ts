/**
 * Run by tests/fault/driver_test.ts in a process of its own, with V8's `gc` exposed: reads rows
 * of a 36-character id beside a 1 MB text, keeps only the ids, collects, and prints how much
 * the heap grew, in MB. On DATABASE_URL, or an in-memory PGlite without it.
 */
import { openDatabase } from "../../db/client.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --v8-flags=--expose-gc");
const db = await openDatabase(
  { DATABASE_URL: Deno.env.get("DATABASE_URL") || undefined, DATA_DIR: "" },
  { memory: true },
);
// A connection keeps its last result until its next statement: one more after each read.
const settle = async () => {
  await db.sql`select 1`;
  gc();
  gc();
};
try {
  const statement = () =>
    db.sql<{ id: string; pad: string; ids: string[] }[]>`
      select lpad(i::text, 36, 'r') as id, repeat('x', 1000000) as pad,
        array[lpad(i::text, 20, 'a'), 'b'] as ids
      from generate_series(1, 30) as i`;
  // Warm the statement and the heap first, so the figure is what the kept values hold.
  await statement();
  await settle();
  const before = Deno.memoryUsage().heapUsed;
  const rows = await statement();
  const kept = rows.flatMap((row) => [row.id, row.ids[0]]);
  rows.length = 0;
  await settle();
  const grownMb = (Deno.memoryUsage().heapUsed - before) / (1024 * 1024);
  console.log(JSON.stringify({ grownMb, kept: kept.length, first: kept[0] }));
} finally {
  await db.close();
}
