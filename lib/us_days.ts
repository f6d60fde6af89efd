/**
 * Today's date (YYYY-MM-DD) at the two ends of the US's day: in Hawaii, the last US time zone to
 * start a day, and in Guam, the first. Each formatter is built once: a DateTimeFormat with a
 * time zone costs about a millisecond to build (built at every call, it was 14% of a surveyor's
 * job page in bench/every_page.ts --profile) and a few microseconds to use. Browser-safe.
 */

function todayIn(timeZone: string): (now?: Date) => string {
  const format = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  return (now = new Date()) => format.format(now);
}

/** Today (YYYY-MM-DD) in Hawaii, the last US time zone to start a day. */
export const todayInHawaii: (now?: Date) => string = todayIn("Pacific/Honolulu");

/** Today (YYYY-MM-DD) in Guam, the first US time zone to start a day. */
export const todayInGuam: (now?: Date) => string = todayIn("Pacific/Guam");
