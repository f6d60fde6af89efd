/**
 * Deletes storage objects whose survey_files row is gone or never came (table
 * storage_cleanup, migration 0019): an upload registers its key before storing a byte and
 * removes it with the row that records the file, and a deleted file row queues its object.
 * The Postgres provider's bytes of a deleted row go at once (a trigger); the sweep deletes
 * the rest (S3 objects, and chunks of uploads that died half way) from the provider.
 *
 * A queue row goes only after its object's delete succeeded: when the provider or the
 * database fails (an outage), the row stays and is retried with backoff (migration 0033).
 * Chunks that no file row and no queue row know are swept too (`sweepOrphanChunks`).
 */
import type { Db, Sql } from "../../db/client.ts";
import type { StorageKind, StorageProvider } from "./provider.ts";

/** How long an upload may take before its unclaimed bytes count as abandoned. */
export const UPLOAD_GRACE_MINUTES = 60;

/**
 * How often the server sweeps (main.ts): often enough that a delete that failed in an outage
 * is retried within minutes of it; each row's own backoff keeps a lasting failure cheap.
 */
export const STORAGE_SWEEP_INTERVAL_MS = 60_000;

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

/** Longest wait between two attempts at deleting the same object. */
export const MAX_RETRY_SECONDS = 6 * 3600;

/** How often the server looks for chunks that belong to no file and no upload (main.ts). */
export const ORPHAN_SWEEP_INTERVAL_MS = 60 * 60_000;

/**
 * Deletes, from `storage` and then from the queue, up to `limit` due objects of that
 * provider's kind. Returns how many went. A row leaves the queue only once its object's
 * delete succeeded: when the provider fails, the rows stay, their attempts are counted and
 * each is retried after 1, 2, 4 … minutes (at most `MAX_RETRY_SECONDS`), and the provider's
 * error is thrown. Throws when the database fails (nothing changed then).
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
  try {
    await storage.delete(keys.filter((key) => !liveKeys.has(key)));
  } catch (err) {
    await postpone(sql, keys, err);
    throw err;
  }
  await sql`delete from storage_cleanup where storage_key in ${sql(keys)}`;
  return keys.length - liveKeys.size;
}

/** Counts a failed attempt on `keys` and moves their next one back (exponential backoff). */
async function postpone(sql: Db, keys: readonly string[], err: unknown): Promise<void> {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
  await sql`
    update storage_cleanup set attempts = attempts + 1, last_error = ${message},
      not_before = now() + make_interval(secs => least(60 * power(2, attempts), ${MAX_RETRY_SECONDS}))
    where storage_key in ${sql(keys)}`.catch(() => {
    // The database is down too: the rows stay due and the next sweep tries again.
  });
}

/**
 * Deletes the bytes of `key` from `storage` and then its queue row: what a request does with
 * an upload it refused or could not finish. Returns whether both went. When the provider or
 * the database fails, the row stays (made due at once when the database answers), so the
 * sweep deletes the bytes later; nothing is thrown.
 */
export async function releaseUpload(
  sql: Db,
  storage: StorageProvider,
  { key }: { key: string },
): Promise<boolean> {
  try {
    await storage.delete([key]);
  } catch (err) {
    console.error(`[storage] could not delete ${key}; the sweep retries it`, err);
    await sql`
      update storage_cleanup set attempts = attempts + 1, not_before = now(),
        last_error = ${(err instanceof Error ? err.message : String(err)).slice(0, 500)}
      where storage_key = ${key}`.catch(() => {});
    return false;
  }
  try {
    await sql`delete from storage_cleanup where storage_key = ${key}`;
    return true;
  } catch (err) {
    // The bytes are gone; the row left behind costs the sweep one no-op delete.
    console.error(`[storage] ${key} deleted, its queue row not`, err);
    return false;
  }
}

/**
 * Deletes file_chunks of keys that neither a survey_files row nor a storage_cleanup row knows
 * (left by a crash between the two, an upload that outlived its registration, or the leak this
 * replaced); up to `limit` keys a run. Returns how many keys went. An upload registers its key
 * before its first chunk and trades the registration for its file row in one transaction, so
 * at every moment a live chunk's key is in one of the two tables and this never takes one.
 */
export async function sweepOrphanChunks(sql: Sql, { limit = 100 } = {}): Promise<number> {
  const rows = await sql<{ storageKey: string }[]>`
    delete from file_chunks c
    where c.storage_key in (
      select distinct k.storage_key from file_chunks k
      where not exists (select 1 from survey_files f where f.storage_key = k.storage_key)
        and not exists (select 1 from storage_cleanup q where q.storage_key = k.storage_key)
      limit ${limit})
    returning c.storage_key`;
  return new Set(rows.map((row) => row.storageKey)).size;
}
