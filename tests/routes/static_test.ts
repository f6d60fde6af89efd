import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";

const STATIC_DIR = new URL("../../static/", import.meta.url);

/** Paths that name something outside static/, or nothing at all: every one is a 404. */
const OUTSIDE = [
  "/static/file:///etc/passwd",
  "/static/file:///dev/zero",
  "/static/file:///proc/self/environ",
  "/static/file:/etc/passwd",
  "/static/file:%2F%2F%2Fetc%2Fpasswd",
  "/static/http://example.com/x",
  "/static/https:%2F%2Fexample.com%2Fx",
  "/static/%E0%A4%A",
  "/static/%E0%A4%A/../../etc/passwd",
  "/static/%2Fetc%2Fpasswd",
  "/static/%252Fetc%252Fpasswd",
  "/static/..%2F..%2Fetc%2Fpasswd",
  "/static/..%252F..%252Fetc%252Fpasswd",
  "/static/%2e%2e/%2e%2e/etc/passwd",
  "/static/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "/static/%2e%2e%2fdeno.json",
  "/static/..%5C..%5Cetc%5Cpasswd",
  "/static/..\\..\\etc\\passwd",
  "/static/build\\..\\..\\deno.json",
  "/static/../main.ts",
  "/static/../../../../etc/passwd",
  "/static/build/..%2F..%2Fmain.ts",
  "/static//etc/passwd",
  "/static/css/app.css%00",
  "/static/css/app.css%00.png",
  "/static/%00",
  "/static/",
  "/static/build",
  "/static/build/",
  "/static/css/no-such-file.css",
  `/static/${"a".repeat(5000)}`,
  `/static/${"a/".repeat(2500)}x.css`,
];

