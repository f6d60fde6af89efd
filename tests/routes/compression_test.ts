import { gunzipSync, inflateSync } from "node:zlib";
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createUser, sessionCookieFrom, signInAs, TEST_PASSWORD } from "../_auth.ts";
import { surveyRequest } from "../_fixtures.ts";

// Rendered answers (signed-in pages, JSON) are compressed by routes/_compression.ts
// `compression()`: what a browser receives must be the same page, compressed when it asks.

const decoders: Record<string, (bytes: Uint8Array) => string> = {
  gzip: (bytes) => new TextDecoder().decode(gunzipSync(bytes)),
  deflate: (bytes) => new TextDecoder().decode(inflateSync(bytes)),
};

test("[compression] a signed-in page is the same page gzipped, deflated or plain, and says it varies", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, { role: "client", fullName: "Casey Compressed" });
  const plain = await t.request("GET", "/client-dashboard", { cookie });
  assertEquals(plain.status, 200);
  assertEquals(plain.headers.get("content-encoding"), null);
  assertEquals(plain.headers.get("vary"), "Accept-Encoding");
  const html = await plain.text();
  assert(html.includes("Casey Compressed"), "the page shows the user");
  const cases = [
    ["gzip, deflate, br", "gzip"],
    ["deflate", "deflate"],
    ["gzip;q=0, deflate;q=0.5", "deflate"],
    ["*", "gzip"],
  ] as const;
  for (const [accept, encoding] of cases) {
    const res = await t.request("GET", "/client-dashboard", {
      cookie,
      headers: { "accept-encoding": accept },
    });
    assertEquals(res.status, 200, accept);
    assertEquals(res.headers.get("content-encoding"), encoding, accept);
    assertEquals(res.headers.get("vary"), "Accept-Encoding", accept);
    assertEquals(res.headers.get("content-type"), "text/html; charset=UTF-8", accept);
    assertEquals(res.headers.get("cache-control"), "private, no-store", accept);
    assertEquals(res.headers.get("x-content-type-options"), "nosniff", accept);
    const body = decoders[encoding](new Uint8Array(await res.arrayBuffer()));
    assertEquals(body, html, accept);
  }
  const refused = await t.request("GET", "/client-dashboard", {
    cookie,
    headers: { "accept-encoding": "identity, gzip;q=0" },
  });
  assertEquals(refused.headers.get("content-encoding"), null);
  assertEquals(await refused.text(), html);
  t.close();
});

test("[compression] JSON answers of 1 KB or more are compressed on request, smaller ones and HEAD answers are not", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, { role: "client", fullName: "Jamie Json" });
  // A few hundred bytes: gzip would save next to nothing and cost a compression.
  const small = await t.request("GET", "/api/user", {
    cookie,
    headers: { "accept-encoding": "gzip" },
  });
  assertEquals(small.status, 200);
  assertEquals(small.headers.get("content-encoding"), null);
  assertEquals(small.headers.get("vary"), "Accept-Encoding");
  assertEquals((await small.json()).fullName, "Jamie Json");
  for (let i = 0; i < 3; i++) {
    const created = await t.request("POST", "/api/surveys", { cookie, body: surveyRequest() });
    assertEquals(created.status, 201);
  }
  const plain = await t.request("GET", "/api/surveys", { cookie });
  const json = await plain.text();
  assert(json.length >= 1024, `the list is ${json.length} bytes`);
  const res = await t.request("GET", "/api/surveys", {
    cookie,
    headers: { "accept-encoding": "gzip" },
  });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-encoding"), "gzip");
  assertEquals(res.headers.get("vary"), "Accept-Encoding");
  assertEquals(res.headers.get("content-type"), "application/json");
  assertEquals(decoders.gzip(new Uint8Array(await res.arrayBuffer())), json);
  const head = await t.request("HEAD", "/api/surveys", {
    cookie,
    headers: { "accept-encoding": "gzip" },
  });
  assertEquals(head.headers.get("content-encoding"), null);
  await head.body?.cancel();
  t.close();
});

test("[compression] a streamed answer is compressed as it streams, and an ETag becomes weak", async () => {
  const { Hono } = await import("hono");
  const { compression } = await import("../../routes/_compression.ts");
  const lines = Array.from({ length: 200 }, (_, i) => `line ${i} of a streamed answer\n`);
  const app = new Hono().use(compression()).get("/stream", () => {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const line of lines) controller.enqueue(encoder.encode(line));
        controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "text/plain", etag: '"v1"' } });
  }).get("/page", (c) => {
    c.header("ETag", '"p1"');
    return c.html(`<p>${"y".repeat(3000)}</p>`);
  });
  const res = await app.request("/stream", { headers: { "accept-encoding": "gzip" } });
  assertEquals(res.headers.get("content-encoding"), "gzip");
  assertEquals(res.headers.get("etag"), 'W/"v1"');
  assertEquals(decoders.gzip(new Uint8Array(await res.arrayBuffer())), lines.join(""));
  const page = await app.request("/page", { headers: { "accept-encoding": "deflate" } });
  assertEquals(page.headers.get("content-encoding"), "deflate");
  assertEquals(page.headers.get("etag"), 'W/"p1"');
  assertEquals(page.headers.get("content-length"), null);
  assertEquals(
    decoders.deflate(new Uint8Array(await page.arrayBuffer())),
    `<p>${"y".repeat(3000)}</p>`,
  );
});

test("[compression] an answer with immutable headers (a fetch() passed through) is compressed, not a 500", async () => {
  const { Hono } = await import("hono");
  const { compression } = await import("../../routes/_compression.ts");
  const body = "<p>" + "x".repeat(4000) + "</p>";
  const upstream = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    () => new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } }),
  );
  try {
    const app = new Hono().use(compression()).get(
      "/proxied",
      () =>
        fetch(`http://127.0.0.1:${upstream.addr.port}/`, {
          headers: { "accept-encoding": "identity" },
        }),
    );
    const res = await app.request("/proxied", { headers: { "accept-encoding": "gzip" } });
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("vary"), "Accept-Encoding");
    assertEquals(res.headers.get("content-encoding"), "gzip");
    assertEquals(decoders.gzip(new Uint8Array(await res.arrayBuffer())), body);
  } finally {
    await upstream.shutdown();
  }
});

test("[compression] a sign-in answered to a browser that accepts gzip still sets its session cookie", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "client", email: "gzip-cookie@example.com" });
  const res = await t.request("POST", "/api/login", {
    body: { identifier: user.email, password: TEST_PASSWORD },
    headers: { "accept-encoding": "gzip, deflate, br, zstd" },
  });
  assertEquals(res.status, 200);
  const cookie = sessionCookieFrom(t, res);
  assert(cookie, "a session cookie is set");
  const page = await t.request("GET", "/client-dashboard", {
    cookie,
    headers: { "accept-encoding": "gzip" },
  });
  assertEquals(page.status, 200);
  assertEquals(page.headers.get("content-encoding"), "gzip");
  t.close();
});
