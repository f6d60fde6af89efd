/**
 * The latest dispatch state of a request's page, shared by its islands (each its own React
 * root): the dispatch panel publishes every change (Find, Refresh, Notify, Convert), and the
 * assignment form and the map redraw from it at once instead of on the next reload. Like
 * `_toast.ts`, code splitting puts this module in one shared chunk, so every island on a page
 * talks to the same store.
 */
import type { DispatchState } from "./_dispatch.ts";
import type { CandidateBuyer } from "./_dispatch.ts";

/** A published state: the panel's, plus the buyers when its answer carried them. */
export type PublishedDispatch = DispatchState & { buyers?: CandidateBuyer[] };

type Listener = (surveyId: string, state: PublishedDispatch) => void;

const listeners = new Set<Listener>();

/** Tells every listener that the dispatch state of `surveyId` is now `state`. */
export function publishDispatch(surveyId: string, state: PublishedDispatch): void {
  for (const listener of listeners) listener(surveyId, state);
}

/** Calls `listener` on every publish of `surveyId`'s state; returns the unsubscribe function. */
export function subscribeDispatch(
  surveyId: string,
  listener: (state: PublishedDispatch) => void,
): () => void {
  const own: Listener = (id, state) => {
    if (id === surveyId) listener(state);
  };
  listeners.add(own);
  return () => void listeners.delete(own);
}
