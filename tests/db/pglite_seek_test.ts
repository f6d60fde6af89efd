/**
 * db/pglite_seek.ts: on a data directory on disk, Postgres learns a relation's size from
 * SEEK_END, which now reads a second handle on the same file. Postgres writes past the end it
 * is told, so a size that is not the file's own would overwrite or lose rows: every answer
 * here is checked against the file on disk, as it grows, as VACUUM cuts it, and when its path
 * comes to name another file.
 */
import { assertEquals } from "../_assert.ts";
import { PGlite } from "@electric-sql/pglite";
import { fastSeekEnd, type PgliteFsModule } from "../../db/pglite_seek.ts";
import { embeddedTest } from "../_suite.ts";

const SEEK_END = 2;

// Embedded-only: skipped in the Postgres suite (tests/_suite.ts).
const test = embeddedTest;

interface EmscriptenFs {
  open(path: string, flags: string): object;
  write(
    stream: object,
    data: Uint8Array,
    offset: number,
    length: number,
    position?: number,
  ): number;
  llseek(stream: object, offset: number, whence: number): number;
  close(stream: object): void;
  truncate(path: string, length: number): void;
  ftruncate(fd: number, length: number): void;
}

/** A PGlite database in a temporary directory on disk, patched as db/embedded.ts does. */
async function withDiskPglite(
  fn: (pg: PGlite, dir: string, fs: EmscriptenFs) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "meridian-pglite-seek-" });
  const pg = await PGlite.create(dir);
  const module = (pg as unknown as { Module: PgliteFsModule & { FS: EmscriptenFs } }).Module;
  const closeSizers = fastSeekEnd(module);
  try {
    await fn(pg, dir, module.FS);
  } finally {
    await pg.close();
    closeSizers();
    await Deno.remove(dir, { recursive: true });
  }
}

/** The table's size as Postgres sees it (SEEK_END) and as its file on disk is. */
async function sizes(pg: PGlite, dir: string, table: string) {
  const { rows: [row] } = await pg.query<{ size: number; path: string }>(
    `select pg_relation_size($1)::int as size, pg_relation_filepath($1) as path`,
    [table],
  );
  return { postgres: row.size, disk: (await Deno.stat(`${dir}/${row.path}`)).size };
}

test("[pglite seek] a table's size is its file's as rows go in, as VACUUM cuts it, and after", async () => {
  await withDiskPglite(async (pg, dir) => {
    await pg.exec(`create table notes (body text)`);
    assertEquals(await sizes(pg, dir, "notes"), { postgres: 0, disk: 0 });
    const fill = `insert into notes select repeat('x', 200) from generate_series(1, 4000)`;
    await pg.exec(fill);
    const grown = await sizes(pg, dir, "notes");
    assertEquals(grown.postgres, grown.disk);
    assertEquals(grown.postgres > 800_000, true, `${grown.postgres} bytes`);
    // VACUUM gives the emptied pages back to the file system: the file gets shorter.
    await pg.exec(`delete from notes`);
    await pg.exec(`vacuum notes`);
    assertEquals(await sizes(pg, dir, "notes"), { postgres: 0, disk: 0 });
    await pg.exec(fill);
    const again = await sizes(pg, dir, "notes");
    assertEquals(again.postgres, again.disk);
    assertEquals(again.postgres, grown.postgres);
    const { rows } = await pg.query<{ n: number }>(`select count(*)::int as n from notes`);
    assertEquals(rows[0].n, 4000);
  });
});

test("[pglite seek] SEEK_END sees what another descriptor wrote, and every truncation", async () => {
  await withDiskPglite(async (_pg, dir, fs) => {
    await Deno.writeFile(`${dir}/probe`, new Uint8Array(10));
    const reader = fs.open("/pglite/data/probe", "r");
    assertEquals(fs.llseek(reader, 0, SEEK_END), 10);
    assertEquals(fs.llseek(reader, 0, SEEK_END), 10);
    const writer = fs.open("/pglite/data/probe", "r+");
    fs.write(writer, new Uint8Array(8192), 0, 8192, 10);
    assertEquals(fs.llseek(reader, 0, SEEK_END), 8202);
    fs.truncate("/pglite/data/probe", 100);
    assertEquals(fs.llseek(reader, 0, SEEK_END), 100);
    fs.ftruncate((writer as { fd: number }).fd, 40);
    assertEquals(fs.llseek(reader, 0, SEEK_END), 40);
    assertEquals(fs.llseek(writer, 0, SEEK_END), 40);
    // Opening with O_TRUNC empties it.
    fs.close(fs.open("/pglite/data/probe", "w"));
    assertEquals(fs.llseek(reader, 0, SEEK_END), 0);
    fs.close(writer);
    fs.close(reader);
  });
});

test("[pglite seek] SEEK_END answers for the file the descriptor has open, not what its path names now", async () => {
  await withDiskPglite(async (_pg, dir, fs) => {
    const bytes = (n: number) => new Uint8Array(n).fill(7);
    await Deno.writeFile(`${dir}/probe`, bytes(100));
    const stream = fs.open("/pglite/data/probe", "r+");
    assertEquals(fs.llseek(stream, 0, SEEK_END), 100);
    assertEquals(fs.write(stream, bytes(50), 0, 50, 100), 50);
    assertEquals(fs.llseek(stream, 0, SEEK_END), 150);
    assertEquals(fs.llseek(stream, -10, SEEK_END), 140);
    // Another file of 300 bytes takes the path; the descriptor still has the first one.
    await Deno.writeFile(`${dir}/other`, bytes(300));
    await Deno.rename(`${dir}/other`, `${dir}/probe`);
    assertEquals(fs.llseek(stream, 0, SEEK_END), 150);
    const reopened = fs.open("/pglite/data/probe", "r");
    assertEquals(fs.llseek(reopened, 0, SEEK_END), 300);
    fs.close(reopened);
    fs.close(stream);
  });
});

test("[pglite seek] a descriptor whose path changed before its first SEEK_END gets its own file's size", async () => {
  await withDiskPglite(async (_pg, dir, fs) => {
    await Deno.writeFile(`${dir}/probe`, new Uint8Array(64));
    const stream = fs.open("/pglite/data/probe", "r");
    await Deno.remove(`${dir}/probe`);
    await Deno.writeFile(`${dir}/probe`, new Uint8Array(4096));
    assertEquals(fs.llseek(stream, 0, SEEK_END), 64);
    await Deno.remove(`${dir}/probe`);
    assertEquals(fs.llseek(stream, 0, SEEK_END), 64);
    fs.close(stream);
  });
});
