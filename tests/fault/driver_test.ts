/**
 * The postgres.js patch (vendor/postgres/README.md) against a real server: a transaction whose
 * backend dies must fail with an error the caller can catch, leave the pool working, and never
 * run its remaining statements in someone else's transaction. Each test kills only the backend
 * of a connection it opened itself. PGlite has no second backend to terminate, so these run
 * only with DATABASE_URL.
 */
import postgres from "postgres";
import { assert, assertEquals } from "../_assert.ts";
import { isPostgresDown } from "../../lib/unavailable.ts";

const url = Deno.env.get("DATABASE_URL") || undefined;

function driverTest(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, fn, ignore: !url, sanitizeResources: false, sanitizeOps: false });
}

/** A pool like the app's; connect_timeout bounds a wedged connection so a failure ends. */
function pool(max: number) {
  return postgres(url!, { max, connect_timeout: 5, onnotice: () => {} });
}

function codeOf(err: unknown): string | undefined {
  return (err as { code?: string } | null)?.code;
}

/** Terminates backend `pid` once it is running `select pg_sleep…` (so the kill lands mid-query). */
async function terminateWhileSleeping(admin: postgres.Sql, pid: number): Promise<void> {
  for (;;) {
    const [row] = await admin<{ active: boolean }[]>`
      select state = 'active' and query like 'select pg_sleep%' as active
      from pg_stat_activity where pid = ${pid}`;
    if (row?.active) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await admin`select pg_terminate_backend(${pid})`;
}

driverTest(
  "[postgres driver] a transaction whose backend dies mid-query rejects with a connection error",
  async () => {
    const sql = pool(2);
    const admin = pool(1);
    try {
      for (let i = 0; i < 3; i++) {
        const err = await sql.begin(async (tx) => {
          const [{ pid }] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
          await Promise.all([tx`select pg_sleep(30)`, terminateWhileSleeping(admin, pid)]);
        }).then(() => undefined, (e) => e);
        assert(isPostgresDown(err), `attempt ${i + 1}: expected a connection error, got ${err}`);
      }
      const [{ ok }] = await sql<{ ok: number }[]>`select 1 as ok`;
      assertEquals(ok, 1);
    } finally {
      await sql.end({ timeout: 1 });
      await admin.end({ timeout: 1 });
    }
  },
);

driverTest(
  "[postgres driver] after a transaction's connection is reset the pool reconnects",
  async () => {
    const sql = pool(2);
    const admin = pool(1);
    try {
      const codes: (string | undefined)[] = [];
      for (let i = 0; i < 6; i++) {
        const err = await sql.begin(async (tx) => {
          const [{ pid }] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
          await admin`select pg_terminate_backend(${pid})`;
          await tx`select 1`;
        }).then(() => undefined, (e) => e);
        codes.push(codeOf(err));
      }
      // A wedged connection shows up as CONNECT_TIMEOUT, a stale one as the old backend's 57P01.
      assertEquals(codes.filter((c) => c === "CONNECT_TIMEOUT" || c === "57P01"), []);
      assert(codes.every((c) => isPostgresDown({ code: c })), codes.join(", "));
      const [{ ok }] = await sql<{ ok: number }[]>`select 1 as ok`;
      assertEquals(ok, 1);
    } finally {
      await sql.end({ timeout: 1 });
      await admin.end({ timeout: 1 });
    }
  },
);

driverTest(
  "[postgres driver] a dead transaction's statements never run in the next transaction",
  async () => {
    const sql = pool(1);
    const admin = pool(1);
    await admin`create table if not exists fault_driver_probe (v text)`;
    await admin`truncate fault_driver_probe`;
    let bInserted!: () => void;
    const bHasInserted = new Promise<void>((resolve) => (bInserted = resolve));
    let aDone!: () => void;
    const aHasFinished = new Promise<void>((resolve) => (aDone = resolve));
    try {
      // A: its backend dies; it swallows the error and carries on once B is mid-transaction.
      const a = sql.begin(async (tx) => {
        const [{ pid }] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
        await admin`select pg_terminate_backend(${pid})`;
        await tx`select 1`.catch(() => {});
        await bHasInserted;
        await tx`insert into fault_driver_probe values ('from the dead transaction')`
          .catch(() => {});
        aDone();
      }).catch(() => {});
      // B: gets the reconnected connection (max 1) and commits two rows of its own.
      const b = sql.begin(async (tx) => {
        await tx`insert into fault_driver_probe values ('b1')`;
        bInserted();
        await aHasFinished;
        await tx`insert into fault_driver_probe values ('b2')`;
      });
      await a;
      await b;
      const rows = await admin<{ v: string }[]>`select v from fault_driver_probe order by v`;
      assertEquals(rows.map((r) => r.v), ["b1", "b2"]);
    } finally {
      await admin`drop table if exists fault_driver_probe`;
      await sql.end({ timeout: 1 });
      await admin.end({ timeout: 1 });
    }
  },
);
