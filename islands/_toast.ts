/**
 * A tiny toast store shared by every island root. esbuild's code splitting puts this module
 * in one shared chunk, so every island on a page talks to the same store and the single
 * Toaster island renders what any of them raised.
 */

/** Visual style of a toast: destructive for failures (spec section 8). */
export type ToastVariant = "default" | "destructive";

/** What an island passes to `toast()`. */
export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before it closes by itself; defaults to TOAST_DURATION_MS (doubled with a link). */
  duration?: number;
  /** A link under the description (e.g. "Open in Emails" after an email was queued). */
  link?: ToastLink;
}

/** A link a toast offers. */
export interface ToastLink {
  label: string;
  href: string;
}

/** A toast in the store. */
export interface ToastItem extends Required<Pick<ToastInput, "title" | "variant" | "duration">> {
  id: number;
  description?: string;
  link?: ToastLink;
}

/** Spec section 9: at most one toast at a time. */
export const TOAST_LIMIT = 1;
/** Spec section 9: a toast stays 5000 ms by default. */
export const TOAST_DURATION_MS = 5000;
/** Spec section 9: swiping right past this many pixels dismisses a toast. */
export const TOAST_SWIPE_THRESHOLD_PX = 50;
/** Spec section 9: the hotkey that focuses the toast viewport. */
export const TOAST_HOTKEY = "F8";

type Listener = (toasts: readonly ToastItem[]) => void;

let toasts: readonly ToastItem[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function emit() {
  for (const listener of listeners) listener(toasts);
}

function sameWords(a: string | undefined, b: string): boolean {
  const words = (s: string) => s.trim().replace(/[.!]+$/, "").replace(/\s+/g, " ").toLowerCase();
  return a !== undefined && words(a) === words(b);
}

/**
 * Shows a toast. The newest replaces older ones beyond TOAST_LIMIT. Returns its id, which
 * `dismissToast` accepts.
 */
export function toast(input: ToastInput): number {
  const item: ToastItem = {
    id: nextId++,
    title: input.title,
    // A server message that only repeats the title ("Survey deleted" / "Survey deleted") says
    // nothing more: shown once.
    description: sameWords(input.description, input.title) ? undefined : input.description,
    variant: input.variant ?? "default",
    // A link needs time to be reached (and hovering or focusing it pauses the timer).
    duration: input.duration ?? (input.link ? 2 * TOAST_DURATION_MS : TOAST_DURATION_MS),
    link: input.link,
  };
  toasts = [item, ...toasts].slice(0, TOAST_LIMIT);
  emit();
  return item.id;
}

/** Removes one toast by id, or all of them when no id is given. */
export function dismissToast(id?: number): void {
  const next = id === undefined ? [] : toasts.filter((t) => t.id !== id);
  if (next.length === toasts.length) return;
  toasts = next;
  emit();
}

/** The toasts currently shown, newest first. */
export function getToasts(): readonly ToastItem[] {
  return toasts;
}

/** Calls `listener` on every change; returns the unsubscribe function. */
export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Shows a toast now and carries it across the full-page navigation that is about to happen:
 * it rides in sessionStorage and the Toaster on the next page shows it again, so the user
 * sees one continuous message.
 */
export function toastAfterNavigation(input: ToastInput): void {
  toast(input);
  try {
    const pending: PendingToast = { from: pageMark, toast: input };
    sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  } catch {
    // Storage can be unavailable (private mode); the toast was still shown on this page.
  }
}

const PENDING_KEY = "meridian:pending-toast";

/** A toast queued for the next page, with the mark of the page that queued it. */
interface PendingToast {
  from: string;
  toast: ToastInput;
}

/**
 * This document's own mark. A toast is queued for the *next* page, but this page's Toaster can
 * hydrate after the queueing (a button pressed before its page's islands were live, replayed by
 * _boot.ts, then the Toaster's chunk arriving while the next page loads): it must leave the
 * toast for the page it was meant for, or that page shows nothing (seen in CI: sign-out pressed
 * early, and /auth without its "Logged out").
 */
let pageMark = newPageMark();

function newPageMark(): string {
  return `${globalThis.performance?.timeOrigin ?? 0}:${Math.random()}`;
}

/** Makes the module behave as on a newly loaded page (tests only: happy-dom has one document). */
export function startNextPageForTests(): void {
  pageMark = newPageMark();
}

/** Shows (once) a toast queued by `toastAfterNavigation` on the previous page. */
export function showPendingToast(): void {
  let raw: string | null = null;
  try {
    raw = sessionStorage.getItem(PENDING_KEY);
  } catch {
    return;
  }
  if (!raw) return;
  let pending: Partial<PendingToast> | null = null;
  try {
    pending = JSON.parse(raw) as Partial<PendingToast>;
  } catch {
    // A corrupt entry is dropped below; nothing to show.
  }
  if (pending?.from === pageMark) return;
  try {
    sessionStorage.removeItem(PENDING_KEY);
  } catch {
    return;
  }
  const input = pending?.toast;
  if (input && typeof input.title === "string") toast(input);
}
