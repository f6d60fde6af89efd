import postgres from "postgres";
import type { Config } from "../lib/config.ts";
import { openEmbeddedDatabase } from "./embedded.ts";

/** A postgres.js client or transaction; every db function takes one first. */
export type Db = postgres.Sql | postgres.TransactionSql;
/** A postgres.js pool (not a transaction). */
export type Sql = postgres.Sql;

/** An open database with a way to close it and whatever backs it. */
export interface Database {
  sql: Sql;
  kind: "postgres" | "pglite";
  close(): Promise<void>;
}

function options(extra: postgres.Options<Record<string, never>>) {
  return {
    // Column names become camelCase; jsonb keys are left alone (postgres.camel would rewrite them).
    transform: { column: { from: postgres.toCamel, to: postgres.fromCamel } },
    onnotice: () => {},
    ...extra,
  } satisfies postgres.Options<Record<string, never>>;
}

/**
 * Opens Postgres at DATABASE_URL, or an embedded PGlite (data under DATA_DIR, or in memory
 * when `memory` is set) served to postgres.js through pglite-socket (db/embedded.ts). The
 * embedded database has one writer per DATA_DIR: a second opener gets
 * `EmbeddedDatabaseInUseError`, unless `shareRunning` (the CLIs), which connects to the running
 * one instead.
 */
export async function openDatabase(
  config: Pick<Config, "DATABASE_URL" | "DATA_DIR">,
  { memory = false, shareRunning = false }: { memory?: boolean; shareRunning?: boolean } = {},
): Promise<Database> {
  if (config.DATABASE_URL) {
    const sql = postgres(config.DATABASE_URL, options({ max: 10 }));
    return { sql, kind: "postgres", close: () => sql.end({ timeout: 5 }) };
  }
  return await openEmbeddedDatabase({
    dataDir: config.DATA_DIR,
    memory,
    shareRunning,
    connect: (extra) => postgres(options(extra)),
  });
}
