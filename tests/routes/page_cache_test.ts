import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";

test("[pages] a cached public page keeps its security headers, request id and ETag", async () => {
  const t = await createTestApp();
  const first = await t.request("GET", "/");
  assertEquals(first.status, 200);
  const firstHtml = await first.text();
  const second = await t.request("GET", "/?utm_source=search");
  assertEquals(second.status, 200);
  assertEquals(await second.text(), firstHtml);
  for (const res of [first, second]) {
    assertEquals(res.headers.get("x-content-type-options"), "nosniff");
    assert((res.headers.get("content-security-policy") ?? "").includes("script-src 'self'"));
    assert(res.headers.get("x-request-id"));
    assertEquals(res.headers.get("content-type"), "text/html; charset=UTF-8");
  }
  assertEquals(first.headers.get("etag"), second.headers.get("etag"));
  assert(first.headers.get("x-request-id") !== second.headers.get("x-request-id"));
  t.close();
});

test("[pages] a cached page answers 304 to a matching If-None-Match and gzips on request", async () => {
  const t = await createTestApp();
  const first = await t.request("GET", "/");
  await first.body?.cancel();
  const etag = first.headers.get("etag")!;
  const again = await t.request("GET", "/", { headers: { "if-none-match": etag } });
  assertEquals(again.status, 304);
  const gz = await t.request("GET", "/", { headers: { "accept-encoding": "gzip, br" } });
  assertEquals(gz.headers.get("content-encoding"), "gzip");
  await gz.body?.cancel();
  t.close();
});

test("[pages] every cached answer carries the whole page: repeated, gzipped, HEAD, and a proxy's request id", async () => {
  const t = await createTestApp();
  const identity = { "accept-encoding": "identity" };
  const first = await (await t.request("GET", "/", { headers: identity })).text();
  assert(first.includes("</html>"), "the page is whole");
  // Served from one kept answer many times: each one the same bytes, none emptied by the last.
  for (let i = 0; i < 5; i++) {
    assertEquals(await (await t.request("GET", "/", { headers: identity })).text(), first);
    const gz = await t.request("GET", "/", { headers: { "accept-encoding": "gzip" } });
    assertEquals(gz.headers.get("content-encoding"), "gzip");
    const text = await new Response(gz.body!.pipeThrough(new DecompressionStream("gzip"))).text();
    assertEquals(text, first);
  }
  const head = await t.request("HEAD", "/", { headers: identity });
  assertEquals(head.status, 200);
  assertEquals(await head.text(), "");
  assertEquals(head.headers.get("x-content-type-options"), "nosniff");
  const proxied = await t.request("GET", "/", { headers: { "x-request-id": "proxy-id-12345" } });
  await proxied.body?.cancel();
  assertEquals(proxied.headers.get("x-request-id"), "proxy-id-12345");
  t.close();
});
