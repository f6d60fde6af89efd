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
import { openDatabase } from "../../db/client.ts";

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

/** What a pool said about isolation: a plain query that ran inside someone's transaction sees it. */
function isolationOf(sql: postgres.Sql, busy = false) {
  return sql<{ iso: string }[]>`
    select current_setting('transaction_isolation') as iso, ${busy ? sql`pg_sleep(0.1)` : sql`1`}`
    .execute();
}

/**
 * Upstream #823 / #1189 (PR #1218): each of the pool's `max` connections carries one running
 * query and 99 pipelined ones, so the BEGIN is the 100th pipelined (postgres.js's max_pipeline).
 * The transaction must run on a connection of its own and no plain query inside it.
 */
async function assertBeginFillingPipelineReserves(sql: postgres.Sql, max: number): Promise<void> {
  await Promise.all(Array.from({ length: max }, () => sql`select pg_sleep(0.05)`));
  const plain = Array.from({ length: max * 100 }, (_, i) => isolationOf(sql, i < max));
  const tx = await sql.begin("isolation level repeatable read", async (tx) => {
    const [{ iso }] = await tx<{ iso: string }[]>`
      select current_setting('transaction_isolation') as iso`;
    return iso;
  }).then((iso) => iso, (e) => `${codeOf(e) ?? ""} ${e}`);
  const after = await Promise.all(Array.from({ length: 20 }, () => isolationOf(sql)));
  assertEquals(tx, "repeatable read", `max ${max}`);
  const seen = [...await Promise.all(plain), ...after].map(([r]) => r.iso);
  assertEquals(seen.filter((iso) => iso !== "read committed"), [], `max ${max}`);
}

driverTest(
  "[postgres driver] a BEGIN that fills a connection's pipeline still reserves the connection",
  async () => {
    for (const max of [1, 2, 3]) {
      const sql = pool(max);
      try {
        await assertBeginFillingPipelineReserves(sql, max);
      } finally {
        await sql.end({ timeout: 1 });
      }
    }
  },
);

