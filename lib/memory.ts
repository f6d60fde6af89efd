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
