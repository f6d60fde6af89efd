/**
 * Admission control (issue 20, "Overload"): at most `maxInFlight` requests are worked on at
 * once; a few more wait their turn briefly (`maxQueued`, each at most `queueTimeoutMs`), and
 * the rest are refused at once, so an overloaded server answers a fast 503 instead of letting
 * every request time out deep inside (a session read stuck behind thousands of others in the
 * KV queue, a query waiting for a pool connection). No HTTP here: routes/_admission.ts turns
 * a refusal into the answer.
 *
 * Why not a library: the npm limiters (p-limit, p-queue, bottleneck) queue without bound or
 * drop by rate, not by concurrency with a short bounded wait; this is a counter and a FIFO.
 */

/** How many requests are worked on at once and how many may wait, for how long. */
export interface AdmissionLimits {
  /** Requests being worked on at once; more wait or are refused. */
  maxInFlight: number;
  /** Requests that may wait for a slot; more are refused at once. */
  maxQueued: number;
  /** How long a waiting request waits for a slot before it is refused. */
  queueTimeoutMs: number;
}

/** Requests in flight per database connection in the pool, when not configured. */
export const IN_FLIGHT_PER_CONNECTION = 4;
/** The least the default allows (an embedded database has a pool of one connection). */
export const MIN_DEFAULT_IN_FLIGHT = 32;
/** How long a request may wait for a slot, when not configured. */
export const DEFAULT_QUEUE_TIMEOUT_MS = 250;

/**
 * The limits from configuration: `MAX_IN_FLIGHT_REQUESTS` when set, else
 * `IN_FLIGHT_PER_CONNECTION` per connection of the database pool (at least
 * `MIN_DEFAULT_IN_FLIGHT`); as many may wait as run, unless `MAX_QUEUED_REQUESTS` says.
 */
export function admissionLimits(
  config: {
    MAX_IN_FLIGHT_REQUESTS?: number;
    MAX_QUEUED_REQUESTS?: number;
    REQUEST_QUEUE_TIMEOUT_MS?: number;
  },
  poolSize: number,
): AdmissionLimits {
  const maxInFlight = config.MAX_IN_FLIGHT_REQUESTS ??
    Math.max(MIN_DEFAULT_IN_FLIGHT, IN_FLIGHT_PER_CONNECTION * poolSize);
  return {
    maxInFlight,
    maxQueued: config.MAX_QUEUED_REQUESTS ?? maxInFlight,
    queueTimeoutMs: config.REQUEST_QUEUE_TIMEOUT_MS ?? DEFAULT_QUEUE_TIMEOUT_MS,
  };
}

interface Waiter {
  admit(): void;
  refuse(): void;
}

/** Counts of what the gate did since it was made, and where it stands now. */
export interface AdmissionStats {
  inFlight: number;
  queued: number;
  admitted: number;
  refused: number;
}

/**
 * A concurrency gate with a short, bounded FIFO wait. `enter()` resolves true once the caller
 * holds a slot (it must then call `leave()` exactly once) or false when it was refused.
 */
export class AdmissionGate {
  readonly limits: AdmissionLimits;
  #inFlight = 0;
  #queue: Waiter[] = [];
  #admitted = 0;
  #refused = 0;

  constructor(limits: AdmissionLimits) {
    this.limits = limits;
  }

  /**
   * Takes a slot: at once when one is free, else after waiting up to `queueTimeoutMs` behind
   * the requests already waiting. False (refused) when the queue is full, the wait ran out, or
   * `signal` aborted (the client went away) while waiting. `signal` may be given as a function
   * that returns it, called only when the request has to wait: reading a request's `signal`
   * makes Deno create it and abort it (a DOMException, with its stack) once the response is
   * sent, a cost every admitted request would otherwise pay.
   */
  enter(signal?: AbortSignal | (() => AbortSignal)): boolean | Promise<boolean> {
    if (this.#inFlight < this.limits.maxInFlight && this.#queue.length === 0) {
      this.#inFlight++;
      this.#admitted++;
      return true;
    }
    return this.#wait(typeof signal === "function" ? signal() : signal);
  }

  #wait(signal: AbortSignal | undefined): boolean | Promise<boolean> {
    if (this.#queue.length >= this.limits.maxQueued || signal?.aborted) {
      this.#refused++;
      return false;
    }
    return new Promise<boolean>((resolve) => {
      const settle = (admitted: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const at = this.#queue.indexOf(waiter);
        if (at !== -1) this.#queue.splice(at, 1);
        if (admitted) this.#admitted++;
        else this.#refused++;
        resolve(admitted);
      };
      const waiter: Waiter = { admit: () => settle(true), refuse: () => settle(false) };
      const onAbort = () => settle(false);
      const timer = setTimeout(onAbort, this.limits.queueTimeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  /** Gives a slot back: to the longest-waiting request, if any, else to the pool. */
  leave(): void {
    const next = this.#queue[0];
    // The slot passes straight to the next waiter, so `inFlight` stays the same.
    if (next) next.admit();
    else this.#inFlight--;
  }

  /** Where the gate stands and what it did so far. */
  stats(): AdmissionStats {
    return {
      inFlight: this.#inFlight,
      queued: this.#queue.length,
      admitted: this.#admitted,
      refused: this.#refused,
    };
  }
}
