/**
 * The only module that imports esbuild.
 *   deno run -A dev.ts         watch islands and CSS, rebuild, serve with live reload
 *   deno run -A dev.ts build   one minified production build + manifest
 */
import * as esbuild from "esbuild";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { statesSprite } from "./lib/maps.ts";
import { type Assets, BUILD_DIR, hashSources, type IslandAsset } from "./lib/assets.ts";
import { makeInitdbTemplate } from "./db/embedded_initdb.ts";

const ROOT = new URL("./", import.meta.url);
const ISLANDS_DIR = new URL("islands/", ROOT);

async function islandEntries(): Promise<string[]> {
  const entries: string[] = [];
  for await (const entry of Deno.readDir(ISLANDS_DIR)) {
    if (entry.isFile && /^[A-Z][A-Za-z0-9]*\.tsx$/.test(entry.name)) {
      entries.push(new URL(entry.name, ISLANDS_DIR).pathname);
    }
  }
  entries.sort();
  return entries;
}

function buildOptions(entryPoints: string[], dev: boolean): esbuild.BuildOptions {
  return {
    entryPoints: [
      ...entryPoints,
      new URL("_boot.ts", ISLANDS_DIR).pathname,
      new URL("static/css/app.css", ROOT).pathname,
    ],
    absWorkingDir: ROOT.pathname,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: ["es2022", "chrome110", "firefox110", "safari16"],
    minify: !dev,
    sourcemap: dev ? "linked" : false,
    jsx: "automatic",
    jsxImportSource: "react",
    outdir: BUILD_DIR.pathname,
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    assetNames: "[name]-[hash]",
    metafile: true,
    write: true,
    legalComments: "none",
    define: { "process.env.NODE_ENV": dev ? '"development"' : '"production"' },
    logLevel: "warning",
  };
}

const BUILD_REL = BUILD_DIR.pathname.slice(ROOT.pathname.length);
const toUrl = (out: string) => "/" + out.replace(/^\.?\/?/, "").replace(BUILD_REL, "static/build/");

/**
 * Builds `islands/_early.ts` on its own, as a classic script (an IIFE: the page runs it before
 * any module, see its doc); returns its URL.
 */
async function buildEarly(dev: boolean): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [new URL("_early.ts", ISLANDS_DIR).pathname],
    absWorkingDir: ROOT.pathname,
    bundle: true,
    format: "iife",
    platform: "browser",
    target: ["es2020", "chrome90", "firefox90", "safari14"],
    minify: !dev,
    outdir: BUILD_DIR.pathname,
    entryNames: "[name]-[hash]",
    metafile: true,
    write: true,
    legalComments: "none",
    logLevel: "warning",
  });
  const out = Object.keys(result.metafile!.outputs).find((o) => o.endsWith(".js"));
  if (!out) throw new Error("Build produced no early script");
  return toUrl(out);
}

/** Writes manifest.json from an esbuild metafile and the early script's URL. */
async function writeManifest(
  metafile: esbuild.Metafile,
  early: string,
  sourceHash: string,
  mode: Assets["mode"],
): Promise<Assets> {
  const islands: Record<string, IslandAsset> = {};
  let boot: IslandAsset | undefined;
  let css = "";
  const sizes: Assets["sizes"] = {};
  // What `out` imports statically, transitively; with `isRuntime` (the boot script) also what
  // it imports on demand: React, which a page with an eager island needs at once.
  const preloadOf = (out: string, isRuntime = false): string[] => {
    const seen = new Set<string>();
    const visit = (file: string, followDynamic: boolean) => {
      for (const imp of metafile.outputs[file]?.imports ?? []) {
        const isFollowed = imp.kind === "import-statement" ||
          (followDynamic && imp.kind === "dynamic-import");
        if (!isFollowed || seen.has(imp.path)) continue;
        seen.add(imp.path);
        visit(imp.path, false);
      }
    };
    visit(out, isRuntime);
    return [...seen].map(toUrl);
  };
  for (const [out, info] of Object.entries(metafile.outputs)) {
    if (out.endsWith(".js")) {
      const bytes = await Deno.readFile(new URL(out, ROOT));
      sizes[toUrl(out)] = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    }
    if (!info.entryPoint) continue;
    const name = info.entryPoint.split("/").pop()!;
    if (name === "app.css") css = toUrl(out);
    else if (name === "_boot.ts") boot = { src: toUrl(out), preload: preloadOf(out, true) };
    // A dynamically imported helper (islands/_*.tsx) is an entry to esbuild, not an island.
    else if (name.endsWith(".tsx") && !name.startsWith("_")) {
      islands[name.replace(/\.tsx$/, "")] = { src: toUrl(out), preload: preloadOf(out) };
    }
  }
  if (!boot || !css) throw new Error("Build produced no boot script or stylesheet");
  const earlyBytes = await Deno.readFile(new URL(early.slice(1), ROOT));
  sizes[early] = { raw: earlyBytes.length, gzip: gzipSync(earlyBytes, { level: 9 }).length };
  const mapOutline = await writeMapOutline();
  const manifest: Assets = { sourceHash, mode, css, early, boot, islands, mapOutline, sizes };
  await Deno.writeTextFile(
    new URL("manifest.json", BUILD_DIR),
    JSON.stringify(manifest, null, 2) + "\n",
  );
  return manifest;
}

