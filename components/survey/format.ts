/**
 * Date formatting for the survey pages. Server-rendered, so the time zone is fixed (UTC) and
 * a page reads the same wherever the server runs; calendar dates (YYYY-MM-DD) are shown as
 * the day they name. Times of day are shown in the viewer's zone by islands/LocalTime.tsx.
 */
import { remembered } from "../../lib/remembered.ts";

const DATE = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/**
 * Dates already formatted, by value: the text depends on the value alone, and a page shows
 * the same few dates again and again (the client's /survey/{id}: the request's, its
 * timeline's and each proposal's).
 */
const formatValue = remembered((value: string) => {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? "—" : DATE.format(date);
});

/** "Nov 21, 2026" for an ISO timestamp or a YYYY-MM-DD date; "—" for null. */
export function formatDate(value: string | null | undefined): string {
  return value ? formatValue(value) : "—";
}
