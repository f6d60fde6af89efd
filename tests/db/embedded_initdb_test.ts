/**
 * The embedded database's first start (db/embedded_initdb.ts): a child process unpacks the
 * template (initdb's files, made once per PGlite version) or, without one, makes the template
 * first; the files land in `$DATA_DIR/pglite` whole or not at all, and a directory that holds
 * something else is left to PGlite as before.
 */
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { openDatabase } from "../../db/client.ts";
import { PGLITE_SETTINGS } from "../../db/embedded.ts";
import {
  initdbInChild,
  initdbTemplate,
  isInitialised,
  unpackTemplate,
} from "../../db/embedded_initdb.ts";
import { migrate, readMigrations } from "../../db/migrate.ts";
import { pack } from "tar-stream";
import { embeddedTest } from "../_suite.ts";

// Embedded-only: skipped in the Postgres suite (tests/_suite.ts).
const test = embeddedTest;

async function entries(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

test("[embedded] the database runs with its small memory settings", async () => {
  const dir = await Deno.makeTempDir({ prefix: "meridian-initdb-" });
  try {
    const db = await openDatabase({ DATABASE_URL: undefined, DATA_DIR: dir });
    try {
      const [{ sharedBuffers }] = await db.sql`show shared_buffers`;
      const [{ maxConnections }] = await db.sql`show max_connections`;
      const [{ sharedMemorySize }] = await db.sql`show shared_memory_size`;
      assertEquals([sharedBuffers, maxConnections], ["16MB", "8"]);
      // Postgres's defaults (128MB of buffers, 100 connections) need about 140MB.
      assert(parseInt(sharedMemorySize) <= 24, sharedMemorySize);
    } finally {
      await db.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

test("[embedded] a first start on a new DATA_DIR makes a database that keeps its data", async () => {
  const dir = await Deno.makeTempDir({ prefix: "meridian-initdb-" });
  try {
    const db = await openDatabase({ DATABASE_URL: undefined, DATA_DIR: dir });
    try {
      await db.sql`create table first_start (note text)`;
      await db.sql`insert into first_start values ('kept')`;
    } finally {
      await db.close();
    }
    assert(await isInitialised(`${dir}/pglite`));
    // Nothing half-made beside it (the child's scratch directory is renamed or removed).
    assert(!(await entries(dir)).some((name) => name.startsWith("pglite.init-")));
    // Made already: no second child.
    assertEquals(await initdbInChild(`${dir}/pglite`, PGLITE_SETTINGS), false);
    const again = await openDatabase({ DATABASE_URL: undefined, DATA_DIR: dir });
    try {
      const rows = await again.sql<{ note: string }[]>`select note from first_start`;
      assertEquals(rows.map((r) => r.note), ["kept"]);
    } finally {
      await again.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

test("[embedded] files that are not a database are left alone for PGlite", async () => {
  const dir = await Deno.makeTempDir({ prefix: "meridian-initdb-" });
  try {
    await Deno.mkdir(`${dir}/pglite`);
    await Deno.writeTextFile(`${dir}/pglite/stray.txt`, "not a database");
    assertEquals(await initdbInChild(`${dir}/pglite`, PGLITE_SETTINGS), false);
    assertEquals(await entries(`${dir}/pglite`), ["stray.txt"]);
    assertEquals(await entries(dir), ["pglite"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

test("[embedded] without a template, a first start makes one and then the database, migrated", async () => {
  const template = await initdbTemplate();
  // Not named pglite-template-…: making a template removes the others.
  const aside = new URL(`aside-${Deno.pid}.tar.gz`, template);
  const hadTemplate = await Deno.rename(template, aside).then(() => true, () => false);
  const dir = await Deno.makeTempDir({ prefix: "meridian-initdb-" });
  try {
    const db = await openDatabase({ DATABASE_URL: undefined, DATA_DIR: dir });
    try {
      // Every migration is in the files already: the server's start-up has none to apply.
      const versions = (await readMigrations()).map((m) => m.version);
      const rows = await db.sql<{ version: number }[]>`
        select version from schema_migrations order by version`;
      assertEquals(rows.map((r) => r.version), versions);
      assertEquals(await migrate(db.sql), []);
      const [{ templates }] = await db.sql<{ templates: number }[]>`
        select count(*)::int as templates from checklist_templates`;
      assert(templates > 0, "the migrations' own rows are there");
    } finally {
      await db.close();
    }
    // The next new data directory unpacks it instead of running initdb and the migrations.
    assert((await Deno.stat(template)).size > 1_000_000);
  } finally {
    await Deno.remove(dir, { recursive: true });
    if (hadTemplate) await Deno.rename(aside, template);
  }
});

test("[embedded] a template is named for its migrations: changing one names another", async () => {
  const migrations = await readMigrations();
  const changed = migrations.map((m, i) =>
    i === migrations.length - 1 ? { ...m, sql: `${m.sql}\n-- changed\n` } : m
  );
  const added = [...migrations, { version: 9999, name: "later", sql: "select 1;" }];
  const names = await Promise.all(
    [migrations, changed, added].map(async (list) => (await initdbTemplate(list)).pathname),
  );
  assertEquals(new Set(names).size, 3, names.join("\n"));
  assertEquals((await initdbTemplate(migrations)).pathname, names[0]);
});

test("[embedded] a template entry outside the data directory is refused", async () => {
  const dir = await Deno.makeTempDir({ prefix: "meridian-initdb-" });
  try {
    const tarball = pack();
    tarball.entry({ name: "/PG_VERSION" }, "17\n");
    tarball.entry({ name: "/base/../../escaped" }, "outside");
    tarball.finalize();
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    for await (const chunk of tarball) chunks.push(chunk as Uint8Array<ArrayBuffer>);
    const gz = new Blob(chunks).stream().pipeThrough(new CompressionStream("gzip"));
    await Deno.writeFile(`${dir}/bad.tar.gz`, gz);
    await assertRejects(() => unpackTemplate(new URL(`file://${dir}/bad.tar.gz`), `${dir}/pg`));
    assertEquals(await entries(dir), ["bad.tar.gz", "pg"]);
    assertEquals(await Deno.readTextFile(`${dir}/pg/PG_VERSION`), "17\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
