import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useDismiss } from "./_disclosure.ts";

/** One link of the signed-in navigation. */
export interface AppNavItem {
  label: string;
  href: string;
  /** The page being shown is this entry's (gets `aria-current="page"`). */
  isCurrent: boolean;
}

/** Props of the signed-in header's navigation. */
export interface AppNavProps {
  /** Accessible name of the navigation landmark, e.g. "Admin navigation". */
  label: string;
  items: AppNavItem[];
}

/**
 * The signed-in header's navigation, the one pattern for every role however many links it
 * has. From 48rem up every link is shown in a row under the header's top bar, wrapping rather
 * than hiding. On phones the links fold into a "Menu" disclosure that closes on Escape (focus
 * back on the toggle), on a press outside it, and when a link in it is followed.
 */
export default function AppNav({ label, items }: AppNavProps) {
  const [isOpen, setOpen] = useState(false);
  const rootRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const listId = useId();

  // Marks the menu as working (tests wait for it; until then the toggle is inert).
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const close = useCallback((isEscape: boolean) => {
    setOpen(false);
    if (isEscape) toggleRef.current?.focus();
  }, []);
  useDismiss(isOpen, rootRef, close);

  return (
    <nav
      ref={rootRef}
      className={isOpen ? "app-nav app-nav--open" : "app-nav"}
      aria-label={label}
      data-hydrated={isHydrated || undefined}
    >
      <button
        ref={toggleRef}
        type="button"
        className="btn btn--ghost btn--sm app-nav__toggle"
        aria-expanded={isOpen}
        aria-controls={listId}
        onClick={() => setOpen((open) => !open)}
      >
        <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
          <path
            d={isOpen ? "M18 6 6 18M6 6l12 12" : "M4 6h16M4 12h16M4 18h16"}
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
        </svg>
        <span className="visually-hidden">Menu</span>
      </button>
      <ul id={listId} className="app-nav__list">
        {items.map((item) => (
          <li key={item.href}>
            <a
              className="app-nav__link"
              href={item.href}
              aria-current={item.isCurrent ? "page" : undefined}
              onClick={() => setOpen(false)}
            >
              {item.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
