/**
 * A file's type from its content (magic bytes), never from its name or the type the client
 * sent: the stored Content-Type is the one found here. Accepted: JPEG, PNG, WebP and HEIC/HEIF
 * photos; PDF, DWG, DXF (ASCII or binary) and CSV point files as deliverables, plus JPEG and
 * PNG. Programs, archives and scripts under another name are named in the refusal.
 */
import {
  ACCEPTED_TYPES_TEXT,
  MAX_FILE_SIZE_TEXT,
  type SurveyFileKind,
} from "./survey_file_types.ts";

/** The types we recognise. */
export type FileTypeId = "jpeg" | "png" | "webp" | "heic" | "heif" | "pdf" | "dwg" | "dxf" | "csv";

/** A recognised type. */
export interface FileType {
  id: FileTypeId;
  /** Stored and served as the Content-Type. */
  contentType: string;
  /** The extension a download is named with when the uploaded name lacks a fitting one. */
  extension: string;
}

const TYPES: Record<FileTypeId, FileType> = {
  jpeg: { id: "jpeg", contentType: "image/jpeg", extension: "jpg" },
  png: { id: "png", contentType: "image/png", extension: "png" },
  webp: { id: "webp", contentType: "image/webp", extension: "webp" },
  heic: { id: "heic", contentType: "image/heic", extension: "heic" },
  heif: { id: "heif", contentType: "image/heif", extension: "heif" },
  pdf: { id: "pdf", contentType: "application/pdf", extension: "pdf" },
  dwg: { id: "dwg", contentType: "image/vnd.dwg", extension: "dwg" },
  dxf: { id: "dxf", contentType: "image/vnd.dxf", extension: "dxf" },
  csv: { id: "csv", contentType: "text/csv", extension: "csv" },
};

/** The types each kind of file accepts. */
export const ACCEPTED_FILE_TYPES: Readonly<Record<SurveyFileKind, readonly FileTypeId[]>> = {
  photo: ["jpeg", "png", "webp", "heic", "heif"],
  deliverable: ["pdf", "dwg", "dxf", "csv", "jpeg", "png"],
};

/** Bytes of a file's start that `detectFileType` looks at (a CSV's first rows). */
export const SNIFF_BYTES = 8 * 1024;

/** Content types that may be shown in the browser (`?inline=1`): photos only. */
export const INLINE_CONTENT_TYPES: ReadonlySet<string> = new Set([
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/heic",
  "image/heif",
]);

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

function startsWith(bytes: Uint8Array, prefix: Uint8Array | number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

const HEIC_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs"]);
const HEIF_BRANDS = new Set(["mif1", "msf1"]);
const BINARY_DXF = ascii("AutoCAD Binary DXF\r\n\x1a\0");

/**
 * The type of a file starting with `head` (its first `SNIFF_BYTES` bytes, or the whole file
 * when shorter; `isWhole` says which), or undefined when it is none we accept.
 */
export function detectFileType(
  head: Uint8Array,
  { isWhole }: { isWhole: boolean },
): FileType | undefined {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return TYPES.jpeg;
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return TYPES.png;
  if (startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8)) return TYPES.webp;
  if (startsWith(head, ascii("ftyp"), 4)) {
    const brand = String.fromCharCode(...head.subarray(8, 12));
    if (HEIC_BRANDS.has(brand)) return TYPES.heic;
    if (HEIF_BRANDS.has(brand)) return TYPES.heif;
    return undefined;
  }
  if (startsWith(head, ascii("%PDF-"))) return TYPES.pdf;
  // DWG: "AC10" and two digits of the release (AC1012 R13 … AC1032 R2018).
  if (/^AC10\d\d/.test(String.fromCharCode(...head.subarray(0, 6)))) return TYPES.dwg;
  if (startsWith(head, BINARY_DXF)) return TYPES.dxf;
  const text = utf8Text(head, isWhole);
  if (text === undefined) return undefined;
  // ASCII DXF: group code 0, then SECTION, each on its own line (any line ends, indentation).
  if (/^[ \t]*0[ \t]*\r?\n[ \t]*SECTION[ \t]*\r?\n/.test(text)) return TYPES.dxf;
  if (isCsvPoints(text, isWhole)) return TYPES.csv;
  return undefined;
}

/**
 * `bytes` as text when they are UTF-8 (a BOM dropped) with no control characters but tab and
 * line ends, else undefined. A sequence cut at the end of a head that is not the whole file
 * is allowed.
 */
function utf8Text(bytes: Uint8Array, isWhole: boolean): string | undefined {
  let body = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? bytes.subarray(3) : bytes;
  if (!isWhole) body = body.subarray(0, completeUtf8Length(body));
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return undefined;
  }
  // Control characters are what this rule is about.
  // deno-lint-ignore no-control-regex
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) ? undefined : text;
}

/** Length of `bytes` without a UTF-8 sequence cut off at its end. */
function completeUtf8Length(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back];
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const needed = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/**
 * A point file: rows of comma-separated values (point, northing, easting, elevation,
 * description, with or without a header row). Every complete, non-blank row among the first
 * 50 has a comma, and it does not open like markup or code.
 */
