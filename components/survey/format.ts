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

/**
 * Dates already formatted, by value: the text depends on the value alone, and a page shows
 * the same few dates again and again (the client's /survey/{id}: the request's, its
 * timeline's and each proposal's). A lookup is ~0.1 µs against ~2 µs for the regex, the Date
 * and `Intl` (bench/messages_page.ts). Emptied when full.
 */
const formatted = new Map<string, string>();
const FORMATTED_MAX = 1000;

/** "Nov 21, 2026" for an ISO timestamp or a YYYY-MM-DD date; "—" for null. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return "—";
  let text = formatted.get(value);
  if (text === undefined) {
    const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
    text = Number.isNaN(date.getTime()) ? "—" : DATE.format(date);
    if (formatted.size >= FORMATTED_MAX) formatted.clear();
    formatted.set(value, text);
  }
  return text;
}
