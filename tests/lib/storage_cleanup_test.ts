/**
 * Storage clean-up under faults (issue 20: "upload chunks leak when their delete fails during
 * an outage (the cleanup record is removed anyway): 6 MB orphaned per run, never swept"): a
 * queued object stays queued until its delete succeeded, failed deletes are retried with
 * backoff, and chunks nothing knows are swept.
 */
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { bytesStartingWith, fileFixture, storedCounts, upload } from "../_file_fixtures.ts";
import { createPostgresStorage } from "../../lib/storage/postgres.ts";
import { newStorageKey, type StorageProvider } from "../../lib/storage/provider.ts";
import { sweepOrphanChunks, sweepStorage } from "../../lib/storage/cleanup.ts";
import type { Sql } from "../../db/client.ts";

/**
 * The Postgres provider with faults: `put` stores every chunk and then fails (its answer lost
 * in an outage, so it cleans nothing up), and `delete` fails while `failingDeletes` > 0.
 */
function faultyStorage(sql: Sql) {
  const inner = createPostgresStorage(sql);
  const faults = { failingDeletes: 0, deleteCalls: 0 };
  const storage: StorageProvider = {
    kind: "postgres",
    async put(key, body, options) {
      await inner.put(key, body, options);
      throw new Error("connection lost while storing");
    },
    get: (key) => inner.get(key),
    async delete(keys) {
      faults.deleteCalls++;
      if (faults.failingDeletes > 0) {
        faults.failingDeletes--;
        throw new Error("connection refused");
      }
      await inner.delete(keys);
    },
  };
  return { storage, faults };
}

async function queueRows(sql: Sql) {
  return await sql<{ storageKey: string; attempts: number; isDue: boolean }[]>`
    select storage_key, attempts, not_before <= now() as is_due from storage_cleanup`;
}

test("[storage] an upload whose chunks cannot be deleted in an outage stays queued until a retry deletes them", async () => {
  const t = await createTestApp();
  const faulty = faultyStorage(t.sql);
  // The app reads its providers from deps on each request.
  t.deps.storage = faulty.storage;
  const f = await fileFixture(t);
  faulty.faults.failingDeletes = 2;
  const res = await upload(t, f.survey.id, {
    cookie: f.cookies.surveyor,
    kind: "deliverable",
    bytes: bytesStartingWith("%PDF-1.7\n", 600 * 1024),
  });
  assert(res.status >= 500, `answered ${res.status}`);
  await res.body?.cancel();
  // The chunks could not be deleted: their key stays queued (it was removed before).
  const counts = await storedCounts(t);
  assertEquals([counts.files, counts.chunks, counts.pending], [0, 3, 1]);
  const [queued] = await queueRows(t.sql);
  assertEquals([queued.attempts, queued.isDue], [1, true]);

  // The sweep's delete fails too: the row stays, counted, and waits before the next try.
  await assertRejects(() => sweepStorage(t.sql, t.deps.storage));
  const [postponed] = await queueRows(t.sql);
  assertEquals([postponed.attempts, postponed.isDue], [2, false]);
  assertEquals((await storedCounts(t)).chunks, 3);
  const calls = faulty.faults.deleteCalls;
  assertEquals(await sweepStorage(t.sql, t.deps.storage), 0);
  assertEquals(faulty.faults.deleteCalls, calls, "a postponed row was retried at once");

  // Once its time comes and the storage answers, the bytes and then the row go.
  await t.sql`update storage_cleanup set not_before = now()`;
  assertEquals(await sweepStorage(t.sql, t.deps.storage), 1);
  assertEquals(await storedCounts(t), { files: 0, chunks: 0, pending: 0 });
  t.close();
});

test("[storage] the backoff doubles per failed attempt, up to six hours", async () => {
  const t = await createTestApp();
  const { storage, faults } = faultyStorage(t.sql);
  const key = newStorageKey();
  await t.sql`insert into storage_cleanup (storage_key, storage) values (${key}, 'postgres')`;
  const waits: number[] = [];
  for (let attempt = 0; attempt < 11; attempt++) {
    faults.failingDeletes = 1;
    await assertRejects(() => sweepStorage(t.sql, storage, { now: true }));
    const [row] = await t.sql<{ minutes: number }[]>`
      select round(extract(epoch from not_before - now()) / 60)::int as minutes
      from storage_cleanup`;
    waits.push(row.minutes);
  }
  assertEquals(waits, [1, 2, 4, 8, 16, 32, 64, 128, 256, 360, 360]);
  t.close();
});

test("[storage] chunks that no file and no upload knows are swept; the others stay", async () => {
  const t = await createTestApp();
  const f = await fileFixture(t);
  const storage = createPostgresStorage(t.sql);
  const put = (key: string) =>
    storage.put(key, new Blob([new Uint8Array(300 * 1024)]).stream(), {
      contentType: "application/pdf",
      maxBytes: 1024 * 1024,
    });
  // A recorded file, an upload in progress (registered), and what an outage left.
  const recorded = await expectUploaded(t, f);
  const inProgress = newStorageKey();
  await t.sql`insert into storage_cleanup (storage_key, storage, not_before)
    values (${inProgress}, 'postgres', now() + interval '1 hour')`;
  await put(inProgress);
  const orphan = newStorageKey();
  await put(orphan);
  assertEquals(await sweepOrphanChunks(t.sql), 1);
  const keys = await t.sql<{ storageKey: string }[]>`
    select distinct storage_key from file_chunks order by storage_key`;
  assertEquals(keys.map((k) => k.storageKey), [recorded, inProgress].sort());
  assertEquals(await sweepOrphanChunks(t.sql), 0);
  t.close();
});

async function expectUploaded(
  t: Awaited<ReturnType<typeof createTestApp>>,
  f: Awaited<ReturnType<typeof fileFixture>>,
): Promise<string> {
  const res = await upload(t, f.survey.id, {
    cookie: f.cookies.surveyor,
    kind: "deliverable",
    bytes: bytesStartingWith("%PDF-1.7\n", 1000),
  });
  assertEquals(res.status, 201);
  const { file } = await res.json();
  const [row] = await t.sql<{ storageKey: string }[]>`
    select storage_key from survey_files where id = ${file.id}`;
  return row.storageKey;
}
