import type { Db, Sql } from "./client.ts";

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
 * A migration step the connected role lacks the privilege for. Its message is one line for the
 * operator, naming the SQL a superuser (or the database owner) must run.
 */
export class MigrationPrivilegeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MigrationPrivilegeError";
  }
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Checks, before any migration runs, that the role may do what `pending` asks of it: create
 * tables in the current schema, and create the extensions the migrations name that are not
 * there yet (only trusted ones, such as cube and pg_trgm, and only with CREATE on the
 * database, unless a superuser). Returns the role's name. Throws `MigrationPrivilegeError`
 * saying what a superuser must run, so an operator reads one line instead of a failed
 * transaction's stack.
 */
async function checkPrivileges(tx: Db, pending: Migration[]): Promise<string> {
  const [who] = await tx<
    { role: string; database: string; schema: string | null; canCreateTables: boolean }[]
  >`
    select current_user as role, current_database() as database, current_schema() as schema,
      coalesce(has_schema_privilege(current_schema(), 'create'), false) as can_create_tables`;
  const where = `role ${quoteIdent(who.role)} in database ${quoteIdent(who.database)}`;
  if (pending.length === 0) return who.role;
  if (who.schema === null) {
    throw new MigrationPrivilegeError(
      `Cannot migrate as ${where}: no schema of its search_path exists. A superuser must run: ` +
        `create schema ${quoteIdent(who.role)} authorization ${quoteIdent(who.role)};`,
    );
  }
  if (!who.canCreateTables) {
    throw new MigrationPrivilegeError(
      `Cannot migrate as ${where}: it may not create tables in schema ` +
        `${quoteIdent(who.schema)}. A superuser must run, in that database: grant create ` +
        `on schema ${quoteIdent(who.schema)} to ${quoteIdent(who.role)};`,
    );
  }
  const wanted = new Map<string, string>();
  for (const m of pending) {
    for (
      const [, name] of m.sql.matchAll(/^\s*create\s+extension\s+if\s+not\s+exists\s+(\w+)/gim)
    ) {
      if (!wanted.has(name)) wanted.set(name, `${String(m.version).padStart(4, "0")}_${m.name}`);
    }
  }
  if (wanted.size === 0) return who.role;
  const rows = await tx<
    { name: string; isInstalled: boolean; isAvailable: boolean; mayCreate: boolean }[]
  >`
    select w.name,
      exists (select 1 from pg_extension e where e.extname = w.name) as is_installed,
      exists (select 1 from pg_available_extensions a where a.name = w.name) as is_available,
      (select rolsuper from pg_roles where rolname = current_user)
        or (has_database_privilege(current_database(), 'create') and coalesce((
          select v.trusted from pg_available_extension_versions v
          join pg_available_extensions a on a.name = v.name and a.default_version = v.version
          where v.name = w.name), false)) as may_create
    from unnest(${[...wanted.keys()]}::text[]) as w (name)`;
  const missing = rows.filter((r) => !r.isInstalled && !r.isAvailable);
  if (missing.length) {
    const names = missing.map((r) => r.name).join(", ");
    throw new MigrationPrivilegeError(
      `Cannot migrate as ${where}: this Postgres server lacks the extension(s) ${names} ` +
        `(PostgreSQL's contrib package). Install it on the server, then a superuser must run, ` +
        `in that database: ${
          missing.map((r) => `create extension if not exists ${r.name};`).join(" ")
        }`,
    );
  }
  const blocked = rows.filter((r) => !r.isInstalled && !r.mayCreate);
  if (blocked.length) {
    const names = blocked.map((r) => r.name).join(", ");
    throw new MigrationPrivilegeError(
      `Cannot migrate as ${where}: migration ${wanted.get(blocked[0].name)} needs the ` +
        `extension(s) ${names}, which this role may not create. A superuser must run, in that ` +
        `database: ${blocked.map((r) => `create extension if not exists ${r.name};`).join(" ")}`,
    );
  }
  return who.role;
}

