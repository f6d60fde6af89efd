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
 * moves nothing that is in use. Hand-written because no library does this for Deno.
 */
function openMallocTrim(): (() => void) | undefined {
  if (Deno.build.os !== "linux") return undefined;
  try {
    const libc = Deno.dlopen("libc.so.6", {
      malloc_trim: { parameters: ["usize"], result: "i32" },
    });
    return () => void libc.symbols.malloc_trim(0n);
  } catch {
    return undefined;
  }
}

let nativeTrimTimer: ReturnType<typeof setInterval> | undefined;

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
  gc();
  trimNativeHeap();
  return true;
}
