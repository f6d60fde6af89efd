/**
 * Graceful shutdown helpers for main.ts: wait for SIGTERM or SIGINT, then give the server's
 * in-flight work a bounded time to finish (SHUTDOWN_TIMEOUT_SECONDS) before the process
 * closes Postgres and KV and exits.
 */

/** The signals that ask the server to stop: SIGTERM (orchestrators), SIGINT (Ctrl-C). */
export const STOP_SIGNALS = ["SIGTERM", "SIGINT"] as const;

/**
 * Resolves with the first stop signal. A second one while shutting down means "now": the
 * process exits at once with 128 + the signal's number, as a shell reports it.
 */
export function firstStopSignal(): Promise<Deno.Signal> {
  const { promise, resolve } = Promise.withResolvers<Deno.Signal>();
  let isStopping = false;
  for (const signal of STOP_SIGNALS) {
    Deno.addSignalListener(signal, () => {
      if (isStopping) {
        console.error(`${signal} again: exiting without waiting.`);
        Deno.exit(signal === "SIGTERM" ? 143 : 130);
      }
      isStopping = true;
      resolve(signal);
    });
  }
  return promise;
}

/**
 * Whether `work` settles within `ms` (a rejection counts as settled and is logged). The work
 * is not cancelled when time runs out: the caller decides what to abandon.
 */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
  });
  try {
    return await Promise.race([
      work.then(() => true, (err) => {
        console.error("[shutdown]", err);
        return true;
      }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
