/** One built island: its entry chunk and the chunks it imports (for modulepreload). */
export interface IslandAsset {
  src: string;
  preload: string[];
}

/** The build manifest written by `dev.ts build` to static/build/manifest.json. */
export interface Assets {
  /** Hash of the sources the build came from; a different hash means the build is stale. */
  sourceHash: string;
  /** Minified production bundles, or the dev server's unminified ones. */
  mode: "production" | "development";
  css: string;
  /** The classic script every page with islands runs first (islands/_early.ts). */
  early: string;
  boot: IslandAsset;
  islands: Record<string, IslandAsset>;
  /**
   * URL of the US states outline the server-drawn maps refer to (lib/maps.ts `statesSprite`);
   * absent in a build from before it existed, and then the maps draw it inline.
   */
  mapOutline?: string;
  /** Raw and gzip byte sizes of each built JS file, keyed by URL. */
  sizes: Record<string, { raw: number; gzip: number }>;
}

const ROOT = new URL("../", import.meta.url);
/** Directory with the built bundles. */
export const BUILD_DIR = new URL("static/build/", ROOT);
const MANIFEST = new URL("manifest.json", BUILD_DIR);
/** Source folders whose contents decide whether the bundles are stale. */
export const SOURCE_DIRS = ["islands", "lib", "components", "static/css"];

async function* walk(dir: URL): AsyncGenerator<URL> {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return;
    throw err;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) yield* walk(url);
    else if (/\.(tsx?|css|json)$/.test(entry.name)) yield url;
  }
}

/** SHA-256 over the bundle sources and deno.json, hex. */
export async function hashSources(): Promise<string> {
  const parts: Uint8Array[] = [];
  const encoder = new TextEncoder();
  for (const dir of SOURCE_DIRS) {
    for await (const file of walk(new URL(dir + "/", ROOT))) {
      parts.push(encoder.encode(file.pathname.slice(ROOT.pathname.length)));
      parts.push(await Deno.readFile(file));
    }
  }
  parts.push(await Deno.readFile(new URL("deno.json", ROOT)));
  const total = parts.reduce((n, p) => n + p.length, 0);
  const all = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    all.set(p, offset);
    offset += p.length;
  }
  const digest = await crypto.subtle.digest("SHA-256", all);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Reads the manifest, or undefined when there is none. */
export async function readManifest(): Promise<Assets | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(MANIFEST));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/**
 * Whether the bundles can be rebuilt here: the build script is beside the sources. A compiled
 * binary (`deno task compile`) embeds the sources of its module graph but not dev.ts, and
 * must serve the embedded build as it is rather than hash a partial tree and try to rebuild.
 */
async function sourcesPresent(): Promise<boolean> {
  if (Deno.build.standalone) return false;
  try {
    await Deno.stat(new URL("dev.ts", ROOT));
    return true;
  } catch {
    return false;
  }
}

/**
 * Returns the build manifest, first running `dev.ts build` in a subprocess when the bundles
 * are missing or older than their sources. (A compiled binary has no sources and uses the
 * embedded build as it is.) Throws if the build fails.
 */
export async function ensureBuild(): Promise<Assets> {
  const manifest = await readManifest();
  if (!(await sourcesPresent())) {
    if (!manifest) throw new Error("No build manifest and no sources to build from");
    return manifest;
  }
  const hash = await hashSources();
  // The dev server (dev.ts) writes development bundles and runs the app with
  // MERIDIAN_DEV_RELOAD=1; anything else must not serve them.
  const mode = Deno.env.get("MERIDIAN_DEV_RELOAD") === "1" ? "development" : "production";
  if (manifest && manifest.sourceHash === hash && manifest.mode === mode) return manifest;
  console.log(manifest ? "Island bundles are stale; rebuilding…" : "Building island bundles…");
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("dev.ts", ROOT).pathname, "build"],
    cwd: ROOT.pathname,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error("Building the island bundles failed");
  const built = await readManifest();
  if (!built) throw new Error("The build wrote no manifest");
  return built;
}
