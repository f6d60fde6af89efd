import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { ConfigError, ConfigSchema, kvPath, loadConfig } from "../../lib/config.ts";
import {
  commandPublicUrl,
  listeningLine,
  publicUrlWarning,
  withListenPort,
} from "../../lib/public_url.ts";
import { holderPath } from "../../db/embedded.ts";
import { DENO_RUN } from "../_deno.ts";

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
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-config-" });
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...DENO_RUN, new URL("../../main.ts", import.meta.url).pathname],
    env: { PORT: "not-a-port", DATA_DIR: dataDir },
    stdout: "piped",
    stderr: "piped",
  }).output().finally(() => Deno.remove(dataDir, { recursive: true }));
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

Deno.test("[config] without PUBLIC_URL the public URL is where the server listens", () => {
  const cases: [Record<string, string>, string][] = [
    [{}, "http://127.0.0.1:8000"],
    [{ PORT: "3000" }, "http://127.0.0.1:3000"],
    [{ HOST: "localhost", PORT: "3000" }, "http://localhost:3000"],
    [{ HOST: "::1" }, "http://[::1]:8000"],
    [{ HOST: "0.0.0.0" }, "http://localhost:8000"],
    [{ HOST: "::" }, "http://localhost:8000"],
    [{ HOST: "192.168.1.5", PORT: "80" }, "http://192.168.1.5"],
  ];
  for (const [env, url] of cases) {
    const config = loadConfig(env);
    assertEquals(config.PUBLIC_URL, url, JSON.stringify(env));
    assertEquals(config.isPublicUrlSet, false);
  }
  const set = loadConfig({ PUBLIC_URL: "https://meridian.example", PORT: "3000" });
  assertEquals(set.PUBLIC_URL, "https://meridian.example");
  assertEquals(set.isPublicUrlSet, true);
});

Deno.test("[config] PORT=0 takes the real port once listening, unless PUBLIC_URL is set", () => {
  assertEquals(
    withListenPort(loadConfig({ PORT: "0" }), 41234).PUBLIC_URL,
    "http://127.0.0.1:41234",
  );
  const set = loadConfig({ PORT: "0", PUBLIC_URL: "https://meridian.example" });
  assertEquals(withListenPort(set, 41234).PUBLIC_URL, "https://meridian.example");
});

Deno.test("[config] a HOST no URL can hold is refused by name", () => {
  try {
    loadConfig({ HOST: "my host" });
    throw new Error("HOST=my host was accepted");
  } catch (err) {
    assert(err instanceof ConfigError, String(err));
    assertStringIncludes(err.message, "HOST");
  }
});

Deno.test("[config] production without PUBLIC_URL warns only on a host others reach", () => {
  const warning = publicUrlWarning(loadConfig({ NODE_ENV: "production", HOST: "0.0.0.0" }));
  assert(warning);
  assertStringIncludes(warning, "PUBLIC_URL is not set");
  assertStringIncludes(warning, "set PUBLIC_URL to the address people open");
  assert(!warning.includes("\n"), "one line");
  for (
    const env of [
      { NODE_ENV: "production", HOST: "127.0.0.1" },
      { NODE_ENV: "production", HOST: "localhost" },
      { NODE_ENV: "production", HOST: "0.0.0.0", PUBLIC_URL: "https://meridian.example" },
      { NODE_ENV: "development", HOST: "0.0.0.0" },
    ]
  ) {
    assertEquals(publicUrlWarning(loadConfig(env)), undefined, JSON.stringify(env));
  }
});

Deno.test("[config] commands print PUBLIC_URL, else the running server's URL, else HOST:PORT", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    const env = { DATA_DIR: dataDir, PORT: "0" };
    assertEquals(await commandPublicUrl(loadConfig(env)), undefined, "PORT=0, no server");
    assertEquals(
      await commandPublicUrl(loadConfig({ ...env, PORT: "8100" })),
      "http://127.0.0.1:8100",
    );
    // What a server on this DATA_DIR records (another process: not this one's own record).
    const holder = { pid: Deno.pid + 1, host: "127.0.0.1", port: 5999, startedAt: "x" };
    await Deno.writeTextFile(
      holderPath(dataDir),
      JSON.stringify({ ...holder, url: "http://127.0.0.1:45678" }),
    );
    assertEquals(await commandPublicUrl(loadConfig(env)), "http://127.0.0.1:45678");
    assertEquals(
      await commandPublicUrl(loadConfig({ ...env, PUBLIC_URL: "https://meridian.example" })),
      "https://meridian.example",
    );
    assertEquals(
      await commandPublicUrl(loadConfig({ ...env, DATABASE_URL: "postgres://x@127.0.0.1/y" })),
      undefined,
      "another database: the record says nothing about its server",
    );
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[config] a production start without PUBLIC_URL warns once, and only off loopback", async () => {
  const dataDir = await Deno.makeTempDir();
  // Stops right after the configuration: no Postgres answers on port 1 and it is not waited for.
  const start = (host: string) =>
    new Deno.Command(Deno.execPath(), {
      args: [...DENO_RUN, new URL("../../main.ts", import.meta.url).pathname],
      env: {
        NODE_ENV: "production",
        HOST: host,
        PORT: "0",
        PUBLIC_URL: "",
        DATA_DIR: dataDir,
        DATABASE_URL: "postgres://postgres@127.0.0.1:1/none",
        DATABASE_WAIT_SECONDS: "0",
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
  try {
    // One after the other: two deno processes starting at once in one tree can find the linked
    // vendor packages half-copied into node_modules/ (.ci/run), the suspected cause of the
    // one CI run that saw no warning at all.
    const open = await start("0.0.0.0");
    const loopback = await start("127.0.0.1");
    const lines = (out: Deno.CommandOutput) =>
      new TextDecoder().decode(out.stdout).concat(new TextDecoder().decode(out.stderr))
        .split("\n").filter((line) => line.includes("PUBLIC_URL"));
    const warnings = lines(open);
    // On failure, everything the process wrote.
    // CI shows the end of a failure's message: the exit code and the child's error lines go last.
    const everything = (out: Deno.CommandOutput) => {
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      const errors = text.split("\n").filter((line) => /error/i.test(line)).slice(-5);
      return `${text}\n--- exit ${out.code}; its error lines:\n${errors.join("\n")}`;
    };
    assertEquals(warnings.length, 1, everything(open));
    assertStringIncludes(warnings[0], "PUBLIC_URL is not set");
    assertStringIncludes(warnings[0], "set PUBLIC_URL to the address people open");
    assertEquals(lines(loopback), []);
    assertEquals(open.success, false, "it stopped at the database, as arranged");
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[config] the server prints the URL to open, and where it listens when that differs", () => {
  const line = (env: Record<string, string>, port: number) =>
    listeningLine(withListenPort(loadConfig(env), port), port);
  assertEquals(line({ PORT: "0" }, 41234), "Meridian listening on http://127.0.0.1:41234");
  assertEquals(line({ HOST: "::1" }, 8000), "Meridian listening on http://[::1]:8000");
  assertEquals(
    line({ HOST: "0.0.0.0" }, 8000),
    "Meridian listening on 0.0.0.0:8000; open http://localhost:8000",
  );
  assertEquals(
    line({ HOST: "::", PUBLIC_URL: "https://meridian.example" }, 8000),
    "Meridian listening on [::]:8000; open https://meridian.example",
  );
  assertEquals(
    line({ PUBLIC_URL: "http://127.0.0.1:8000/" }, 8000),
    "Meridian listening on http://127.0.0.1:8000/",
  );
});
