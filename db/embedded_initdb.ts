/**
 * The embedded database's first start, in a process of its own.
 *
 * On a new DATA_DIR, `PGlite.create` runs initdb in a second PGlite instance beside the one that
 * will serve, and both WebAssembly memories (which never give a page back) were resident in the
 * server at once: a first start peaked near 800 MB (bench/memory.ts) against ~320 MB for a
 * restart. So the server has a short-lived child create the files and exit, which hands its
 * memory back to the OS, and then opens them like any restart: one instance in the server.
 *
 * The child writes into `$DATA_DIR/pglite.init-<pid>` and the parent renames that to
 * `$DATA_DIR/pglite` only once the child succeeded, so a start that is killed half-way leaves no
 * half-made database behind. Where the child cannot run (no permission to start processes, or
 * it failed), PGlite runs initdb in the server as before.
 *
 * The child is `deno run` of this module in a checkout, or the compiled binary itself with
 * `MERIDIAN_PGLITE_INITDB` set (main.ts calls `initdbChildMain` first thing).
 *
 * Even in a child, initdb peaked at 630–750 MB (a throw-away PGlite, initdb's own WebAssembly
 * module and the instance the files are loaded into), above the 320 MB start-up goal (issue
 * 23). So initdb runs once per PGlite version and set of migrations, not once per data
 * directory: a database made by initdb with every migration applied is kept as a template,
 * `db/build/pglite-template-<version>-<key>.tar.gz` (`dumpDataDir`, gzipped; the key is a hash
 * of the migrations, `templateKey`), made by `deno task build` (dev.ts) and embedded by
 * `deno task compile`, and the child of a first start only unpacks the template, streamed, into
 * the new directory: no PGlite, ~90 MB at its peak. The server then finds no migration to
 * apply, as on a restart. Applying the migrations in the server had made a first start's peak
 * 275–336 MB against 253–261 MB for a restart: V8 compiles the PostgreSQL code the DDL runs
 * (hundreds of MB of compiler memory over the migrations, on its worker threads, up to ~60 MB
 * of it at once; `--liftoff-only` made the peak 253–255 MB, so it is the optimizing compiler),
 * on top of the app's modules. A first start without the template (a checkout that was never
 * built, or migrations added since) has a child make it first; where that cannot be written
 * the child runs initdb into the directory as before, and the server applies the migrations.
 */

import { migrate, type Migration, readMigrations } from "./migrate.ts";

/** Set (to the directory to create) in the child's environment by the compiled binary. */
export const INITDB_ENV = "MERIDIAN_PGLITE_INITDB";

/** True when PGlite's files in `dir` are a made database (initdb has run). */
export async function isInitialised(dir: string): Promise<boolean> {
  try {
    await Deno.stat(`${dir}/PG_VERSION`);
    return true;
  } catch {
    return false;
  }
}

async function isEmptyOrAbsent(dir: string): Promise<boolean> {
  try {
    for await (const _ of Deno.readDir(dir)) return false;
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return true;
    throw err;
  }
}

/** Creates a database in `dir` with PGlite (initdb) and closes it: what the child runs. */
export async function initdbHere(dir: string, startParams: readonly string[]): Promise<void> {
  const { PGlite } = await import("@electric-sql/pglite");
  await Deno.mkdir(dir, { recursive: true });
  const pg = await PGlite.create(dir, {
    startParams: [...PGlite.defaultStartParams, ...startParams],
  });
  await pg.close();
}

/** Where the template of a new data directory is kept (made by `makeInitdbTemplate`). */
export const TEMPLATE_DIR = new URL("build/", import.meta.url);

/** The version of the PGlite this module imports. */
export function pgliteVersion(): string {
  // npm:@electric-sql/pglite@0.5.16, or its file under node_modules/.deno/…pglite@0.5.16/.
  const spec = import.meta.resolve("@electric-sql/pglite");
  return /pglite[@/](\d+\.\d+\.\d+[^/]*)/.exec(spec)?.[1] ?? "unknown";
}

/**
 * A hash of what a migrated data directory's files depend on: PGlite's version, the migrations
 * (number, name and text) and `extra` (tests/_helpers.ts adds the settings its copies are
 * made with). 24 hex digits.
 */
