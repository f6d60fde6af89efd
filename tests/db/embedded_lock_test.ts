/**
 * One writer per embedded database (db/embedded.ts): the DATA_DIR lock, the record of who holds
 * it, sharing the holder's database with the CLIs, and the lock outliving nothing (kill -9).
 * Deno's file locks are flock-style, held per open file, so a second open in this same process
 * meets the lock exactly as a second process would; the server and kill -9 cases use real
 * processes anyway.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "../_assert.ts";
import { openDatabase } from "../../db/client.ts";
import { EmbeddedDatabaseInUseError, holderPath, lockPath, readHolder } from "../../db/embedded.ts";
import { DENO_RUN } from "../_deno.ts";
import { embeddedTest } from "../_suite.ts";

const ROOT = new URL("../../", import.meta.url);

// Embedded-only: skipped in the Postgres suite (tests/_suite.ts).
const test = embeddedTest;

// One DATA_DIR for the whole file: creating a PGlite database (initdb) costs seconds, opening
// one again far less. Every test closes what it opens, so each starts with the lock free. Made
// by the first test that runs, not when the module loads: the Postgres suite, which skips these
// tests, makes none, and a run stopped before them leaves none behind (the `unload` handler
// never runs in a killed process).
let dataDir: string | undefined;

async function withDataDir(fn: (dir: string) => Promise<void>): Promise<void> {
  if (dataDir === undefined) {
    const dir = dataDir = Deno.makeTempDirSync({ prefix: "meridian-embedded-" });
    globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  }
  assert(await isLockFree(dataDir), "the previous test left the lock held");
  await fn(dataDir);
}

/** Whether DATA_DIR's lock is free right now (taken and let go again at once). */
async function isLockFree(dir: string): Promise<boolean> {
  using file = await Deno.open(lockPath(dir), { read: true, write: true, create: true });
  const free = await file.tryLock(true);
  if (free) await file.unlock();
  return free;
}

const open = (dir: string, shareRunning = false) =>
  openDatabase({ DATABASE_URL: undefined, DATA_DIR: dir }, { shareRunning });

test("[embedded] a second opener of a DATA_DIR in use is refused with who holds it", async () => {
  await withDataDir(async (dir) => {
    const first = await open(dir);
    try {
      const holder = await readHolder(dir);
      assertEquals(holder?.pid, Deno.pid);
      assert(holder && holder.port > 0 && holder.host === "127.0.0.1", JSON.stringify(holder));
      const err = await assertRejects(() => open(dir));
      assert(err instanceof EmbeddedDatabaseInUseError, String(err));
      assertEquals(
        err.message,
        `The embedded database in ${dir} is in use by another Meridian process ` +
          `(pid ${Deno.pid}, database on 127.0.0.1:${holder.port}). ` +
          "Stop that process first, or set DATA_DIR to another directory.",
      );
      assertEquals(await isLockFree(dir), false);
      const record = JSON.parse(await Deno.readTextFile(holderPath(dir)));
      assertEquals(Object.keys(record).sort(), ["host", "pid", "port", "startedAt"]);
      assert(!Number.isNaN(Date.parse(record.startedAt)));
    } finally {
      await first.close();
    }
    assertEquals(await isLockFree(dir), true, "closing lets go of the lock");
    assertEquals(await readHolder(dir), null, "and removes the holder record");
  });
});

test("[embedded] data written by one holder is there for the next", async () => {
  await withDataDir(async (dir) => {
    const first = await open(dir);
    await first.sql`create table notes (body text not null)`;
    await first.sql`insert into notes values ('kept')`;
    await first.close();
    const second = await open(dir);
    try {
      assertEquals([...await second.sql`select body from notes`], [{ body: "kept" }]);
    } finally {
      await second.close();
    }
  });
});

