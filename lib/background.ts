/**
 * Work a request starts and does not wait for (so its answer does not reveal how much work
 * there was), tracked per app so tests and a shutdown can wait for it to finish.
 *
 * Only work whose input is already stored durably belongs here: a crash drops whatever is in
 * flight, so the stored input has to be enough to redo it (see lib/password_reset.ts).
 */

import type { RecurringFailures } from "./recurring_failures.ts";

/** Background tasks of one app: started with `run`, awaited with `settled`. */
export class BackgroundWork {
  #pending = new Set<Promise<void>>();

  /**
   * Starts `task` now without waiting for it. A failure is logged with `label` and never
   * becomes an unhandled rejection (that would end the process). A task started again and again
   * (a sweep) passes its `failures`, which log a failure that repeats once.
   */
  run(label: string, task: () => Promise<unknown>, failures?: RecurringFailures): void {
    const promise = (async () => {
      try {
        await task();
        failures?.succeeded();
      } catch (err) {
        if (failures) failures.failed(err);
        else console.error(`[background] ${label} failed`, err);
      }
    })();
    this.#pending.add(promise);
    promise.finally(() => this.#pending.delete(promise));
  }

  /** How many tasks are still running. */
  get size(): number {
    return this.#pending.size;
  }

  /** Resolves once every task started so far, and any they started, has finished. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }
}

// Keyed by the app's deps object, so each app built by createApp (every test builds its own)
// has its own tracker without AppDeps having to carry one.
const trackers = new WeakMap<object, BackgroundWork>();

/** The background-work tracker of the app built from `deps` (created on first use). */
export function backgroundWork(deps: object): BackgroundWork {
  let tracker = trackers.get(deps);
  if (!tracker) trackers.set(deps, tracker = new BackgroundWork());
  return tracker;
}
