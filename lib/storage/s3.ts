/**
 * S3-compatible storage through the official AWS SDK (@aws-sdk/client-s3), selected when
 * S3_BUCKET is set. Uploads go through @aws-sdk/lib-storage's Upload, which sends a body of
 * unknown length as a multipart upload one PART_BYTES part at a time (a file smaller than a
 * part as one PutObject), so memory holds one part, not the file; a failed upload is aborted
 * and leaves no parts behind. Downloads stream the GetObject body.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { Config } from "../config.ts";
import { FileTooLargeError, metered, type StorageProvider } from "./provider.ts";

/** Bytes per multipart part: S3's minimum, so an upload holds as little as S3 allows. */
export const PART_BYTES = 5 * 1024 * 1024;

/** The S3 settings of `Config` the provider needs (S3_BUCKET set). */
export type S3Settings =
  & Pick<
    Config,
    | "S3_ENDPOINT"
    | "S3_REGION"
    | "S3_ACCESS_KEY_ID"
    | "S3_SECRET_ACCESS_KEY"
    | "S3_FORCE_PATH_STYLE"
  >
  & { S3_BUCKET: string };

/** An S3 client for `settings`. */
export function createS3Client(settings: Omit<S3Settings, "S3_BUCKET">): S3Client {
  return new S3Client({
    region: settings.S3_REGION,
    endpoint: settings.S3_ENDPOINT,
    forcePathStyle: settings.S3_FORCE_PATH_STYLE,
    credentials: settings.S3_ACCESS_KEY_ID && settings.S3_SECRET_ACCESS_KEY
      ? {
        accessKeyId: settings.S3_ACCESS_KEY_ID,
        secretAccessKey: settings.S3_SECRET_ACCESS_KEY,
      }
      : undefined,
    // Checksums only where the API requires them: the SDK's default (a CRC trailer on every
    // upload, aws-chunked encoding) is refused by many S3-compatible servers, and the file's
    // SHA-256 is computed and stored by us anyway.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/** A provider keeping objects in the bucket `settings.S3_BUCKET`. */
export function createS3Storage(
  settings: S3Settings,
  client: S3Client = createS3Client(settings),
): StorageProvider {
  const Bucket = settings.S3_BUCKET;
  return {
    kind: "s3",
    async put(key, body, { contentType, maxBytes }) {
      const meter = metered(body, maxBytes);
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: meter.stream, ContentType: contentType },
        partSize: PART_BYTES,
        queueSize: 1,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (err) {
        // Upload reports the body's error wrapped, as is, or (when aborting the multipart
        // upload fails too) not at all, depending on the part it was in.
        if (meter.isTooLarge() || isTooLarge(err)) throw new FileTooLargeError(maxBytes);
        throw err;
      }
      return meter.result();
    },
    async get(key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!out.Body) return undefined;
        return {
          body: out.Body.transformToWebStream() as ReadableStream<Uint8Array>,
          sizeBytes: Number(out.ContentLength ?? 0),
        };
      } catch (err) {
        if (err instanceof NoSuchKey) return undefined;
        if (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404) {
          return undefined;
        }
        throw err;
      }
    },
    async delete(keys) {
      // One request per key: DeleteObjects needs a Content-MD5 some compatible servers check
      // differently, and a survey has few files.
      for (const key of keys) await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}

function isTooLarge(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e !== undefined && depth < 5; depth++) {
    if (e instanceof FileTooLargeError) return true;
    e = e instanceof Error ? e.cause : undefined;
  }
  return false;
}
