import { assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { RecurringFailures } from "../../lib/recurring_failures.ts";

// What an operator reads while a recurring pass keeps failing (a database dropped under the
// server): the failure once, how many times it repeated, and when the pass works again.
test("[recurring failures] a failure that repeats is logged once, then counted when it changes or ends", () => {
  const lines: unknown[][] = [];
  const failures = new RecurringFailures("[jobs] Job pass", (...data) => lines.push(data));
  const gone = Object.assign(new Error('database "meridian" does not exist'), { code: "3D000" });
  failures.succeeded();
  assertEquals(lines, [], "nothing to say while the pass works");
  for (let i = 0; i < 5; i++) {
    failures.failed(Object.assign(new Error(gone.message), { code: "3D000" }));
  }
  assertEquals(lines.length, 1, "five failures, one line");
  assertEquals(lines[0][0], "[jobs] Job pass failed");
  assertEquals((lines[0][1] as Error).message, gone.message, "with the error, in full");
  const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
  failures.failed(refused);
  failures.failed("not an Error");
  failures.failed("not an Error");
  failures.succeeded();
  failures.succeeded();
  assertEquals(lines.slice(1), [
    ["[jobs] Job pass failed 4 more times the same way"],
    ["[jobs] Job pass failed", refused],
    ["[jobs] Job pass failed", "not an Error"],
    ["[jobs] Job pass failed 1 more time the same way"],
    ["[jobs] Job pass works again"],
  ]);
  // After it worked, the same failure is news again.
  failures.failed(gone);
  assertEquals(lines.at(-1), ["[jobs] Job pass failed", gone]);
});
