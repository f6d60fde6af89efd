/**
 * multipart/form-data (RFC 7578) over a request body stream, parsed by busboy (npm:busboy, the
 * parser of multer and fastify): parts come one at a time, text fields as strings and each
 * file as a stream that reads through to the request, so a file is passed on as it arrives and
 * never held whole. Memory per upload stays a constant: busboy holds at most its file stream's
 * buffer (FILE_BUFFER_BYTES) and its input buffer; once the file's reader stops reading, busboy
 * stops taking input and this module stops reading the request (backpressure end to end).
 * bench/upload_memory.ts measures it.
 */
import { Buffer } from "node:buffer";
import type { Readable } from "node:stream";
// Types only: busboy itself is loaded by the first upload (parseMultipart). Imported at start
// it cost every server 2.4 MB of heap and 15 MB resident that most never use (bench/memory.ts).
// @ts-types="@types/busboy"
import type busboyModule from "busboy";

/** A text field, read whole (it is small: `maxFieldBytes`). */
export interface MultipartField {
  type: "field";
  name: string;
  value: string;
}

/** A file part: `body` must be read to its end or cancelled before asking for the next part. */
export interface MultipartFile {
  type: "file";
  /** The field name. */
  name: string;
  /** The file name the browser sent (base name, UTF-8; "" when it sent an empty one). */
  filename: string;
  /** The part's Content-Type header (never trusted for a file's type). */
  contentType: string | undefined;
  body: ReadableStream<Uint8Array>;
}

/** One part of the form. */
export type MultipartPart = MultipartField | MultipartFile;

/** The body is not well-formed multipart (a 400). */
export class MultipartError extends Error {}

/** The body is longer than `maxBytes` (a 413). */
export class MultipartTooLargeError extends Error {}

/** What busboy buffers of a file its reader has not taken yet. */
const FILE_BUFFER_BYTES = 64 * 1024;

/** The boundary of a `multipart/form-data` Content-Type, or undefined. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

/** `err` as this module's errors: busboy's own (malformed input) become `MultipartError`. */
function asMultipartError(err: unknown): Error {
  if (err instanceof MultipartError || err instanceof MultipartTooLargeError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new MultipartError(message.replace(/^Multipart: /, "").toLowerCase());
}

/**
 * A web stream over busboy's file stream: pauses it when the web stream's queue is full (busboy
 * then stops parsing), and on cancel drains the rest so the form can go on.
 */
function fileBody(file: Readable): { body: ReadableStream<Uint8Array>; drain(): void } {
  let isCancelled = false;
  let isClosed = false;
  const drain = () => {
    if (isClosed || isCancelled) return;
    isCancelled = true;
    file.resume();
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      file.on("data", (chunk: Buffer) => {
        if (isCancelled) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) file.pause();
      });
      file.once("end", () => {
        isClosed = true;
        if (!isCancelled) controller.close();
      });
      file.once("error", (err) => {
        isClosed = true;
        if (!isCancelled) controller.error(asMultipartError(err));
      });
      file.pause();
    },
    pull() {
      file.resume();
    },
    cancel() {
      drain();
    },
  }, new ByteLengthQueuingStrategy({ highWaterMark: FILE_BUFFER_BYTES }));
  return { body, drain };
}

/**
 * The parts of a multipart body, in order. Each file's `body` streams from `body`; moving to
 * the next part first drops whatever of the previous file the caller did not read. Throws
 * `MultipartError` for a malformed body (no boundary, a malformed part header, a nameless
 * part, a field over `maxFieldBytes`, more than `maxParts` parts, a file name that is not
 * UTF-8, ending before its closing boundary) and `MultipartTooLargeError` once more than
 * `maxBytes` arrive.
 */
export async function* parseMultipart(
  body: ReadableStream<Uint8Array>,
  { contentType, maxBytes, maxParts = 20, maxFieldBytes = 1024 }: {
    contentType: string;
    maxBytes: number;
    maxParts?: number;
    maxFieldBytes?: number;
  },
): AsyncGenerator<MultipartPart> {
  const { default: busboy } = await import("busboy") as { default: typeof busboyModule };
  let parser: busboyModule.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      // Browsers send file names as raw UTF-8 (HTML's multipart/form-data encoding).
      defParamCharset: "utf8",
      fileHwm: FILE_BUFFER_BYTES,
      highWaterMark: FILE_BUFFER_BYTES,
      limits: { fieldSize: maxFieldBytes + 1, fieldNameSize: 100 },
    });
  } catch (err) {
    throw asMultipartError(err);
  }
  const queue: (MultipartPart & { drain?: () => void })[] = [];
  let failure: Error | undefined;
  let isFinished = false;
  let parts = 0;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const fail = (err: unknown) => {
    if (failure) return;
    failure = asMultipartError(err);
    parser.destroy(failure);
    notify();
  };
  const counted = () => {
    if (++parts <= maxParts) return true;
    fail(new MultipartError(`more than ${maxParts} parts`));
    return false;
  };

  parser.on("field", (name, value, info) => {
    if (!counted()) return;
    if (!name) return fail(new MultipartError("part without a name"));
    if (info.nameTruncated) return fail(new MultipartError("field name too long"));
    if (info.valueTruncated || Buffer.byteLength(value) > maxFieldBytes) {
      return fail(new MultipartError(`field ${name} is too long`));
    }
    queue.push({ type: "field", name, value });
    notify();
  });
  parser.on("file", (name, file, info) => {
    // A failure destroys the file stream with it: reported through the form, not thrown.
    file.on("error", () => {});
    if (!counted()) return;
    if (!name) return fail(new MultipartError("part without a name"));
    // busboy takes an application/octet-stream part without a file name for a file too.
    const sent = info.filename ?? "";
    if (sent.includes("\ufffd")) return fail(new MultipartError("file name is not UTF-8"));
    // Browsers escape a quote in a file name as %22.
    const filename = sent.replaceAll("%22", '"');
    const { body, drain } = fileBody(file);
    queue.push({ type: "file", name, filename, contentType: info.mimeType, body, drain });
    notify();
  });
  parser.on("error", fail);
  parser.on("finish", () => {
    isFinished = true;
    notify();
  });

  const reader = body.getReader();
  const pump = async () => {
    let size = 0;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (failure) return;
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) throw new MultipartTooLargeError(`body over ${maxBytes} bytes`);
        if (!parser.write(value)) {
          // busboy's buffer is full: its file's reader is behind. Wait until it caught up.
          await new Promise<void>((resolve) => {
            const go = () => {
              parser.off("drain", go);
              parser.off("close", go);
              resolve();
            };
            parser.on("drain", go);
            parser.on("close", go);
          });
        }
      }
      parser.end();
    } catch (err) {
      fail(err);
    }
  };
  const pumping = pump();

  try {
    for (;;) {
      if (failure) throw failure;
      const part = queue.shift();
      if (part) {
        const { drain, ...out } = part;
        yield out as MultipartPart;
        drain?.();
        continue;
      }
      if (isFinished) return;
      await new Promise<void>((resolve) => wake = resolve);
    }
  } finally {
    if (!isFinished && !failure) fail(new MultipartError("form not read to its end"));
    await reader.cancel().catch(() => {});
    await pumping;
  }
}
