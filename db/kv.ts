/**
 * Deno KV: its keys, and `withKv`, through which every KV operation goes so that a locked KV
 * file answers 503 within a second instead of a 500 after five.
 */
import { ServiceUnavailableError } from "../lib/unavailable.ts";

/**
 * Every Deno KV key the app uses is spelled here. Plural snake_case prefixes; indexes are
 * named `<things>_by_<field>`.
 */
export const keys = {
  rateLimit: (bucket: string, subject: string) => ["rate_limits", bucket, subject] as const,
  session: (idHash: string) => ["sessions", idHash] as const,
  sessionsByUser: (userId: string, idHash: string) => ["sessions_by_user", userId, idHash] as const,
  sessionsByUserPrefix: (userId: string) => ["sessions_by_user", userId] as const,
  /** The /readyz write probe of one process (short-lived: written with `expireIn`). */
  health: (processId: string) => ["health", processId] as const,
  deviceToken: (tokenHash: string) => ["device_tokens", tokenHash] as const,
  /** A Google sign-in in progress (lib/oauth/google.ts), by the SHA-256 of its `state`. */
  oauthState: (stateHash: string) => ["oauth_states", stateHash] as const,
  /** What the mail sender knows of an outbox row's hand-off to SMTP (lib/mail/handoff.ts). */
  mailHandoff: (outboxId: string) => ["mail_handoffs", outboxId] as const,
  mailHandoffsPrefix: () => ["mail_handoffs"] as const,
};

/** Why Deno KV could not be opened at start-up, in one line for the operator. */
export class KvStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "KvStartError";
  }
}

/** How long start-up waits for a KV Connect endpoint (KV_URL) to answer. */
export const KV_CONNECT_TIMEOUT_MS = 15_000;

/**
 * Opens Deno KV at `path`: a file (creating its directory), ":memory:" for tests, or a KV
 * Connect URL (http:// or https://; Deno reads DENO_KV_ACCESS_TOKEN from the environment and
 * fetches the endpoint's metadata while opening). Throws `KvStartError` when a KV Connect
 * endpoint refuses, rejects the token or does not answer within `timeoutMs`.
 */
