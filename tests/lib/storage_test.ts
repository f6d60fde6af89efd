/**
 * The storage providers: Postgres (file_chunks) and S3-compatible against a local s3rver
 * started in a process of its own on port 0 (tests/_s3rver.ts says why not in this one).
 * Each: put / get / delete round trip, a body over the limit leaves nothing, and for S3 one
 * HTTP upload and download through the app with S3 selected by configuration, a file deleted
 * through the API, and a deleted survey's object removed by the sweep.
 */
import { ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import { createHash } from "node:crypto";
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { createTestApp, test, testDatabase } from "../_helpers.ts";
import { expectJson } from "../_fixtures.ts";
import {
  bytesStartingWith,
  download,
  fileFixture,
  storedCounts,
  upload,
} from "../_file_fixtures.ts";
import { createPostgresStorage } from "../../lib/storage/postgres.ts";
import { createS3Client, createS3Storage } from "../../lib/storage/s3.ts";
import { createStorageProvider } from "../../lib/storage/select.ts";
import {
  FileTooLargeError,
  newStorageKey,
  type StorageProvider,
} from "../../lib/storage/provider.ts";
import { sweepStorage } from "../../lib/storage/cleanup.ts";
import { testConfig } from "../_helpers.ts";
import { startS3rver } from "../_s3rver.ts";

const BUCKET = "meridian-test-files";

/** An s3rver on a free port with an empty bucket, and how to reach and stop it. */
async function startS3(): Promise<
  { env: Record<string, string>; client: S3Client; stop(): Promise<void> }
> {
  const directory = await Deno.makeTempDir({ prefix: "meridian-s3rver-" });
  const server = await startS3rver(directory, BUCKET);
  const port = server.port;
  const env = {
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: "us-east-1",
    // s3rver's fixed credentials.
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    S3_FORCE_PATH_STYLE: "1",
  };
  const config = testConfig(env);
  const client = createS3Client(config);
  return {
    env,
    client,
    async stop() {
      client.destroy();
      await server.stop();
      await Deno.remove(directory, { recursive: true });
    },
  };
}

async function objectKeys(client: S3Client): Promise<string[]> {
  const out = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (out.Contents ?? []).map((o) => o.Key!).sort();
}

/** A stream of `bytes` in pieces of `piece` bytes, as a network would deliver them. */
function streamOf(bytes: Uint8Array, piece = 64 * 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + piece));
      offset += piece;
    },
  });
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function roundTrip(storage: StorageProvider) {
  const bytes = bytesStartingWith("%PDF-1.5\n", 6 * 1024 * 1024 + 123);
  const key = newStorageKey();
  const stored = await storage.put(key, streamOf(bytes), {
    contentType: "application/pdf",
    maxBytes: 25 * 1024 * 1024,
  });
  assertEquals(stored, { sizeBytes: bytes.length, sha256: sha256(bytes) });
  const object = await storage.get(key);
  assert(object, "stored object not found");
  assertEquals(object.sizeBytes, bytes.length);
  const back = await readAll(object.body);
  assertEquals(sha256(back), sha256(bytes));
  await storage.delete([key]);
  assertEquals(await storage.get(key), undefined);
  // Over the limit: an error, and nothing under the key.
  const tooBig = newStorageKey();
  assert(
    (await assertRejects(() =>
      storage.put(tooBig, streamOf(bytes), { contentType: "application/pdf", maxBytes: 5_000_000 })
    )) instanceof FileTooLargeError,
  );
  assertEquals(await storage.get(tooBig), undefined);
}

test("[storage] Postgres provider: 256 KB chunks, streamed back, deleted, nothing left over the limit", async () => {
  const db = await testDatabase();
  const t = await createTestApp();
  const storage = createPostgresStorage(db.sql);
  await roundTrip(storage);
  // An object of 600 KB is three rows.
  const key = newStorageKey();
  await storage.put(key, streamOf(new Uint8Array(600 * 1024).fill(7), 1000), {
    contentType: "image/png",
    maxBytes: 1_000_000,
  });
  const rows = await db.sql<{ chunkIndex: number; size: number }[]>`
    select chunk_index, octet_length(data) as size from file_chunks where storage_key = ${key}
    order by chunk_index`;
  assertEquals(rows.map((r) => [r.chunkIndex, r.size]), [[0, 262144], [1, 262144], [2, 90112]]);
  assertEquals((await storedCounts(t)).chunks, 3);
  t.close();
});

