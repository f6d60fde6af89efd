/**
 * The test command (`deno task test`, after the bundles' build): `deno test -A --no-check` over
 * the suite, with the test files that can share an isolate imported by one module.
 *
 * `deno test` gives every test file an isolate of its own (denoland/deno#20437 asks for a way
 * out; there is none yet), and here each new isolate costs about 3.5 s of CPU before its first
 * test: the harness's imports (tests/_helpers.ts → main.ts, 0.95 s) and, on the embedded
 * database, compiling and warming PGlite's WebAssembly again (2.25 s; Deno keeps no compiled
 * WebAssembly between isolates). Eight route test files took 40.8 s (29.9 s of CPU) one isolate
 * each and 9.8 s (7.9 s of CPU) imported by one module, with the same 55 tests passing.
 *
 * Arguments are `deno test`'s: paths (files or folders; none: the whole project, less deno.json's
 * `test.exclude`) and `--ignore=a,b`, which choose the files as `deno test` would (names ending
 * in `_test` or `.test`, or named `test`, with a script extension); every argument starting with
 * `-` goes to `deno test` as given, so an option's value must be joined to it
 * (`--filter=name`, `--fail-fast`, …). Every file goes to one of three isolates (`isolateOf`),
 * each written to tests/.groups/ (git ignores it) as a module importing its files in order
 * (`groupModule`), deleted after the run; one `deno test` runs those modules. The report names
 * the shared module for its tests; a failure's stack names the test file. A suite that prints
 * nothing for ten minutes is stopped as hung (`watchSilence`).
 */

const ROOT = new URL("../", import.meta.url);
const TEST_FILE = /(?:^|[._])test\.(?:ts|tsx|mts|js|jsx|mjs)$/;
const GROUPS_DIR = new URL("tests/.groups/", ROOT);

/**
 * A path given on the command line (relative to the working directory, as `deno test` reads
 * it), relative to the project's root, with a trailing slash for a folder.
 */
async function fromRoot(path: string): Promise<{ path: string; isDirectory: boolean }> {
  const url = new URL(path, `file://${Deno.cwd()}/`);
  const { isDirectory } = await Deno.stat(url);
  const absolute = url.pathname;
  const rel = absolute.startsWith(ROOT.pathname) ? absolute.slice(ROOT.pathname.length) : absolute;
  return { path: isDirectory && !rel.endsWith("/") && rel !== "" ? `${rel}/` : rel, isDirectory };
}

/** Test files below `dir` (project-relative, ending in "/", or "" for the root), sorted. */
async function walk(dir: string, excluded: string[], found: string[]): Promise<void> {
  const entries = [];
  for await (const entry of Deno.readDir(new URL(dir || ".", ROOT))) entries.push(entry);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const path = `${dir}${entry.name}${entry.isDirectory ? "/" : ""}`;
    if (excluded.some((e) => path === e || path.startsWith(e))) continue;
    if (entry.isDirectory) await walk(path, excluded, found);
    else if (entry.isFile && TEST_FILE.test(entry.name)) found.push(path);
  }
}

