/**
 * The page's first script: a classic (not module) script in the head of every page with
 * islands, so it runs before the visitor can see a form, while `_boot.ts`, a module, runs
 * only once the whole page has been parsed and its own file has arrived. Until then a press
 * on an island form's submit button (or Enter in one of its fields) would submit it natively:
 * a POST to the page's own address, answered by a page that is not the island's, with what was
 * typed gone. This holds each such submission instead (one per form), marks the form
 * `data-early-submit` so it shows as busy, and hands the held ones to `_boot.ts`
 * (`takeEarlySubmits`), which submits each once its island has hydrated, with the typed values
 * as they are on screen.
 *
 * Built on its own as an IIFE (dev.ts); it imports nothing and stays a few hundred bytes.
 */

/** A submission held before the island runtime ran. */
export interface EarlySubmit {
  form: HTMLFormElement;
  submitter: HTMLElement | null;
}

declare global {
  /** Stops holding submissions and returns the ones held so far (set by `_early.ts`). */
  var takeEarlySubmits: (() => EarlySubmit[]) | undefined;
}

const held: EarlySubmit[] = [];

function hold(event: Event) {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.closest("[data-island]")) return;
  event.preventDefault();
  // A second press while the first waits is the same request: it is sent once.
  if (held.some((h) => h.form === form)) return;
  held.push({ form, submitter: (event as SubmitEvent).submitter });
  form.setAttribute("data-early-submit", "");
}

// On the document, in the capture phase: the forms are not parsed yet when this runs.
document.addEventListener("submit", hold, true);

globalThis.takeEarlySubmits = () => {
  document.removeEventListener("submit", hold, true);
  globalThis.takeEarlySubmits = undefined;
  return held.splice(0);
};
