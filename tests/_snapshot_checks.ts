/**
 * Remembered pages' tests (db/snapshot_cache.ts) run with each way of checking a remembered
 * page: the gate in its statement, a statement of its own (the embedded database's way), and
 * each by turns as the page's last check found it (Postgres's way), on whichever database the
 * tests use (`setSnapshotCheck`).
 */
import { test, testDatabase } from "./_helpers.ts";
import { setSnapshotCheck, type SnapshotCheck } from "../db/snapshot_cache.ts";

const NAMES: Record<SnapshotCheck, string> = {
  gate: "by the gate",
  apart: "apart",
  adaptive: "as its last check found it",
};

/** `fn` as three tests named `[area] name (checked …)`, one per way of checking. */
export function testEachCheck(area: string, name: string, fn: () => Promise<void>): void {
  for (const check of ["gate", "apart", "adaptive"] as const) {
    test(`[${area}] ${name} (checked ${NAMES[check]})`, async () => {
      const { sql } = await testDatabase();
      const was = setSnapshotCheck(sql, check);
      try {
        await fn();
      } finally {
        setSnapshotCheck(sql, was);
      }
    });
  }
}