async function configExcludes(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  return ((config.test?.exclude ?? []) as string[]).map((p) => p.replace(/^\.\//, ""));
}

/** The test files `deno test` would run for these paths and ignores. */
export async function testFiles(paths: string[], ignore: string[]): Promise<string[]> {
  const excluded = await configExcludes();
  for (const path of ignore) excluded.push((await fromRoot(path)).path);
  const found: string[] = [];
  for (const given of paths.length ? paths : ["."]) {
    const { path, isDirectory } = await fromRoot(given);
    if (isDirectory) await walk(path, excluded, found);
    else found.push(path); // a file named on the command line runs whatever its name
  }
  return [...new Set(found)];
}

/**
 * The shared isolate a test file runs in:
 * - "e2e": tests/e2e/, which then share one Chromium (tests/e2e/_browser.ts closes it after the
 *   module's last test) and, with E2E_INSTANCES=2, one pair of servers while the environment is
 *   the same;
 * - "islands": the island tests, which install happy-dom's globals (tests/islands/_dom.ts) that
 *   a server-side test must never see (`window` and `document` defined). Their module imports
 *   tests/islands/_dom_setup.ts first (`groupModule`), and each file leaves nothing behind: its
 *   tests clean up their render, fetch stand-in and toasts, and what one sets for itself (React's
 *   act environment, a listener on `globalThis`) is undone or the same for all. One isolate for
 *   the 43 files instead of 43: 298 tests in 2m53s under CI's load;
 * - "server": every other file.
 */
export async function isolateOf(file: string): Promise<"server" | "e2e" | "islands"> {
  if (file.startsWith("tests/e2e/")) return "e2e";
  const text = await Deno.readTextFile(new URL(file, ROOT));
  return /from "\.{1,2}\/(?:islands\/)?_dom\.ts"/.test(text) ? "islands" : "server";
}

/** The text of the module that runs `members` (project-relative) in one isolate. */
export function groupModule(isolate: string, members: string[]): string {
  const first = isolate === "islands" ? ["tests/islands/_dom_setup.ts"] : [];
  return `// ${members.length} test files in one isolate (tests/_run.ts); deleted after the run.\n` +
    [...first, ...members].map((f) => `import "../../${f}";\n`).join("");
}

/** The test files by the isolate they run in (`isolateOf`), in their order. */
export async function isolateGroups(files: string[]): Promise<Map<string, string[]>> {
  const groups = new Map<string, string[]>();
  for (const file of files) {
    const isolate = await isolateOf(file);
    groups.set(isolate, [...groups.get(isolate) ?? [], file]);
  }
  return groups;
}

/** Writes `groupModule(name, members)` to tests/.groups/ (this process's file for `name`). */
export async function writeGroupModule(name: string, members: string[]): Promise<URL> {
  await Deno.mkdir(GROUPS_DIR, { recursive: true });
  const module = new URL(`${Deno.pid}-${name}.ts`, GROUPS_DIR);
  await Deno.writeTextFile(module, groupModule(name, members));
  return module;
}

/** How long the suite may print nothing before it counts as hung: TEST_SILENCE_LIMIT_S, or 600 s. */
export function silenceLimitMs(env = Deno.env.get("TEST_SILENCE_LIMIT_S")): number {
  const seconds = Number(env);
  return (env && Number.isFinite(seconds) && seconds > 0 ? seconds : 600) * 1000;
}

/**
 * How long deno test may take to print its first line: 180 s. Loading every test module takes
 * about 8 s here, 30 s under CI's load.
 */
export const START_LIMIT_MS = 180_000;

/** Why `watchSilence` stopped the child: it never printed, or it stopped printing. */
export type Stopped = false | "start" | "silence";

/** The child's state and what it waits in (/proc), and the file locks held: for a hang's log. */
function processState(pid: number): string {
  const read = (path: string) => {
    try {
      return Deno.readTextFileSync(path).trim();
    } catch {
      return "?";
    }
  };
  const state = /State:\s+(.*)/.exec(read(`/proc/${pid}/status`))?.[1] ?? "?";
  const locks = read("/proc/locks").split("\n").filter((l) => l.trim()).length;
  return `pid ${pid} state ${state}, waiting in ${read(`/proc/${pid}/wchan`)}; ` +
    `${locks} file locks held on the machine`;
}

/**
 * Copies the child's output through and stops it when it prints nothing for `limitMs`, or
 * nothing at all for `startLimitMs` after it started: a test that waits forever (a promise kept
 * pending by an open listener or timer) would otherwise hold CI until its own limit, with no log
 * at all, since CI prints a suite's log when it ends. The longest test takes about a minute; deno
 * test prints a test's name when it starts, so the last line printed names the one that hangs,
 * and the message repeats it, with the process's state.
 */
export function watchSilence(
  child: Deno.ChildProcess,
  limitMs: number,
  startLimitMs = START_LIMIT_MS,
): { done: Promise<void>; readonly stopped: Stopped } {
  let last = Date.now();
  let lastChunk: Uint8Array | undefined;
  let stopped: Stopped = false;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  const copy = async (from: ReadableStream<Uint8Array>, to: typeof Deno.stdout) => {
    for await (const chunk of from) {
      last = Date.now();
      lastChunk = chunk;
      let written = 0;
      while (written < chunk.length) written += await to.write(chunk.subarray(written));
    }
  };
  const timer = setInterval(() => {
    const quiet = Date.now() - last;
    if (lastChunk ? quiet < limitMs : quiet < startLimitMs) return;
    clearInterval(timer);
    stopped = lastChunk ? "silence" : "start";
    const lines = new TextDecoder().decode(lastChunk).split("\n").filter((l) => l.trim());
    console.error(
      lastChunk
        ? `\ntests/_run.ts: no output for ${Math.round(limitMs / 1000)} s, so the suite is ` +
          `stopped as hung (${processState(child.pid)}). The last line printed: ${lines.at(-1)}`
        : `\ntests/_run.ts: deno test printed nothing in ${Math.round(startLimitMs / 1000)} s ` +
          `after it started, so it is stopped as hung (${processState(child.pid)}).`,
    );
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    killTimer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
    }, 5000);
  }, Math.min(1000, limitMs, startLimitMs));
  const done = Promise.all([copy(child.stdout, Deno.stdout), copy(child.stderr, Deno.stderr)])
    .then(() => {}, () => {})
    .finally(() => clearInterval(timer));
  child.status.finally(() => clearTimeout(killTimer));
  return {
    done,
    get stopped() {
      return stopped;
    },
  };
}

