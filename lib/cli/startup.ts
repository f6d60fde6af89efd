/**
 * Start-up shared by the server (main.ts) and the commands (`deno task user`, `deno task
 * migrate`): read the configuration, open the database and migrate it, turning what an
 * operator can fix (a bad variable, Postgres not up yet, DATA_DIR held by another server, a
 * privilege the database role lacks) into one line and exit code 1 instead of a stack.
 */
import { type Config, ConfigError, loadConfig } from "../config.ts";
import {
  type Database,
  openDatabase,
  PostgresStartError,
  waitForPostgres,
} from "../../db/client.ts";
import { EmbeddedDatabaseInUseError } from "../../db/embedded.ts";

function exitWith(message: string): never {
  console.error(message);
  Deno.exit(1);
}

/** The validated configuration from the environment; exits with the bad variables named. */
export function configOrExit(): Config {
  try {
    return loadConfig(Deno.env.toObject());
  } catch (err) {
    if (err instanceof ConfigError) exitWith(err.message);
    throw err;
  }
}

/**
 * Opens the database. Postgres: waits up to DATABASE_WAIT_SECONDS for it to answer ("Waiting
 * for Postgres at host:port…"), then exits with one line. Embedded: a DATA_DIR held by another
 * server exits with one line naming it, unless `shareRunning` (the commands) reaches that
 * server's database instead.
 */
export async function openDatabaseOrExit(
  config: Config,
  { shareRunning = false }: { shareRunning?: boolean } = {},
): Promise<Database> {
  let db: Database;
  try {
    db = await openDatabase(config, { shareRunning });
  } catch (err) {
    if (err instanceof EmbeddedDatabaseInUseError) exitWith(err.message);
    throw err;
  }
  if (db.kind === "postgres") {
    const seconds = config.DATABASE_WAIT_SECONDS;
    try {
      await waitForPostgres(db.sql, {
        timeoutMs: seconds * 1000,
        onWait: (where) => console.log(`Waiting for Postgres at ${where}… (up to ${seconds} s)`),
      });
    } catch (err) {
      if (err instanceof PostgresStartError) exitWith(err.message);
      throw err;
    }
  }
  return db;
}

/**
 * Applies the pending migrations (db/migrate.ts) and returns their versions; when the role lacks
 * a privilege they need, closes `db` and exits with the one line saying what a superuser must
 * run.
 */
export async function migrateOrExit(db: Database): Promise<number[]> {
  // Imported here, not at the top: db/migrate.ts imports this module when run as a command.
  const { migrate, MigrationPrivilegeError } = await import("../../db/migrate.ts");
  try {
    return await migrate(db.sql);
  } catch (err) {
    if (!(err instanceof MigrationPrivilegeError)) throw err;
    await db.close().catch(() => {});
    exitWith(err.message);
  }
}
