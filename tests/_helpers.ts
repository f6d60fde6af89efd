/**
 * Test harness: one migrated database per test process (real Postgres when DATABASE_URL is
 * set, in-memory PGlite otherwise), wiped before each test app; KV in memory per app.
 */
import { createApp } from "../main.ts";
import { type Config, loadConfig } from "../lib/config.ts";
import { type Database, openDatabase, type Sql } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { openKv } from "../db/kv.ts";
import { type Assets, ensureBuild } from "../lib/assets.ts";
import { createGeoProvider } from "../lib/geo/select.ts";
import { createParcelProvider } from "../lib/parcels/select.ts";
import { createOfflinePlacesProvider } from "../lib/places/offline.ts";
import { createOfflinePaymentsProvider } from "../lib/payments/offline.ts";
import { createPaymentsProvider } from "../lib/payments/select.ts";
import { createStorageProvider } from "../lib/storage/select.ts";
import type { AppDeps } from "../routes/_env.ts";

/** Origin the test app believes it serves. */
export const ORIGIN = "http://localhost";

let database: Promise<Database> | undefined;
let assets: Promise<Assets> | undefined;

/** The shared, migrated test database. */
export function testDatabase(): Promise<Database> {
  database ??= (async () => {
    const db = await openDatabase(
      { DATABASE_URL: Deno.env.get("DATABASE_URL") || undefined, DATA_DIR: ".data/test" },
      { memory: true },
    );
    await migrate(db.sql);
    return db;
  })();
  return database;
}

/** The query naming the tables a test may have written to, per database handle. */
const dirtyTablesQuery = new WeakMap<Sql, Promise<string | undefined>>();

/**
 * Empties every table but the migrations record, as a `truncate … restart identity cascade`
 * of all of them would, but truncating only the tables that hold rows or whose identity
 * sequence has been used: a truncate of all 60-odd tables cost 125–175 ms a test on Postgres
 * and 250–420 ms on PGlite, about 2,000 times per suite.
 */
export async function resetDatabase(sql: Sql): Promise<void> {
  let query = dirtyTablesQuery.get(sql);
  if (!query) {
    query = (async () => {
      const tables = await sql<{ name: string; seq: string | null }[]>`
        select c.relname as name,
          (select s.oid::regclass::text from pg_depend d
             join pg_class s on s.oid = d.objid and s.relkind = 'S'
           where d.refobjid = c.oid and d.deptype in ('a', 'i') limit 1) as seq
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p') and n.nspname = current_schema()
          and c.relname <> 'schema_migrations'
        order by c.relname`;
      if (tables.length === 0) return undefined;
      const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
      const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
      return tables.map((t) =>
        `select ${literal(t.name)} as name where exists (select 1 from ${quote(t.name)})` +
        (t.seq ? ` or pg_sequence_last_value(${literal(t.seq)}::regclass) is not null` : "")
      ).join(" union all ");
    })();
    dirtyTablesQuery.set(sql, query);
  }
  const text = await query;
  if (!text) return;
  // Background work an earlier test's app started and nobody waits for (a forgot-password
  // request is answered before it is handled) can still be writing: Postgres may then pick the
  // truncate as a deadlock's victim (seen once in CI). It is retried: the other transaction has
  // finished by then, and the tables are read again.
  for (let attempt = 1;; attempt++) {
    const dirty = await sql.unsafe<{ name: string }[]>(text);
    if (dirty.length === 0) return;
    try {
      await sql.unsafe(
        `truncate table ${
          dirty.map((t) => `"${t.name.replaceAll('"', '""')}"`).join(", ")
        } restart identity cascade`,
      );
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== "40P01" || attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

/** Test configuration: defaults plus `overrides`. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: "test",
    LOG_REQUESTS: "0",
    PUBLIC_URL: ORIGIN,
    DATABASE_URL: Deno.env.get("DATABASE_URL"),
    ...overrides,
  });
}

/** A fresh app over a wiped database and an empty in-memory KV. */
export interface TestApp {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  sql: Sql;
  kv: Deno.Kv;
  /** A request with a same-origin `Origin`, JSON body when `body` is given. */
  request(
    method: string,
    path: string,
    options?: { body?: unknown; cookie?: string; headers?: Record<string, string> },
  ): Promise<Response>;
  close(): void;
}

/**
 * Builds a test app. `overrides` are environment variables; `deps` replace built ones;
 * `kvPath` opens that KV file instead of an empty in-memory KV (the multi-instance e2e mode
 * shares one file with the server processes).
 */
export async function createTestApp(
  { env = {}, deps: extra = {}, kvPath = ":memory:" }: {
    env?: Record<string, string>;
    deps?: Partial<AppDeps>;
    kvPath?: string;
  } = {},
): Promise<TestApp> {
  const db = await testDatabase();
  await resetDatabase(db.sql);
  assets ??= ensureBuild();
  const config = testConfig(env);
  const kv = await openKv(kvPath);
  const deps: AppDeps = {
    config,
    sql: db.sql,
    kv,
    assets: await assets,
    geo: createGeoProvider(config),
    parcels: createParcelProvider(config),
    // Tests never reach Google; tests/lib/places_google_test.ts covers it with a fake.
    places: createOfflinePlacesProvider(),
    // Offline unless a test configures Stripe, and then only a fake Stripe API
    // (STRIPE_API_BASE; tests/_stripe_fake.ts).
    payments: config.STRIPE_API_BASE
      ? createPaymentsProvider(config)
      : createOfflinePaymentsProvider(),
    // Postgres unless a test sets S3_BUCKET (and S3_ENDPOINT: a local s3rver).
    storage: createStorageProvider(config, db.sql),
    ...extra,
  };
  const app = createApp(deps);
  return {
    app,
    deps,
    sql: db.sql,
    kv,
    request(method, path, { body, cookie, headers = {} } = {}) {
      // From the app's own public origin unless a test says otherwise (e2e apps have theirs).
      const h: Record<string, string> = { origin: new URL(config.PUBLIC_URL).origin, ...headers };
      if (cookie) h.cookie = cookie;
      let payload: string | undefined;
      if (body !== undefined) {
        payload = typeof body === "string" ? body : JSON.stringify(body);
        h["content-type"] ??= "application/json";
      }
      return Promise.resolve(
        app.request(`${ORIGIN}${path}`, { method, headers: h, body: payload }),
      );
    },
    close() {
      kv.close();
    },
  };
}

/** Deno.test with resource/op sanitizers off: the shared database outlives each test. */
export function test(name: string, fn: () => Promise<void> | void): void {
  Deno.test({ name, fn, sanitizeResources: false, sanitizeOps: false });
}
