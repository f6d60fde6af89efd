/** Content sniffing (lib/file_types.ts); the multipart reader is in multipart_test.ts. */
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { checkFileType, detectFileType } from "../../lib/file_types.ts";
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
