/**
 * Date formatting for the survey pages. Server-rendered, so the time zone is fixed (UTC) and
 * a page reads the same wherever the server runs; calendar dates (YYYY-MM-DD) are shown as
 * the day they name. Times of day are shown in the viewer's zone by islands/LocalTime.tsx.
 */

const DATE = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/** "Nov 21, 2026" for an ISO timestamp or a YYYY-MM-DD date; "—" for null. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return "—";
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? "—" : DATE.format(date);
}