/** Writes the maps' states outline under a content-hashed name; returns its URL. */
async function writeMapOutline(): Promise<string> {
  const bytes = new TextEncoder().encode(statesSprite());
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hash = Array.from(digest.slice(0, 5), (b) => b.toString(16).padStart(2, "0")).join("")
    .toUpperCase();
  const name = `us-states-${hash}.svg`;
  await Deno.writeFile(new URL(name, BUILD_DIR), bytes);
  return `/static/build/${name}`;
}

/**
 * Writes `.gz` and `.br` copies beside every built stylesheet, script and SVG, so
 * routes/static.ts serves them as they are instead of compressing per request.
 */
async function precompress(): Promise<void> {
  for await (const entry of Deno.readDir(BUILD_DIR)) {
    if (!entry.isFile || !/\.(?:css|js|svg)$/.test(entry.name)) continue;
    const file = new URL(entry.name, BUILD_DIR);
    const bytes = await Deno.readFile(file);
    await Deno.writeFile(new URL(`${entry.name}.gz`, BUILD_DIR), gzipSync(bytes, { level: 9 }));
    await Deno.writeFile(
      new URL(`${entry.name}.br`, BUILD_DIR),
      brotliCompressSync(bytes, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
          [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
    );
  }
}

async function cleanBuildDir() {
  await Deno.remove(BUILD_DIR, { recursive: true }).catch(() => {});
  await Deno.mkdir(BUILD_DIR, { recursive: true });
}

/** One production build. Returns the manifest. */
export async function build(): Promise<Assets> {
  const sourceHash = await hashSources();
  await cleanBuildDir();
  const result = await esbuild.build(buildOptions(await islandEntries(), false));
  const early = await buildEarly(false);
  const manifest = await writeManifest(result.metafile!, early, sourceHash, "production");
  await precompress();
  await esbuild.stop();
  return manifest;
}

async function dev() {
  Deno.env.set("NODE_ENV", Deno.env.get("NODE_ENV") ?? "development");
  await cleanBuildDir();
  let server: Deno.ChildProcess | undefined;
  const restart = async () => {
    if (server) {
      try {
        server.kill("SIGTERM");
      } catch { /* already gone */ }
      await server.status;
    }
    server = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--unstable-kv", "main.ts"],
      cwd: ROOT.pathname,
      env: { MERIDIAN_DEV_RELOAD: "1" },
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
  };
  const rebuild = async () => {
    const ctx = await esbuild.build(buildOptions(await islandEntries(), true));
    const early = await buildEarly(true);
    await writeManifest(ctx.metafile!, early, await hashSources(), "development");
  };
  await rebuild();
  await restart();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watcher = Deno.watchFs(
    ["islands", "components", "routes", "lib", "db", "static/css", "main.ts"].map((p) =>
      new URL(p, ROOT).pathname
    ),
  );
  for await (const event of watcher) {
    if (event.paths.every((p) => p.includes("/static/build/") || p.includes("/db/build/"))) {
      continue;
    }
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try {
        await cleanBuildDir();
        await rebuild();
        await restart();
        console.log("Rebuilt and restarted");
      } catch (err) {
        console.error("Rebuild failed:", err);
      }
    }, 150);
  }
}

if (import.meta.main) {
  if (Deno.args[0] === "build") {
    const manifest = await build();
    console.log(`Built ${Object.keys(manifest.islands).length} islands to static/build/`);
    // The embedded database's first start unpacks this instead of running initdb and the
    // migrations (issue 23); made once per PGlite version and set of migrations. A server on
    // Postgres never reads it.
    const template = Deno.env.get("DATABASE_URL") ? undefined : await makeInitdbTemplate();
    if (template) console.log(`Made the embedded database's template ${template.pathname}`);
  } else {
    await dev();
  }
}
