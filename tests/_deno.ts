/**
 * How tests and benches start Deno child processes (servers, the CLI, scripts) in this checkout.
 *
 * deno.json lets Deno manage node_modules/ (`"nodeModulesDir": "auto"`), so every Deno process
 * that imports npm packages checks them at its start: the server started that way stays some
 * 20 MB larger for good (README, Memory), and each such process rewrites node_modules/'s setup
 * cache. The test runner and each bench have set node_modules/ up before their first child
 * starts, so a child started with `--node-modules-dir=manual` uses it as it is and writes
 * nothing there, as the start task's server does. (Until the patched vendor packages became
 * local modules, every such start also deleted and re-copied them there, and a process
 * importing one beside it failed: vendor/postgres/README.md.)
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

/**
 * deno.json's `start` task in `root` (a checkout) as the server's command: the environment it
 * sets before `deno` and the arguments after it (`run`, its flags, `main.ts`), without the
 * `deno install` that sets node_modules/ up before it (a checkout whose task has none reads the
 * same way).
 */
export async function startTaskCommand(
  root: string | URL,
): Promise<{ env: Record<string, string>; args: string[] }> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  const command = String(config.tasks?.start ?? "").split("&&").at(-1)!.trim();
  const prefix = /^(?:\w+=\S+\s+)*/.exec(command)![0];
  const env = Object.fromEntries([...prefix.matchAll(/(\w+)=(\S+)/g)].map(([, k, v]) => [k, v]));
  const args = command.slice(prefix.length).replace(/^deno\s+/, "").split(/\s+/);
  return { env, args };
}
