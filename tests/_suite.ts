/** Whether this run is the Postgres suite (DATABASE_URL set) rather than the embedded one. */
export const isRealPostgres = Boolean(Deno.env.get("DATABASE_URL"));

/**
 * Tests of the embedded database itself: they open PGlite data directories, servers and CLIs of
 * their own, whatever DATABASE_URL says. They run in the embedded suite (`deno task test` with
 * no DATABASE_URL) and are skipped, shown as ignored, in the Postgres suite, where they would
 * test the same thing a second time: CI runs both suites side by side, and these took about 70 s
 * of the Postgres side's share (its longer one).
 */
export function embeddedTest(name: string, fn: () => Promise<void> | void): void {
  Deno.test({
    name,
    fn,
    ignore: isRealPostgres,
    sanitizeResources: false,
    sanitizeOps: false,
  });
}
