import { type PointerEvent, useEffect, useRef, useState } from "react";
import {
  dismissToast,
  getToasts,
  showPendingToast,
  subscribeToasts,
  TOAST_HOTKEY,
  TOAST_SWIPE_THRESHOLD_PX,
  type ToastItem,
} from "./_toast.ts";

/** Spec section 9: the toast viewport is at most 420px wide. */
export const TOAST_VIEWPORT_MAX_WIDTH_PX = 420;

/** Props of the Toaster island (none: it reads the shared toast store). */
export type ToasterProps = Record<string, never>;

/**
 * The page's single toast viewport. Shows what any island raised through `toast()`, one at a
 * time; each closes after its duration (paused while hovered or focused), by its close button,
 * or by swiping it right past 50 px. F8 moves focus to the viewport.
 */
export default function Toaster(_props: ToasterProps) {
  const [toasts, setToasts] = useState<readonly ToastItem[]>([]);
  const viewport = useRef<HTMLOListElement>(null);

  useEffect(() => {
    setToasts(getToasts());
    const unsubscribe = subscribeToasts(setToasts);
    showPendingToast();
    return unsubscribe;
  }, []);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (
        event.key === TOAST_HOTKEY && !event.altKey && !event.ctrlKey && !event.metaKey &&
        !event.shiftKey
      ) {
        event.preventDefault();
        viewport.current?.focus();
      }
    }
    // On document: key events bubble there from wherever focus is.
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <section className="toaster" aria-label={`Notifications (${TOAST_HOTKEY})`}>
      <ol
        ref={viewport}
        className="toaster__viewport"
        tabIndex={-1}
        style={{ maxWidth: TOAST_VIEWPORT_MAX_WIDTH_PX }}
      >
        {toasts.map((item) => <Toast key={item.id} item={item} />)}
      </ol>
    </section>
  );
}

function Toast({ item }: { item: ToastItem }) {
  const [offset, setOffset] = useState(0);
  const [isPaused, setPaused] = useState(false);
  const start = useRef<number | null>(null);
  const remaining = useRef(item.duration);

  useEffect(() => {
    if (isPaused || item.duration === Infinity) return;
    const startedAt = Date.now();
    const timer = setTimeout(() => dismissToast(item.id), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - startedAt;
    };
  }, [isPaused, item.id, item.duration]);

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    // Presses on the close button are clicks, not swipes.
    if ((event.target as Element).closest?.("button")) return;
    start.current = event.clientX;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    setPaused(true);
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    if (start.current === null) return;
    // Only rightward movement counts; dragging left does nothing.
    setOffset(Math.max(0, event.clientX - start.current));
  }

  function onPointerEnd(event: PointerEvent<HTMLDivElement>) {
    if (start.current === null) return;
    const delta = event.clientX - start.current;
    start.current = null;
    if (delta > TOAST_SWIPE_THRESHOLD_PX) {
      dismissToast(item.id);
      return;
    }
    setOffset(0);
    setPaused(false);
  }

  const isDestructive = item.variant === "destructive";
  // The live region is a div inside the list item: an <li> may not take role status/alert
  // (axe aria-allowed-role), and a list may hold only list items (axe list).
  return (
    <li className="toaster__item">
      <div
        className={`toast${isDestructive ? " toast--destructive" : ""}`}
        role={isDestructive ? "alert" : "status"}
        aria-live={isDestructive ? "assertive" : "polite"}
        aria-atomic="true"
        data-swiping={start.current !== null ? "true" : undefined}
        style={offset ? { transform: `translateX(${offset}px)` } : undefined}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onMouseEnter={() => setPaused(true)}
        onMouseLeave={() => start.current === null && setPaused(false)}
        onFocus={() => setPaused(true)}
        onBlur={() => setPaused(false)}
      >
        <div className="toast__content">
          <p className="toast__title">{item.title}</p>
          {item.description ? <p className="toast__description">{item.description}</p> : null}
          {item.link
            ? <a className="toast__link" href={item.link.href}>{item.link.label}</a>
            : null}
        </div>
        <button
          type="button"
          className="toast__close"
          aria-label="Close"
          onClick={() => dismissToast(item.id)}
        >
          <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
            <path
              d="M18 6 6 18M6 6l12 12"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            />
          </svg>
        </button>
      </div>
    </li>
  );
}
