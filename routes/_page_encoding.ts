/**
 * A cached page's bytes: the HTML as UTF-8, gzip of it, and an ETag. Shared by the main thread
 * (`encodePage`) and the page encoder's worker (routes/_page_encoder_worker.ts), so both give the
 * same bytes; node:zlib only, nothing of the app.
 */
import { gzipSync } from "node:zlib";

/** A page as it is kept: its HTML and gzip bytes and its ETag. */
export interface EncodedPage {
  html: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  etag: string;
}

const encoder = new TextEncoder();

/** `text` as UTF-8, gzip at `level` and the ETag. */
export function encodePage(text: string, level: number): EncodedPage {
  const html = encoder.encode(text) as Uint8Array<ArrayBuffer>;
  // A copy: the Buffer zlib returns may share its memory, and the worker transfers this one.
  const gzip = new Uint8Array(gzipSync(html, { level }));
  // The ETag is the CRC-32 of the HTML, which gzip's trailer already holds (RFC 1952: CRC-32
  // then size, little-endian, in the last 8 bytes), and the length: no pass over the bytes of
  // our own (a hash loop over each page was 3% of building every local page).
  const crc = new DataView(gzip.buffer, gzip.byteOffset + gzip.byteLength - 8, 4)
    .getUint32(0, true);
  return { html, gzip, etag: `"p${crc.toString(36)}${html.length.toString(36)}"` };
}
