/**
 * A streaming multipart/form-data reader (RFC 7578) over a request body stream: parts come
 * one at a time, each with its own body stream that reads straight from the request, so a
 * file part is passed on as it arrives instead of being collected first (Request.formData()
 * and the npm parsers we looked at hold each part whole in memory).
 */

/** One part of the form. Its `body` must be read to its end or cancelled before the next. */
export interface MultipartPart {
  /** The field name. */
  name: string;
  /** The file name the browser sent, for a file field; undefined for a text field. */
  filename: string | undefined;
  /** The part's Content-Type header, if any (never trusted for a file's type). */
  contentType: string | undefined;
  body: ReadableStream<Uint8Array>;
}

/** The body is not well-formed multipart (a 400). */
export class MultipartError extends Error {}

/** The body is longer than `maxBytes` (a 413). */
export class MultipartTooLargeError extends Error {}

const CRLF = new Uint8Array([13, 10]);
const HEADERS_END = new Uint8Array([13, 10, 13, 10]);
const DASH_DASH = new Uint8Array([45, 45]);

/** The boundary of a `multipart/form-data` Content-Type, or undefined. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

/** Index of `needle` in `haystack` from `from`, or -1. */
function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  const last = haystack.length - needle.length;
  for (
    let i = haystack.indexOf(first, from);
    i !== -1 && i <= last;
    i = haystack.indexOf(first, i + 1)
  ) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Buffered reading of the body: only what has not been handed on yet is kept. */
class Source {
  buffer: Uint8Array = CRLF; // so a boundary at the very start matches "\r\n--boundary"
  isDone = false;
  #read = 0;
  constructor(
    private reader: ReadableStreamDefaultReader<Uint8Array>,
    private maxBytes: number,
  ) {}

  /** Reads one more chunk; false at the end of the body. */
  async more(): Promise<boolean> {
    if (this.isDone) return false;
    const { value, done } = await this.reader.read();
    if (done) {
      this.isDone = true;
      return false;
    }
    this.#read += value.byteLength;
    if (this.#read > this.maxBytes) {
      await this.reader.cancel().catch(() => {});
      throw new MultipartTooLargeError(`body over ${this.maxBytes} bytes`);
    }
    this.buffer = concat(this.buffer, value);
    return true;
  }

  /** Waits for at least `n` buffered bytes; false when the body ends first. */
  async ensure(n: number): Promise<boolean> {
    while (this.buffer.length < n) if (!(await this.more())) return false;
    return true;
  }

  async close(): Promise<void> {
    await this.reader.cancel().catch(() => {});
  }
}

/**
 * The parts of a multipart body, in order. Each part's `body` streams from `body`; moving to
 * the next part first reads and drops whatever of the previous part's body was not read.
 * Throws `MultipartError` for a malformed body (no boundary, headers too long, more than
 * `maxParts` parts, ending before its closing boundary) and `MultipartTooLargeError` once
 * more than `maxBytes` arrive.
 */
