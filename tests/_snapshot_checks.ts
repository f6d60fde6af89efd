/**
 * Remembered pages' tests (db/snapshot_cache.ts) run with both ways of checking a remembered
 * page: the gate in its statement, and a statement of its own (`checkSnapshotApart`, the
 * embedded database's way), on whichever database the tests use.
 */
import { test, testDatabase } from "./_helpers.ts";
import { checkSnapshotApart } from "../db/snapshot_cache.ts";

/** `fn` as two tests named `[area] name (checked …)`, one per way of checking. */
export function testBothChecks(area: string, name: string, fn: () => Promise<void>): void {
  for (const apart of [false, true]) {
    test(`[${area}] ${name} (checked ${apart ? "apart" : "by the gate"})`, async () => {
      const { sql } = await testDatabase();
      const was = checkSnapshotApart(sql, apart);
      try {
        await fn();
      } finally {
        checkSnapshotApart(sql, was);
      }
    });
  }
}
