import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { ConfigError, ConfigSchema, kvPath, loadConfig } from "../../lib/config.ts";

Deno.test("[config] the embedded defaults need no variables", () => {
  const config = loadConfig({});
  assertEquals(config.PORT, 8000);
  assertEquals(config.HOST, "127.0.0.1");
  assertEquals(config.DATABASE_URL, undefined);
  assertEquals(kvPath(config), ".data/kv.sqlite3");
});

Deno.test("[config] empty strings count as unset", () => {
  const config = loadConfig({ DATABASE_URL: "", PORT: "" });
  assertEquals(config.DATABASE_URL, undefined);
  assertEquals(config.PORT, 8000);
});

Deno.test("[config] a wrong value names the variable", () => {
  for (
    const [name, value] of [
      ["PORT", "eighty"],
      ["DATABASE_URL", "mysql://x"],
      ["PUBLIC_URL", "not a url"],
      ["SMTP_URL", "http://mail"],
      ["NODE_ENV", "staging"],
    ]
  ) {
    try {
      loadConfig({ [name]: value });
      throw new Error(`${name}=${value} was accepted`);
    } catch (err) {
      assert(err instanceof ConfigError, String(err));
      assertStringIncludes(err.message, name);
    }
  }
});

Deno.test("[config] the server refuses to start on a bad value and says which", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../main.ts", import.meta.url).pathname],
    env: { PORT: "not-a-port", DATA_DIR: await Deno.makeTempDir() },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.success, false);
  assertStringIncludes(new TextDecoder().decode(out.stderr), "PORT");
});

Deno.test("[config] TRUST_PROXY_HOPS defaults to 1 and must be a small positive whole number", () => {
  assertEquals(loadConfig({}).TRUST_PROXY_HOPS, 1);
  assertEquals(loadConfig({ TRUST_PROXY_HOPS: "2" }).TRUST_PROXY_HOPS, 2);
  for (const value of ["0", "-1", "1.5", "two", "99"]) {
    try {
      loadConfig({ TRUST_PROXY_HOPS: value });
      throw new Error(`TRUST_PROXY_HOPS=${value} was accepted`);
    } catch (err) {
      assert(err instanceof ConfigError, String(err));
      assertStringIncludes(err.message, "TRUST_PROXY_HOPS");
    }
  }
});

Deno.test("[config] every variable is documented in .env.example and the README", async () => {
  const example = await Deno.readTextFile(new URL("../../.env.example", import.meta.url));
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  for (const name of Object.keys(ConfigSchema.shape)) {
    assert(new RegExp(`^${name}=`, "m").test(example), `${name} missing from .env.example`);
    assertStringIncludes(readme, `\`${name}\``, `${name} missing from the README`);
  }
});
