/**
 * What the process's memory is made of, for `GET /metrics` and bench/memory.ts: the V8 heap
 * (used and reserved), memory V8 tracks outside its heap (buffers), and the embedded
 * database's WebAssembly memory when this process runs one (db/embedded.ts registers it).
 */

let pgliteWasmBytes: (() => number) | undefined;

/** Registers how to read the embedded database's WebAssembly memory size (undefined: none). */
export function trackPgliteWasmMemory(read: (() => number) | undefined): void {
  pgliteWasmBytes = read;
}

/** The breakdown, in bytes. */
export interface MemoryBreakdown {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  /** The embedded database's WebAssembly memory (its size; untouched pages are not resident). */
  pgliteWasm: number;
}

/** The process's memory now. */
export function memoryBreakdown(): MemoryBreakdown {
  const m = Deno.memoryUsage();
  return {
    rss: m.rss,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    pgliteWasm: pgliteWasmBytes?.() ?? 0,
  };
}

/**
 * The name under which `deno task start` exposes V8's collector (deno.json:
 * `--expose-gc-as=__meridianGc`; scripts/compile.ts bakes the same flag into the binary).
 */
export const GC_GLOBAL = "__meridianGc";

/**
 * One full collection once start-up is over (database open, migrations run, ZIP index built):
 * what start-up allocated and dropped — on a first start, PGlite's bootstrap instance that ran
 * initdb, 200 MB of WebAssembly memory — is otherwise held until V8 next collects the old
 * generation, which an idle or lightly used server may not do for a long time. Does nothing
 * when the flag is not set (tests, `deno run main.ts`).
 */
export function collectStartupGarbage(): boolean {
  const gc = (globalThis as Record<string, unknown>)[GC_GLOBAL];
  if (typeof gc !== "function") return false;
  gc();
  return true;
}