test("[embedded] shareRunning reaches the holder's database; both see each other's writes", async () => {
  await withDataDir(async (dir) => {
    const server = await open(dir);
    try {
      await server.sql`create table items (id int primary key, owner text not null)`;
      const cli = await open(dir, true);
      try {
        assertEquals(await isLockFree(dir), false, "the CLI did not take the files");
        await cli.sql`insert into items values (0, 'cli')`;
        assertEquals([...await server.sql`select owner from items where id = 0`], [{
          owner: "cli",
        }]);
        // Both connections at full tilt, each with two requests in flight as the server's pool
        // has under load: parameterised queries (Parse/Bind/Execute/Sync) and transactions
        // must never see the other connection's portals, rows or transactions.
        const work = async (sql: typeof cli.sql, owner: string, base: number) => {
          for (let i = 1; i <= 100; i++) {
            const [echo] = await sql`select ${owner + i}::text as v, ${i}::int as n`;
            assertEquals([echo.v, echo.n], [owner + i, i]);
            await sql.begin(async (tx) => {
              await tx`insert into items values (${base + i}, ${owner})`;
              const rows = await tx`select owner from items where id = ${base + i}`;
              assertEquals([...rows], [{ owner }]);
            });
            const series = await sql`select ${owner}::text as o, g from generate_series(1, ${i}) g`;
            assert(series.length === i && series.every((r) => r.o === owner), `${owner} ${i}`);
          }
        };
        await Promise.all([
          work(server.sql, "server-a", 1000),
          work(server.sql, "server-b", 2000),
          work(cli.sql, "cli-a", 3000),
          work(cli.sql, "cli-b", 4000),
        ]);
        const counts = await server.sql`
          select owner, count(*)::int as n from items where id > 0 group by owner order by owner`;
        assertEquals(
          [...counts],
          ["cli-a", "cli-b", "server-a", "server-b"].map((owner) => ({
            owner,
            n: 100,
          })),
        );
      } finally {
        await cli.close();
      }
      assertEquals(await isLockFree(dir), false, "the CLI leaving does not free the server's lock");
      assertEquals((await server.sql`select count(*)::int as n from items`)[0].n, 401);
    } finally {
      await server.close();
    }
  });
});

test("[embedded] a CLI transaction left open by a dropped connection is rolled back", async () => {
  await withDataDir(async (dir) => {
    const server = await open(dir);
    try {
      await server.sql`create table dropped (v int)`;
      const cli = await open(dir, true);
      const reserved = await cli.sql.reserve();
      await reserved`begin`;
      await reserved`insert into dropped values (1)`;
      // The connection goes without commit: PGlite must not stay inside its transaction.
      await cli.sql.end({ timeout: 0 });
      assertEquals([...await server.sql`select count(*)::int as n from dropped`], [{ n: 0 }]);
      await server.sql`insert into dropped values (2)`;
      assertEquals([...await server.sql`select v from dropped`], [{ v: 2 }]);
    } finally {
      await server.close();
    }
  });
});

test("[embedded] the statements a CLI prepared are deallocated when it goes, not left in PGlite's one session", async () => {
  await withDataDir(async (dir) => {
    const server = await open(dir);
    try {
      const prepared = async () =>
        (await server.sql<{ name: string; statement: string }[]>`
          select name, statement from pg_prepared_statements`).map((r) => ({ ...r }));
      const before = await prepared();
      const cli = await open(dir, true);
      await cli.sql`select ${1}::int as one`;
      await cli.sql`select count(*)::int as n from pg_class where relkind = ${"r"}`;
      await cli.sql`select ${"a"}::text || ${"b"}::text as ab`;
      // A statement PGlite refused to prepare: its name is in no list, and must not stop the
      // others' deallocation.
      await assertRejects(() => cli.sql`select v from no_such_table where v = ${1}`);
      const during = await prepared();
      const cliNames = during.filter((p) => !before.some((b) => b.name === p.name));
      // Ours, and what postgres.js and the CLI's open ran first (its types, a `select 1`).
      for (const text of ["select $1::int as one", "select $1::text || $2::text as ab"]) {
        assert(cliNames.some((p) => p.statement === text), JSON.stringify(cliNames));
      }
      await cli.sql.end({ timeout: 0 });
      // The connection's going is queued behind nothing: its statements are gone within moments.
      let after = await prepared();
      for (let i = 0; i < 50 && after.length > before.length; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        after = await prepared();
      }
      assertEquals(after.map((p) => p.name).sort(), before.map((p) => p.name).sort());
      // The server's own statements still run.
      assertEquals([...await server.sql`select ${2}::int as two`], [{ two: 2 }]);
    } finally {
      await server.close();
    }
  });
});

