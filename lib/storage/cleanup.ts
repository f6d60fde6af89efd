/**
 * Deletes storage objects whose survey_files row is gone or never came (table
 * storage_cleanup, migration 0019): an upload registers its key before storing a byte and
 * removes it with the row that records the file, and a deleted file row queues its object.
 * The Postgres provider's bytes of a deleted row go at once (a trigger); the sweep deletes
 * the rest (S3 objects, and chunks of uploads that died half way) from the provider.
 */
import type { Db, Sql } from "../../db/client.ts";
import type { StorageKind, StorageProvider } from "./provider.ts";

/** How long an upload may take before its unclaimed bytes count as abandoned. */
export const UPLOAD_GRACE_MINUTES = 60;

/** How often the server sweeps (main.ts). */
export const STORAGE_SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * Registers `key` as an upload in progress: swept after `UPLOAD_GRACE_MINUTES` unless
 * `claimUpload` runs first.
 */
export async function registerUpload(
  db: Db,
  { key, storage }: { key: string; storage: StorageKind },
): Promise<void> {
  await db`
    insert into storage_cleanup (storage_key, storage, not_before)
    values (${key}, ${storage}, now() + make_interval(mins => ${UPLOAD_GRACE_MINUTES}))`;
}

/** Marks the upload of `key` as recorded (its survey_files row exists): nothing to sweep. */
export async function claimUpload(db: Db, { key }: { key: string }): Promise<void> {
  await db`delete from storage_cleanup where storage_key = ${key}`;
}

/**
 * Deletes, from `storage` and then from the queue, up to `limit` due objects of that
 * provider's kind. Returns how many went. Throws when the database or provider fails (the
 * rows stay queued for the next sweep).
 */
export async function sweepStorage(
  sql: Sql,
  storage: StorageProvider,
  { limit = 500, now = false }: { limit?: number; now?: boolean } = {},
): Promise<number> {
  const due = await sql<{ storageKey: string }[]>`
    select storage_key from storage_cleanup
    where storage = ${storage.kind} and (${now} or not_before <= now())
    order by not_before limit ${limit}`;
  if (due.length === 0) return 0;
  const keys = due.map((row) => row.storageKey);
  // A key claimed by a survey_files row meanwhile (an upload finishing just now) is kept.
  const live = await sql<{ storageKey: string }[]>`
    select storage_key from survey_files where storage_key in ${sql(keys)}`;
  const liveKeys = new Set(live.map((row) => row.storageKey));
  await storage.delete(keys.filter((key) => !liveKeys.has(key)));
  await sql`delete from storage_cleanup where storage_key in ${sql(keys)}`;
  return keys.length - liveKeys.size;
}
