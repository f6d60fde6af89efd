import type { SessionUser } from "../routes/_env.ts";
import { Logo } from "./Logo.tsx";

/** Sticky public header: logo, main links and 'Login / Register' (or the dashboard). */
export function SiteHeader({ user }: { user?: SessionUser | null }) {
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <a href="/" className="site-header__brand" aria-label="Meridian home">
          <Logo />
        </a>
        <nav className="site-header__nav" aria-label="Main">
          <a href="/services/boundary-surveys">Services</a>
          <a href="/#how-it-works">How It Works</a>
          <a href="/about">About</a>
          <a href="/support/help-center">Help</a>
        </nav>
        {user
          ? <a className="btn btn--primary btn--sm" href="/dashboard">My Dashboard</a>
          : <a className="btn btn--primary btn--sm" href="/auth">Login / Register</a>}
      </div>
    </header>
  );
}
