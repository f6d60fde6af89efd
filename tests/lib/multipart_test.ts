/**
 * The multipart reader (lib/multipart.ts, busboy underneath): parts and file bodies whatever
 * the chunking, malformed and oversized bodies refused, backpressure, and a fuzz run of
 * random and malformed bodies against the reader and the upload route.
 */
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import {
  multipartBoundary,
  MultipartError,
  type MultipartPart,
  MultipartTooLargeError,
  parseMultipart,
} from "../../lib/multipart.ts";
import { createTestApp, ORIGIN, test } from "../_helpers.ts";
import { fileFixture, FILES, storedCounts } from "../_file_fixtures.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();
const TYPE = "multipart/form-data; boundary=b0und";

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

async function text(part: MultipartPart): Promise<string> {
  if (part.type === "field") return part.value;
  return dec.decode(await new Response(part.body).arrayBuffer());
}

const FORM = "preamble to ignore\r\n--b0und\r\n" +
  'Content-Disposition: form-data; name="kind"\r\n\r\nphoto\r\n' +
  "--b0und\r\n" +
  'Content-Disposition: form-data; name="file"; filename="Zo\\"e.bin"; filename*=UTF-8\'\'Zo%C3%AB.bin\r\n' +
  "Content-Type: application/octet-stream\r\n\r\n" +
  "line1\r\n--b0un not yet\r\n\r\n--b0und\r\n" +
  'Content-Disposition: form-data; name="empty"\r\n\r\n\r\n' +
  "--b0und--\r\nepilogue";

Deno.test("[multipart] parts and bodies are the same whatever the chunk size", async () => {
  for (const size of [1, 2, 3, 7, 13, 64, 100_000]) {
    const parts: [string, string, string | undefined, string][] = [];
    for await (
      const part of parseMultipart(chunked(enc.encode(FORM), size), {
        contentType: TYPE,
        maxBytes: 10_000,
      })
    ) {
      parts.push([
        part.type,
        part.name,
        part.type === "file" ? part.filename : undefined,
        await text(part),
      ]);
    }
    assertEquals(parts, [
      ["field", "kind", undefined, "photo"],
      ["file", "file", "Zoë.bin", "line1\r\n--b0un not yet\r\n"],
      ["field", "empty", undefined, ""],
    ], `chunks of ${size}`);
  }
});

Deno.test("[multipart] a browser's UTF-8 file name and its %22 come through as typed", async () => {
  const body = '--b0und\r\nContent-Disposition: form-data; name="file"; ' +
    'filename="Plat — %22Lot 7%22.pdf"\r\n\r\n%PDF\r\n--b0und--\r\n';
  const names: string[] = [];
  for await (
    const part of parseMultipart(chunked(enc.encode(body), 9), {
      contentType: TYPE,
      maxBytes: 10_000,
    })
  ) {
    if (part.type === "file") names.push(part.filename);
    await text(part);
  }
  assertEquals(names, ['Plat — "Lot 7".pdf']);
});

