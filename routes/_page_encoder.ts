/**
 * Encodes (UTF-8) and gzips the pages `keyedPublicPage` builds in a worker, so on a crawl the
 * main thread renders the next page while another core compresses the last one. On the main
 * thread gzip (level 2) and encoding were ~30% of building each local page; node:zlib's async
 * `gzip` does not help here: Deno runs it on the calling thread, and slower than `gzipSync`
 * (17 KB page: 318 µs of main thread per call against 50).
 *
 * The worker starts with the first page (which waits for it to load, a few tens of ms: pages
 * are not encoded here meanwhile, as a crawl in process, bench/local_pages.ts, never lets the
 * event loop hear that it is ready) and stops after IDLE_MS without a page: a live worker keeps
 * a process from exiting, and most processes never build a local page. Should it fail (it cannot load, or
 * throws), every page is encoded on the main thread from then on, the ones it held included:
 * slower, never lost. `deno compile` does not embed a worker's module unless told
 * (`--include routes/_page_encoder_worker.ts`); without it the binary runs the same way.
 */
import { type EncodedPage, encodePage } from "./_page_encoding.ts";
import type { EncodeAnswer, EncodeJob } from "./_page_encoder_worker.ts";

/** The worker stops after this long without a page. */
const IDLE_MS = 5_000;

/**
 * Pages at most in the worker at once; beyond it the main thread encodes too (the worker is
 * behind, and each page waiting holds its text).
 */
const MAX_PENDING = 16;

interface Job {
  text: string;
  level: number;
  resolve: (page: EncodedPage) => void;
  reject: (err: unknown) => void;
}

let worker: Worker | undefined;
let isBroken = false;
let nextId = 0;
let lastUsed = 0;
let idleTimer: ReturnType<typeof setTimeout> | undefined;
const pending = new Map<number, Job>();

/**
 * `text` as UTF-8, gzip at `level` (the trailer's CRC-32 in the ETag): in the worker when it is
 * running and not behind, else at once on this thread.
 */
export function encodePageOffThread(
  text: string,
  level: number,
): EncodedPage | Promise<EncodedPage> {
  if (isBroken || pending.size >= MAX_PENDING) return encodePage(text, level);
  if (!worker) start();
  lastUsed = performance.now();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { text, level, resolve, reject });
    worker!.postMessage({ id, text, level } satisfies EncodeJob);
  });
}

function start(): void {
  try {
    worker = new Worker(new URL("./_page_encoder_worker.ts", import.meta.url), {
      type: "module",
      name: "page-encoder",
    });
  } catch (err) {
    fail(err);
    return;
  }
  armIdleTimer();
  worker.onmessage = ({ data }: MessageEvent<EncodeAnswer>) => {
    const job = pending.get(data.id);
    if (!job) return;
    pending.delete(data.id);
    lastUsed = performance.now();
    if ("error" in data) job.reject(new Error(data.error));
    else job.resolve({ html: data.html, gzip: data.gzip, etag: data.etag });
  };
  worker.onerror = (event) => {
    // Handled: unhandled, a worker's error ends the whole process.
    event.preventDefault();
    fail(event.error ?? event.message);
  };
  worker.onmessageerror = () => fail("a message could not be read");
}

/** Encodes everything here from now on, the pages the worker held first. */
function fail(err: unknown): void {
  if (isBroken) return;
  isBroken = true;
  console.error("page encoder: the worker failed; pages are encoded on the main thread", err);
  stop();
  for (const [id, job] of pending) {
    pending.delete(id);
    try {
      job.resolve(encodePage(job.text, job.level));
    } catch (encodeErr) {
      job.reject(encodeErr);
    }
  }
}

function stop(): void {
  worker?.terminate();
  worker = undefined;
  if (idleTimer !== undefined) clearTimeout(idleTimer);
  idleTimer = undefined;
}

/** One timer for the worker's life, re-armed while pages keep coming (none per page). */
function armIdleTimer(delay = IDLE_MS): void {
  const timer = setTimeout(() => {
    idleTimer = undefined;
    const idle = performance.now() - lastUsed;
    if (pending.size === 0 && idle >= IDLE_MS) stop();
    else armIdleTimer(Math.max(IDLE_MS - idle, 100));
  }, delay);
  // The timer alone keeps no process alive (the worker does, until it stops).
  Deno.unrefTimer(timer);
  idleTimer = timer;
}
