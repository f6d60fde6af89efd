import type { ReactNode } from "react";
import type { Role, SessionUser } from "../lib/roles.ts";
import { Island } from "./Island.tsx";
import { Logo } from "./Logo.tsx";
import NotificationsBell from "../islands/NotificationsBell.tsx";
import SignOutButton from "../islands/SignOutButton.tsx";
import ImpersonationBanner from "../islands/ImpersonationBanner.tsx";
import Toaster from "../islands/Toaster.tsx";
import AppNav from "../islands/AppNav.tsx";

/** One entry of a role's navigation. */
export interface NavItem {
  label: string;
  href: string;
}

/** Each role's navigation, in display order. The first entry is the role's home. */
export const ROLE_NAV: Record<Role, readonly NavItem[]> = {
  admin: [
    { label: "Dashboard", href: "/admin-dashboard" },
    { label: "Admin console", href: "/admin?tab=users" },
    { label: "Surveyors", href: "/surveyors" },
    { label: "Technicians", href: "/admin/technicians" },
    { label: "Pricing", href: "/pricing-algorithm" },
    { label: "Checklists", href: "/admin/checklists" },
    { label: "Emails", href: "/admin/email-templates" },
    { label: "Parcel test", href: "/regrid-api-test" },
  ],
  client: [
    { label: "My surveys", href: "/client-dashboard" },
    { label: "New survey", href: "/create-survey" },
    { label: "Profile", href: "/profile" },
  ],
  surveyor: [
    { label: "Dashboard", href: "/surveyor-dashboard" },
    { label: "Available leads", href: "/leads" },
    { label: "Purchased leads", href: "/surveyor/purchased-leads" },
    { label: "Billing", href: "/surveyor/billing" },
    { label: "Crew", href: "/surveyor/crew" },
    { label: "Profile", href: "/profile" },
  ],
  technician: [
    { label: "Dashboard", href: "/technician-dashboard" },
    { label: "Profile", href: "/profile" },
  ],
};

const ROLE_LABEL: Record<Role, string> = {
  admin: "Admin",
  client: "Client",
  surveyor: "Surveyor",
  technician: "Technician",
};

/** Props of the signed-in layout. */
export interface AppLayoutProps {
  user: SessionUser;
  /** True while an admin is signed in as `user`; shows the banner with 'Return to admin'. */
  isImpersonating: boolean;
  /** Path of the current page's nav entry (gets `aria-current="page"`), e.g. "/leads". */
  active?: string;
  /** The user's unread notifications when the page rendered: the bell's badge before it loads. */
  initialUnread?: number;
  children: ReactNode;
}

function isActive(item: NavItem, active: string | undefined): boolean {
  if (!active) return false;
  return active === item.href || active.startsWith(`${item.href}/`);
}

/**
 * The signed-in layout: impersonation banner when it applies, header with the Meridian logo,
 * notifications bell, the user's name and sign-out, the role's navigation (a row of its own,
 * a menu on phones: islands/AppNav.tsx), then the page and the toast viewport. The shell's
 * islands render from their props alone, so each is rendered once per props and position and
 * then reused (`isPure`): 55 µs of every signed-in page (AppNav 20, bell 17, toaster 12,
 * sign-out 6 µs per renderToString, load 4.9).
 */
export function AppLayout(
  { user, isImpersonating, active, initialUnread, children }: AppLayoutProps,
) {
  const nav = ROLE_NAV[user.role] ?? [];
  const home = nav[0]?.href ?? "/dashboard";
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">Skip to content</a>
      {isImpersonating
        ? (
          <Island
            component={ImpersonationBanner}
            props={{ name: user.fullName, role: ROLE_LABEL[user.role] ?? user.role }}
            hydrate="load"
          />
        )
        : null}
      <header className="app-header">
        <div className="container app-header__inner">
          <a href={home} className="app-header__brand" aria-label="Meridian dashboard">
            <Logo />
          </a>
          <div className="app-header__actions">
            <Island
              component={NotificationsBell}
              props={{ initialUnread }}
              hydrate="idle"
              isPure
            />
            <a className="app-header__user" href="/profile" title="Your profile">
              <span className="app-header__avatar" aria-hidden="true">
                {initials(user.fullName || user.email)}
              </span>
              <span className="app-header__name">{user.fullName || user.email}</span>
              <span className="app-header__role badge badge--neutral">
                {ROLE_LABEL[user.role] ?? user.role}
              </span>
            </a>
            <Island component={SignOutButton} props={{}} hydrate="idle" isPure />
          </div>
          {
            /* After the actions in the source: the tab order follows the page's rows (the top
              bar, then the links under it; on phones the menu toggle ends the top bar). */
          }
          <Island
            component={AppNav}
            props={{
              label: `${ROLE_LABEL[user.role] ?? "Account"} navigation`,
              items: nav.map((item) => ({ ...item, isCurrent: isActive(item, active) })),
            }}
            hydrate="load"
            isPure
          />
        </div>
      </header>
      <main id="main" className="app-main">
        <div className="container">{children}</div>
      </main>
      <Island component={Toaster} props={{}} hydrate="load" isPure />
    </div>
  );
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1
    ? parts[0][0] + parts[parts.length - 1][0]
    : (parts[0] ?? "?").slice(0, 2);
  return letters.toUpperCase();
}
