import type { Sql } from "./client.ts";

const MIGRATIONS_DIR = new URL("./migrations/", import.meta.url);
// Any fixed number; every instance uses it so only one migrates at a time.
const MIGRATION_LOCK_ID = 7_240_113;

/** A numbered SQL migration file. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Reads db/migrations/NNNN_name.sql in version order. Throws on a duplicate number. */
export async function readMigrations(): Promise<Migration[]> {
  const migrations: Migration[] = [];
  for await (const entry of Deno.readDir(MIGRATIONS_DIR)) {
    const match = /^(\d{4})_([a-z0-9_]+)\.sql$/.exec(entry.name);
    if (!entry.isFile || !match) continue;
    const sql = await Deno.readTextFile(new URL(entry.name, MIGRATIONS_DIR));
    migrations.push({ version: Number(match[1]), name: match[2], sql });
  }
  migrations.sort((a, b) => a.version - b.version);
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i].version === migrations[i - 1].version) {
      throw new Error(`Two migrations share number ${migrations[i].version}`);
    }
  }
  return migrations;
}

/**
 * Applies the migrations not yet recorded in `schema_migrations`, all in one transaction
 * under an advisory lock. Returns the versions it applied.
 */
export async function migrate(sql: Sql): Promise<number[]> {
  const migrations = await readMigrations();
  return await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`;
    await tx`create table if not exists schema_migrations (
      version integer primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`;
    const done = new Set(
      (await tx<{ version: number }[]>`select version from schema_migrations`).map((r) =>
        r.version
      ),
    );
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await tx.unsafe(migration.sql);
      await tx`insert into schema_migrations (version, name)
        values (${migration.version}, ${migration.name})`;
      applied.push(migration.version);
    }
    return applied;
  });
}

if (import.meta.main) {
  const { configOrExit, openDatabaseOrExit } = await import("../lib/cli/startup.ts");
  // While a server runs on the embedded database, migrate through it (db/embedded.ts).
  const db = await openDatabaseOrExit(configOrExit(), { shareRunning: true });
  try {
    const applied = await migrate(db.sql);
    console.log(applied.length ? `Applied migrations ${applied.join(", ")}` : "Up to date");
  } finally {
    await db.close();
  }
}
