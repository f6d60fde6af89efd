/**
 * The admin tables' day column (islands/_table.tsx `formatTableDay`) prints the UTC day of an
 * instant exactly as the Intl formatter did before it was remembered per day: the same text on
 * the first call and on later ones, at the edges of a day, and for strings of other shapes.
 */
import { assertEquals } from "../_assert.ts";
import { formatTableDay } from "../../islands/_table.tsx";

const INTL = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

Deno.test("[tables] the day column is the instant's UTC day, first call and remembered", () => {
  const instants = [
    "2026-11-28T16:29:44.028Z",
    "2026-11-28T00:00:00.000Z",
    "2026-11-28T23:59:59.999Z",
    "2024-02-29T12:00:00Z",
    "1999-12-31T23:59:59.999Z",
  ];
  for (let round = 0; round < 2; round++) {
    for (const iso of instants) assertEquals(formatTableDay(iso), INTL.format(new Date(iso)), iso);
  }
  assertEquals(formatTableDay("2026-11-28T23:59:59.999Z"), "Nov 28, 2026");
  assertEquals(formatTableDay("2026-11-29T00:00:00.000Z"), "Nov 29, 2026");
  // Not a UTC ISO instant: formatted as given (an offset moves it to the next UTC day).
  assertEquals(formatTableDay("2026-11-28T23:30:00-02:00"), "Nov 29, 2026");
});
