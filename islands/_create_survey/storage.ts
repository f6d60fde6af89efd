/**
 * The draft lives in sessionStorage: a reload, or a trip to another tab of the same session,
 * keeps every answer, while closing the tab forgets them (they may include a phone number).
 */
import { type Draft, emptyAnswers, STEPS } from "./types.ts";

/** sessionStorage key of the draft. */
export const DRAFT_KEY = "meridian:create-survey";

/** A fresh idempotency key for POST /api/surveys. */
export function newRequestId(): string {
  return crypto.randomUUID();
}

/** A new draft, optionally seeded with an address from `?address=`. */
export function newDraft(address = ""): Draft {
  return {
    version: 1,
    step: 0,
    furthest: 0,
    answers: { ...emptyAnswers(), address },
    quote: null,
    requestId: newRequestId(),
    seedAddress: address,
  };
}

function isDraft(value: unknown): value is Draft {
  const d = value as Draft | null;
  return !!d && d.version === 1 && typeof d.step === "number" &&
    typeof d.answers === "object" && d.answers !== null && typeof d.requestId === "string";
}

/**
 * The draft to start from: the stored one, unless the page was opened with a different
 * `?address=` (a new quote from the landing page), which starts over with that address.
 * Contact details carry over, since they are the same person.
 */
export function loadDraft(initialAddress: string): Draft {
  let stored: Draft | undefined;
  try {
    const raw = sessionStorage.getItem(DRAFT_KEY);
    const parsed = raw ? JSON.parse(raw) : undefined;
    if (isDraft(parsed)) stored = parsed;
  } catch {
    // Unavailable or corrupt storage: start afresh.
  }
  if (!stored) return newDraft(initialAddress);
  if (initialAddress && initialAddress !== stored.seedAddress) {
    const fresh = newDraft(initialAddress);
    fresh.answers.contactName = stored.answers.contactName ?? "";
    fresh.answers.contactPhone = stored.answers.contactPhone ?? "";
    return fresh;
  }
  const last = STEPS.length - 1;
  const step = Math.min(Math.max(0, Math.trunc(stored.step)), last);
  return {
    ...stored,
    step,
    furthest: Math.min(Math.max(step, Math.trunc(stored.furthest ?? step)), last),
    answers: { ...emptyAnswers(), ...stored.answers },
  };
}

/** Saves the draft; storage failures (private mode, quota) only cost the reload memory. */
export function saveDraft(draft: Draft): void {
  try {
    sessionStorage.setItem(DRAFT_KEY, JSON.stringify(draft));
  } catch {
    // Nothing to do: the flow still works without persistence.
  }
}

/** Forgets the draft once the request is submitted. */
export function clearDraft(): void {
  try {
    sessionStorage.removeItem(DRAFT_KEY);
  } catch {
    // Storage unavailable: nothing was saved either.
  }
}