Deno.test("[multipart] an unread file is skipped; malformed and oversized bodies throw", async () => {
  const names: string[] = [];
  for await (
    const part of parseMultipart(chunked(enc.encode(FORM), 5), {
      contentType: TYPE,
      maxBytes: 10_000,
    })
  ) {
    names.push(part.name);
  }
  assertEquals(names, ["kind", "file", "empty"]);
  const drain = async (body: string, { maxBytes = 10_000, maxParts = 20 } = {}) => {
    for await (
      const part of parseMultipart(chunked(enc.encode(body), 4), {
        contentType: TYPE,
        maxBytes,
        maxParts,
        maxFieldBytes: 100,
      })
    ) {
      await text(part);
    }
  };
  const refusals: [string, string, typeof MultipartError][] = [
    ["no boundary at all", "no boundary at all", MultipartError],
    [
      "cut inside a field",
      '--b0und\r\nContent-Disposition: form-data; name="a"\r\n\r\nab',
      MultipartError,
    ],
    [
      "cut inside a file",
      '--b0und\r\nContent-Disposition: form-data; name="a"; filename="a"\r\n\r\nab',
      MultipartError,
    ],
    [
      "header without a colon",
      "--b0und\r\nContent-Disposition\r\n\r\nab\r\n--b0und--",
      MultipartError,
    ],
    [
      "a field over the limit",
      `--b0und\r\nContent-Disposition: form-data; name="a"\r\n\r\n${"x".repeat(101)}\r\n--b0und--`,
      MultipartError,
    ],
    [
      "a nameless part",
      '--b0und\r\nContent-Disposition: form-data; filename="a"\r\n\r\nab\r\n--b0und--',
      MultipartError,
    ],
    ["too long", FORM, MultipartTooLargeError],
  ];
  for (const [label, body, kind] of refusals) {
    const err = await assertRejects(() =>
      drain(body, { maxBytes: label === "too long" ? 100 : 10_000 })
    );
    assert(err instanceof kind, `${label}: ${err}`);
  }
  const many = Array.from(
    { length: 4 },
    (_, i) => `--b0und\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`,
  ).join("") + "--b0und--\r\n";
  await drain(many, { maxParts: 4 });
  const err = await assertRejects(() => drain(many, { maxParts: 3 }));
  assert(err instanceof MultipartError && /more than 3 parts/.test(err.message), String(err));
  assertEquals(
    multipartBoundary("multipart/form-data; boundary=----WebKitFormBoundaryA1"),
    "----WebKitFormBoundaryA1",
  );
  assertEquals(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b"'), "a b");
  assertEquals(multipartBoundary("application/json"), undefined);
  assertEquals(multipartBoundary("multipart/form-data"), undefined);
});

Deno.test("[multipart] a file nobody reads stops the reading of the request (backpressure)", async () => {
  const size = 8 * 1024 * 1024;
  let pulled = 0;
  const head = enc.encode(
    '--b0und\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n',
  );
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === 0) controller.enqueue(head);
      const piece = new Uint8Array(64 * 1024).fill(7);
      controller.enqueue(piece);
      sent += piece.length;
      pulled += piece.length;
      if (sent >= size) {
        controller.enqueue(enc.encode("\r\n--b0und--\r\n"));
        controller.close();
      }
    },
  }, { highWaterMark: 0 });
  const parts = parseMultipart(body, { contentType: TYPE, maxBytes: size * 2 });
  const { value: part } = await parts.next();
  assert(part && part.type === "file");
  // Give the reader every chance to run ahead.
  for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 1));
  assert(pulled < 1024 * 1024, `read ${pulled} bytes of a file nobody took`);
  const reader = part.body.getReader();
  let read = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    read += value.byteLength;
  }
  assertEquals(read, size);
  assertEquals((await parts.next()).done, true);
});

