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
        // The bytes themselves, in binary format (vendor/postgres/README.md, part 6): no
        // string is made of them. As text (hex, or base64 as before) each chunk became a
        // string over V8's regular object size, freed only by a major GC, and eight parallel
        // 24 MB uploads grew the server by 90–130 MB; now it stays flat (bench/upload_memory.ts).
        // The chunk buffer is reused only once the insert has answered.
        const data = Buffer.from(buffer.buffer, 0, filled);
        await sql`
          insert into file_chunks (storage_key, chunk_index, data)
          values (${key}, ${index}, ${data})`;
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
