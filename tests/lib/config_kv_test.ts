/**
 * KV beyond one host (KV_URL, DENO_KV_ACCESS_TOKEN) and the other issue 13 settings
 * (METRICS_TOKEN, SHUTDOWN_TIMEOUT_SECONDS): what start-up accepts, and the one line it
 * prints when a KV Connect endpoint cannot be used.
 */
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { ConfigError, kvPath, loadConfig } from "../../lib/config.ts";
import { KvStartError, openKv } from "../../db/kv.ts";
import { freePort } from "../platform/_server.ts";
import { DENO_RUN } from "../_deno.ts";

const TOKEN = "kv-access-token-for-tests";

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    assert(err instanceof ConfigError, String(err));
    return err.message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

Deno.test("[config] KV_PATH stays the default; KV_URL with its token is what openKv opens", () => {
  assertEquals(kvPath(loadConfig({})), ".data/kv.sqlite3");
  assertEquals(
    kvPath(loadConfig({ KV_PATH: "/var/lib/meridian/kv.sqlite3" })),
    "/var/lib/meridian/kv.sqlite3",
  );
  for (const url of ["https://api.deno.com/databases/0b1c/connect", "http://denokv:4512"]) {
    const config = loadConfig({ KV_URL: url, DENO_KV_ACCESS_TOKEN: TOKEN });
    assertEquals(kvPath(config), url);
    assertEquals(config.DENO_KV_ACCESS_TOKEN, TOKEN);
  }
});

Deno.test("[config] KV_URL without DENO_KV_ACCESS_TOKEN is refused, naming the token", () => {
  const message = refusal({ KV_URL: "https://kv.example.com" });
  assertStringIncludes(message, "DENO_KV_ACCESS_TOKEN");
  assertStringIncludes(message, "KV_URL needs DENO_KV_ACCESS_TOKEN");
  // An empty token counts as unset.
  assertStringIncludes(
    refusal({ KV_URL: "https://kv.example.com", DENO_KV_ACCESS_TOKEN: "" }),
    "DENO_KV_ACCESS_TOKEN",
  );
});

Deno.test("[config] KV_URL must be an http(s) KV Connect URL", () => {
  for (
    const url of [
      "kv.example.com",
      "ftp://kv.example.com",
      "file:///var/lib/kv.sqlite3",
      "redis://kv:6379",
      "https://",
      "http:// spaced.example.com",
      ":memory:",
    ]
  ) {
    const message = refusal({ KV_URL: url, DENO_KV_ACCESS_TOKEN: TOKEN });
    assertStringIncludes(message, "KV_URL: must be an http:// or https:// KV Connect URL", url);
  }
});

Deno.test("[config] KV_URL and KV_PATH together are refused: sessions would split", () => {
  const message = refusal({
    KV_URL: "https://kv.example.com",
    DENO_KV_ACCESS_TOKEN: TOKEN,
    KV_PATH: "/tmp/kv.sqlite3",
  });
  assertStringIncludes(message, "KV_PATH: set KV_PATH or KV_URL, not both");
});

Deno.test("[config] METRICS_TOKEN is long and visible ASCII; SHUTDOWN_TIMEOUT_SECONDS 1-600, 10 by default", () => {
  assertEquals(loadConfig({}).METRICS_TOKEN, undefined);
  const token = "a".repeat(24);
  assertEquals(loadConfig({ METRICS_TOKEN: token }).METRICS_TOKEN, token);
  for (const bad of ["short", "a".repeat(23), `${"a".repeat(24)} b`, "é".repeat(30)]) {
    assertStringIncludes(refusal({ METRICS_TOKEN: bad }), "METRICS_TOKEN");
  }
  assertEquals(loadConfig({}).SHUTDOWN_TIMEOUT_SECONDS, 10);
  assertEquals(loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: "30" }).SHUTDOWN_TIMEOUT_SECONDS, 30);
  for (const bad of ["0", "-1", "1.5", "ten", "601"]) {
    assertStringIncludes(refusal({ SHUTDOWN_TIMEOUT_SECONDS: bad }), "SHUTDOWN_TIMEOUT_SECONDS");
  }
});

/** Runs `fn` with DENO_KV_ACCESS_TOKEN set, as the server's environment would have it. */
async function withToken<T>(fn: () => Promise<T>): Promise<T> {
  const before = Deno.env.get("DENO_KV_ACCESS_TOKEN");
  Deno.env.set("DENO_KV_ACCESS_TOKEN", TOKEN);
  try {
    return await fn();
  } finally {
    if (before === undefined) Deno.env.delete("DENO_KV_ACCESS_TOKEN");
    else Deno.env.set("DENO_KV_ACCESS_TOKEN", before);
  }
}

Deno.test("[kv] a KV Connect endpoint that refuses is a KvStartError naming KV_URL, not the token", async () => {
  const url = `http://user:secret@127.0.0.1:${freePort()}/kv`;
  const err = await withToken(() => assertRejects(() => openKv(url)));
  assert(err instanceof KvStartError, String(err));
  assertStringIncludes(err.message, "Cannot open Deno KV at KV_URL http://127.0.0.1:");
  assert(!err.message.includes("secret"), err.message);
  assert(!err.message.includes(TOKEN), err.message);
});

Deno.test({
  name: "[kv] a KV Connect endpoint that never answers is a KvStartError after the bound",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // Accepts connections and never says a word.
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const held: Deno.Conn[] = [];
    (async () => {
      for await (const conn of listener) held.push(conn);
    })().catch(() => {});
    try {
      const url = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
      const started = performance.now();
      const err = await withToken(() => assertRejects(() => openKv(url, { timeoutMs: 500 })));
      const ms = performance.now() - started;
      assert(err instanceof KvStartError, String(err));
      assertStringIncludes(err.message, "did not answer within 1 s");
      assert(ms >= 450 && ms < 5000, `gave up after ${ms} ms`);
    } finally {
      listener.close();
      for (const conn of held) conn.close();
    }
  },
});

Deno.test("[config] the server refuses to start on KV_URL without a token, and on one it cannot reach", async () => {
  const main = new URL("../../main.ts", import.meta.url).pathname;
  const run = async (env: Record<string, string>) => {
    // The embedded database it opens before giving up is some 40 MB: removed after each start.
    const dataDir = await Deno.makeTempDir({ prefix: "meridian-kv-config-" });
    const out = await new Deno.Command(Deno.execPath(), {
      args: [...DENO_RUN, main],
      env: {
        DATA_DIR: dataDir,
        DATABASE_URL: Deno.env.get("DATABASE_URL") ?? "",
        KV_PATH: "",
        NODE_ENV: "test",
        PORT: "0",
        ...env,
      },
      stdout: "piped",
      stderr: "piped",
    }).output().finally(() => Deno.remove(dataDir, { recursive: true }));
    return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
  };
  const noToken = await run({ KV_URL: "https://kv.example.com", DENO_KV_ACCESS_TOKEN: "" });
  assertEquals(noToken.code, 1);
  assertStringIncludes(noToken.stderr, "DENO_KV_ACCESS_TOKEN");

  const unreachable = await run({
    KV_URL: `http://127.0.0.1:${freePort()}`,
    DENO_KV_ACCESS_TOKEN: TOKEN,
  });
  assertEquals(unreachable.code, 1, unreachable.stderr);
  assertStringIncludes(unreachable.stderr, "Cannot open Deno KV at KV_URL http://127.0.0.1:");
  // One line for the operator, not a stack.
  assert(!unreachable.stderr.includes("    at "), unreachable.stderr);
});
