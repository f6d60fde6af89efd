import type { ReactNode } from "react";

/** A signed-in page's heading: the h1, an optional line under it and optional actions. */
export function PageHeader(
  { title, intro, actions }: { title: string; intro?: ReactNode; actions?: ReactNode },
) {
  return (
    <header className="app-page-header">
      <div>
        <h1>{title}</h1>
        {intro ? <p>{intro}</p> : null}
      </div>
      {actions ? <div className="cluster">{actions}</div> : null}
    </header>
  );
}

/** An empty list or a missing object: what is (not) there and, optionally, where to go. */
export function EmptyState(
  { title, children, action }: { title: string; children: ReactNode; action?: ReactNode },
) {
  return (
    <div className="empty-state">
      <h2>{title}</h2>
      <p className="muted">{children}</p>
      {action ? <p>{action}</p> : null}
    </div>
  );
}

/**
 * A titled card section, labelled by its own heading (`id` names the heading). `aside` sits
 * next to the heading (a badge); `bodyClass` adds classes to the body. `bodyHtml`, in place of
 * `children`, is the body's markup already rendered (components/html_cache.ts).
 */
export function Card({ id, title, aside, bodyClass, children, bodyHtml }: {
  id: string;
  title: string;
  aside?: ReactNode;
  bodyClass?: string;
} & ({ children: ReactNode; bodyHtml?: never } | { children?: never; bodyHtml: string })) {
  const className = bodyClass ? `card__body ${bodyClass}` : "card__body";
  return (
    <section className="card" aria-labelledby={id}>
      <div className="card__header">
        <h2 id={id}>{title}</h2>
        {aside}
      </div>
      {bodyHtml === undefined
        ? <div className={className}>{children}</div>
        : <div className={className} dangerouslySetInnerHTML={{ __html: bodyHtml }} />}
    </section>
  );
}

/**
 * Previous / "Page n of m" / Next links for a server-paginated list at `path` (`?page=n`).
 * Nothing when everything fits on one page.
 */
export function Pager({ page, total, pageSize, path }: {
  page: number;
  total: number;
  pageSize: number;
  path: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav className="survey-pager" aria-label="Pages">
      {page > 1
        ? <a className="btn btn--secondary btn--sm" href={`${path}?page=${page - 1}`}>Previous</a>
        : null}
      <span className="survey-pager__info">{`Page ${page} of ${pages}`}</span>
      {page < pages
        ? <a className="btn btn--secondary btn--sm" href={`${path}?page=${page + 1}`}>Next</a>
        : null}
    </nav>
  );
}
