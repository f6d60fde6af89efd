/**
 * postgres.js talking to this process's PGlite directly: a socket-shaped object handed to
 * postgres.js through its `socket` option, whose writes go to PGlite's `execProtocolRawStream`
 * through the same CycleQueue as pglite-socket's TCP clients (db/embedded.ts), so the server's
 * pool and a CLI sharing the database (`deno task user` over pglite-socket) still take PGlite
 * one protocol cycle at a time.
 *
 * Why (issue 23, bench/driver.ts): over TCP to pglite-socket every query crossed the loopback
 * twice through Deno's node:net (client and server side), and pglite-socket ran PGlite once per
 * protocol *message* with a setImmediate and a copy for each. Here the messages a client wrote
 * in one turn of the event loop run as one batch, and PGlite's output is handed to postgres.js
 * without a socket in between. What it keeps: the startup handshake and authentication are
 * PGlite's own (execProtocolRaw answers the startup message as on TCP), a closed connection's
 * open cycle or transaction is rolled back (CycleQueue.clearTransactionIfNeeded, as
 * pglite-socket does when a TCP client goes), and errors PGlite throws reach postgres.js as a
 * socket 'error' then 'close', so queries reject and the pool reconnects.
 */
import { Buffer } from "node:buffer";
import { AsyncLocalStorage } from "node:async_hooks";

/** What the in-process socket needs of db/embedded.ts's CycleQueue. */
export interface ProtocolQueue {
  enqueue(handlerId: number, message: Uint8Array, onData: (d: Uint8Array) => void): Promise<number>;
  clearQueueForHandler(handlerId: number): void;
  clearTransactionIfNeeded(handlerId: number): Promise<void>;
}

type Listener = (arg?: unknown) => void;
type EventName = "data" | "error" | "close" | "drain" | "connect" | "secureConnect";

// PGlite's answers (rows, and the type query postgres.js runs on connecting) are handled in the
// context this module was loaded in, as a socket's would be, not in that of the request whose
// query happened to start the queue: that request's trace (lib/telemetry.ts) shows its own SQL.
const runOutsideRequests = AsyncLocalStorage.snapshot();

// pglite-socket numbers its TCP connections' handlers from 1; these never meet them.
let nextHandlerId = 1_000_000_000;

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const TERMINATE = 0x58; // 'X'
const NO_SSL = new Uint8Array([0x4e]); // 'N'

/**
 * A new in-process connection to the PGlite behind `queue`, shaped like the node:net socket
 * postgres.js expects (on/once/removeListener, write/end/destroy, pause/resume, readyState).
 */
