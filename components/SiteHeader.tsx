import type { SessionUser } from "../routes/_env.ts";
import { Icon } from "./Icon.tsx";
import { Logo } from "./Logo.tsx";

const NAV_LINKS = [
  { href: "/#services", label: "Services" },
  { href: "/#how-it-works", label: "How It Works" },
  { href: "/about", label: "About" },
  { href: "/support/help-center", label: "Help" },
] as const;

/**
 * Sticky public header: logo, main links and 'Login / Register' (or the dashboard when signed
 * in). On small screens the links fold into a <details> menu, so it works without JavaScript.
 */
export function SiteHeader({ user }: { user?: SessionUser | null }) {
  const links = NAV_LINKS.map((l) => <a key={l.href} href={l.href}>{l.label}</a>);
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <a href="/" className="site-header__brand" aria-label="Meridian home">
          <Logo />
        </a>
        <nav className="site-header__nav" aria-label="Main">{links}</nav>
        <div className="site-header__actions">
          {user
            ? <a className="btn btn--primary btn--sm" href="/dashboard">My Dashboard</a>
            : <a className="btn btn--primary btn--sm" href="/auth">Login / Register</a>}
          <details className="site-menu">
            <summary className="site-menu__toggle">
              <Icon name="menu" size={22} />
              <span className="visually-hidden">Menu</span>
            </summary>
            <nav className="site-menu__panel" aria-label="Main menu">{links}</nav>
          </details>
        </div>
      </div>
    </header>
  );
}
