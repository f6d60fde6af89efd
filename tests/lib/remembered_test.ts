import { assertEquals } from "../_assert.ts";
import { remembered } from "../../lib/remembered.ts";
import { formatDate } from "../../components/survey/format.ts";

Deno.test("[remembered] each key is computed once, and again only after the memory filled up", () => {
  const calls: string[] = [];
  const upper = remembered((s: string) => {
    calls.push(s);
    return s.toUpperCase();
  }, 2);
  assertEquals([upper("a"), upper("b"), upper("a"), upper("b")], ["A", "B", "A", "B"]);
  assertEquals(calls, ["a", "b"]);
  upper("c"); // full: emptied, then "c" kept
  assertEquals(upper("c"), "C");
  assertEquals(upper("a"), "A");
  assertEquals(calls, ["a", "b", "c", "a"]);
});

Deno.test("[remembered] an answer that is undefined is remembered too", () => {
  let calls = 0;
  const nothing = remembered((_: number) => {
    calls++;
    return undefined;
  });
  nothing(1);
  nothing(1);
  assertEquals(calls, 1);
});

Deno.test("[remembered] a remembered date reads the same as a new one, a day as the day it names", () => {
  assertEquals(formatDate("2026-11-28T23:59:00Z"), "Nov 28, 2026");
  assertEquals(formatDate("2026-11-28T23:59:00Z"), "Nov 28, 2026");
  assertEquals(formatDate("2026-03-01"), "Mar 1, 2026");
  assertEquals(formatDate("not a date"), "—");
  assertEquals(formatDate(null), "—");
});
