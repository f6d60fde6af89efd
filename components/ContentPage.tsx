import type { ReactNode } from "react";
import type { SessionUser } from "../lib/roles.ts";
import { PublicLayout } from "./PublicLayout.tsx";
import { Breadcrumbs } from "./Breadcrumbs.tsx";
import { Icon } from "./Icon.tsx";

/** The support section's pages, in sidebar order. */
export const SUPPORT_NAV = [
  { href: "/support/help-center", label: "Help Center" },
  { href: "/support/getting-started", label: "Getting Started" },
  { href: "/support/timeline-scheduling", label: "Timeline & Scheduling" },
  { href: "/support/quality-standards", label: "Quality Standards" },
  { href: "/support/contact", label: "Contact Us" },
  { href: "/support/privacy-policy", label: "Privacy Policy" },
  { href: "/about", label: "About Meridian" },
] as const;

/** Props of a support or company page. */
export interface ContentPageProps {
  /** Path of this page, for the sidebar's `aria-current`. */
  path: string;
  eyebrow: string;
  heading: string;
  lead: string;
  user?: SessionUser | null;
  children: ReactNode;
}

/**
 * Layout of support and company pages: a heading band with breadcrumbs, the article in
 * readable prose, and a sidebar linking the other support pages plus a contact prompt.
 */
export function ContentPage(
  { path, eyebrow, heading, lead, user, children }: ContentPageProps,
) {
  const crumbs = path === "/about" ? [{ href: "/", label: "Home" }, { label: heading }] : [
    { href: "/", label: "Home" },
    { href: "/support/help-center", label: "Support" },
    { label: heading },
  ];
  return (
    <PublicLayout user={user}>
      <section className="page-hero">
        <div className="container">
          <Breadcrumbs items={crumbs} />
          <p className="eyebrow">{eyebrow}</p>
          <h1>{heading}</h1>
          <p className="page-hero__lead">{lead}</p>
        </div>
      </section>
      <div className="container content-layout">
        <article className="prose content-layout__main">{children}</article>
        {/* Names unique among the page's landmarks: the footer has a "Support" navigation. */}
        <aside className="content-layout__aside" aria-label="More help">
          <nav className="side-nav" aria-label="Support pages">
            <h2 className="side-nav__heading">Support</h2>
            <ul role="list">
              {SUPPORT_NAV.map((l) => (
                <li key={l.href}>
                  <a href={l.href} aria-current={l.href === path ? "page" : undefined}>
                    {l.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          {path === "/support/contact" ? null : (
            <div className="card side-help">
              <div className="card__body stack">
                <Icon name="chat" />
                <h2 className="side-help__title">Still have a question?</h2>
                <p className="muted">
                  Our support team answers every message within one business day.
                </p>
                <a className="btn btn--secondary btn--block" href="/support/contact">
                  Contact support
                </a>
              </div>
            </div>
          )}
        </aside>
      </div>
    </PublicLayout>
  );
}