export async function* parseMultipart(
  body: ReadableStream<Uint8Array>,
  { boundary, maxBytes, maxParts = 20, maxHeaderBytes = 8 * 1024 }: {
    boundary: string;
    maxBytes: number;
    maxParts?: number;
    maxHeaderBytes?: number;
  },
): AsyncGenerator<MultipartPart> {
  const delimiter = new TextEncoder().encode(`\r\n--${boundary}`);
  const source = new Source(body.getReader(), maxBytes);
  try {
    // The preamble (usually empty) up to the first boundary.
    for (;;) {
      const at = indexOf(source.buffer, delimiter);
      if (at !== -1) {
        source.buffer = source.buffer.subarray(at + delimiter.length);
        break;
      }
      if (source.buffer.length > maxHeaderBytes) throw new MultipartError("no boundary found");
      if (!(await source.more())) throw new MultipartError("no boundary found");
    }
    for (let count = 0;; count++) {
      if (!(await source.ensure(2))) throw new MultipartError("body ends after a boundary");
      if (source.buffer[0] === DASH_DASH[0] && source.buffer[1] === DASH_DASH[1]) return;
      // Transport padding may follow a boundary before its line end.
      for (;;) {
        while (source.buffer.length > 0 && (source.buffer[0] === 32 || source.buffer[0] === 9)) {
          source.buffer = source.buffer.subarray(1);
        }
        if (source.buffer.length >= 2) break;
        if (!(await source.more())) throw new MultipartError("body ends after a boundary");
      }
      if (source.buffer[0] !== 13 || source.buffer[1] !== 10) {
        throw new MultipartError("malformed boundary line");
      }
      if (count >= maxParts) throw new MultipartError(`more than ${maxParts} parts`);
      // The buffer starts with the CRLF ending the boundary line; the headers follow it up to
      // an empty line (at once, when the part has none).
      let headersEnd: number;
      for (;;) {
        headersEnd = indexOf(source.buffer, HEADERS_END);
        if (headersEnd !== -1) break;
        if (source.buffer.length > maxHeaderBytes) {
          throw new MultipartError("part headers too long");
        }
        if (!(await source.more())) throw new MultipartError("body ends in part headers");
      }
      const headerBytes = source.buffer.subarray(Math.min(2, headersEnd), headersEnd);
      source.buffer = source.buffer.subarray(headersEnd + 4);
      const headers = parseHeaders(headerBytes);

      let isPartDone = false;
      /** The next bytes of this part's body, or null at its end. */
      const next = async (): Promise<Uint8Array | null> => {
        for (;;) {
          if (isPartDone) return null;
          const at = indexOf(source.buffer, delimiter);
          if (at !== -1) {
            const bytes = source.buffer.subarray(0, at);
            source.buffer = source.buffer.subarray(at + delimiter.length);
            isPartDone = true;
            if (bytes.length > 0) return bytes;
            return null;
          }
          // Keep what could be the start of a delimiter split across chunks.
          const safe = source.buffer.length - (delimiter.length - 1);
          if (safe > 0) {
            const bytes = source.buffer.subarray(0, safe);
            source.buffer = source.buffer.subarray(safe);
            return bytes;
          }
          if (!(await source.more())) throw new MultipartError("body ends inside a part");
        }
      };
      const partBody = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const bytes = await next();
            if (bytes) controller.enqueue(bytes);
            else controller.close();
          } catch (err) {
            controller.error(err);
          }
        },
      }, { highWaterMark: 0 });
      yield { ...headers, body: partBody };
      while ((await next()) !== null) { /* drop what the reader left */ }
    }
  } finally {
    await source.close();
  }
}

const headerDecoder = new TextDecoder("utf-8", { fatal: true });

function parseHeaders(bytes: Uint8Array): Omit<MultipartPart, "body"> {
  let text: string;
  try {
    text = headerDecoder.decode(bytes);
  } catch {
    throw new MultipartError("part headers are not UTF-8");
  }
  let disposition: string | undefined;
  let contentType: string | undefined;
  for (const line of text.split("\r\n")) {
    if (line === "") continue;
    const colon = line.indexOf(":");
    if (colon <= 0) throw new MultipartError("malformed part header");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-disposition") disposition = value;
    else if (name === "content-type") contentType = value;
  }
  if (!disposition || !/^form-data\s*(;|$)/i.test(disposition)) {
    throw new MultipartError("part without Content-Disposition: form-data");
  }
  const params = dispositionParams(disposition);
  const name = params.get("name");
  if (name === undefined) throw new MultipartError("part without a name");
  const encoded = params.get("filename*");
  // Browsers escape a quote in a file name as %22 (HTML's multipart/form-data encoding).
  let filename = params.get("filename")?.replaceAll("%22", '"');
  if (encoded !== undefined) {
    const match = /^utf-8'[^']*'(.*)$/i.exec(encoded);
    try {
      if (match) filename = decodeURIComponent(match[1]);
    } catch {
      throw new MultipartError("malformed filename*");
    }
  }
  return { name, filename, contentType };
}

/** The `key=value` and `key="quoted value"` parameters of a Content-Disposition. */
function dispositionParams(value: string): Map<string, string> {
  const params = new Map<string, string>();
  const pattern = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const match of value.matchAll(pattern)) {
    const key = match[1].toLowerCase();
    const raw = match[2] !== undefined ? match[2].replace(/\\(.)/g, "$1") : match[3].trim();
    if (!params.has(key)) params.set(key, raw);
  }
  return params;
}

/**
 * The text of a small part (a form field) as UTF-8, reading at most `maxBytes`. Throws
 * `MultipartError` when it is longer or not UTF-8.
 */
export async function readTextPart(part: MultipartPart, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of part.body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new MultipartError(`field ${part.name} is too long`);
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new MultipartError(`field ${part.name} is not UTF-8`);
  }
}