test("[embedded] the server's connection in process is never recycled (each new one would prepare every statement again)", async () => {
  await withDataDir(async (dir) => {
    const server = await open(dir);
    try {
      assertEquals(server.sql.options.max_lifetime, 0);
    } finally {
      await server.close();
    }
  });
});

test("[embedded] with nobody holding DATA_DIR, shareRunning opens the files itself", async () => {
  await withDataDir(async (dir) => {
    const cli = await open(dir, true);
    try {
      assertEquals((await readHolder(dir))?.pid, Deno.pid);
      await cli.sql`create table solo (v int)`;
    } finally {
      await cli.close();
    }
    assertEquals(await isLockFree(dir), true);
  });
});

const HOLD = `
import { openDatabase } from ${JSON.stringify(new URL("db/client.ts", ROOT).href)};
const db = await openDatabase({ DATA_DIR: Deno.args[0] });
await db.sql\`create table if not exists marks (v text)\`;
await db.sql\`insert into marks values ('before kill')\`;
console.log("ready");
await new Promise(() => {});
`;

test("[embedded] kill -9 of the holder releases the lock; its data survives", async () => {
  await withDataDir(async (dir) => {
    const script = `${dir}/hold.ts`;
    await Deno.writeTextFile(script, HOLD);
    const child = new Deno.Command(Deno.execPath(), {
      args: [...DENO_RUN, "--config", new URL("deno.json", ROOT).pathname, script, dir],
      cwd: ROOT,
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const first = await lines.read();
    assertMatch(first.value ?? "", /ready/);
    assertEquals(await isLockFree(dir), false);
    const holder = await readHolder(dir);
    assertEquals(holder?.pid, child.pid);
    const refused = await assertRejects(() => open(dir));
    assertMatch(refused.message, new RegExp(`pid ${child.pid}, database on 127\\.0\\.0\\.1:`));

    child.kill("SIGKILL");
    const status = await child.status;
    assertEquals(status.signal, "SIGKILL");
    await lines.cancel();
    assertEquals(await isLockFree(dir), true, "the kernel dropped the lock with the process");
    // The holder record it left is stale; the next holder replaces it.
    assertEquals((await readHolder(dir))?.pid, child.pid);
    const next = await open(dir);
    try {
      assertEquals((await readHolder(dir))?.pid, Deno.pid);
      assertEquals([...await next.sql`select v from marks`], [{ v: "before kill" }]);
    } finally {
      await next.close();
    }
  });
});

test("[embedded] a second server on the same DATA_DIR exits 1 with one line naming the first", async () => {
  await withDataDir(async (dir) => {
    const first = await open(dir);
    try {
      const { port } = (await readHolder(dir))!;
      const out = await new Deno.Command(Deno.execPath(), {
        args: [...DENO_RUN, "main.ts"],
        cwd: ROOT,
        env: { DATA_DIR: dir, DATABASE_URL: "", PORT: "0", NODE_ENV: "test", LOG_REQUESTS: "0" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr).trim().split("\n");
      assertEquals(out.code, 1);
      // Build messages may come first when the bundles are stale; the refusal is the last line.
      assertEquals(
        stderr.at(-1),
        `The embedded database in ${dir} is in use by another Meridian process ` +
          `(pid ${Deno.pid}, database on 127.0.0.1:${port}). ` +
          "Stop that process first, or set DATA_DIR to another directory.",
      );
      assert(!stderr.some((line) => /^\s+at /.test(line)), stderr.join("\n"));
      assertEquals((await first.sql`select 1 as ok`)[0].ok, 1, "the first one is untouched");
    } finally {
      await first.close();
    }
  });
});
