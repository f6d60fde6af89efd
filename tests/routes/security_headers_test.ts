import { assertEquals } from "../_assert.ts";
import { testConfig } from "../_helpers.ts";
import { securityHeaderList } from "../../routes/_middleware.ts";

const HSTS = "Strict-Transport-Security";

function headersFor(config: Record<string, unknown>, url: string, headers?: HeadersInit) {
  const list = securityHeaderList({ config: { ...testConfig(), ...config } as never });
  return new Map(list(new Request(url, { headers })));
}

Deno.test("[headers] HSTS only in production, for https requests or a trusted proxy's https", () => {
  const production = { NODE_ENV: "production" };
  assertEquals(
    headersFor(production, "https://meridian.example/dashboard").get(HSTS),
    "max-age=63072000; includeSubDomains",
  );
  assertEquals(headersFor(production, "http://meridian.example/").has(HSTS), false);
  assertEquals(headersFor({ NODE_ENV: "test" }, "https://meridian.example/").has(HSTS), false);
  const forwarded = { "x-forwarded-proto": "https" };
  assertEquals(
    headersFor({ ...production, TRUST_PROXY: true }, "http://10.0.0.2/", forwarded).has(HSTS),
    true,
  );
  assertEquals(
    headersFor({ ...production, TRUST_PROXY: false }, "http://10.0.0.2/", forwarded).has(HSTS),
    false,
  );
  // The rest is there either way, computed once per app.
  for (const url of ["https://meridian.example/", "http://meridian.example/"]) {
    const h = headersFor(production, url);
    assertEquals(h.get("X-Frame-Options"), "DENY");
    assertEquals(h.get("X-Content-Type-Options"), "nosniff");
  }
  const list = securityHeaderList({ config: testConfig() });
  const req = new Request("http://meridian.example/");
  assertEquals(list(req) === list(req), true, "the same precomputed list every request");
});
