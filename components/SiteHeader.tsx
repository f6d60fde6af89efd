import type { SessionUser } from "../lib/roles.ts";
import { Island } from "./Island.tsx";
import { Logo } from "./Logo.tsx";
import { ACCOUNT_LINK_CLASS, SIGNED_IN_LINK } from "../islands/_site_header.ts";
import SiteMenu from "../islands/SiteMenu.tsx";

const NAV_LINKS = [
  { href: "/#services", label: "Services" },
  { href: "/#how-it-works", label: "How It Works" },
  { href: "/about", label: "About" },
  { href: "/support/help-center", label: "Help" },
  { href: "/for-surveyors", label: "For Surveyors" },
];

/** Props of the public header. */
export interface SiteHeaderProps {
  user?: SessionUser | null;
  /**
   * The landing page, where Services and How It Works scroll within the page: the phone menu
   * is then an island that closes itself when one is tapped, hydrated by the tap that opens it
   * (nothing is loaded before). Elsewhere every link loads a new page, so the menu stays plain
   * HTML and the page ships no JavaScript for it.
   */
  isHome?: boolean;
}

/**
 * Sticky public header: logo, main links and 'Login / Register' (or the dashboard when signed
 * in). On small screens the links fold into a <details> menu, so it works without JavaScript.
 */
export function SiteHeader({ user, isHome = false }: SiteHeaderProps) {
  const links = NAV_LINKS.map((l) => <a key={l.href} href={l.href}>{l.label}</a>);
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <a href="/" className="site-header__brand" aria-label="Meridian home">
          <Logo />
        </a>
        <nav className="site-header__nav" aria-label="Main">{links}</nav>
        <div className="site-header__actions">
          {/* Its class lets an inline sign-in update this link (islands/_site_header.ts). */}
          {user
            ? (
              <a
                className={`btn btn--primary btn--sm ${ACCOUNT_LINK_CLASS}`}
                href={SIGNED_IN_LINK.href}
              >
                {SIGNED_IN_LINK.text}
              </a>
            )
            : (
              <a className={`btn btn--primary btn--sm ${ACCOUNT_LINK_CLASS}`} href="/auth">
                Login / Register
              </a>
            )}
          {isHome
            ? <Island component={SiteMenu} props={{ links: NAV_LINKS }} hydrate="interaction" />
            : <SiteMenu links={NAV_LINKS} />}
        </div>
      </div>
    </header>
  );
}
