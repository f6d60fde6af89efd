/** Content sniffing (lib/file_types.ts) and the streaming multipart reader (lib/multipart.ts). */
import { assert, assertEquals, assertMatch, assertRejects } from "../_assert.ts";
import { checkFileType, detectFileType } from "../../lib/file_types.ts";
import {
  multipartBoundary,
  MultipartError,
  MultipartTooLargeError,
  parseMultipart,
  readTextPart,
} from "../../lib/multipart.ts";
import { FILES } from "../_file_fixtures.ts";

const enc = new TextEncoder();
const whole = { isWhole: true };

Deno.test("[file types] each accepted type is found by its content", () => {
  const expected: [keyof typeof FILES, string][] = [
    ["pdf", "application/pdf"],
    ["png", "image/png"],
    ["jpeg", "image/jpeg"],
    ["webp", "image/webp"],
    ["heic", "image/heic"],
    ["dwg", "image/vnd.dwg"],
    ["dxf", "image/vnd.dxf"],
    ["csv", "text/csv"],
  ];
  for (const [key, type] of expected) {
    assertEquals(detectFileType(FILES[key], whole)?.contentType, type, key);
  }
});

Deno.test("[file types] DXF with LF, CRLF, indentation and a BOM; binary DXF; CSV with a BOM", () => {
  for (const text of ["0\nSECTION\n2\nHEADER\n", "  0\r\nSECTION\r\n", "\uFEFF0\nSECTION\n"]) {
    assertEquals(detectFileType(enc.encode(text), whole)?.id, "dxf", JSON.stringify(text));
  }
  const binary = enc.encode("AutoCAD Binary DXF\r\n\x1a\0rest");
  assertEquals(detectFileType(binary, whole)?.id, "dxf");
  assertEquals(detectFileType(enc.encode("\uFEFFP,N,E\n1,2,3\n"), whole)?.id, "csv");
  // A head cut inside a row or a UTF-8 sequence is still a CSV.
  const head = enc.encode("P,N,E,Z,D\n1,2,3,4,Café\n2,5,6,7,Caf\u00e9").slice(0, -1);
  assertEquals(detectFileType(head, { isWhole: false })?.id, "csv");
});

Deno.test("[file types] text that is not a point file, binary junk and markup are refused", () => {
  for (
    const text of [
      "no commas here\nnor here\n",
      "<html><body>a,b</body></html>",
      '{"a":1,"b":2}',
      "a,b\nplain line\n",
      "a,b\u0000c\n",
    ]
  ) {
    assertEquals(detectFileType(enc.encode(text), whole), undefined, JSON.stringify(text));
  }
  assertEquals(detectFileType(new Uint8Array([0xff, 0xfe, 0x00, 0x41]), whole), undefined);
  assertEquals(detectFileType(new Uint8Array(), whole), undefined);
});

Deno.test("[file types] programs under another name are named in the 415 message", () => {
  const cases: [Uint8Array, RegExp][] = [
    [FILES.exe, /Windows program/],
    [FILES.elf, /Linux program/],
    [FILES.script, /script/],
    [FILES.zip, /archive/],
    [new Uint8Array([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1]), /macOS program/],
    [enc.encode("<!DOCTYPE html><script>alert(1)</script>"), /web page/],
  ];
  for (const [bytes, pattern] of cases) {
    const check = checkFileType(bytes, { kind: "deliverable", isWhole: true });
    assert(!check.ok);
    assertMatch(check.message, pattern);
    assertMatch(check.message, /PDF, DWG, DXF, CSV point files, JPEG or PNG, up to 25 MB/);
  }
  const photo = checkFileType(FILES.dwg, { kind: "photo", isWhole: true });
  assert(!photo.ok);
  assertMatch(
    photo.message,
    /DWG file is not accepted as a photo\. Photos must be JPEG, PNG, WebP/,
  );
});

/** A body in pieces of `size` bytes: every split point of a boundary gets exercised. */
function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

const FORM = "preamble to ignore\r\n--b0und\r\n" +
  'Content-Disposition: form-data; name="kind"\r\n\r\nphoto\r\n' +
  "--b0und  \r\n" +
  'Content-Disposition: form-data; name="file"; filename="Zo\\"e.bin"; filename*=UTF-8\'\'Zo%C3%AB.bin\r\n' +
  "Content-Type: application/octet-stream\r\n\r\n" +
  "line1\r\n--b0un not yet\r\n\r\n--b0und\r\n" +
  'Content-Disposition: form-data; name="empty"\r\n\r\n\r\n' +
  "--b0und--\r\nepilogue";

Deno.test("[multipart] parts and bodies are the same whatever the chunk size", async () => {
  for (const size of [1, 2, 3, 7, 13, 64, 100_000]) {
    const parts: [string, string | undefined, string][] = [];
    for await (
      const part of parseMultipart(chunked(enc.encode(FORM), size), {
        boundary: "b0und",
        maxBytes: 10_000,
      })
    ) {
      parts.push([part.name, part.filename, await readTextPart(part, 1000)]);
    }
    assertEquals(parts, [
      ["kind", undefined, "photo"],
      ["file", "Zoë.bin", "line1\r\n--b0un not yet\r\n"],
      ["empty", undefined, ""],
    ], `chunks of ${size}`);
  }
});

Deno.test("[multipart] an unread part is skipped; malformed and oversized bodies throw", async () => {
  const names: string[] = [];
  for await (
    const part of parseMultipart(chunked(enc.encode(FORM), 5), {
      boundary: "b0und",
      maxBytes: 10_000,
    })
  ) {
    names.push(part.name);
  }
  assertEquals(names, ["kind", "file", "empty"]);
  const drain = async (text: string, maxBytes = 10_000) => {
    for await (
      const part of parseMultipart(chunked(enc.encode(text), 4), { boundary: "b0und", maxBytes })
    ) {
      await readTextPart(part, 1000);
    }
  };
  assert((await assertRejects(() => drain("no boundary at all"))) instanceof MultipartError);
  assert(
    (await assertRejects(() =>
      drain('--b0und\r\nContent-Disposition: form-data; name="a"\r\n\r\nab')
    )) instanceof MultipartError,
  );
  assert(
    (await assertRejects(() => drain("--b0und\r\nX-Other: 1\r\n\r\nab\r\n--b0und--"))) instanceof
      MultipartError,
  );
  assert((await assertRejects(() => drain(FORM, 100))) instanceof MultipartTooLargeError);
  assertEquals(
    multipartBoundary("multipart/form-data; boundary=----WebKitFormBoundaryA1"),
    "----WebKitFormBoundaryA1",
  );
  assertEquals(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b"'), "a b");
  assertEquals(multipartBoundary("application/json"), undefined);
  assertEquals(multipartBoundary("multipart/form-data"), undefined);
});