export async function openKv(
  path: string,
  { timeoutMs = KV_CONNECT_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Promise<Deno.Kv> {
  if (/^https?:\/\//i.test(path)) return await openRemoteKv(path, timeoutMs);
  if (path !== ":memory:") {
    const dir = path.replace(/\/[^/]*$/, "");
    if (dir && dir !== path) await Deno.mkdir(dir, { recursive: true });
  }
  return await Deno.openKv(path);
}

async function openRemoteKv(url: string, timeoutMs: number): Promise<Deno.Kv> {
  // Only scheme, host and path in messages: a URL may carry credentials in its user part.
  const parsed = new URL(url);
  const where = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  const opening = Deno.openKv(url);
  const result = await settleBy(opening, Date.now() + timeoutMs);
  if (result.state === "ok") return result.value;
  if (result.state === "timeout") {
    // Should it connect after all, close it rather than leak a handle.
    opening.then((kv) => kv.close(), () => {});
    throw new KvStartError(
      `Deno KV at KV_URL ${where} did not answer within ${Math.round(timeoutMs / 1000)} s.`,
    );
  }
  const why = (result.error instanceof Error ? result.error.message : String(result.error))
    // Deno's message repeats the URL it was given, user part included.
    .replace(/\/\/[^/@\s'")]*@/g, "//");
  throw new KvStartError(`Cannot open Deno KV at KV_URL ${where}: ${why}`, {
    cause: result.error,
  });
}

/** Result of a rate-limit hit: whether it is allowed and, if not, seconds to wait. */
export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

/**
 * Counts one attempt in a fixed window of `windowMs` for (bucket, subject). Allowed while the
 * count is at most `limit`. Uses an atomic check so concurrent hits are all counted. Throws
 * `ServiceUnavailableError("kv")` when KV cannot be reached (see `withKv`): an attempt that
 * cannot be counted is not let through.
 */
export async function hitRateLimit(
  kv: Deno.Kv,
  { bucket, subject, limit, windowMs }: {
    bucket: string;
    subject: string;
    limit: number;
    windowMs: number;
  },
): Promise<RateLimitResult> {
  const key = keys.rateLimit(bucket, subject);
  return await withKv(kv, async () => {
    for (let attempt = 0; attempt < 10; attempt++) {
      const now = Date.now();
      const entry = await kv.get<{ count: number; resetAt: number }>(key);
      const current = entry.value && entry.value.resetAt > now
        ? entry.value
        : { count: 0, resetAt: now + windowMs };
      if (current.count >= limit) {
        return { allowed: false, retryAfterSeconds: Math.ceil((current.resetAt - now) / 1000) };
      }
      const next = { count: current.count + 1, resetAt: current.resetAt };
      const res = await kv.atomic().check(entry).set(key, next, {
        expireIn: Math.max(1000, next.resetAt - now),
      }).commit();
      if (res.ok) return { allowed: true, retryAfterSeconds: 0 };
    }
    return { allowed: false, retryAfterSeconds: 1 };
  });
}

/**
 * Time one KV call (all its quick retries included) may take before it answers 503. Counted
 * on the call itself: its wait for a turn (`KV_CONCURRENCY`) is not KV being unavailable.
 */
export const KV_BUDGET_MS = 1000;
const FIRST_RETRY_MS = 50;

/**
 * KV calls outstanding at once per KV handle; more wait their turn in a FIFO of ours. A local
 * KV file answers one operation at a time, so calls beyond a few only wait inside Deno KV,
 * where that wait would count against their budget and a burst of requests would turn into
 * 503s "kv unavailable" from a KV that is merely busy (issue 20). Enough for KV Connect's
 * network round trips to overlap.
 */
export const KV_CONCURRENCY = 32;

interface Turns {
  busy: number;
  waiting: (() => void)[];
}

const turns = new WeakMap<Deno.Kv, Turns>();

function turnsOf(kv: Deno.Kv): Turns {
  let t = turns.get(kv);
  if (!t) turns.set(kv, t = { busy: 0, waiting: [] });
  return t;
}

/** Resolves once this caller may issue a KV call on `kv`; `endTurn` must follow. */
function takeTurn(t: Turns): void | Promise<void> {
  if (t.busy < KV_CONCURRENCY && t.waiting.length === 0) {
    t.busy++;
    return;
  }
  return new Promise<void>((resolve) => t.waiting.push(resolve));
}

function endTurn(t: Turns): void {
  const next = t.waiting.shift();
  // The turn passes straight to the next caller, so `busy` stays the same.
  if (next) next();
  else t.busy--;
}

// SQLite's answers for "another connection holds the file" and for a file that cannot be
// written right now. Deno KV reports them as a TypeError carrying SQLite's message (a write
// to a file another process holds with BEGIN EXCLUSIVE fails with "database is locked" after
// SQLite's 5 s busy timeout); anything else (a bad key, a value too large) is a bug, not an
// outage.
const KV_UNAVAILABLE =
  /database is locked|database table is locked|database is busy|disk I\/O error|database or disk is full|unable to open database file|readonly database/i;

/** True when `err` is KV saying its file is locked or cannot be written right now. */
export function isKvUnavailable(err: unknown): boolean {
  return err instanceof Error && KV_UNAVAILABLE.test(err.message);
}

interface Stuck {
  count: number;
  cleared: PromiseWithResolvers<void>;
}

// Per KV handle: operations that outlived their budget and are still waiting on the file.
// Deno KV runs one operation at a time on one thread, so anything issued now would queue
// behind them; new calls wait for them instead (up to their own budget) and never pile up.
const stuckOps = new WeakMap<Deno.Kv, Stuck>();

type Settled<T> =
  | { state: "ok"; value: T }
  | { state: "error"; error: unknown }
  | { state: "timeout" };

async function settleBy<T>(promise: Promise<T>, deadline: number): Promise<Settled<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<Settled<T>>((resolve) => {
    timer = setTimeout(() => resolve({ state: "timeout" }), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([
      promise.then(
        (value): Settled<T> => ({ state: "ok", value }),
        (error): Settled<T> => ({ state: "error", error }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function markStuck(kv: Deno.Kv, pending: Promise<unknown>): void {
  let stuck = stuckOps.get(kv);
  if (!stuck) {
    stuck = { count: 0, cleared: Promise.withResolvers<void>() };
    stuckOps.set(kv, stuck);
  }
  stuck.count++;
  const done = () => {
    if (--stuck.count === 0) {
      stuckOps.delete(kv);
      stuck.cleared.resolve();
    }
  };
  pending.then(done, done);
}

/** A KV call being watched for its deadline (see `settleCall`). */
interface Watched {
  deadline: number;
  ms: number;
  hasExtended: boolean;
  expire: () => void;
}

// Every KV call in flight shares one timer, armed for the earliest deadline, instead of a
// timer, a race and their promises per call. The timer also stays armed when the last call in
// flight answers, unref'd so that it keeps no process alive (and ref'd again by the next call):
// the next call's deadline is later than it, so that call arms nothing, and one call at a time (a
// quiet server's requests) costs no setTimeout and clearTimeout each (4–5 µs a pair here, against
// 0.15 µs for a ref and an unref). When it fires with nothing in flight it simply ends.
const watched = new Set<Watched>();
let watchdog: ReturnType<typeof setTimeout> | undefined;
let watchdogAt = Infinity;

function armWatchdog(at: number): void {
  if (watchdog !== undefined) clearTimeout(watchdog);
  watchdogAt = at;
  watchdog = setTimeout(checkDeadlines, Math.max(0, at - Date.now()));
}

function watch(entry: Watched): void {
  watched.add(entry);
  if (entry.deadline < watchdogAt) armWatchdog(entry.deadline);
  else if (watched.size === 1) Deno.refTimer(watchdog!);
}

function unwatch(entry: Watched): void {
  watched.delete(entry);
  if (watched.size === 0 && watchdog !== undefined) Deno.unrefTimer(watchdog);
}

function checkDeadlines(): void {
  watchdog = undefined;
  watchdogAt = Infinity;
  const now = Date.now();
  let next = Infinity;
  for (const entry of watched) {
    if (entry.deadline <= now) {
      const late = now - entry.deadline;
      if (entry.hasExtended || late <= 0) {
        watched.delete(entry);
        entry.expire();
        continue;
      }
      entry.hasExtended = true;
      entry.deadline = now + Math.min(late, entry.ms);
    }
    if (entry.deadline < next) next = entry.deadline;
  }
  if (next !== Infinity) armWatchdog(next);
}

/**
 * How `promise` settled within `ms` from now, counting the call's own time: a timer that fires
 * late (an event loop or a CPU too busy to look) gives the call that lateness again, once, and
 * an answer that arrived in the same turn as the timer is taken. Only a call still pending
 * after that is a timeout.
 */
function settleCall<T>(promise: Promise<T>, ms: number): Promise<Settled<T>> {
  return new Promise((resolve) => {
    let isSettled = false;
    const entry: Watched = {
      deadline: Date.now() + ms,
      ms,
      hasExtended: false,
      expire: () =>
        setTimeout(() => {
          if (isSettled) return;
          isSettled = true;
          resolve({ state: "timeout" });
        }, 0),
    };
    const settle = (result: Settled<T>) => {
      if (isSettled) return;
      isSettled = true;
      unwatch(entry);
      resolve(result);
    };
    promise.then(
      (value) => settle({ state: "ok", value }),
      (error) => settle({ state: "error", error }),
    );
    watch(entry);
  });
}

/**
 * The 503 of a KV call that failed for `budgetMs`: its cause the last error KV reported, else a
 * timeout. The timeout's Error is made only here, when it is thrown: an Error captures the
 * stack, and made ahead on every call it was about 2 KB of heap per request.
 */
function kvUnavailable(cause: unknown, budgetMs: number): ServiceUnavailableError {
  return new ServiceUnavailableError("kv", {
    cause: cause ?? new Error(`KV did not answer within ${budgetMs} ms`),
  });
}

/**
 * Runs `op` (one or a few KV calls) against `kv`, failing closed: when KV reports its file
 * locked or unwritable, `op` is tried again after 50, 100, 200… ms; when that, or waiting for an
 * earlier stuck call, takes longer than `budgetMs` (default 1 s), throws
 * `ServiceUnavailableError("kv")`, which routes answer as 503 with `Retry-After`. Other errors
 * are thrown as they are. `op` must be safe to run again after it failed (every KV write here
 * is a single atomic commit). A call abandoned at the deadline may still complete later.
 *
 * The budget counts the call itself, not its wait for a turn: at most `KV_CONCURRENCY` calls
 * per handle are outstanding, and the rest wait in order without the clock running (the
 * admission control in routes/_admission.ts bounds how many requests can be waiting at all).
 */
export async function withKv<T>(
  kv: Deno.Kv,
  op: () => Promise<T>,
  { budgetMs = KV_BUDGET_MS }: { budgetMs?: number } = {},
): Promise<T> {
  const t = turnsOf(kv);
  let spent = 0;
  // The last error KV reported, if any: the cause a 503 names (`kvUnavailable`).
  let cause: unknown;
  for (let attempt = 0;;) {
    // Waiting for a stuck call is waiting on KV itself, and needs no turn: it counts.
    const stuck = stuckOps.get(kv);
    if (stuck) {
      const from = Date.now();
      const cleared = await settleBy(stuck.cleared.promise, from + budgetMs - spent);
      spent += Date.now() - from;
      if (cleared.state === "timeout") throw kvUnavailable(cause, budgetMs);
    }
    const turn = takeTurn(t);
    // No await when a turn is free: the call starts now, in the caller's own turn.
    if (turn) await turn;
    // A call got stuck while this one waited for its turn: wait for it, without the turn.
    if (stuckOps.has(kv)) {
      endTurn(t);
      continue;
    }
    const from = Date.now();
    let result: Settled<T>;
    try {
      const pending = op();
      result = await settleCall(pending, budgetMs - spent);
      if (result.state === "timeout") markStuck(kv, pending);
    } finally {
      endTurn(t);
    }
    spent += Date.now() - from;
    if (result.state === "ok") return result.value;
    if (result.state === "timeout") throw kvUnavailable(cause, budgetMs);
    if (!isKvUnavailable(result.error)) throw result.error;
    cause = result.error;
    const wait = Math.min(FIRST_RETRY_MS * 2 ** attempt++, budgetMs - spent);
    if (wait <= 0) throw kvUnavailable(cause, budgetMs);
    await new Promise((resolve) => setTimeout(resolve, wait));
    spent += wait;
  }
}