export async function templateKey(migrations: Migration[], extra: unknown[] = []): Promise<string> {
  const text = JSON.stringify([
    pgliteVersion(),
    migrations.map((m) => [m.version, m.name, m.sql]),
    ...extra,
  ]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest).slice(0, 12), (b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/** Templates' names start with this; older checkouts named theirs `pglite-initdb-…`. */
const TEMPLATE_PREFIXES = ["pglite-template-", "pglite-initdb-"];

/** The template's file for this PGlite and these migrations (both are in its name). */
export async function initdbTemplate(migrations?: Migration[]): Promise<URL> {
  const key = await templateKey(migrations ?? await readMigrations());
  return new URL(`pglite-template-${pgliteVersion()}-${key}.tar.gz`, TEMPLATE_DIR);
}

/**
 * Makes the template (`initdbTemplate()`) when it is missing: initdb in an in-memory PGlite
 * with the server's extensions, every migration applied (db/migrate.ts, as the server would),
 * a checkpoint (so opening the files needs no recovery), its files dumped as a gzipped tarball,
 * written aside and renamed. Other templates (another PGlite, other migrations) are removed.
 * Returns the template it made; undefined when it was there already.
 */
export async function makeInitdbTemplate(): Promise<URL | undefined> {
  const migrations = await readMigrations();
  const template = await initdbTemplate(migrations);
  if (await exists(template)) return undefined;
  // Imported here: db/client.ts imports db/embedded.ts, which imports this module.
  const { openDatabase } = await import("./client.ts");
  const db = await openDatabase({ DATABASE_URL: undefined, DATA_DIR: "" }, { memory: true });
  let tarball: Uint8Array;
  try {
    await migrate(db.sql, migrations);
    await db.sql`checkpoint`;
    const files = (await db.dumpDataDir!()).stream().pipeThrough(new CompressionStream("gzip"));
    tarball = new Uint8Array(await new Response(files).arrayBuffer());
  } finally {
    await db.close();
  }
  await Deno.mkdir(TEMPLATE_DIR, { recursive: true });
  const scratch = new URL(`${template.pathname.split("/").pop()}.${Deno.pid}`, TEMPLATE_DIR);
  await Deno.writeFile(scratch, tarball);
  await Deno.rename(scratch, template);
  for await (const entry of Deno.readDir(TEMPLATE_DIR)) {
    const url = new URL(entry.name, TEMPLATE_DIR);
    const isTemplate = TEMPLATE_PREFIXES.some((prefix) => entry.name.startsWith(prefix));
    if (isTemplate && url.href !== template.href) await Deno.remove(url).catch(() => {});
  }
  return template;
}

async function exists(path: URL | string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
}

/**
 * Unpacks the template into `dir` (which must not exist yet), streamed: a file at a time,
 * never the whole tarball in memory. Only plain files and directories, inside `dir`.
 */
export async function unpackTemplate(template: URL, dir: string): Promise<void> {
  const { extract } = await import("tar-stream");
  const { Readable } = await import("node:stream");
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const file = await Deno.open(template);
  const entries = extract();
  const input = Readable.fromWeb(
    file.readable.pipeThrough(new DecompressionStream("gzip")) as never,
  );
  input.on("error", (err) => entries.destroy(err));
  input.pipe(entries);
  for await (const entry of entries) {
    const parts = entry.header.name.split("/").filter((p) => p !== "" && p !== ".");
    if (parts.some((p) => p === "..")) throw new Error(`Bad path in ${template}: ${parts}`);
    const path = [dir, ...parts].join("/");
    if (entry.header.type === "directory") {
      await Deno.mkdir(path, { recursive: true, mode: 0o700 });
      entry.resume();
    } else if (entry.header.type === "file") {
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true, mode: 0o700 });
      const out = await Deno.open(path, { write: true, createNew: true, mode: 0o600 });
      try {
        for await (const chunk of entry) await out.write(chunk as Uint8Array);
      } finally {
        out.close();
      }
    } else {
      throw new Error(`Unexpected ${entry.header.type} in ${template}: ${entry.header.name}`);
    }
  }
}

