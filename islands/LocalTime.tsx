/**
 * A moment in time shown in the viewer's own time zone. The server cannot know that zone, so
 * it renders the time in UTC (saying so); once hydrated in the browser, the text switches to
 * the browser's zone. Both renders start from the same UTC text, so hydration never mismatches.
 */
import { useEffect, useState } from "react";
import { remembered } from "../lib/remembered.ts";

/** Props of a local time: the ISO timestamp. */
export interface LocalTimeProps {
  iso: string;
}

const PARTS: Intl.DateTimeFormatOptions = {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
};

const UTC = new Intl.DateTimeFormat("en-US", { ...PARTS, timeZone: "UTC" });

function parse(iso: string): Date | undefined {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** "Nov 21, 2026, 3:04 PM UTC": what the server renders; "—" for an invalid timestamp. */
export const formatUtcDateTime: (iso: string) => string = remembered((iso: string) => {
  const date = parse(iso);
  return date ? UTC.format(date) : "—";
});

/**
 * "Nov 21, 2026, 9:04 AM CST" in the zone of whoever runs it (no `timeZone` option): only
 * ever called in the browser. Built per call because the zone can change while a page is open.
 */
export function formatLocalDateTime(iso: string): string {
  const date = parse(iso);
  return date ? new Intl.DateTimeFormat("en-US", PARTS).format(date) : "—";
}

/** `<time datetime>` with the UTC text on the server, the viewer's local time once hydrated. */
export default function LocalTime({ iso }: LocalTimeProps) {
  const [text, setText] = useState(() => formatUtcDateTime(iso));
  useEffect(() => setText(formatLocalDateTime(iso)), [iso]);
  return <time dateTime={iso}>{text}</time>;
}