Deno.test({
  name:
    "[postgres driver] on the app's own pool (embedded PGlite or Postgres) a BEGIN that fills the pipeline still reserves",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "driver-test-" });
    const db = await openDatabase({ DATABASE_URL: url, DATA_DIR: dir }, { memory: true });
    try {
      await assertBeginFillingPipelineReserves(db.sql, db.sql.options.max);
    } finally {
      await db.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

driverTest(
  "[postgres driver] concurrent transactions and plain queries on a small pool each keep their own session",
  async () => {
    const admin = pool(1);
    await admin`create table if not exists fault_driver_begins (n int)`;
    await admin`truncate fault_driver_begins`;
    let committed = 0;
    const failures: string[] = [];
    const foreign: string[] = [];
    try {
      // Requests arrive one by one (a task or a microtask apart), so a BEGIN often finds every
      // connection busy and is pipelined behind plain queries; a short pipeline makes it fill
      // one as often as 640 requests/s did with the default.
      for (const [max, max_pipeline] of [[1, 2], [2, 2], [2, 1], [2, 100]]) {
        // max_pipeline is a postgres.js option its type declarations leave out.
        const options = { max, max_pipeline, connect_timeout: 5, onnotice: () => {} };
        const sql = postgres(url!, options as postgres.Options<Record<string, never>>);
        try {
          const work: Promise<unknown>[] = [];
          for (let i = 0; i < 400; i++) {
            await (i % 10 === 0 ? new Promise((resolve) => setTimeout(resolve, 0)) : null);
            work.push(
              i % 4 === 0
                ? sql.begin("isolation level repeatable read", async (tx) => {
                  await tx`insert into fault_driver_begins values (${i})`;
                  await tx`select 1`;
                }).then(() => committed++)
                : isolationOf(sql).then(([{ iso }]) => {
                  if (iso !== "read committed") foreign.push(`max ${max}/${max_pipeline}: ${iso}`);
                }),
            );
          }
          for (const r of await Promise.allSettled(work)) {
            if (r.status === "rejected") {
              failures.push(`max ${max}/${max_pipeline}: ${codeOf(r.reason) ?? r.reason}`);
            }
          }
        } finally {
          await sql.end({ timeout: 1 });
        }
      }
      assertEquals(failures.slice(0, 5), []);
      assertEquals(foreign.slice(0, 5), []);
      const [{ count }] = await admin<{ count: number }[]>`
        select count(*)::int as count from fault_driver_begins`;
      assertEquals(count, committed);
      assertEquals(committed, 4 * 100);
    } finally {
      await admin`drop table if exists fault_driver_begins`;
      await admin.end({ timeout: 1 });
    }
  },
);

Deno.test({
  name:
    "[postgres driver] bytes for a bytea parameter go as bytes, not as a hex string, and come back whole (embedded PGlite or Postgres)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "driver-test-" });
    const db = await openDatabase({ DATABASE_URL: url, DATA_DIR: dir }, { memory: true });
    const sql = db.sql;
    const table = `driver_bytea_${crypto.randomUUID().replaceAll("-", "")}`;
    try {
      await sql`create table ${sql(table)} (n int, label text, data bytea)`;
      const every = Uint8Array.from({ length: 256 }, (_, i) => i);
      const big = new Uint8Array(1024 * 1024).map((_, i) => (i * 7) & 0xff);
      const cases: [string, Uint8Array][] = [["every byte", every], ["empty", new Uint8Array()], [
        "1 MB",
        big,
      ], ["a view", big.subarray(1000, 70_000)]];
      for (const [label, data] of cases) {
        // Twice: once described first, once as a prepared statement.
        for (let n = 0; n < 2; n++) {
          const insert = sql`
            insert into ${sql(table)} (n, label, data) values (${n}, ${label}, ${data})`;
          await insert;
          // What the driver made of the parameters once it had sent them.
          const params = (insert as unknown as { parameters: unknown[] }).parameters;
          assert(params[2] instanceof Uint8Array, `${label}: sent as ${typeof params[2]}`);
          assertEquals(params[1], label);
          const [row] = await sql<{ data: Uint8Array }[]>`
            select data from ${sql(table)} where n = ${n} and label = ${label}`;
          assertEquals(new Uint8Array(row.data), new Uint8Array(data), label);
        }
      }
      await sql`insert into ${sql(table)} (n, label, data) values (${9}, ${"null"}, ${null})`;
      const [row] = await sql<{ data: Uint8Array | null }[]>`
        select data from ${sql(table)} where n = 9`;
      assertEquals(row.data, null);
    } finally {
      await sql`drop table if exists ${sql(table)}`.catch(() => {});
      await db.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** A loopback port nothing listens on (taken from the OS, then released). */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

Deno.test({
  name:
    "[postgres driver] Deno transport: a refused connection fails with ECONNREFUSED (a database-down error), then the pool connects once the port answers",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const port = closedPort();
    const sql = postgres({
      host: "127.0.0.1",
      port,
      username: "postgres",
      database: url ? new URL(url).pathname.slice(1) : "postgres",
      max: 1,
      connect_timeout: 5,
      backoff: () => 0.05,
      onnotice: () => {},
    });
    let proxy: Deno.Listener | null = null;
    const conns: Deno.Conn[] = [];
    try {
      const err = await sql`select 1`.then(() => undefined, (e) => e);
      assertEquals(codeOf(err), "ECONNREFUSED");
      assert(isPostgresDown(err), `${err}`);
      if (!url) return;
      // The "database" comes back on that port: a plain TCP relay to the real server.
      const target = new URL(url);
      proxy = Deno.listen({ hostname: "127.0.0.1", port });
      (async () => {
        for await (const client of proxy!) {
          const server = await Deno.connect({
            hostname: target.hostname,
            port: Number(target.port || 5432),
          });
          conns.push(client, server);
          client.readable.pipeTo(server.writable).catch(() => {});
          server.readable.pipeTo(client.writable).catch(() => {});
        }
      })().catch(() => {});
      const [{ ok }] = await sql<{ ok: number }[]>`select 1 as ok`;
      assertEquals(ok, 1);
      // Parallel queries and a large answer (many reads) through the same connection.
      const rows = await Promise.all(
        Array.from({ length: 20 }, (_, i) => sql<{ i: number }[]>`select ${i}::int as i`),
      );
      assertEquals(rows.map(([r]) => r.i), Array.from({ length: 20 }, (_, i) => i));
      const [{ big }] = await sql<{ big: string }[]>`select repeat('ab', 400000) as big`;
      assertEquals(big.length, 800_000);
      assertEquals(big.slice(-4), "abab");
    } finally {
      await sql.end({ timeout: 1 });
      proxy?.close();
      for (const c of conns) {
        try {
          c.close();
        } catch {
          // Already closed by the other side.
        }
      }
    }
  },
});

Deno.test({
  name:
    "[postgres driver] parallel queries written as one batch each get their own rows or error (embedded PGlite or Postgres)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "driver-test-" });
    const db = await openDatabase({ DATABASE_URL: url, DATA_DIR: dir }, { memory: true });
    const sql = db.sql;
    try {
      for (let round = 0; round < 3; round++) {
        const results = await Promise.allSettled([
          sql<{ v: string }[]>`select ${"first" + round}::text as v`,
          sql`select * from no_such_table_${sql.unsafe(String(round))}`,
          sql<{ v: string }[]>`select ${"third" + round}::text as v`,
          sql<{ n: number }[]>`select count(*)::int as n from generate_series(1, ${round + 5}) g`,
        ]);
        assertEquals(results.map((r) => r.status), [
          "fulfilled",
          "rejected",
          "fulfilled",
          "fulfilled",
        ]);
        const [first, missing, third, count] = results;
        assertEquals(
          (first as PromiseFulfilledResult<{ v: string }[]>).value[0].v,
          `first${round}`,
        );
        assertEquals(codeOf((missing as PromiseRejectedResult).reason), "42P01");
        assertEquals(
          (third as PromiseFulfilledResult<{ v: string }[]>).value[0].v,
          `third${round}`,
        );
        assertEquals((count as PromiseFulfilledResult<{ n: number }[]>).value[0].n, round + 5);
      }
      // A transaction after the failed batch is a fresh one (the error ended nothing else).
      const [{ level }] = await sql.begin(async (tx) =>
        await tx<{ level: string }[]>`select current_setting('transaction_isolation') as level`
      );
      assertEquals(level, "read committed");
    } finally {
      await db.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "[postgres driver] embedded: a transaction the server's in-process connection leaves open is rolled back, and a CLI sharing the database is not blocked",
  ignore: !!url,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "driver-test-" });
    const config = { DATABASE_URL: undefined, DATA_DIR: dir };
    const server = await openDatabase(config);
    try {
      await server.sql`create table left_open (v int)`;
      const cli = await openDatabase(config, { shareRunning: true });
      try {
        const reserved = await server.sql.reserve();
        await reserved`begin`;
        await reserved`insert into left_open values (1)`;
        // The server's connection goes mid-transaction (a connect timeout or shutdown does this).
        await server.sql.end({ timeout: 0 });
        // Left inside the transaction, PGlite would keep the CLI waiting for ever.
        let timer: ReturnType<typeof setTimeout> | undefined;
        const count = await Promise.race([
          cli.sql`select count(*)::int as n from left_open`,
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error("the CLI waited 10 s for PGlite")), 10_000);
          }),
        ]).finally(() => clearTimeout(timer));
        assertEquals([...count], [{ n: 0 }]);
        await cli.sql`insert into left_open values (2)`;
        assertEquals([...await cli.sql`select v from left_open`], [{ v: 2 }]);
      } finally {
        await cli.close();
      }
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "[postgres driver] rows read back as written: ASCII columns cut from the row's one decode, any other text decoded as UTF-8 (part 8)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const db = await openDatabase({ DATABASE_URL: url, DATA_DIR: "" }, { memory: true });
    try {
      const long = "x".repeat(200) + "y".repeat(2_000);
      const accented = "Café — “quoted” ✓ 😀";
      const [row] = await db.sql`
        select 'plain'::text as plain, ''::text as empty, ${long}::text as long,
          ${accented}::text as accented, 'ÿ'::text as latin1_range, null::text as nothing,
          'after'::text as after, array['a', 'é', '—']::text[] as tags,
          ${db.sql.json({ name: "Zoë", n: 1 })}::jsonb as doc, 42::int as n,
          9007199254740993::bigint as big, 12.50::numeric as amount, true as flag,
          '2026-11-29T01:02:03.456Z'::timestamptz as at,
          'c49ceb88-4bbb-40e4-9da9-9bbcc1cb54fc'::uuid as id, '\\xdeadbeef'::bytea as bytes,
          ${"Ünïcode"}::text as last`;
      assertEquals({ ...row, bytes: [...row.bytes] }, {
        plain: "plain",
        empty: "",
        long,
        accented,
        latin1Range: "ÿ",
        nothing: null,
        after: "after",
        tags: ["a", "é", "—"],
        doc: { name: "Zoë", n: 1 },
        n: 42,
        big: "9007199254740993",
        amount: "12.50",
        flag: true,
        at: new Date("2026-11-29T01:02:03.456Z"),
        id: "c49ceb88-4bbb-40e4-9da9-9bbcc1cb54fc",
        bytes: [0xde, 0xad, 0xbe, 0xef],
        last: "Ünïcode",
      });
    } finally {
      await db.close();
    }
  },
});

