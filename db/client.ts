import postgres from "postgres";
import type { Config } from "../lib/config.ts";
import { isPostgresDown } from "../lib/unavailable.ts";
import { openEmbeddedDatabase } from "./embedded.ts";
import { instrumentQueries } from "../lib/telemetry.ts";
import { setSnapshotCheck } from "./snapshot_cache.ts";

/** A postgres.js client or transaction; every db function takes one first. */
export type Db = postgres.Sql | postgres.TransactionSql;
/** A postgres.js pool (not a transaction). */
export type Sql = postgres.Sql;

/** An open database with a way to close it and whatever backs it. */
export interface Database {
  sql: Sql;
  kind: "postgres" | "pglite";
  close(): Promise<void>;
  /** An in-memory embedded database's files, as a tarball `loadDataDir` takes (tests). */
  dumpDataDir?(): Promise<Blob>;
}

function options(extra: postgres.Options<Record<string, never>>) {
  return {
    // Column names become camelCase; jsonb keys are left alone (postgres.camel would rewrite them).
    transform: { column: { from: postgres.toCamel, to: postgres.fromCamel } },
    onnotice: () => {},
    ...extra,
  } satisfies postgres.Options<Record<string, never>>;
}

// Pool settings for a real Postgres. postgres.js's default backoff grows to 10-20 s after a
// few failed connects, counted across the whole pool, and a restart under load makes dozens:
// the pool would stay away long after Postgres is back. Half a second at most brings it back
// at once. connect_timeout (default 30 s) bounds how long a request waits on a host that
// drops packets before it gets its 503.
const POSTGRES_POOL = {
  max: 10,
  connect_timeout: 10,
  backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 0.5),
};

/**
 * A pool on the Postgres at `url` as the app opens it (its column names, its pool settings),
 * with `max` connections (bench/plans.ts reads a single connection's prepared statements).
 */
export function postgresPool(url: string, { max = POSTGRES_POOL.max } = {}): Sql {
  return postgres(url, options({ ...POSTGRES_POOL, max }));
}

/**
 * Opens Postgres at DATABASE_URL (postgres.js over Deno.connect, or node:tls with `sslmode`:
 * vendor/postgres/README.md part 7), or an embedded PGlite (data under DATA_DIR, or in memory
 * when `memory` is set) that this process's pool reaches in process (db/pglite_connection.ts)
 * and other processes through pglite-socket (db/embedded.ts). The
 * embedded database has one writer per DATA_DIR: a second opener gets
 * `EmbeddedDatabaseInUseError`, unless `shareRunning` (the CLIs), which connects to the running
 * one instead.
 */
export async function openDatabase(
  config: Pick<Config, "DATABASE_URL" | "DATA_DIR"> & Partial<Pick<Config, "SNAPSHOT_CHECK">>,
  { memory = false, shareRunning = false, loadDataDir }: {
    memory?: boolean;
    shareRunning?: boolean;
    /** In memory only: start from this `dumpDataDir` tarball instead of an initdb. */
    loadDataDir?: Blob;
  } = {},
): Promise<Database> {
  if (config.DATABASE_URL) {
    const sql = postgresPool(config.DATABASE_URL);
    instrumentQueries(sql);
    if (config.SNAPSHOT_CHECK) setSnapshotCheck(sql, config.SNAPSHOT_CHECK);
    return { sql, kind: "postgres", close: () => sql.end({ timeout: 5 }) };
  }
  const db = await openEmbeddedDatabase({
    dataDir: config.DATA_DIR,
    memory,
    shareRunning,
    loadDataDir,
    connect: (extra) => postgres(options(extra)),
  });
  // With OTEL_DENO=true every statement becomes a span of the request that ran it.
  instrumentQueries(db.sql);
  // PGlite sets up a gated statement whole: a remembered page is checked by a statement of its own.
  setSnapshotCheck(db.sql, "apart");
  return db;
}

/** Why Postgres could not be used at start-up, in one line for the operator. */
export class PostgresStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PostgresStartError";
  }
}

/**
 * Resolves once the Postgres behind `sql` answers. While it is unreachable or still starting
 * (anything `isPostgresDown` names) it retries every `retryMs`, calling `onWait` once with
 * "host:port"; past `timeoutMs` it throws `PostgresStartError`. Any other database error (a
 * wrong password, a missing database) throws `PostgresStartError` at once: waiting would not
 * fix it.
 */
export async function waitForPostgres(
  sql: Sql,
  { timeoutMs, retryMs = 500, onWait }: {
    timeoutMs: number;
    retryMs?: number;
    onWait: (where: string) => void;
  },
): Promise<void> {
  const { host, port } = sql.options;
  const where = host.map((h, i) => `${h}:${port[i] ?? port[0]}`).join(", ");
  const deadline = Date.now() + timeoutMs;
  let isWaiting = false;
  for (;;) {
    try {
      await sql`select 1`;
      return;
    } catch (err) {
      const { code, message } = err as { code?: unknown; message?: unknown };
      const reason = typeof code === "string" ? code : String(message);
      if (!isPostgresDown(err)) {
        if (typeof code !== "string") throw err;
        throw new PostgresStartError(`Cannot use Postgres at ${where}: ${message} (${code})`, {
          cause: err,
        });
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new PostgresStartError(
          `Postgres at ${where} did not answer within ${Math.round(timeoutMs / 1000)} s ` +
            `(${reason}); giving up.`,
          { cause: err },
        );
      }
      if (!isWaiting) onWait(where);
      isWaiting = true;
      await new Promise((resolve) => setTimeout(resolve, Math.min(retryMs, left)));
    }
  }
}
