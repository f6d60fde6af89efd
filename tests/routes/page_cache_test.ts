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
