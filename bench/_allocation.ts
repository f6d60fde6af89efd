/**
 * What a server allocates on its JavaScript heap, read through the V8 inspector's sampling heap
 * profiler (the Chrome DevTools protocol's `HeapProfiler.startSampling`, with the objects minor
 * and major collections freed kept in the profile): the bytes allocated while a load ran, and
 * where. The server must run with `--inspect=127.0.0.1:{port}` (`inspectArgs`).
 *
 * Why this figure beside CPU time: allocation per request is what the garbage collector's work
 * scales with (a fifth of a heavy page's CPU), and unlike CPU time it hardly moves with the
 * machine or its load. On the nested VM of issue 23's later sessions the same /leads read
 * 1.56 and 2.08 ms of CPU per request in two side-by-side runs of the same code, and 444 and
 * 447 KB of allocation; a change that saved 30 KB per view read 414 and 415 KB. A sampled
 * object stands for about `SAMPLING_INTERVAL` bytes (V8 scales each sample: `selfSize`), so the
 * total is an estimate, steady from run to run.
 *
 * With `survivors`, the objects a young-generation collection freed are left out: what remains
 * outlived one (moved to the old generation, to be freed only by a full mark-compact) or is
 * still alive. That is what makes the young collections slow (they copy survivors) and the full
 * ones frequent: a page's whole HTML held by Deno until it was written showed up here.
 */

import { GC_GLOBAL } from "../lib/memory.ts";

/** Mean bytes between samples: small, so that small objects are counted well. */
const SAMPLING_INTERVAL = 1024;

/** The V8 flag that opens the inspector on `port` (loopback only). */
export function inspectArgs(port: number): string[] {
  return [`--inspect=127.0.0.1:${port}`];
}

/** One allocation site: a function and where it is, with the bytes it allocated. */
export interface AllocationSite {
  site: string;
  bytes: number;
}

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

/** A connection to one server's inspector, sampling its allocations on demand. */
export class AllocationSampler {
  #ws: WebSocket;
  #nextId = 0;
  #pending = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();

  /** Whether this sampler counts only what outlives a young collection (see the file's comment). */
  readonly survivors: boolean;

  private constructor(ws: WebSocket, survivors: boolean) {
    this.#ws = ws;
    this.survivors = survivors;
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      this.#pending.get(message.id)?.(message);
      this.#pending.delete(message.id);
    };
  }

  /**
   * Connects to the inspector on `port` (the server's first isolate) and enables the profiler;
   * with `survivors`, it counts only what outlives a young collection.
   */
  static async connect(
    port: number,
    { survivors = false }: { survivors?: boolean } = {},
  ): Promise<AllocationSampler> {
    const res = await fetch(`http://127.0.0.1:${port}/json`);
    const [target] = await res.json() as { webSocketDebuggerUrl: string }[];
    const ws = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    const sampler = new AllocationSampler(ws, survivors);
    await sampler.#call("HeapProfiler.enable");
    return sampler;
  }

  #call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = ++this.#nextId;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, (message) => {
        if (message.error) reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result);
      });
      this.#ws.send(JSON.stringify({ id, method, params }));
    });
  }

  /**
   * Samples every allocation from now on, freed or not; with `survivors`, less what a
   * young-generation collection freed.
   */
  async start(): Promise<void> {
    await this.#call("HeapProfiler.startSampling", {
      samplingInterval: SAMPLING_INTERVAL,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: !this.survivors,
    });
  }

  /**
   * Stops sampling: the bytes allocated since `start`, and the `top` sites that allocated most
   * (files under `root` named from there).
   */
  async stop(
    { top = 5, root, byCaller = false }: { top?: number; root?: string; byCaller?: boolean } = {},
  ): Promise<{ bytes: number; sites: AllocationSite[] }> {
    const { profile } = await this.#call("HeapProfiler.stopSampling") as {
      profile: { head: ProfileNode };
    };
    const bySite = new Map<string, number>();
    let bytes = 0;
    // `caller`: the innermost frame of JavaScript code (the app's, vendor/'s or a package's) on
    // the way to this node, when `byCaller`: the runtime's own allocations (a Promise, a
    // header list) then count for the code that asked for them.
    const visit = (node: ProfileNode, caller: string | undefined) => {
      const own = isCodeFrame(node.callFrame) ? siteName(node.callFrame, root) : undefined;
      const here = byCaller ? own ?? caller : undefined;
      bytes += node.selfSize;
      if (node.selfSize > 0) {
        const site = here ?? siteName(node.callFrame, root);
        bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
      }
      for (const child of node.children) visit(child, here);
    };
    visit(profile.head, undefined);
    const sites = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top)
      .map(([site, bytes]) => ({ site, bytes }));
    return { bytes, sites };
  }

  /**
   * A full collection of the heap, now, through the collector the start task exposes
   * (lib/memory.ts `GC_GLOBAL`): a plain one. The inspector's own `HeapProfiler.collectGarbage`
   * is V8's collection of last resort, which also drops compiled code and bytecode: after it,
   * 500 dashboard views read 1.76–1.84 M instructions each, after a plain one 1.25–1.36 M.
   */
  async collectGarbage(): Promise<void> {
    const { exceptionDetails } = await this.#call("Runtime.evaluate", {
      expression: `${GC_GLOBAL}({ type: "major", execution: "sync" })`,
    }) as { exceptionDetails?: unknown };
    if (exceptionDetails) {
      throw new Error(`${GC_GLOBAL} failed: ${JSON.stringify(exceptionDetails)}`);
    }
  }

  close(): void {
    this.#ws.close();
  }
}

/** Whether a frame runs code loaded from a file (the app, vendor/, an npm package). */
function isCodeFrame({ url }: ProfileNode["callFrame"]): boolean {
  return url.startsWith("file://");
}

/** "function file:line", the file relative to `root` or to its npm package. */
function siteName(
  { functionName, url, lineNumber }: ProfileNode["callFrame"],
  root = "",
): string {
  const file = url.replace(/^.*\/node_modules\/\.deno\/[^/]+\/node_modules\//, "")
    .replace(root ? `file://${root}` : /^$/, "");
  return `${functionName || "(anonymous)"}${file ? ` ${file}:${lineNumber + 1}` : ""}`;
}