/** The child's command: this module under `deno run`, or the compiled binary itself. */
function childCommand(
  dir: string,
  settings: readonly string[],
  mode: "initdb" | "template" | "unpack",
): Deno.Command {
  const env = {
    [INITDB_ENV]: dir,
    MERIDIAN_PGLITE_SETTINGS: settings.join("\n"),
    MERIDIAN_PGLITE_INITDB_MODE: mode,
  };
  if (Deno.build.standalone) {
    return new Deno.Command(Deno.execPath(), {
      env,
      stdin: "null",
      stdout: "null",
      stderr: "inherit",
    });
  }
  const module = new URL(import.meta.url);
  return new Deno.Command(Deno.execPath(), {
    // The project's deno.json (import map, node_modules) is found from the checkout's root.
    args: ["run", "-A", module.href, dir],
    cwd: new URL("../", module).pathname,
    env,
    stdin: "null",
    stdout: "null",
    stderr: "inherit",
  });
}

/**
 * Makes sure `pgliteDir` holds a made database before the server opens it: unpacks the
 * template (made first, by a child, when missing), or runs initdb in a child process. Returns
 * true when it made it, false when the caller's PGlite has to (already made; files of another
 * kind present; the child could not run).
 */
export async function initdbInChild(
  pgliteDir: string,
  settings: readonly string[],
): Promise<boolean> {
  if (await isInitialised(pgliteDir)) return false;
  if (!await isEmptyOrAbsent(pgliteDir)) return false;
  // Absolute: the child runs from the project's root, which need not be this process's cwd.
  const absolute = pgliteDir.startsWith("/") ? pgliteDir : `${Deno.cwd()}/${pgliteDir}`;
  const scratch = `${absolute}.init-${Deno.pid}`;
  await Deno.remove(scratch, { recursive: true }).catch(() => {});
  const params = settings.flatMap((s) => ["-c", s]);
  const template = await initdbTemplate();
  try {
    if (!await exists(template)) {
      // Where the template cannot be written (a read-only checkout) the child says why and
      // the initdb below makes this directory.
      await childCommand(scratch, params, "template").output();
    }
    // Unpacked by a child too: the unpack's stream buffers and modules (48 MB at its peak,
    // /proc VmHWM) are then never resident in the server beside PGlite.
    const mode = await exists(template) ? "unpack" : "initdb";
    const { success } = await childCommand(scratch, params, mode).output();
    if (!success || !await isInitialised(scratch)) return false;
    await Deno.remove(pgliteDir).catch(() => {});
    await Deno.rename(scratch, pgliteDir);
    return true;
  } catch (err) {
    // No permission to start a process (a sandboxed run): the template is unpacked here, or
    // without one PGlite makes the files in this process.
    if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
      if (!await exists(template)) return false;
      await Deno.remove(scratch, { recursive: true }).catch(() => {});
      await unpackTemplate(template, scratch);
      await Deno.remove(pgliteDir).catch(() => {});
      await Deno.rename(scratch, pgliteDir);
      return true;
    }
    throw err;
  } finally {
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
}

/**
 * In the compiled binary, called first by main.ts: when started as the initdb child, makes the
 * database and exits; otherwise returns at once.
 */
export async function initdbChildMain(): Promise<void> {
  const dir = Deno.env.get(INITDB_ENV);
  if (!dir) return;
  await childMain(dir);
}

async function childMain(dir: string): Promise<never> {
  const mode = Deno.env.get("MERIDIAN_PGLITE_INITDB_MODE");
  if (mode === "unpack") {
    await unpackTemplate(await initdbTemplate(), dir);
  } else if (mode === "template") {
    try {
      await makeInitdbTemplate();
    } catch (err) {
      console.error("pglite: could not make the data directory template:", err);
      Deno.exit(1);
    }
  } else {
    await initdbHere(dir, childSettings());
  }
  Deno.exit(0);
}

function childSettings(): string[] {
  return (Deno.env.get("MERIDIAN_PGLITE_SETTINGS") ?? "").split("\n").filter(Boolean);
}

// Not awaited at the top level: making a template imports db/client.ts, which imports this
// module through db/embedded.ts, and a dynamic import of a module that waits on this one's
// evaluation would never settle.
if (import.meta.main) {
  childMain(Deno.args[0]).catch((err) => {
    console.error(err);
    Deno.exit(1);
  });
}
