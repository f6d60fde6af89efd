/**
 * No npm package that Deno would load as a required ES module is reachable from a test isolate's
 * modules (tests/_run.ts groups them): a package whose `exports` name a "module-sync" entry,
 * which a CommonJS `require()` of it resolves to. Deno 2.9.6's synchronous load of such a module
 * now and then never returned, and a test module importing one left `deno test` silent from its
 * start (tests/_s3rver.ts has the figures; s3rver, through koa, was the one).
 */
import { assert, assertEquals } from "../_assert.ts";
import { isolateGroups, testFiles, writeGroupModule } from "../_run.ts";

const ROOT = new URL("../../", import.meta.url);

interface Info {
  modules: { kind: string; npmPackage?: string }[];
  npmPackages: Record<string, { dependencies: string[]; localPath?: string }>;
}

/** `deno info --json` of a module importing `members` (project-relative), as a group runs them. */
async function graphOf(name: string, members: string[]): Promise<Info> {
  const module = await writeGroupModule(name, members);
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", module.pathname],
      cwd: ROOT.pathname,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert(out.success, new TextDecoder().decode(out.stderr));
    return JSON.parse(new TextDecoder().decode(out.stdout));
  } finally {
    await Deno.remove(module).catch(() => {});
  }
}

/** Every npm package (name@version) the graph's modules import, with what those depend on. */
export function reachablePackages(info: Info): Set<string> {
  const seen = new Set<string>();
  const queue = info.modules.flatMap((m) => m.kind === "npm" && m.npmPackage ? [m.npmPackage] : []);
  while (queue.length) {
    const id = queue.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...(info.npmPackages[id]?.dependencies ?? []));
  }
  return seen;
}

/** Whether a package.json `exports` value names a "module-sync" condition anywhere in it. */
export function hasModuleSync(exports: unknown): boolean {
  if (Array.isArray(exports)) return exports.some(hasModuleSync);
  if (exports && typeof exports === "object") {
    return Object.entries(exports).some(([key, value]) =>
      key === "module-sync" || hasModuleSync(value)
    );
  }
  return false;
}

/** The packages of `ids` that a `require()` would load as an ES module. */
async function requiredEsm(info: Info, ids: Iterable<string>): Promise<string[]> {
  const found: string[] = [];
  for (const id of ids) {
    const path = info.npmPackages[id]?.localPath;
    if (!path) continue;
    // An optional dependency for another platform (esbuild's @esbuild/win32-x64, reached
    // through a type import of esbuild's) is listed but not installed: nothing can load it.
    const text = await Deno.readTextFile(`${path}/package.json`).catch((err) => {
      if (err instanceof Deno.errors.NotFound) return undefined;
      throw err;
    });
    if (text === undefined) continue;
    const manifest = JSON.parse(text);
    if (hasModuleSync(manifest.exports)) found.push(id);
  }
  return found.sort();
}

Deno.test({
  name: "no test isolate reaches an npm package that Deno loads as a required ES module",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const groups = await isolateGroups(await testFiles([], []));
  assertEquals([...groups.keys()].sort(), ["e2e", "islands", "server"]);
  for (const [name, members] of groups) {
    const info = await graphOf(name, members);
    const reached = reachablePackages(info);
    // The server isolate loads the app's own packages: the check sees them.
    if (name === "server") assert([...reached].some((id) => id.startsWith("hono@")));
    assertEquals(await requiredEsm(info, reached), [], `the ${name} isolate`);
  }
});

Deno.test({
  name: "the check finds one: s3rver reaches the packages that hung deno test",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const info = await graphOf("s3rver", ["tests/_s3rver_process.ts"]);
  assertEquals(await requiredEsm(info, reachablePackages(info)), [
    "async-function@1.0.0",
    "async-generator-function@1.0.0",
    "generator-function@2.0.1",
  ]);
  assertEquals(hasModuleSync({ ".": [{ "module-sync": "./a.mjs", default: "./a.js" }] }), true);
  assertEquals(hasModuleSync({ ".": { import: "./a.mjs", require: "./a.js" } }), false);
});
