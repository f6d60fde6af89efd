import postgres from "postgres";
import type { Config } from "../lib/config.ts";

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
 * when `memory` is set) served to postgres.js through pglite-socket.
 */
export async function openDatabase(
  config: Pick<Config, "DATABASE_URL" | "DATA_DIR">,
  { memory = false }: { memory?: boolean } = {},
): Promise<Database> {
  if (config.DATABASE_URL) {
    const sql = postgres(config.DATABASE_URL, options({ max: 10 }));
    return { sql, kind: "postgres", close: () => sql.end({ timeout: 5 }) };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  let dataDir: string | undefined;
  if (!memory) {
    dataDir = `${config.DATA_DIR}/pglite`;
    await Deno.mkdir(dataDir, { recursive: true });
  }
  const pg = await PGlite.create(dataDir);
  const server = new PGLiteSocketServer({ db: pg, port: 0, host: "127.0.0.1" });
  await server.start();
  const port = Number(server.getServerConn().split(":").pop());
  // PGlite is a single session: one connection, so transactions never interleave.
  const sql = postgres(
    options({
      host: "127.0.0.1",
      port,
      max: 1,
      username: "postgres",
      database: "postgres",
    }),
  );
  return {
    sql,
    kind: "pglite",
    async close() {
      await sql.end({ timeout: 5 });
      await server.stop();
      await pg.close();
    },
  };
}
