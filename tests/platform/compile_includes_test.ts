/**
 * The single binary's include list is complete: the server runs from a copy of only what
 * `deno compile` would embed — main.ts's local module graph plus the `--include` paths of
 * scripts/compile.ts — started from a different working directory, with reads allowed only
 * inside that copy and its DATA_DIR. (node_modules, deno.json, deno.lock and the linked
 * vendor/ package come along so that the copy runs from source; the binary embeds its npm
 * packages.) Building the binary itself needs a `denort` download this environment cannot make,
 * so this test stands in for it: a file the app reads at run time that the list leaves out is a
 * failed request or a server that does not start.
 */
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { dirname, join } from "node:path";
import { compileIncludes } from "../../scripts/compile.ts";
import { freePort } from "./_server.ts";
import { isRealPostgres } from "../_suite.ts";

const ROOT = new URL("../../", import.meta.url);
const ROOT_PATH = await Deno.realPath(ROOT);

/** The project's local modules that main.ts imports, statically or dynamically. */
async function localModuleGraph(): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "main.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: { specifier: string }[];
  };
  const prefix = new URL(ROOT_PATH + "/", "file:///").href;
  return info.modules
    .map((m) => m.specifier)
    .filter((s) => s.startsWith(prefix) && !s.includes("/node_modules/"))
    .map((s) => decodeURIComponent(s.slice(prefix.length)));
}

async function run(cmd: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(cmd, { args, stdout: "null", stderr: "piped" }).output();
  assert(out.success, `${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

/** Copies `relative` (a file, or a folder with a trailing slash) from the project to `dest`. */
async function copyInto(dest: string, relative: string, hardLink = false): Promise<void> {
  const from = join(ROOT_PATH, relative);
  const to = join(dest, relative);
  await Deno.mkdir(dirname(to.replace(/\/$/, "")), { recursive: true });
  // cp -a keeps node_modules' relative links; hard links make its 400 MB copy instant.
  await run("cp", [
    hardLink ? "-al" : "-a",
    from.replace(/\/$/, ""),
    dirname(to.replace(/\/$/, "")),
  ]);
}

/** Waits until the server answers /healthz, or fails with what it printed. */
async function waitUntilUp(
  origin: string,
  child: Deno.ChildProcess,
  output: () => string,
): Promise<void> {
  let exited = false;
  child.status.then(() => exited = true);
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline && !exited) {
    try {
      const res = await fetch(`${origin}/healthz`);
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server from the copy did not come up:\n${output()}`);
}

Deno.test({
  name: "the server runs from a copy of only the compile include list, in another directory",
  // The copy is served from the built bundles; `deno task test` builds them first.
  // The copy runs on the embedded database whatever the suite's is: the Postgres suite skips it
  // (tests/_suite.ts).
  ignore: isRealPostgres ||
    await Deno.stat(new URL("static/build/manifest.json", ROOT)).then(() => false, () => {
      console.warn("compile_includes_test: no static/build/manifest.json (run `deno task build`)");
      return true;
    }),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const app = await Deno.makeTempDir({ prefix: "meridian-compiled-" });
  const cwd = await Deno.makeTempDir({ prefix: "meridian-cwd-" });
  const data = await Deno.makeTempDir({ prefix: "meridian-data-" });
  let child: Deno.ChildProcess | undefined;
  let output = "";
  try {
    const includes = (await compileIncludes()).filter((p) => !p.startsWith("node_modules/"));
    for (const path of [...includes, ...await localModuleGraph(), "deno.json", "deno.lock"]) {
      await copyInto(app, path);
    }
    // Needed to run from source only (npm packages): not the app's files. vendor/ is not
    // copied: what the server loads of it is in the module graph, as in the compiled binary.
    await copyInto(app, "node_modules/", true);
    // Nothing else of the project is in the copy: no dev.ts, so no rebuild, and no tests.
    await Deno.stat(join(app, "dev.ts")).then(
      () => assert(false, "dev.ts must not be copied"),
      () => {},
    );

    const port = freePort();
    const origin = `http://127.0.0.1:${port}`;
    const denoDir = Deno.env.get("DENO_DIR");
    child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--cached-only",
        `--config=${join(app, "deno.json")}`,
        // Reads only inside the copy and DATA_DIR: anything else the app opens at run time is
        // a permission error, and the check below fails.
        `--allow-read=${app},${data}`,
        `--allow-write=${data}`,
        "--allow-net",
        "--allow-env",
        "--allow-sys",
        join(app, "main.ts"),
      ],
      cwd,
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: Deno.env.get("HOME") ?? "",
        ...(denoDir ? { DENO_DIR: denoDir } : {}),
        // Embedded PGlite, whatever database the rest of the test run uses.
        DATA_DIR: data,
        PORT: String(port),
        HOST: "127.0.0.1",
        PUBLIC_URL: origin,
        NODE_ENV: "production",
        LOG_REQUESTS: "0",
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const decoder = new TextDecoder();
    const pump = async (stream: ReadableStream<Uint8Array>) => {
      for await (const chunk of stream) output += decoder.decode(chunk, { stream: true });
    };
    pump(child.stdout);
    pump(child.stderr);
    await waitUntilUp(origin, child, () => output);

    const health = await fetch(`${origin}/healthz`);
    assertEquals(await health.json(), { status: "ok" });

    const landing = await fetch(`${origin}/`);
    assertEquals(landing.status, 200);
    const html = await landing.text();
    const css = html.match(/<link[^>]+rel="stylesheet"[^>]+href="(\/static\/[^"]+\.css)"/)?.[1] ??
      html.match(/<link[^>]+href="(\/static\/[^"]+\.css)"[^>]+rel="stylesheet"/)?.[1];
    assert(css, "the landing page links its stylesheet");
    const cssRes = await fetch(origin + css);
    assertEquals(cssRes.status, 200, `GET ${css}`);
    assertMatch(cssRes.headers.get("content-type") ?? "", /text\/css/);
    assert((await cssRes.text()).length > 1000, "the stylesheet has content");

    // A built island bundle (static/build/), as the browser loads it.
    const script = html.match(/src="(\/static\/build\/[^"]+\.js)"/)?.[1];
    assert(script, "the landing page loads a built bundle");
    const js = await fetch(origin + script);
    assertEquals(js.status, 200, `GET ${script}`);
    assertMatch(js.headers.get("content-type") ?? "", /javascript/);
    await js.body?.cancel();

    // The service worker is read from static/sw.js.
    const sw = await fetch(`${origin}/sw.js`);
    assertEquals(sw.status, 200, "GET /sw.js");
    await sw.body?.cancel();

    // Address autocomplete from the offline ZIP data (no GOOGLE_MAPS_API_KEY): a ZIP begun by the
    // user is completed from it.
    const suggest = await fetch(
      `${origin}/api/address-suggestions?input=123+Main+St,+Austin,+TX+787`,
    );
    assertEquals(suggest.status, 200);
    const { predictions } = await suggest.json() as { predictions: { description: string }[] };
    assert(
      predictions.some((p) => /Austin, TX 787\d\d/.test(p.description)),
      `suggestions from the offline data: ${JSON.stringify(predictions)}`,
    );

    assert(!/NotCapable|PermissionDenied|Requires read access/.test(output), output);
  } finally {
    if (child) {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already exited.
      }
      await child.status;
    }
    for (const dir of [app, cwd, data]) await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