if (import.meta.main) {
  const positionals: string[] = [];
  const ignore: string[] = [];
  // Everything but the paths and --ignore goes to deno test as given.
  const passed: string[] = [];
  for (const arg of Deno.args) {
    if (arg.startsWith("--ignore=")) ignore.push(...arg.slice(9).split(",").filter(Boolean));
    else if (arg.startsWith("-")) passed.push(arg);
    else positionals.push(arg);
  }
  const files = await testFiles(positionals, ignore);
  if (files.length === 0) {
    console.error(`No test files in ${positionals.join(" ") || "the project"}.`);
    Deno.exit(1);
  }
  const modules: string[] = [];
  const written: URL[] = [];
  for (const [isolate, members] of await isolateGroups(files)) {
    if (members.length === 1) {
      // Absolute: deno test reads its paths from the working directory, the list is from the root.
      modules.push(new URL(members[0], ROOT).pathname);
      continue;
    }
    const module = await writeGroupModule(isolate, members);
    written.push(module);
    modules.push(module.pathname);
  }
  let code = 1;
  try {
    // deno test sat silent from its start in 1 CI rehearsal of 4: Deno's synchronous load of
    // a required ES module never returned while the server isolate's modules were evaluated
    // (tests/_s3rver.ts). No test module loads one now; a start that prints nothing is still
    // stopped and tried again, once, should another such load hang. No test had run, so none
    // runs twice.
    for (let attempt = 1;; attempt++) {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["test", "-A", "--no-check", ...passed, ...modules],
        stdin: "inherit",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const stop = () => child.kill("SIGTERM");
      Deno.addSignalListener("SIGTERM", stop);
      const watch = watchSilence(child, silenceLimitMs());
      const status = await child.status;
      Deno.removeSignalListener("SIGTERM", stop);
      // A process the tests started may still hold the pipes: wait for them a moment only.
      await Promise.race([watch.done, new Promise((r) => setTimeout(r, 2000))]);
      if (watch.stopped === "start" && attempt === 1) {
        console.error("tests/_run.ts: starting deno test again (once).");
        continue;
      }
      code = watch.stopped ? 1 : status.code;
      break;
    }
  } finally {
    for (const module of written) await Deno.remove(module).catch(() => {});
  }
  Deno.exit(code);
}
