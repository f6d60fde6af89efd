/** One tab of an admin section: its own address, and how many things wait in it (a badge). */
export interface AdminTab {
  id: string;
  label: string;
  href: string;
  /** Shown as a badge when above 0. */
  waiting?: number;
}

/**
 * An admin section's tabs (the console, the email pages): links, the current one marked with
 * `aria-current="page"`, a tab with things waiting in it badged with their number.
 */
export function AdminTabs({ label, tabs, current }: {
  /** The nav's accessible name. */
  label: string;
  tabs: readonly AdminTab[];
  current: string;
}) {
  return (
    <nav className="admin-tabs" aria-label={label}>
      {tabs.map((t) => (
        <a
          key={t.id}
          className="admin-tabs__link"
          href={t.href}
          aria-current={t.id === current ? "page" : undefined}
        >
          {t.label}
          {(t.waiting ?? 0) > 0
            ? (
              <span className="badge badge--warning admin-tabs__count">
                <span aria-hidden="true">{t.waiting}</span>
                <span className="visually-hidden">{`, ${t.waiting} waiting`}</span>
              </span>
            )
            : null}
        </a>
      ))}
    </nav>
  );
}
