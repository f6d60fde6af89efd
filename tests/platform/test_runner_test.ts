/**
 * `deno task test` runs test files side by side only where they cannot touch each other's rows:
 * on the embedded database (each file's own in-memory PGlite), never on a Postgres database the
 * files share and empty between tests (scripts/test.ts).
 */
import { assertEquals } from "../_assert.ts";
import { testArgs } from "../../scripts/test.ts";

Deno.test("[test runner] files run side by side on the embedded database, one at a time on Postgres", () => {
  assertEquals(testArgs(["tests/lib/"], {}), [
    "test",
    "-A",
    "--no-check",
    "--parallel",
    "tests/lib/",
  ]);
  assertEquals(testArgs([], { DATABASE_URL: "" }), ["test", "-A", "--no-check", "--parallel"]);
  assertEquals(
    testArgs(["--ignore=tests/e2e/"], {
      DATABASE_URL: "postgres://meridian@127.0.0.1/meridian_test",
    }),
    ["test", "-A", "--no-check", "--ignore=tests/e2e/"],
  );
});
