/**
 * The one responsive table pattern for lists (admin users, survey requests, surveyors, pricing):
 * a table inside its own scroll region, so a wide table scrolls inside the region and never
 * the page. Tables with the `table--cards` class turn each row into a card on phones, each
 * cell labelled by its `data-label` (see base.css "Tables"). Plain markup, so server pages and
 * islands share it.
 */
import type { ReactNode } from "react";

/** Props of `TableRegion`. */
export interface TableRegionProps {
  /**
   * What the table lists ("Users"): the region is named "Users table", which keeps it distinct
   * from a section of the page named after the same list (axe `landmark-unique`).
   */
  label: string;
  className?: string;
  children: ReactNode;
}

/**
 * The table's scroll region: a labelled region in the tab order, so keyboard users can scroll
 * a table that is wider than the screen (axe `scrollable-region-focusable`).
 */
export function TableRegion({ label, className, children }: TableRegionProps) {
  return (
    <div
      className={className ? `table-wrap ${className}` : "table-wrap"}
      role="region"
      aria-label={`${label} table`}
      tabIndex={0}
    >
      {children}
    </div>
  );
}

// The day column of the admin tables (users, survey requests); here rather than in a module
// of its own so the islands that share it load no extra chunk. Fixed time zone so the server's
// HTML and the hydrated table print the same day.
const DAY = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/** An ISO instant in UTC as `Date#toISOString` writes it: its first ten characters are its day. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T[^Z]*Z$/;
/** Formatted days by `YYYY-MM-DD`; cleared when full (a page shows a few dozen days at most). */
const byDay = new Map<string, string>();
const BY_DAY_MAX = 1000;

/**
 * `iso`'s day in UTC, e.g. "Nov 28, 2026". Parsing and formatting each date was 4 % of the
 * CPU of /admin (50 dates a page, bench/signed_in_pages.ts), so each day is formatted once and
 * remembered; a string of any other shape is formatted as it is, every time.
 */
export function formatTableDay(iso: string): string {
  if (!ISO_UTC.test(iso)) return DAY.format(new Date(iso));
  const key = iso.slice(0, 10);
  let text = byDay.get(key);
  if (text === undefined) {
    text = DAY.format(new Date(iso));
    if (byDay.size >= BY_DAY_MAX) byDay.clear();
    byDay.set(key, text);
  }
  return text;
}