/** A small deterministic random source, so a failing case can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** A multipart body broken in one of many ways, from `next` (a random source). */
function malformedBody(next: () => number, boundary: string): Uint8Array {
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)];
  const garbage = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(next() * 256));
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const fileHead = (name = "a.pdf") =>
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
    "Content-Type: application/pdf\r\n\r\n";
  const valid = field("kind", "deliverable") + fileHead() + dec.decode(FILES.pdf) +
    `\r\n--${boundary}--\r\n`;
  const cut = (s: string) => s.slice(0, Math.floor(next() * s.length));
  const kinds: (() => Uint8Array | string)[] = [
    // Truncated anywhere, boundaries included.
    () => cut(valid),
    // The closing boundary missing or half there.
    () => valid.slice(0, valid.lastIndexOf(`--${boundary}--`) + Math.floor(next() * 4)),
    // Huge headers.
    () =>
      `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\nX-Pad: ${
        "a".repeat(17_000 + Math.floor(next() * 20_000))
      }\r\n\r\ndeliverable\r\n--${boundary}--\r\n`,
    () =>
      `--${boundary}\r\n` + "X-H: 1\r\n".repeat(2100) +
      'Content-Disposition: form-data; name="kind"\r\n\r\nphoto\r\n' + `--${boundary}--\r\n`,
    // CRLF missing or bare LF in place of CRLF.
    () => valid.replaceAll("\r\n", pick(["\n", "\r", "", " "])),
    () => valid.replace("\r\n\r\n", "\r\n"),
    // Many parts.
    () =>
      Array.from({ length: 9 + Math.floor(next() * 300) }, (_, i) => field(`f${i}`, "x")).join(
        "",
      ) + `--${boundary}--\r\n`,
    () =>
      field("kind", "deliverable") +
      Array.from({ length: 2 + Math.floor(next() * 6) }, () => fileHead() + "%PDF-1.4\r\n")
        .join("") +
      `--${boundary}--\r\n`,
    // Binary garbage, alone or in headers.
    () => garbage(Math.floor(next() * 5000)),
    () => {
      const g = garbage(200 + Math.floor(next() * 2000));
      const head = enc.encode(`--${boundary}\r\n`);
      return new Uint8Array([...head, ...g]);
    },
    () => {
      const body = enc.encode(valid);
      for (let i = 0; i < 1 + next() * 20; i++) {
        body[Math.floor(next() * body.length)] = Math.floor(next() * 256);
      }
      return body;
    },
    // Headers and names that make no sense.
    () =>
      `--${boundary}\r\nContent-Disposition: ${
        pick(["attachment", "form-data; name=", 'form-data; name="', "", "form-data"])
      }\r\n\r\nx\r\n--${boundary}--\r\n`,
    () => field("kind", "deliverable") + fileHead(pick(['a"b', "\u0000.pdf", "", "%ff.pdf"])),
    () => field("k".repeat(150), "deliverable") + `--${boundary}--\r\n`,
    () => field("kind", "d".repeat(300)) + fileHead() + "%PDF-1.4\r\n--" + boundary + "--\r\n",
    () => `--${boundary}--\r\n`,
    () => "",
  ];
  const out = pick(kinds)();
  return typeof out === "string" ? enc.encode(out) : out;
}

Deno.test("[multipart] fuzz: the reader gives parts or its own error, never anything else", async () => {
  const next = random(20_2611);
  for (let run = 0; run < 400; run++) {
    const body = malformedBody(next, "b0und");
    const size = 1 + Math.floor(next() * 300);
    try {
      for await (
        const part of parseMultipart(chunked(body, size), {
          contentType: TYPE,
          maxBytes: 100_000,
          maxParts: 8,
          maxFieldBytes: 200,
        })
      ) {
        await text(part);
      }
    } catch (err) {
      assert(
        err instanceof MultipartError || err instanceof MultipartTooLargeError,
        `run ${run}: ${err}`,
      );
    }
  }
});

test("[files] fuzz: random and malformed upload bodies are a 4xx {message} and store nothing", async () => {
  const t = await createTestApp();
  const f = await fileFixture(t);
  const next = random(7_0001);
  for (let run = 0; run < 150; run++) {
    const boundary = `----fuzz${run}`;
    const body = malformedBody(next, boundary);
    const size = 1 + Math.floor(next() * 2000);
    const res = await t.app.request(`${ORIGIN}/api/surveys/${f.survey.id}/files`, {
      method: "POST",
      headers: {
        origin: ORIGIN,
        cookie: f.cookies.surveyor,
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      body: chunked(body, size),
      duplex: "half",
    } as RequestInit);
    const label = `run ${run}: ${JSON.stringify(dec.decode(body.slice(0, 120)))}`;
    const json = await res.json().catch(() => undefined);
    if (res.status === 201) {
      // A body the fuzzer left valid: fine, as long as it is a real file. Remove it again.
      assertEquals(json.file.contentType, "application/pdf", label);
      await t.sql`delete from survey_files where id = ${json.file.id}`;
      continue;
    }
    assert(res.status >= 400 && res.status < 500, `${label}: ${res.status}`);
    assert(typeof json?.message === "string" && json.message.length > 0, label);
  }
  assertEquals(await storedCounts(t), { files: 0, chunks: 0, pending: 0 });
  t.close();
});
