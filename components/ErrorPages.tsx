import { PublicLayout } from "./PublicLayout.tsx";

/** Spec: unknown paths read '404 Page Not Found'. */
export function NotFoundPage() {
  return (
    <PublicLayout>
      <section className="container error-page">
        <h1>404 Page Not Found</h1>
        <p>The page you are looking for does not exist or has moved.</p>
        <p>
          <a className="btn btn--primary" href="/">Back to home</a>{" "}
          <a className="btn btn--ghost" href="/support/help-center">Visit the Help Center</a>
        </p>
      </section>
    </PublicLayout>
  );
}

/** Shown for unexpected server errors; the request id helps support find the log line. */
export function ServerErrorPage({ requestId }: { requestId: string }) {
  return (
    <PublicLayout>
      <section className="container error-page">
        <h1>Something went wrong</h1>
        <p>We could not load this page. Please try again in a moment.</p>
        <p className="muted">Reference: {requestId}</p>
        <p>
          <a className="btn btn--primary" href="/">Back to home</a>
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
        <h1>403 Access Denied</h1>
        <p>Your account does not have permission to view this page.</p>
        <p>
          <a className="btn btn--primary" href="/dashboard">Go to your dashboard</a>
        </p>
      </section>
    </PublicLayout>
  );
}
