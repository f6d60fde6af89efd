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

/** How often freed native memory is handed back to the OS (`trimNativeHeap`). */
export const NATIVE_TRIM_INTERVAL_MS = 30_000;

/**
 * glibc's `malloc_trim(0)`, reached through FFI, or undefined where there is none (not Linux,
 * a libc other than glibc, no FFI permission). Deno's native side (its Rust ops: file and
 * socket buffers, PGlite's file reads, KV) allocates with the C library's malloc, and glibc
 * keeps what is freed in its arenas instead of returning it: on the embedded database that was
 * about 50 MB resident after a minute of light traffic. Trimming returns the free pages; it
 * moves nothing that is in use. Hand-written because no library does this for Deno. Opened
 * once; the periodic trim and the quiet-spell compaction share it.
 */
function openMallocTrim(): (() => void) | undefined {
  if (mallocTrim !== null) return mallocTrim;
  mallocTrim = undefined;
  if (Deno.build.os !== "linux") return undefined;
  try {
    const libc = Deno.dlopen("libc.so.6", {
      malloc_trim: { parameters: ["usize"], result: "i32" },
    });
    mallocTrim = () => void libc.symbols.malloc_trim(0n);
    return mallocTrim;
  } catch {
    return undefined;
  }
}

/**
 * V8's collection "of last resort" (the options its gc extension takes): full collections,
 * repeated until nothing more is freed, that also compact the old generation and give its
 * emptied pages back to the OS. A plain `gc()` frees the objects but keeps the pages they were
 * on: after the offline ZIP index was built (30 MB of heap at its peak, 6 MB of it kept), a plain
 * collection left 26 MB of heap reserved and the process at 82 MB resident; this one left 7 MB
 * reserved and 54 MB resident (a process of its own; bench/memory.ts measures the server).
 */
const COMPACTING_GC = { type: "major", execution: "sync", flavor: "last-resort" } as const;

/** `openMallocTrim`'s answer once it has looked (null: not yet). */
let mallocTrim: (() => void) | undefined | null = null;

let nativeTrimTimer: ReturnType<typeof setInterval> | undefined;

/** Requests this process has answered (routes/metrics.ts counts them): how a quiet spell is seen. */
let requestsAnswered = 0;

/** Counts one answered request (routes/metrics.ts, beside its metrics). */
export function countAnsweredRequest(): void {
  requestsAnswered++;
}

/** How often the server looks for a quiet spell to compact its heap in (`compactWhenQuiet`). */
export const QUIET_CHECK_INTERVAL_MS = 10_000;

let quietCheckTimer: ReturnType<typeof setInterval> | undefined;

/**
 * Once traffic stops, compacts the heap and trims the native one: every `intervalMs`
 * (`QUIET_CHECK_INTERVAL_MS`) it checks whether any request was answered since the last check,
 * and after a busy spell, at the first check that finds none, runs the compacting collection
 * once (`COMPACTING_GC`), then `malloc_trim`. Under load V8 grows the heap and keeps its pages
 * when it is over: a server on Postgres sat at 160 MB resident a minute after a load, 143 MB at
 * ready (bench/memory.ts). The collection blocks the process for 40–60 ms (a 27 MB heap, three
 * runs here), at a moment when it had nothing to answer: a request that comes in just then
 * waits that long, once per quiet spell. Does nothing, and returns false, when the collector is
 * not exposed (see `collectStartupGarbage`).
 */
export function compactWhenQuiet(intervalMs = QUIET_CHECK_INTERVAL_MS): boolean {
  const gc = (globalThis as Record<string, unknown>)[GC_GLOBAL];
  if (typeof gc !== "function") return false;
  if (quietCheckTimer !== undefined) return true;
  const trim = openMallocTrim();
  let seen = requestsAnswered;
  let compactedAt = requestsAnswered;
  const timer = setInterval(() => {
    const now = requestsAnswered;
    if (now === seen && now !== compactedAt) {
      compactedAt = now;
      gc(COMPACTING_GC);
      trim?.();
    }
    seen = now;
  }, intervalMs);
  Deno.unrefTimer(timer);
  quietCheckTimer = timer;
  return true;
}

/**
 * Hands the native heap's free pages back to the OS now and every `NATIVE_TRIM_INTERVAL_MS`
 * (a timer that does not keep the process alive). False where it cannot (see openMallocTrim).
 */
export function trimNativeHeap(): boolean {
  if (nativeTrimTimer !== undefined) return true;
  const trim = openMallocTrim();
  if (!trim) return false;
  trim();
  const timer = setInterval(trim, NATIVE_TRIM_INTERVAL_MS);
  Deno.unrefTimer(timer);
  nativeTrimTimer = timer;
  return true;
}

/**
 * One full collection once start-up is over (database open, migrations run, ZIP index built):
 * what start-up allocated and dropped — on a first start, PGlite's bootstrap instance that ran
 * initdb, 200 MB of WebAssembly memory — is otherwise held until V8 next collects the old
 * generation, which an idle or lightly used server may not do for a long time. Then the native
 * heap is trimmed, now and from then on (`trimNativeHeap`). Does nothing when the flag is not
 * set (tests, `deno run main.ts`).
 */
export function collectStartupGarbage(): boolean {
  const gc = (globalThis as Record<string, unknown>)[GC_GLOBAL];
  if (typeof gc !== "function") return false;
  gc(COMPACTING_GC);
  trimNativeHeap();
  compactWhenQuiet();
  return true;
}
