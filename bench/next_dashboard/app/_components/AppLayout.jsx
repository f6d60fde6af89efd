// components/AppLayout.tsx's signed-in shell: header, navigation, main and toast viewport.
// That module renders each island through Meridian's <Island> (its own renderToString per
// island root), which a React Server Component cannot; here the same islands are client
// components. Meridian's ROLE_NAV comes from the bench (MERIDIAN_ROLE_NAV): the module that
// exports it imports the islands into the server graph, which Next refuses.
import { Logo } from "@meridian/components/Logo.tsx";
import { AppNav, NotificationsBell, SignOutButton, Toaster } from "../islands.jsx";

const ROLE_LABEL = {
  admin: "Admin",
  client: "Client",
  surveyor: "Surveyor",
  technician: "Technician",
};
const ROLE_NAV = JSON.parse(process.env.MERIDIAN_ROLE_NAV ?? "{}");

function initials(name) {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1
    ? parts[0][0] + parts[parts.length - 1][0]
    : (parts[0] ?? "?").slice(0, 2);
  return letters.toUpperCase();
}

export function AppLayout({ user, active, initialUnread, children }) {
  const nav = ROLE_NAV[user.role] ?? [];
  const home = nav[0]?.href ?? "/dashboard";
  const isActive = (href) => active === href || Boolean(active?.startsWith(`${href}/`));
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="app-header">
        <div className="container app-header__inner">
          <a href={home} className="app-header__brand" aria-label="Meridian dashboard">
            <Logo />
          </a>
          <div className="app-header__actions">
            <NotificationsBell initialUnread={initialUnread} />
            <a className="app-header__user" href="/profile" title="Your profile">
              <span className="app-header__avatar" aria-hidden="true">
                {initials(user.fullName || user.email)}
              </span>
              <span className="app-header__name">{user.fullName || user.email}</span>
              <span className="app-header__role badge badge--neutral">
                {ROLE_LABEL[user.role] ?? user.role}
              </span>
            </a>
            <SignOutButton />
          </div>
          <AppNav
            label={`${ROLE_LABEL[user.role] ?? "Account"} navigation`}
            items={nav.map((item) => ({ ...item, isCurrent: isActive(item.href) }))}
          />
        </div>
      </header>
      <main id="main" className="app-main">
        <div className="container">{children}</div>
      </main>
      <Toaster />
    </div>
  );
}