test("[storage] S3 provider against s3rver: put, get, delete; a body over the limit leaves no object", async () => {
  const s3 = await startS3();
  try {
    const db = await testDatabase();
    const config = testConfig(s3.env);
    const storage = createStorageProvider(config, db.sql);
    assertEquals(storage.kind, "s3");
    await roundTrip(storage);
    // Small (one PutObject) and multipart (over 5 MB) uploads both leave nothing behind.
    assertEquals(await objectKeys(s3.client), []);
    const small = createS3Storage({ ...config, S3_BUCKET: BUCKET });
    const key = newStorageKey();
    await small.put(key, streamOf(new Uint8Array([1, 2, 3])), {
      contentType: "text/csv",
      maxBytes: 10,
    });
    assertEquals(await objectKeys(s3.client), [key]);
    await small.delete([key, "never-stored"]);
    assertEquals(await objectKeys(s3.client), []);
  } finally {
    await s3.stop();
  }
});

test("[storage] with S3 selected, files go through the API to the bucket and leave with their survey", async () => {
  const s3 = await startS3();
  try {
    const t = await createTestApp({ env: s3.env });
    assertEquals(t.deps.storage.kind, "s3");
    const f = await fileFixture(t);
    const bytes = bytesStartingWith("%PDF-1.7\n", 7 * 1024 * 1024);
    const body = await expectJson(
      await upload(t, f.survey.id, {
        cookie: f.cookies.surveyor,
        kind: "deliverable",
        bytes,
        fileName: "plat.pdf",
      }),
      201,
    );
    const [row] = await t.sql<{ storage: string; storageKey: string }[]>`
      select storage, storage_key from survey_files where id = ${body.file.id}`;
    assertEquals(row.storage, "s3");
    assertEquals(await objectKeys(s3.client), [row.storageKey]);
    // Nothing in the database but the metadata.
    assertEquals(await storedCounts(t), { files: 1, chunks: 0, pending: 0 });

    const res = await download(t, body.file.id, f.cookies.client);
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("content-type"), "application/pdf");
    assertEquals(res.headers.get("content-length"), String(bytes.length));
    assertEquals(sha256(new Uint8Array(await res.arrayBuffer())), sha256(bytes));

    // An oversized upload leaves no object (the multipart upload is aborted).
    const tooBig = await upload(t, f.survey.id, {
      cookie: f.cookies.surveyor,
      kind: "deliverable",
      bytes: bytesStartingWith("%PDF-1.7\n", 25 * 1024 * 1024 + 1),
    });
    await expectJson(tooBig, 413);
    assertEquals(await objectKeys(s3.client), [row.storageKey]);

    // Deleted through the API: the object goes at once.
    const photo = await expectJson(
      await upload(t, f.survey.id, {
        cookie: f.cookies.technician,
        kind: "photo",
        bytes: bytesStartingWith(new Uint8Array([0xff, 0xd8, 0xff, 0xe1]), 2048),
      }),
      201,
    );
    assertEquals((await objectKeys(s3.client)).length, 2);
    await expectJson(
      await t.request("DELETE", `/api/files/${photo.file.id}`, { cookie: f.cookies.technician }),
      200,
    );
    assertEquals(await objectKeys(s3.client), [row.storageKey]);

    // A deleted survey queues its objects; the sweep deletes them from the bucket.
    await t.sql`delete from surveys where id = ${f.survey.id}`;
    assertEquals(await storedCounts(t), { files: 0, chunks: 0, pending: 1 });
    assertEquals(await sweepStorage(t.sql, t.deps.storage), 1);
    assertEquals(await objectKeys(s3.client), []);
    assertEquals(await storedCounts(t), { files: 0, chunks: 0, pending: 0 });
    t.close();
  } finally {
    await s3.stop();
  }
});

test("[storage] the sweep deletes the bytes of an upload that never got its row, once it is due", async () => {
  const t = await createTestApp();
  const key = newStorageKey();
  await t.sql`insert into storage_cleanup (storage_key, storage, not_before)
    values (${key}, 'postgres', now() + interval '1 hour')`;
  await t.deps.storage.put(key, streamOf(new Uint8Array(1000)), {
    contentType: "text/csv",
    maxBytes: 2000,
  });
  // Still within the hour: the upload may be in progress.
  assertEquals(await sweepStorage(t.sql, t.deps.storage), 0);
  assertEquals((await storedCounts(t)).chunks, 1);
  await t.sql`update storage_cleanup set not_before = now() - interval '1 second'`;
  assertEquals(await sweepStorage(t.sql, t.deps.storage), 1);
  assertEquals(await storedCounts(t), { files: 0, chunks: 0, pending: 0 });
  t.close();
});
