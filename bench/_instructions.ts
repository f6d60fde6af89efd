/**
 * What a server executes, counted by valgrind's callgrind: machine instructions (`Ir`), not
 * seconds. The count does not move with the machine's load or its other core: on this VM a
 * `Deno.serve` answering 100 requests read 4,434,181, 4,438,732 and 4,437,926 instructions in
 * three windows (0.1 %), where its CPU time moved by up to 40 % within one bench (issue 23). A
 * whole app's windows differ more, some ±5 % (V8's tiering, its young collections), so the bench
 * takes rounds; and its warm-up matters: after 100 requests GET /api/user read 3.36 M per
 * request, after 300, 1.1 M.
 *
 * The server runs under `valgrind --tool=callgrind` with instrumentation off from its start
 * (`serverCommand`), so its start-up and a warm-up run at valgrind's uninstrumented pace; the
 * bench then turns it on (`InstructionCounter.on`), zeroes the counters before a measured run and
 * dumps them after it (`callgrind_control`), and reads the total of every thread (V8's compiler
 * and collector threads included) from the dump. What it leaves out: the kernel's work for the
 * process (its share of CPU time, `perf` said, was 21–24 % on both sides) and the Postgres
 * backends'.
 *
 * A full collection of the heap costs tens of millions of instructions, and a window of a few
 * hundred requests holds one or none: windows of 500 dashboard views read 1.16 to 1.97 M per
 * view. So each window starts shortly after one, asked for through the inspector
 * (`AllocationSampler.collectGarbage`) before a few requests that are not counted: the figure is
 * per request with the young collections its allocation causes, full ones left out (their share
 * follows the heap each request allocates, which `--alloc` gives).
 *
 * Under valgrind a request takes some 50 times longer, so a timer that fires by the clock (the
 * job worker's poll, the session touch) would count 50 times more per request than in real life:
 * `idlePerSecond` measures what the server executes doing nothing, and the runs subtract it for
 * their wall time.
 */
import { hasCommand } from "./_server.ts";

/** How long a server started under callgrind may take to answer its health check. */
const CALLGRIND_START_TIMEOUT_MS = 600_000;

/** Whether valgrind and callgrind_control are installed (Debian's `valgrind`). */
export async function hasCallgrind(): Promise<boolean> {
  return await hasCommand("valgrind") && await hasCommand("callgrind_control", "-h");
}

/**
 * The command line that starts a server, `program args…`: as it is, or, with `callgrindDir`,
 * under callgrind, instrumentation off until `on`, dumps written as
 * `{callgrindDir}/callgrind.out.{n}`, and the longer wait for its health check that valgrind's
 * pace needs (`readyTimeoutMs`; undefined: the caller's default). `--smc-check=all-non-file`: V8
 * writes and rewrites its machine code in anonymous memory, which valgrind must re-read when it
 * changes.
 */
export function serverCommand(program: string, args: string[], callgrindDir?: string): {
  program: string;
  args: string[];
  readyTimeoutMs?: number;
} {
  if (!callgrindDir) return { program, args };
  return {
    program: "valgrind",
    args: [
      "--tool=callgrind",
      "--instr-atstart=no",
      "--smc-check=all-non-file",
      // Valgrind runs one thread at a time; unfairly by default, so that Deno KV's thread
      // could wait past a KV call's budget (db/kv.ts, 1 s) and the request answer 503.
      "--fair-sched=yes",
      `--callgrind-out-file=${callgrindDir}/callgrind.out`,
      "--quiet",
      program,
      ...args,
    ],
    readyTimeoutMs: CALLGRIND_START_TIMEOUT_MS,
  };
}

/** One server's callgrind, driven by `callgrind_control`. */
export class InstructionCounter {
  #pid: number;
  #outDir: string;

  constructor(pid: number, outDir: string) {
    this.#pid = pid;
    this.#outDir = outDir;
  }

  async #control(option: string): Promise<void> {
    const { success, stdout, stderr } = await new Deno.Command("callgrind_control", {
      args: [option, String(this.#pid)],
      env: await this.#namingEnv(),
      clearEnv: true,
    }).output();
    const said = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
    // It says OK even when it found no pipe to the process (an "error opening" line before).
    if (!success || !said.includes("OK") || /error/i.test(said)) {
      throw new Error(`callgrind_control ${option} ${this.#pid}: ${said.trim()}`);
    }
  }

  /**
   * The environment callgrind_control (through vgdb) needs to find the server's pipes: valgrind
   * names them after the user and host in the server's own environment (LOGNAME or USER, HOST or
   * HOSTNAME; "???" without), and Astro's server is started with HOST=127.0.0.1.
   */
  async #namingEnv(): Promise<Record<string, string>> {
    const environ = await Deno.readTextFile(`/proc/${this.#pid}/environ`);
    const naming = new Set(["LOGNAME", "USER", "HOST", "HOSTNAME"]);
    const env: Record<string, string> = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
    for (const entry of environ.split("\0")) {
      const at = entry.indexOf("=");
      if (at > 0 && naming.has(entry.slice(0, at))) env[entry.slice(0, at)] = entry.slice(at + 1);
    }
    return env;
  }

  /** Turns instrumentation on (it stays on): from now on the counters count. */
  on(): Promise<void> {
    return this.#control("--instr=on");
  }

  /** Instructions executed while `run` ran (the counters zeroed before it, dumped after). */
  async count(run: () => Promise<void>): Promise<number> {
    await this.#control("--zero");
    await run();
    const before = new Set(await this.#dumps());
    await this.#control("--dump");
    const dump = (await this.#dumps()).find((name) => !before.has(name));
    if (!dump) throw new Error(`callgrind wrote no dump in ${this.#outDir}`);
    const text = await Deno.readTextFile(`${this.#outDir}/${dump}`);
    const totals = text.match(/^totals: (\d+)/m) ?? text.match(/^summary: (\d+)/m);
    if (!totals) throw new Error(`${dump}: no totals line`);
    return Number(totals[1]);
  }

  /**
   * Instructions per second of wall time while nothing is asked of the server: the least of
   * `windows` windows of `seconds`. Not one window: work left from the warm-up can fall in it
   * (V8's compiler threads, which valgrind runs one at a time, catching up; Meridian's heap
   * compaction at its first quiet spell, lib/memory.ts `compactWhenQuiet`), none of which the
   * counted runs hold: single windows read 2.02 and 40 M a second where others read 0.42–0.85 M.
   */
  async idlePerSecond(seconds = 4, windows = 3): Promise<number> {
    const rates: number[] = [];
    for (let i = 0; i < windows; i++) {
      const start = performance.now();
      const instructions = await this.count(() =>
        new Promise((resolve) => setTimeout(resolve, seconds * 1000))
      );
      rates.push(instructions / ((performance.now() - start) / 1000));
    }
    return Math.min(...rates);
  }

  async #dumps(): Promise<string[]> {
    const names: string[] = [];
    for await (const entry of Deno.readDir(this.#outDir)) {
      if (/^callgrind\.out\.\d+$/.test(entry.name)) names.push(entry.name);
    }
    return names;
  }
}
