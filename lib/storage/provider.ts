/**
 * Where the bytes of survey files live. Two providers share this interface: Postgres
 * (lib/storage/postgres.ts, the default: table file_chunks, so the embedded database needs
 * nothing more) and an S3-compatible bucket (lib/storage/s3.ts, when S3_BUCKET is set).
 * Both stream: an upload is written as it arrives and a download read as it is sent, so a
 * 25 MB file is never held whole in memory.
 */
import { createHash } from "node:crypto";

/** The providers, as survey_files.storage names them. */
export type StorageKind = "postgres" | "s3";

/** What `put` stored. */
export interface StoredObject {
  sizeBytes: number;
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: string;
}

/** A stored object being read. */
export interface StorageObjectStream {
  body: ReadableStream<Uint8Array>;
  sizeBytes: number;
}

/** Stores, streams and deletes objects by key. */
export interface StorageProvider {
  readonly kind: StorageKind;
  /**
   * Stores `body` under `key` as it streams in. Throws `FileTooLargeError` once more than
   * `maxBytes` arrive, and rethrows the stream's own error; either way nothing stays stored.
   */
  put(
    key: string,
    body: ReadableStream<Uint8Array>,
    options: { contentType: string; maxBytes: number },
  ): Promise<StoredObject>;
  /** The object under `key` as a stream, or undefined when there is none. */
  get(key: string): Promise<StorageObjectStream | undefined>;
  /** Deletes the objects under `keys`; keys with nothing stored are ignored. */
  delete(keys: readonly string[]): Promise<void>;
}

/** Thrown by `put` when the body is larger than allowed. */
export class FileTooLargeError extends Error {
  /** `maxBytes`: the limit that was passed. */
  constructor(readonly maxBytes: number) {
    super(`File is larger than ${maxBytes} bytes`);
  }
}

/** A new, unguessable storage key: `survey-files/{yyyy-mm}/{uuid}`. */
export function newStorageKey(now = new Date()): string {
  return `survey-files/${now.toISOString().slice(0, 7)}/${crypto.randomUUID()}`;
}

/**
 * `body` passed through a counter and a SHA-256: the returned stream errors with
 * `FileTooLargeError` as soon as more than `maxBytes` went through, and `result()` gives the
 * size and digest once it has been read to the end; `isTooLarge()` says whether the limit was
 * crossed (a consumer may report the error differently, or report its own clean-up failing).
 */
export function metered(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
): { stream: ReadableStream<Uint8Array>; result(): StoredObject; isTooLarge(): boolean } {
  const hash = createHash("sha256");
  let sizeBytes = 0;
  let digest: string | undefined;
  const stream = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        sizeBytes += chunk.byteLength;
        if (sizeBytes > maxBytes) {
          controller.error(new FileTooLargeError(maxBytes));
          return;
        }
        hash.update(chunk);
        controller.enqueue(chunk);
      },
      flush() {
        digest = hash.digest("hex");
      },
    }),
  );
  return {
    stream,
    isTooLarge: () => sizeBytes > maxBytes,
    result() {
      if (digest === undefined) throw new Error("metered stream read before its end");
      return { sizeBytes, sha256: digest };
    },
  };
}
