import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { REDIRECTS } from "../../routes/redirects.ts";

function assertSecurityHeaders(res: Response) {
  const csp = res.headers.get("content-security-policy") ?? "";
  for (
    const d of [
      "default-src 'self'",
      "script-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'self'",
    ]
  ) assert(csp.includes(d), `CSP lacks ${d}: ${csp}`);
  assertEquals(res.headers.get("x-content-type-options"), "nosniff");
  assertEquals(res.headers.get("referrer-policy"), "strict-origin-when-cross-origin");
  assertEquals(res.headers.get("cross-origin-opener-policy"), "same-origin");
  assertEquals(res.headers.get("x-powered-by"), null);
  assertMatch(res.headers.get("x-request-id") ?? "", /^[\w.-]{8,}$/);
}

test("[platform] /healthz answers ok with security headers", async () => {
  const t = await createTestApp();
  const res = await t.request("GET", "/healthz");
  assertEquals(res.status, 200);
  assertSecurityHeaders(res);
  assertEquals(await res.json(), { status: "ok" });
  t.close();
});

test("[platform] /readyz checks Postgres and KV", async () => {
  const t = await createTestApp();
  const res = await t.request("GET", "/readyz");
  assertEquals(res.status, 200);
  assertEquals(await res.json(), { status: "ok", checks: { postgres: true, kv: true } });
  t.close();
});

test("[platform] unknown paths give the 404 page with security headers", async () => {
  const t = await createTestApp();
  const res = await t.request("GET", "/no/such/page", { headers: { accept: "text/html" } });
  assertEquals(res.status, 404);
  assertSecurityHeaders(res);
  assertMatch(res.headers.get("content-type") ?? "", /text\/html/);
  const html = await res.text();
  assert(html.includes("404 Page Not Found"));
  assert(html.includes('href="/"'));
  t.close();
});

test("[platform] unknown API paths give JSON 404", async () => {
  const t = await createTestApp();
  const res = await t.request("GET", "/api/nope");
  assertEquals(res.status, 404);
  assertEquals(await res.json(), { message: "Not found" });
  t.close();
});

test("[platform] spec redirects are permanent and land on the right page", async () => {
  const t = await createTestApp();
  for (const [from, to] of Object.entries(REDIRECTS)) {
    const res = await t.request("GET", from);
    assertEquals(res.status, 301, from);
    assertEquals(res.headers.get("location"), to, from);
  }
  t.close();
});

test("[platform] a request id sent by a proxy is echoed back", async () => {
  const t = await createTestApp();
  const res = await t.request("GET", "/healthz", { headers: { "x-request-id": "abc12345-x" } });
  assertEquals(res.headers.get("x-request-id"), "abc12345-x");
  t.close();
});

test("[platform] cross-origin POST is refused with 403 JSON", async () => {
  const t = await createTestApp();
  const res = await t.request("POST", "/api/contact", {
    body: {},
    headers: { origin: "https://evil.example" },
  });
  assertEquals(res.status, 403);
  assertEquals((await res.json()).message, "Cross-site request refused");
  t.close();
});

test("[platform] a POST with no Origin and no Sec-Fetch-Site is refused", async () => {
  const t = await createTestApp();
  const res = await t.app.request("http://localhost/api/contact", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  assertEquals(res.status, 403);
  t.close();
});

test("[platform] API bodies that are not JSON get 415", async () => {
  const t = await createTestApp();
  const res = await t.request("POST", "/api/contact", {
    body: "name=x",
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  assertEquals(res.status, 415);
  assertEquals((await res.json()).message, "Request body must be JSON");
  t.close();
});

test("[platform] huge bodies get 413", async () => {
  const t = await createTestApp();
  const res = await t.request("POST", "/api/contact", { body: { message: "x".repeat(70_000) } });
  assertEquals(res.status, 413);
  assertEquals((await res.json()).message, "Request body is too large");
  t.close();
});

test("[platform] hashed assets are immutable and gzip when asked", async () => {
  const t = await createTestApp();
  const css = t.deps.assets.css;
  const res = await t.request("GET", css, { headers: { "accept-encoding": "gzip" } });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
  assertMatch(res.headers.get("content-type") ?? "", /text\/css/);
  await res.arrayBuffer();
  t.close();
});

test("[platform] static paths cannot escape the static folder", async () => {
  const t = await createTestApp();
  for (const p of ["/static/../main.ts", "/static/%2e%2e/main.ts", "/static/..%2fmain.ts"]) {
    const res = await t.request("GET", p);
    assertEquals(res.status, 404, p);
    await res.body?.cancel();
  }
  t.close();
});

test("[platform] a bodiless PATCH as browsers send it (empty stream, no length) is not a 415", async () => {
  const t = await createTestApp();
  const res = await t.app.request("http://localhost/api/notifications/mark-all-read", {
    method: "PATCH",
    headers: { origin: "http://localhost" },
    body: new ReadableStream({ start: (controller) => controller.close() }),
    // @ts-ignore: Deno's RequestInit needs duplex for stream bodies
    duplex: "half",
  });
  assertEquals(res.status, 401);
  t.close();
});