/** A test app served on a real port: `raw(path)` sends the request line byte for byte. */
async function withServer(
  fn: (t: TestApp, raw: (path: string) => Promise<number>) => Promise<void>,
) {
  const t = await createTestApp();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, t.app.fetch);
  // fetch() would normalise the path first; an attacker's client does not.
  const raw = async (path: string) => {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    try {
      await conn.write(
        new TextEncoder().encode(
          `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
        ),
      );
      const head = new Uint8Array(64);
      const n = await conn.read(head);
      const statusLine = new TextDecoder().decode(head.subarray(0, n ?? 0));
      const match = statusLine.match(/^HTTP\/1\.1 (\d{3})/);
      assert(match, `no status line for ${path.slice(0, 80)}: ${statusLine}`);
      return Number(match[1]);
    } finally {
      conn.close();
    }
  };
  try {
    await fn(t, raw);
  } finally {
    await server.shutdown();
    t.close();
  }
}

async function assertNotServed(t: TestApp, path: string) {
  const res = await t.request("GET", path);
  const body = await res.text();
  assertEquals(res.status, 404, path.slice(0, 80));
  assert(!body.includes("root:"), `${path.slice(0, 80)} leaked /etc/passwd`);
}

test("[static] paths outside static/, malformed or too long are 404, never 500 or a file", async () => {
  const t = await createTestApp();
  for (const path of OUTSIDE) await assertNotServed(t, path);
  t.close();
});

test("[static] the same paths sent raw over HTTP are 404", async () => {
  await withServer(async (_t, raw) => {
    for (const path of OUTSIDE) assertEquals(await raw(path), 404, path.slice(0, 80));
  });
});

test("[static] symlinks inside static/ pointing outside it are not followed", async () => {
  const t = await createTestApp();
  const suffix = crypto.randomUUID().slice(0, 8);
  const fileLink = new URL(`_test_passwd_${suffix}`, STATIC_DIR);
  const dirLink = new URL(`_test_etc_${suffix}`, STATIC_DIR);
  const repoLink = new URL(`_test_repo_${suffix}`, STATIC_DIR);
  try {
    await Deno.symlink("/etc/passwd", fileLink);
    await Deno.symlink("/etc", dirLink, { type: "dir" });
    await Deno.symlink("..", repoLink, { type: "dir" });
    for (
      const path of [
        `/static/_test_passwd_${suffix}`,
        `/static/_test_etc_${suffix}`,
        `/static/_test_etc_${suffix}/passwd`,
        `/static/_test_repo_${suffix}/deno.json`,
        `/static/_test_repo_${suffix}/.data/kv.sqlite3`,
      ]
    ) await assertNotServed(t, path);
  } finally {
    for (const link of [fileLink, dirLink, repoLink]) {
      await Deno.remove(link).catch(() => {});
    }
    t.close();
  }
});

test("[static] hashed build files are served immutable, with their type", async () => {
  const t = await createTestApp();
  for (const path of [t.deps.assets.boot.src, t.deps.assets.css]) {
    const res = await t.request("GET", path);
    const body = new Uint8Array(await res.arrayBuffer());
    assertEquals(res.status, 200, path);
    assertEquals(res.headers.get("cache-control"), "public, max-age=31536000, immutable", path);
    assertMatch(
      res.headers.get("content-type") ?? "",
      path.endsWith(".css") ? /^text\/css/ : /^text\/javascript/,
    );
    assertEquals(body, await Deno.readFile(new URL(`..${path}`, STATIC_DIR)), path);
  }
  t.close();
});

test("[static] other files revalidate hourly", async () => {
  const t = await createTestApp();
  for (
    const path of ["/static/favicon.svg", "/static/build/manifest.json", "/static/css/app.css"]
  ) {
    const res = await t.request("GET", path);
    await res.body?.cancel();
    assertEquals(res.status, 200, path);
    assertEquals(res.headers.get("cache-control"), "public, max-age=3600, must-revalidate", path);
  }
  t.close();
});

test("[static] the stylesheet is sent precompressed (brotli, else gzip) with its own ETag", async () => {
  const t = await createTestApp();
  const css = t.deps.assets.css;
  const original = await Deno.readFile(new URL(`..${css}`, STATIC_DIR));
  const decoders: Record<string, (bytes: Uint8Array) => Uint8Array> = {
    br: (bytes) => new Uint8Array(brotliDecompressSync(bytes)),
    gzip: (bytes) => new Uint8Array(gunzipSync(bytes)),
  };
  const tags = new Set<string>();
  for (
    const [accept, encoding] of [["gzip, deflate, br", "br"], ["gzip", "gzip"], ["", null]] as const
  ) {
    const headers = { "accept-encoding": accept };
    const res = await t.request("GET", css, { headers });
    assertEquals(res.status, 200, accept);
    assertEquals(res.headers.get("content-encoding"), encoding, accept);
    assertMatch(res.headers.get("content-type") ?? "", /^text\/css/);
    assertMatch(res.headers.get("vary") ?? "", /Accept-Encoding/i, accept);
    assertEquals(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
    const body = new Uint8Array(await res.arrayBuffer());
    assertEquals(encoding ? decoders[encoding](body) : body, original, accept);
    const tag = res.headers.get("etag");
    assert(tag, `an ETag for ${accept}`);
    tags.add(tag);
    const again = await t.request("GET", css, { headers: { ...headers, "if-none-match": tag } });
    assertEquals(again.status, 304, accept);
    assertEquals(await again.text(), "");
  }
  assertEquals(tags.size, 3, "each encoding is its own representation");
  t.close();
});

test("[static] the maps' states outline is a hashed build file, precompressed", async () => {
  const t = await createTestApp();
  const outline = t.deps.assets.mapOutline;
  assert(outline, "the build writes the outline");
  const res = await t.request("GET", outline, { headers: { "accept-encoding": "gzip" } });
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("content-type") ?? "", /^image\/svg\+xml/);
  assertEquals(res.headers.get("content-encoding"), "gzip");
  assertEquals(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
  const svg = new TextDecoder().decode(gunzipSync(new Uint8Array(await res.arrayBuffer())));
  assertMatch(svg, /<path id="land" d="M/);
  assertMatch(svg, /<path id="borders" [^>]*d="M/);
  t.close();
});

test("[static] a matching If-None-Match gets 304 with no body, gzipped or not", async () => {
  const t = await createTestApp();
  for (const encoding of ["identity", "gzip"]) {
    const headers = { "accept-encoding": encoding };
    const first = await t.request("GET", "/static/favicon.svg", { headers });
    await first.body?.cancel();
    const tag = first.headers.get("etag");
    assert(tag, "no ETag");
    const again = await t.request("GET", "/static/favicon.svg", {
      headers: { ...headers, "if-none-match": tag },
    });
    assertEquals(again.status, 304, encoding);
    assertEquals(await again.text(), "");
    assertEquals(again.headers.get("cache-control"), "public, max-age=3600, must-revalidate");
    const other = await t.request("GET", "/static/favicon.svg", {
      headers: { ...headers, "if-none-match": '"stale"' },
    });
    assertEquals(other.status, 200, encoding);
    await other.body?.cancel();
  }
  t.close();
});
