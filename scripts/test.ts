/**
 * `deno task test` after its build: `deno test -A --no-check` with the arguments given, side by
 * side (`--parallel`, one test file per core, or `DENO_JOBS`) on the embedded database and one
 * file at a time on Postgres.
 *
 * On the embedded database every test file opens its own in-memory PGlite (tests/_helpers.ts),
 * so files can run at once; most of a file's time is spent waiting (on a browser, a server it
 * started, a timer), and the suite took 976 s side by side against 1,679 s one at a time on a
 * 2-core machine. On Postgres every file uses, and empties between its tests, the one database
 * `DATABASE_URL` names, so two files at once would wipe each other's rows.
 *
 * Child processes the tests start leave node_modules/ as it is (tests/_deno.ts): files started
 * side by side must not re-link the vendored packages under each other.
 *
 *   deno run -A scripts/test.ts [deno test arguments…]
 */

/** The `deno test` arguments for `args`, side by side unless a database is shared. */
export function testArgs(args: readonly string[], env: { DATABASE_URL?: string }): string[] {
  const isShared = Boolean(env.DATABASE_URL);
  return ["test", "-A", "--no-check", ...(isShared ? [] : ["--parallel"]), ...args];
}

if (import.meta.main) {
  const child = new Deno.Command(Deno.execPath(), {
    args: testArgs(Deno.args, { DATABASE_URL: Deno.env.get("DATABASE_URL") }),
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  // Ctrl-C reaches the whole foreground group; this process only waits for deno test's code.
  Deno.addSignalListener("SIGINT", () => {});
  const { code, signal } = await child.status;
  Deno.exit(signal ? 1 : code);
}
