/**
 * How tests start Deno child processes (servers, the CLI, scripts) in this checkout.
 *
 * deno.json links the patched vendor packages (`"links"`: vendor/postgres, vendor/jsx-email) and
 * lets Deno manage node_modules/ (`"nodeModulesDir": "auto"`), so every Deno process starting in
 * the tree deletes and re-creates its copy of them (node_modules/.deno/postgres@…/): a process
 * starting beside it can find the package half-made and fail to load it. With test modules
 * running side by side (`deno test --parallel`), and servers started two at a time, that
 * happens. The test runner has set node_modules/ up before any test starts, so a child started
 * with `--node-modules-dir=manual` uses it as it is and writes nothing there.
 */

/** The flag that keeps a child Deno process from rewriting node_modules/. */
export const NODE_MODULES_AS_IS = "--node-modules-dir=manual";

/** `deno run -A` for a child process, node_modules/ left as it is. */
export const DENO_RUN: readonly string[] = ["run", "-A", NODE_MODULES_AS_IS];

/**
 * The arguments that run deno.json's task `name` (a `deno run …` command) with `args` after it,
 * as `deno task name args…` would, but with node_modules/ left as it is: what the task runs is
 * read from deno.json, so a test of a task still tests the task's own command.
 */
export async function taskArgs(name: string, ...args: string[]): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  const command = config.tasks?.[name];
  if (typeof command !== "string") throw new Error(`deno.json has no task "${name}"`);
  const [deno, subcommand, ...rest] = command.trim().split(/\s+/);
  if (deno !== "deno" || subcommand !== "run" || rest.some((a) => /[&|;<>$`'"]/.test(a))) {
    throw new Error(`task "${name}" is not a plain \`deno run\` command: ${command}`);
  }
  return [subcommand, NODE_MODULES_AS_IS, ...rest, ...args];
}
