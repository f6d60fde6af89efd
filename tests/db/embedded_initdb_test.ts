/**
 * The embedded database's first start (db/embedded_initdb.ts): initdb runs in a child process,
 * the files land in `$DATA_DIR/pglite` whole or not at all, and a directory that holds something
 * else is left to PGlite as before.
 */
import { assert, assertEquals } from "../_assert.ts";
import { openDatabase } from "../../db/client.ts";
import { PGLITE_SETTINGS } from "../../db/embedded.ts";
import { initdbInChild, isInitialised } from "../../db/embedded_initdb.ts";

function test(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, fn, sanitizeResources: false, sanitizeOps: false });
}

async function entries(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

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
