/**
 * The default storage provider: objects in the database, table file_chunks, one row per
 * CHUNK_BYTES. An upload inserts each chunk as soon as it is full and a download selects one
 * chunk per pull, so at most a chunk or two of a file is in memory at a time. No transaction
 * spans an upload: on the embedded database (one connection) it would hold every other
 * request for as long as a slow client takes to send; a failed upload deletes its chunks
 * instead, and the cleanup sweep (lib/storage/cleanup.ts) catches one that died outright.
 */
import { Buffer } from "node:buffer";
import type { Sql } from "../../db/client.ts";
import { metered, type StorageProvider } from "./provider.ts";

/** Bytes per file_chunks row. */
export const CHUNK_BYTES = 256 * 1024;
/** Bytes per query parameter: base64 of it (87 KB) stays under V8's large-object size. */
const PART_BYTES = 64 * 1024;
const PARTS_PER_CHUNK = CHUNK_BYTES / PART_BYTES;

/** A provider keeping objects in `sql`'s file_chunks table. */
export function createPostgresStorage(sql: Sql): StorageProvider {
  async function deleteKeys(keys: readonly string[]) {
    if (keys.length === 0) return;
    await sql`delete from file_chunks where storage_key in ${sql(keys)}`;
  }
  return {
    kind: "postgres",
    async put(key, body, { maxBytes }) {
      const meter = metered(body, maxBytes);
      const buffer = new Uint8Array(CHUNK_BYTES);
      let filled = 0;
      let index = 0;
      const flush = async () => {
        // postgres.js sends every parameter as text, so the bytes go as base64 (a bytea
        // parameter would go as hex: twice the size). A string over V8's regular object size
        // (128 KB) lands in the large-object space, which only a major GC frees: one string
        // per 256 KB chunk (~340 KB) grew the server by ~16 MB per parallel 24 MB upload. Four
        // strings of 64 KB each (~87 KB) are young-generation garbage, gone at the next
        // scavenge, and the row stays one chunk (bench/upload_memory.ts).
        const parts = Array.from({ length: PARTS_PER_CHUNK }, (_, i) => {
          const start = Math.min(i * PART_BYTES, filled);
          const end = Math.min(start + PART_BYTES, filled);
          return Buffer.from(buffer.buffer, start, end - start).toString("base64");
        });
        await sql`
          insert into file_chunks (storage_key, chunk_index, data)
          values (${key}, ${index}, decode(${parts[0]}, 'base64') || decode(${parts[1]}, 'base64')
            || decode(${parts[2]}, 'base64') || decode(${parts[3]}, 'base64'))`;
        index++;
        filled = 0;
      };
      try {
        for await (const piece of meter.stream) {
          let offset = 0;
          while (offset < piece.byteLength) {
            const take = Math.min(CHUNK_BYTES - filled, piece.byteLength - offset);
            buffer.set(piece.subarray(offset, offset + take), filled);
            filled += take;
            offset += take;
            if (filled === CHUNK_BYTES) await flush();
          }
        }
        if (filled > 0 || index === 0) await flush();
        return meter.result();
      } catch (err) {
        await deleteKeys([key]).catch(() => {});
        throw err;
      }
    },
    async get(key) {
      const [row] = await sql<{ chunks: number; sizeBytes: number }[]>`
        select count(*)::int as chunks, coalesce(sum(octet_length(data)), 0)::bigint::float8
          as size_bytes
        from file_chunks where storage_key = ${key}`;
      if (!row || row.chunks === 0) return undefined;
      let index = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const [chunk] = await sql<{ data: Uint8Array }[]>`
            select data from file_chunks
            where storage_key = ${key} and chunk_index = ${index}`;
          if (!chunk) {
            controller.error(new Error(`storage object ${key} lost chunk ${index}`));
            return;
          }
          controller.enqueue(chunk.data);
          index++;
          if (index === row.chunks) controller.close();
        },
      }, { highWaterMark: 0 });
      return { body, sizeBytes: row.sizeBytes };
    },
    delete: deleteKeys,
  };
}