function isCsvPoints(text: string, isWhole: boolean): boolean {
  if (/^\s*[<{[]/.test(text)) return false;
  const lines = text.split(/\r\n|\n|\r/);
  // The last line of a head may be cut anywhere.
  if (!isWhole) lines.pop();
  const rows = lines.filter((line) => line.trim() !== "").slice(0, 50);
  return rows.length > 0 && rows.every((row) => row.includes(","));
}

const REFUSED_SIGNATURES: [string, (head: Uint8Array) => boolean][] = [
  ["a Windows program", (h) => startsWith(h, ascii("MZ"))],
  ["a Linux program", (h) => startsWith(h, [0x7f, 0x45, 0x4c, 0x46])],
  [
    "a macOS program",
    (h) =>
      [[0xfe, 0xed, 0xfa, 0xce], [0xfe, 0xed, 0xfa, 0xcf], [0xce, 0xfa, 0xed, 0xfe], [
        0xcf,
        0xfa,
        0xed,
        0xfe,
      ], [0xca, 0xfe, 0xba, 0xbe]].some((m) => startsWith(h, m)),
  ],
  ["a script", (h) => startsWith(h, ascii("#!"))],
  ["a WebAssembly module", (h) => startsWith(h, [0x00, 0x61, 0x73, 0x6d])],
  [
    "an archive (ZIP, Office document or installer package)",
    (h) => startsWith(h, ascii("PK\x03\x04")) || startsWith(h, ascii("PK\x05\x06")),
  ],
  ["an archive (RAR)", (h) => startsWith(h, ascii("Rar!\x1a\x07"))],
  ["an archive (7-Zip)", (h) => startsWith(h, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])],
  ["a compressed file (gzip)", (h) => startsWith(h, [0x1f, 0x8b])],
  ["a web page or SVG", (h) => /^\s*<(!doctype|html|svg|\?xml|script)/i.test(asciiStart(h))],
];

function asciiStart(head: Uint8Array): string {
  return String.fromCharCode(...head.subarray(0, 64));
}

/** What a refused file looks like ("a Windows program"), when it is one we can name. */
export function describeRefusedContent(head: Uint8Array): string | undefined {
  return REFUSED_SIGNATURES.find(([, matches]) => matches(head))?.[0];
}

/** The outcome of checking a file for a kind: its type, or the 415 message. */
export type FileTypeCheck =
  | { ok: true; type: FileType }
  | { ok: false; message: string };

/**
 * Whether a file starting with `head` is accepted as `kind`, by content. The refusal names
 * what the file looks like when it is a program, archive or script, and what is accepted.
 */
export function checkFileType(
  head: Uint8Array,
  { kind, isWhole }: { kind: SurveyFileKind; isWhole: boolean },
): FileTypeCheck {
  const type = detectFileType(head, { isWhole });
  if (type && ACCEPTED_FILE_TYPES[kind].includes(type.id)) return { ok: true, type };
  return { ok: false, message: refusalMessage(head, kind, type) };
}

function refusalMessage(head: Uint8Array, kind: SurveyFileKind, type?: FileType): string {
  const accepted = `${kind === "photo" ? "Photos" : "Deliverables"} must be ` +
    `${ACCEPTED_TYPES_TEXT[kind]}, up to ${MAX_FILE_SIZE_TEXT}; the type is read from the ` +
    `file's content, not its name.`;
  if (head.length === 0) return `The file is empty. ${accepted}`;
  const looksLike = describeRefusedContent(head);
  if (looksLike) return `This file is ${looksLike}, which is not accepted. ${accepted}`;
  if (type) {
    return `A ${type.extension.toUpperCase()} file is not accepted as a ${kind}. ${accepted}`;
  }
  return `This file's type is not accepted. ${accepted}`;
}

/**
 * The first `size` bytes of `body` (fewer when it is shorter: `isWhole`), and a stream that
 * gives all of `body` again, head included, reading the rest only as it is pulled.
 */
export async function readHead(
  body: ReadableStream<Uint8Array>,
  size: number = SNIFF_BYTES,
): Promise<{ head: Uint8Array; isWhole: boolean; stream: ReadableStream<Uint8Array> }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let isWhole = false;
  while (total < size) {
    const { value, done } = await reader.read();
    if (done) {
      isWhole = true;
      break;
    }
    chunks.push(value);
    total += value.byteLength;
  }
  const head = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    head.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (head.length > 0) controller.enqueue(head);
      if (isWhole) controller.close();
    },
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
  return { head, isWhole, stream };
}

const EXTENSIONS: Record<FileTypeId, readonly string[]> = {
  jpeg: ["jpg", "jpeg", "jfif"],
  png: ["png"],
  webp: ["webp"],
  heic: ["heic", "heif"],
  heif: ["heif", "heic"],
  pdf: ["pdf"],
  dwg: ["dwg"],
  dxf: ["dxf"],
  csv: ["csv", "txt"],
};

/**
 * Whether `fileName` ends in an extension that fits `type`; a name that does not gets the
 * type's own extension added, so a download always opens as what it is ("plat.exe" holding
 * a PDF is saved as "plat.exe.pdf").
 */
export function nameWithFittingExtension(fileName: string, type: FileType): string {
  const extension = /\.([A-Za-z0-9]{1,10})$/.exec(fileName)?.[1]?.toLowerCase();
  return extension && EXTENSIONS[type.id].includes(extension)
    ? fileName
    : `${fileName}.${type.extension}`;
}
