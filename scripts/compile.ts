/**
 * `deno task compile`: one self-contained executable, `dist/meridian`, built with
 * `deno compile`.
 *
 * `deno compile` embeds main.ts's module graph (local modules and the npm packages they
 * import, the `us-atlas` JSON included). Everything the server reads as a *file* at run time
 * must be named with `--include`; `COMPILE_INCLUDES` is that list, kept here alone so that
 * tests/platform/compile_includes_test.ts runs the server from a copy of exactly these files
 * and fails when the app starts reading something new:
 *
 * - `static/` — served by routes/static.ts and routes/service_worker.ts, including the built
 *   bundles and their manifest in static/build/ (lib/assets.ts), so the build must run first;
 * - `db/migrations/` — read by db/migrate.ts at start-up;
 * - `db/build/` — the embedded database's template, unpacked by its first start
 *   (db/embedded_initdb.ts; made here when the build did not);
 * - `lib/geo/zip_data.tsv` — the offline ZIP data, read by lib/geo/zip_rows.ts on first use
 *   (a data file, not a module, so that its text does not stay in the heap);
 * - `routes/_page_encoder_worker.ts` — the worker that gzips local pages
 *   (routes/_page_encoder.ts starts it by URL, which the module graph does not follow);
 * - PGlite's runtime files — the embedded database fetches its wasm, its data file and the
 *   extension tarballs db/embedded.ts loads beside its own module (`new URL(…,
 *   import.meta.url)`), which a module graph does not show.
 *
 * Extra arguments are passed to `deno compile` (for example `--target aarch64-apple-darwin`).
 */

/** Paths under the project root that the server reads as files at run time. */
export const COMPILE_INCLUDES: readonly string[] = [
  "static/",
  "db/migrations/",
  "db/build/",
  "lib/geo/zip_data.tsv",
  "routes/_page_encoder_worker.ts",
];

/** The PGlite package files read at run time, relative to the package's `dist/` folder. */
export const PGLITE_RUNTIME_FILES: readonly string[] = [
  "pglite.wasm",
  "pglite.data",
  "initdb.wasm",
  // The extensions db/embedded.ts loads (cube, pg_trgm).
  "cube.tar.gz",
  "pg_trgm.tar.gz",
];

/**
 * V8 flags the server runs with, as in deno.json's `start` task: a 4 MB young generation
 * (semi-space) instead of up to 16 MB, measured with bench/memory.ts (README, "Memory").
 */
export const SERVER_V8_FLAGS: readonly string[] = [
  "--max-semi-space-size=4",
  // One collection after start-up (lib/memory.ts, collectStartupGarbage).
  "--expose-gc-as=__meridianGc",
];

/** Where the executable is written, relative to the project root (gitignored). */
export const COMPILE_OUTPUT = "dist/meridian";

/** The project root: this script's parent folder. */
export const PROJECT_ROOT = new URL("../", import.meta.url);

/**
 * PGlite's `dist/` folder inside node_modules, relative to `root`, found through the
 * package's node_modules link so the version comes from the lockfile, never from this file.
 */
export async function pgliteDistDir(root: URL = PROJECT_ROOT): Promise<string> {
  const rootPath = await Deno.realPath(root);
  const real = await Deno.realPath(new URL("node_modules/@electric-sql/pglite/dist/", root));
  if (!real.startsWith(rootPath + "/")) {
    throw new Error(`PGlite is outside the project (${real}); run from a project checkout`);
  }
  return real.slice(rootPath.length + 1) + "/";
}

/** Every `--include` path, relative to `root`: the fixed list plus PGlite's runtime files. */
export async function compileIncludes(root: URL = PROJECT_ROOT): Promise<string[]> {
  const dist = await pgliteDistDir(root);
  return [...COMPILE_INCLUDES, ...PGLITE_RUNTIME_FILES.map((file) => dist + file)];
}

/** The `deno compile` arguments (without the executable), for the given include list. */
export function compileArgs(includes: readonly string[], extra: readonly string[] = []): string[] {
  return [
    "compile",
    // The server reads, writes (DATA_DIR, KV), listens, reads its environment and loads
    // PGlite's wasm: the same permissions as `deno task start`.
    "-A",
    // The V8 flags of `deno task start` (deno.json; why: README, "Memory"), baked in.
    `--v8-flags=${SERVER_V8_FLAGS.join(",")}`,
    ...includes.flatMap((path) => ["--include", path]),
    "--output",
    COMPILE_OUTPUT,
    ...extra,
    "main.ts",
  ];
}

async function main(): Promise<void> {
  const root = PROJECT_ROOT;
  try {
    await Deno.stat(new URL("static/build/manifest.json", root));
  } catch {
    console.error("static/build/manifest.json is missing: run `deno task build` first.");
    Deno.exit(1);
  }
  // The embedded database's template (db/build/), which the build skips with DATABASE_URL set.
  const { makeInitdbTemplate } = await import("../db/embedded_initdb.ts");
  await makeInitdbTemplate();
  const args = compileArgs(await compileIncludes(root), Deno.args);
  console.log(`deno ${args.join(" ")}`);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  Deno.exit(code);
}

if (import.meta.main) await main();
