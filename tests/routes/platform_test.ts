import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createSignedInUser, createUser, signInAs } from "../_auth.ts";
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

const contactMessage = {
  name: "Karen Mitchell",
  email: "karen@example.com",
  topic: "quote",
  message: "Do you cover rural parcels in Buncombe County, NC?",
};

test("[proxy] behind a proxy, the address the proxy saw counts, not what the client wrote", async () => {
  const t = await createTestApp({ env: { TRUST_PROXY: "1" } });
  const statuses: number[] = [];
  for (let n = 1; n <= 8; n++) {
    const res = await t.request("POST", "/api/contact", {
      body: contactMessage,
      headers: { "x-forwarded-for": `198.51.100.${n}, 192.0.2.1` },
    });
    statuses.push(res.status);
    await res.body?.cancel();
  }
  assertEquals(statuses, [201, 201, 201, 201, 201, 429, 429, 429]);
  const rows = await t.sql<{ ip: string }[]>`select ip from contact_messages`;
  assertEquals(rows.map((r) => r.ip), Array(5).fill("192.0.2.1"));
  t.close();
});

test("[proxy] audit rows record the address the proxy saw", async () => {
  const t = await createTestApp({ env: { TRUST_PROXY: "1" } });
  const user = await createUser(t.sql, { role: "client" });
  const res = await t.request("POST", "/api/login", {
    body: { identifier: user.email, password: "not the password" },
    headers: { "x-forwarded-for": "10.9.8.7, 192.0.2.44" },
  });
  assertEquals(res.status, 401);
  await res.body?.cancel();
  const rows = await t.sql<{ ip: string }[]>`select ip from audit_log`;
  assert(rows.length > 0, "no audit row");
  assertEquals(rows.map((r) => r.ip), Array(rows.length).fill("192.0.2.44"));
  t.close();
});

test("[proxy] TRUST_PROXY_HOPS=2 takes the address the outer proxy saw", async () => {
  const t = await createTestApp({ env: { TRUST_PROXY: "1", TRUST_PROXY_HOPS: "2" } });
  const send = (forwarded: string) =>
    t.request("POST", "/api/contact", {
      body: contactMessage,
      headers: { "x-forwarded-for": forwarded },
    });
  for (
    const forwarded of [
      "6.6.6.6, 203.0.113.9, 10.0.0.2",
      "203.0.113.10, 10.0.0.2",
      "203.0.113.11",
      "203.0.113.12 ,, 10.0.0.2",
    ]
  ) {
    const res = await send(forwarded);
    assertEquals(res.status, 201, forwarded);
    await res.body?.cancel();
  }
  const rows = await t.sql<{ ip: string }[]>`select ip from contact_messages`;
  assertEquals(
    rows.map((r) => r.ip).sort(),
    ["203.0.113.10", "203.0.113.11", "203.0.113.12", "203.0.113.9"],
  );
  t.close();
});

test("[proxy] without TRUST_PROXY, X-Forwarded-For is ignored", async () => {
  const t = await createTestApp();
  for (let n = 1; n <= 6; n++) {
    const res = await t.request("POST", "/api/contact", {
      body: contactMessage,
      headers: { "x-forwarded-for": `198.51.100.${n}` },
    });
    assertEquals(res.status, n <= 5 ? 201 : 429, `message ${n}`);
    await res.body?.cancel();
  }
  const rows = await t.sql<{ ip: string | null }[]>`select ip from contact_messages`;
  assertEquals(rows.map((r) => r.ip), Array(5).fill(null));
  t.close();
});

/** Asserts that `res` may not be kept by any cache, and reads its body. */
async function assertPrivate(res: Response, what: string) {
  await res.body?.cancel();
  assertEquals(res.headers.get("cache-control"), "private, no-store", `${what}: ${res.status}`);
}

test("[cache] every answer that depends on the session is private, no-store", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  const client = await createSignedInUser(t, { role: "client" });
  await assertPrivate(
    await t.request("GET", "/api/admin/pricing-config", { cookie }),
    "pricing config",
  );
  await assertPrivate(
    await t.request("GET", "/api/admin/pricing-config/history", { cookie }),
    "pricing history",
  );
  await assertPrivate(
    await t.request("GET", "/api/admin/discount-codes", { cookie }),
    "discount codes",
  );
  await assertPrivate(
    await t.request("GET", "/api/parcels/lookup?address=1200%20Barton%20Springs%20Rd", { cookie }),
    "parcel lookup",
  );
  await assertPrivate(
    await t.request("GET", `/api/surveys/${crypto.randomUUID()}`, { cookie }),
    "a 404 for a signed-in user",
  );
  await assertPrivate(
    await t.request("PATCH", "/api/user", {
      cookie: client.cookie,
      body: { fullName: "Dana Client", companyName: null, phone: null },
    }),
    "profile update",
  );
  const login = await t.request("POST", "/api/login", {
    body: { identifier: client.user.email, password: client.user.password },
  });
  assertEquals(login.status, 200);
  await assertPrivate(login, "login");
  await assertPrivate(
    await t.request("GET", "/api/admin/pricing-config"),
    "a 401 from the API",
  );
  // A route that chose its own policy keeps it, signed in or not.
  const sitemap = await t.request("GET", "/sitemap.xml", { cookie });
  await sitemap.body?.cancel();
  assertEquals(sitemap.headers.get("cache-control"), "public, max-age=3600");
  t.close();
});

test("[cache] public pages and static files keep their caching", async () => {
  const t = await createTestApp();
  const page = await t.request("GET", "/about", { headers: { accept: "text/html" } });
  await page.body?.cancel();
  assertEquals(page.status, 200);
  assertEquals(page.headers.get("cache-control"), "no-cache");
  const css = await t.request("GET", t.deps.assets.css);
  await css.body?.cancel();
  assertEquals(css.headers.get("cache-control"), "public, max-age=31536000, immutable");
  const signedIn = await t.request("GET", t.deps.assets.css, {
    cookie: await signInAs(t, "client"),
  });
  await signedIn.body?.cancel();
  assertEquals(signedIn.headers.get("cache-control"), "public, max-age=31536000, immutable");
  t.close();
});