export function inProcessSocket(queue: ProtocolQueue) {
  const id = nextHandlerId++;
  const events = new Map<EventName, Listener[]>();
  let input: Uint8Array[] = [];
  let inputBytes = 0;
  let callbacks: ((err?: Error | null) => void)[] = [];
  let isScheduled = false;
  let isStarted = false;
  let isEnding = false;
  let isClosed = false;
  let held: Buffer[] | null = null; // output while paused
  // The last batch handed to PGlite: ending waits for it before the connection is reset.
  let last: Promise<unknown> = Promise.resolve();

  const socket = {
    readyState: "open" as "open" | "closed",
    on(name: EventName, fn: Listener) {
      listeners(name).push(fn);
      return socket;
    },
    once(name: EventName, fn: Listener) {
      const once = Object.assign((arg?: unknown) => {
        socket.removeListener(name, once);
        fn(arg);
      }, { listener: fn });
      listeners(name).push(once);
      return socket;
    },
    removeListener(name: EventName, fn: Listener) {
      const list = listeners(name);
      const i = list.findIndex((f) => f === fn || (f as { listener?: Listener }).listener === fn);
      if (i >= 0) list.splice(i, 1);
      return socket;
    },
    removeAllListeners(name?: EventName) {
      if (name) events.delete(name);
      else events.clear();
      return socket;
    },
    write(x: Uint8Array, cb?: (err?: Error | null) => void): boolean {
      if (isClosed || isEnding) {
        if (cb) queueMicrotask(() => cb(new Error("write after end")));
        return false;
      }
      input.push(x);
      inputBytes += x.length;
      if (cb) callbacks.push(cb);
      schedule();
      return true;
    },
    end(x?: Uint8Array) {
      if (x) socket.write(x);
      isEnding = true;
      schedule();
      return socket;
    },
    destroy() {
      close(false);
      return socket;
    },
    pause() {
      held ??= [];
    },
    resume() {
      const output = held;
      held = null;
      output?.forEach((x) => !isClosed && emit("data", x));
    },
    isPaused: () => held !== null,
    setKeepAlive: () => socket,
    setNoDelay: () => socket,
  };
  return socket;

  function listeners(name: EventName): Listener[] {
    let list = events.get(name);
    if (!list) events.set(name, list = []);
    return list;
  }

  function emit(name: EventName, arg?: unknown): void {
    const list = events.get(name);
    if (!list?.length) return;
    if (list.length === 1) return list[0](arg);
    for (const fn of list.slice()) fn(arg);
  }

  function schedule(): void {
    if (isScheduled) return;
    isScheduled = true;
    // Everything postgres.js writes in this turn (a page's parallel queries) goes as one batch.
    queueMicrotask(run);
  }

  function run(): void {
    isScheduled = false;
    if (isClosed) return;
    const bytes = input.length === 1 ? input[0] : Buffer.concat(input, inputBytes);
    input = [];
    inputBytes = 0;
    const done = callbacks;
    callbacks = [];
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let start = 0;
    let isTerminated = false;
    if (!isStarted && bytes.length >= 8 && view.getInt32(0) <= bytes.length) {
      // The first message has no type byte: its length, then the protocol version or a
      // request code. The startup message goes to PGlite alone (it answers it specially).
      const length = view.getInt32(0);
      const code = view.getInt32(4);
      start = length;
      if (code === SSL_REQUEST) {
        queueMicrotask(() => !isClosed && emit("data", Buffer.from(NO_SSL)));
      } else if (code === CANCEL_REQUEST) {
        isTerminated = true; // PGlite runs one statement at a time here: nothing to cancel.
      } else {
        isStarted = true;
        last = send(bytes.subarray(0, length));
      }
    }
    // Typed messages written in one turn (a page's parallel queries) run as one batch.
    let end = start;
    while (isStarted && !isTerminated && bytes.length - end >= 5) {
      if (bytes[end] === TERMINATE) {
        isTerminated = true;
        break;
      }
      const length = 1 + view.getInt32(end + 1);
      if (bytes.length - end < length) break;
      end += length;
    }
    if (end > start) last = send(bytes.subarray(start, end));
    if (!isTerminated && end < bytes.length) {
      // An incomplete message (or one before the startup): keep it for the next write.
      input.push(bytes.slice(end));
      inputBytes = bytes.length - end;
    }
    if (done.length) last.then(() => done.forEach((cb) => cb(null)), () => {});
    if (isTerminated || (isEnding && inputBytes === 0)) last.then(() => close(false), () => {});
  }

  function send(message: Uint8Array): Promise<unknown> {
    return runOutsideRequests(() =>
      queue.enqueue(id, message, (data) => {
        if (isClosed || data.length === 0) return;
        // A copy: PGlite reuses its output buffer, postgres.js keeps partial messages.
        const x = Buffer.from(data);
        if (held) {
          held.push(x);
          return;
        }
        try {
          emit("data", x);
        } catch (err) {
          // Thrown into PGlite's loop, which would swallow it; a socket's listener that throws
          // is an uncaught error.
          queueMicrotask(() => {
            throw err;
          });
        }
      })
    ).catch((err) => {
      if (isClosed) return;
      emit("error", err);
      close(true);
    });
  }

  function close(hadError: boolean): void {
    if (isClosed) return;
    isClosed = true;
    socket.readyState = "closed";
    input = [];
    held = null;
    callbacks.forEach((cb) => queueMicrotask(() => cb(new Error("socket closed"))));
    callbacks = [];
    // As pglite-socket does when a TCP client goes: drop its waiting messages, then end its
    // open cycle and roll back its transaction before anyone else gets PGlite.
    queue.clearQueueForHandler(id);
    queue.clearTransactionIfNeeded(id).finally(() => emit("close", hadError));
  }
}
