import type { SessionUser } from "../lib/roles.ts";
import { PublicLayout } from "./PublicLayout.tsx";
import { Icon, type IconName } from "./Icon.tsx";

const HELPFUL_LINKS: { href: string; label: string; icon: IconName }[] = [
  { href: "/#services", label: "Survey services and prices", icon: "map" },
  { href: "/support/help-center", label: "Help Center", icon: "help" },
  { href: "/support/contact", label: "Contact support", icon: "mail" },
];

/**
 * Spec: unknown paths read '404 Page Not Found'; offers a way home and common destinations. A
 * signed-in `user` sees the signed-in header ("My Dashboard"), as on every public page.
 */
export function NotFoundPage({ user }: { user?: SessionUser | null }) {
  return (
    <PublicLayout user={user}>
      <section className="container error-page">
        <p className="eyebrow">Error 404</p>
        <h1>404 Page Not Found</h1>
        <p className="error-page__text">
          The page you are looking for does not exist or has moved. Check the address, or pick up
          from one of these.
        </p>
        <p className="error-page__actions">
          <a className="btn btn--primary" href="/">Back to home</a>
          <a className="btn btn--accent" href="/create-survey">Get Free Quote Now</a>
        </p>
        <ul className="error-page__links" role="list">
          {HELPFUL_LINKS.map((l) => (
            <li key={l.href}>
              <a href={l.href}>
                <Icon name={l.icon} size={20} />
                {l.label}
              </a>
            </li>
          ))}
        </ul>
      </section>
    </PublicLayout>
  );
}

/** Shown for unexpected server errors; the request id helps support find the log line. */
export function ServerErrorPage({ requestId }: { requestId: string }) {
  return (
    <PublicLayout>
      <section className="container error-page">
        <p className="eyebrow">Error 500</p>
        <h1>Something went wrong</h1>
        <p className="error-page__text">
          We could not load this page. Please try again in a moment. If it keeps happening, contact
          support and quote the reference below.
        </p>
        <p className="muted">
          Reference: <code>{requestId}</code>
        </p>
        <p className="error-page__actions">
          <a className="btn btn--primary" href="/">Back to home</a>
          <a className="btn btn--secondary" href="/support/contact">Contact support</a>
        </p>
      </section>
    </PublicLayout>
  );
}

/** Shown to a signed-in user without the role a page needs. */
export function ForbiddenPage() {
  return (
    <PublicLayout>
      <section className="container error-page">
        <p className="eyebrow">Error 403</p>
        <h1>403 Access Denied</h1>
        <p className="error-page__text">
          Your account does not have permission to view this page.
        </p>
        <p className="error-page__actions">
          <a className="btn btn--primary" href="/dashboard">Go to your dashboard</a>
        </p>
      </section>
    </PublicLayout>
  );
}

/**
 * Shown when an island form was submitted without JavaScript (routes/no_script.tsx): nothing
 * was sent; `back` is the page the form is on.
 */
export function NeedsJavaScriptPage(
  { back, user }: { back: string; user?: SessionUser | null },
) {
  return (
    <PublicLayout user={user}>
      <section className="container error-page">
        <p className="eyebrow">Nothing was sent</p>
        <h1>This form needs JavaScript</h1>
        <p className="error-page__text">
          The form you used works only with JavaScript, which is turned off or blocked in your
          browser, or the page had not finished loading. Nothing you typed was sent or saved. Turn
          JavaScript on (or wait for the page to load), then go back and try again.
        </p>
        <p className="error-page__actions">
          <a className="btn btn--primary" href={back}>Go back to the form</a>
          <a className="btn btn--secondary" href="/support/contact">Contact support</a>
        </p>
      </section>
    </PublicLayout>
  );
}
