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
 */

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

/** The child's command: this module under `deno run`, or the compiled binary itself. */
function childCommand(dir: string, settings: readonly string[]): Deno.Command {
  const env = { [INITDB_ENV]: dir, MERIDIAN_PGLITE_SETTINGS: settings.join("\n") };
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
 * Makes sure `pgliteDir` holds a made database before the server opens it, running initdb in a
 * child process when it does not. Returns true when the child made it, false when the caller's
 * PGlite has to (already made; files of another kind present; the child could not run).
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
  try {
    const { success } = await childCommand(scratch, settings.flatMap((s) => ["-c", s]))
      .output();
    if (!success || !await isInitialised(scratch)) return false;
    await Deno.remove(pgliteDir).catch(() => {});
    await Deno.rename(scratch, pgliteDir);
    return true;
  } catch (err) {
    // No permission to start a process (a sandboxed run): PGlite makes it in this one.
    if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
      return false;
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
  await initdbHere(dir, childSettings());
  Deno.exit(0);
}

function childSettings(): string[] {
  return (Deno.env.get("MERIDIAN_PGLITE_SETTINGS") ?? "").split("\n").filter(Boolean);
}

if (import.meta.main) {
  await initdbHere(Deno.args[0], childSettings());
  Deno.exit(0);
}
