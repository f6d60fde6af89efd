import { useCallback, useEffect, useRef, useState } from "react";
import { useDismiss } from "./_disclosure.ts";

/** One link of the public site menu. */
export interface SiteMenuLink {
  href: string;
  label: string;
}

/** Props of the public header's phone menu. */
export interface SiteMenuProps {
  links: SiteMenuLink[];
}

/**
 * The public header's menu on small screens: a <details> disclosure, so it opens and closes
 * with no JavaScript at all. Where it is hydrated (the landing page, whose Services and How It
 * Works links scroll within the page instead of loading another; the tap that opens it starts
 * the hydration) it also closes when a link in it is followed, on Escape (focus back on its
 * toggle) and on a press outside it; otherwise it would stay open over the section it just
 * scrolled to.
 */
export default function SiteMenu({ links }: SiteMenuProps) {
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const summaryRef = useRef<HTMLElement>(null);
  // Marks the menu as hydrated (tests wait for it; the plain <details> works before that).
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  // The browser opens the <details> itself, so the listeners stay on and ask the element:
  // an Escape pressed right after the tap that opened it must still close it.
  const close = useCallback((isEscape: boolean) => {
    const details = detailsRef.current;
    if (!details?.open) return;
    details.open = false;
    if (isEscape) summaryRef.current?.focus();
  }, []);
  useDismiss(true, detailsRef, close);

  return (
    <details ref={detailsRef} className="site-menu" data-hydrated={isHydrated || undefined}>
      <summary ref={summaryRef} className="site-menu__toggle">
        <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" className="icon">
          <path
            d="M4 6h16M4 12h16M4 18h16"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        <span className="visually-hidden">Menu</span>
      </summary>
      <nav className="site-menu__panel" aria-label="Main menu">
        {links.map((l) => (
          <a key={l.href} href={l.href} onClick={() => close(false)}>
            {l.label}
          </a>
        ))}
      </nav>
    </details>
  );
}