/**
 * What a superuser can run when a migration statement was refused with `message`: an object a
 * superuser made (say, while the app ran as one) that this role does not own is handed over.
 */
function remedy(message: string, role: string): string {
  const to = quoteIdent(role);
  const owner =
    /^must be owner of (table|index|sequence|view|materialized view|function|type) (\S+)$/
      .exec(message);
  if (owner?.[1] === "index") {
    return `A superuser must run, in that database: alter table <the table of index ${owner[2]}> ` +
      `owner to ${to}; (or run the migrations as the role that owns it).`;
  }
  if (owner) {
    return `A superuser must run, in that database: alter ${owner[1]} ${owner[2]} owner to ` +
      `${to}; (or run the migrations as the role that owns it).`;
  }
  return `A superuser must grant that to ${to}, or run the migrations as a role that has it.`;
}

/**
 * Applies the migrations not yet recorded in `schema_migrations`, all in one transaction
 * under an advisory lock. Returns the versions it applied. `migrations` defaults to
 * db/migrations/ (tests pass older texts to build a database as an earlier release left it).
 * Throws `MigrationPrivilegeError` when the role lacks a privilege a pending migration needs
 * (see `checkPrivileges`; also for a denied statement the check could not foresee), and then
 * nothing is applied.
 */
export async function migrate(sql: Sql, migrations?: Migration[]): Promise<number[]> {
  const all = migrations ?? await readMigrations();
  return await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`;
    const [{ hasTable }] = await tx<{ hasTable: boolean }[]>`
      select to_regclass('schema_migrations') is not null as has_table`;
    const done = new Set(
      hasTable
        ? (await tx<{ version: number }[]>`select version from schema_migrations`).map((r) =>
          r.version
        )
        : [],
    );
    const pending = all.filter((m) => !done.has(m.version));
    const role = await checkPrivileges(tx, pending);
    await tx`create table if not exists schema_migrations (
      version integer primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`;
    const applied: number[] = [];
    for (const migration of pending) {
      try {
        await tx.unsafe(migration.sql);
      } catch (err) {
        const { code, message } = err as { code?: unknown; message?: unknown };
        // insufficient_privilege: e.g. tables a superuser made that this role does not own.
        if (code !== "42501") throw err;
        throw new MigrationPrivilegeError(
          `Migration ${String(migration.version).padStart(4, "0")}_${migration.name} was ` +
            `refused to role ${quoteIdent(role)}: ${message}. ${remedy(String(message), role)}`,
          { cause: err },
        );
      }
      await tx`insert into schema_migrations (version, name)
        values (${migration.version}, ${migration.name})`;
      applied.push(migration.version);
    }
    return applied;
  });
}

/** `deno task migrate`: applies what is pending and says what it applied, in one line. */
async function cliMain(): Promise<void> {
  const { configOrExit, openDatabaseOrExit } = await import("../lib/cli/startup.ts");
  // While a server runs on the embedded database, migrate through it (db/embedded.ts).
  const db = await openDatabaseOrExit(configOrExit(), { shareRunning: true });
  try {
    const applied = await migrate(db.sql);
    console.log(applied.length ? `Applied migrations ${applied.join(", ")}` : "Up to date");
  } catch (err) {
    // One line, as migrateOrExit (lib/cli/startup.ts) prints it.
    if (!(err instanceof MigrationPrivilegeError)) throw err;
    console.error(err.message);
    Deno.exitCode = 1;
  } finally {
    await db.close();
  }
}

// Not awaited at the top level: opening a new embedded DATA_DIR imports this module again
// (db/embedded_initdb.ts names its template by the migrations), and an import of a module
// whose top-level await is still waiting on it would never settle.
if (import.meta.main) {
  cliMain().catch((err) => {
    console.error(err);
    Deno.exit(1);
  });
}