Deno.test({
  name:
    "[postgres driver] a row made by its statement's factory has every column in order, a repeated name its last value in its first place (part 9)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const db = await openDatabase({ DATABASE_URL: url, DATA_DIR: "" }, { memory: true });
    try {
      // Forty columns: past the twenty computed keys from which V8 made the row a dictionary.
      const names = Array.from({ length: 40 }, (_, i) => `col_${i}`);
      const list = names.map((name, i) => (i % 2 ? `'v${i}'::text` : `${i}::int`) + ` as ${name}`);
      const wide = await db.sql.unsafe(`select ${list.join(", ")} from generate_series(1, 3)`);
      assertEquals(wide.length, 3);
      for (const row of wide) {
        assertEquals(Object.keys(row), names.map((_, i) => `col${i}`));
        assertEquals(row.col0, 0);
        assertEquals(row.col39, "v39");
        assertEquals(Object.getPrototypeOf(row), Object.prototype);
      }
      // The same names in another statement, and other names after them: each its own keys.
      const [again] = await db.sql.unsafe(`select ${list.join(", ")}`);
      assertEquals(again, wide[0]);
      const [repeated] = await db.sql`select 1 as a, 2 as b, 3 as a, null::text as c`;
      assertEquals(Object.keys(repeated), ["a", "b", "c"]);
      assertEquals(repeated, { a: 3, b: 2, c: null });
      // The columns the result describes are the columns alone.
      assertEquals(Object.keys(wide.columns), names.map((_, i) => String(i)));
    } finally {
      await db.close();
    }
  },
});

Deno.test({
  name:
    "[postgres driver] a string value kept from a row does not keep the row's text alive (part 8)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // 30 rows of a 36-character id, a 1 MB text and an array; only the ids and an array
    // element are kept. Had each been a slice of its row's text (V8 keeps the whole string a
    // slice of 13 characters or more was cut from), they would hold 30 MB.
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--v8-flags=--expose-gc",
        new URL("./_row_retention.ts", import.meta.url).pathname,
      ],
      env: { DATABASE_URL: url ?? "" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert(out.success, stderr);
    const { grownMb, kept, first } = JSON.parse(
      new TextDecoder().decode(out.stdout),
    );
    assertEquals(kept, 60);
    assertEquals(first, `${"r".repeat(35)}1`);
    assert(grownMb < 5, `the kept ids hold ${grownMb.toFixed(1)} MB`);
  },
});
