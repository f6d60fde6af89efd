/**
 * Test harness: one migrated database per test process (real Postgres when DATABASE_URL is
 * set, in-memory PGlite otherwise), wiped before each test app; KV in memory per app.
 */
import { createApp } from "../main.ts";
import { type Config, loadConfig } from "../lib/config.ts";
import { type Database, openDatabase, type Sql } from "../db/client.ts";
import { migrate, type Migration, readMigrations } from "../db/migrate.ts";
import { PGLITE_SETTINGS } from "../db/embedded.ts";
import { templateKey } from "../db/embedded_initdb.ts";
import { openKv } from "../db/kv.ts";
import { configuredProviders } from "../lib/providers.ts";
import { type Assets, ensureBuild } from "../lib/assets.ts";
import { createOfflinePlacesProvider } from "../lib/places/offline.ts";
import { createOfflinePaymentsProvider } from "../lib/payments/offline.ts";
import { createPaymentsProvider } from "../lib/payments/select.ts";
import type { AppDeps } from "../routes/_env.ts";

/** Origin the test app believes it serves. */
export const ORIGIN = "http://localhost";

let database: Promise<Database> | undefined;
let assets: Promise<Assets> | undefined;

/** The shared, migrated test database. */
export function testDatabase(): Promise<Database> {
  database ??= (async () => {
    const url = Deno.env.get("DATABASE_URL") || undefined;
    if (url) {
      const db = await openDatabase({ DATABASE_URL: url, DATA_DIR: ".data/test" });
      await migrate(db.sql);
      return db;
    }
    const db = await openMigratedPglite();
    // Nothing to do when the copy is current; a safety net should the cache key miss a change.
    await migrate(db.sql);
    return db;
  })();
  return database;
}

/** Where migrated PGlite data directories are kept between test processes. */
const PGLITE_CACHE_DIR = new URL("../.data/test-cache/", import.meta.url);

/**
 * An in-memory PGlite holding the migrated schema. Starting PGlite (initdb) and applying every
 * migration took 3.6–6.6 s per test file, over 100 times per suite; so the first test process
 * of a run does it and saves the files (`dumpDataDir`) under .data/test-cache/, keyed by a hash
 * of the migrations and the PGlite version, and every other one loads them (`loadDataDir`).
 * Tests of migrating an empty database open their own (tests/db/*migrat*).
 * `TEST_PGLITE_CACHE=0` skips the cache (testDatabase then migrates the new database).
 */
async function openMigratedPglite(): Promise<Database> {
  const migrations = await readMigrations();
  const key = await cacheKey(migrations);
  const file = new URL(`pglite-${key}.tar`, PGLITE_CACHE_DIR);
  const open = (loadDataDir?: Blob) =>
    openDatabase({ DATA_DIR: ".data/test" }, { memory: true, loadDataDir });
  // TEST_PGLITE_CACHE=0: initdb and every migration in this process, as before the cache.
  if (Deno.env.get("TEST_PGLITE_CACHE") === "0") return await open();
  const cached = await readCache(file);
  if (cached) return await open(cached);
  await Deno.mkdir(PGLITE_CACHE_DIR, { recursive: true });
  // Test processes started side by side (deno test --parallel) wait for the one that builds it.
  const lock = await Deno.open(new URL("lock", PGLITE_CACHE_DIR), { write: true, create: true });
  try {
    await lock.lock(true);
    const built = await readCache(file);
    if (built) return await open(built);
    const db = await open();
    await migrate(db.sql, migrations);
    // The dump is the files as they are: a checkpoint first, so loading them needs no recovery.
    await db.sql`checkpoint`;
    const tarball = new Uint8Array(await (await db.dumpDataDir!()).arrayBuffer());
    const scratch = new URL(`pglite-${key}.tar.${Deno.pid}`, PGLITE_CACHE_DIR);
    await Deno.writeFile(scratch, tarball);
    await Deno.rename(scratch, file);
    // Copies for older migrations or another PGlite are not read again.
    for await (const entry of Deno.readDir(PGLITE_CACHE_DIR)) {
      if (entry.name.startsWith("pglite-") && entry.name !== `pglite-${key}.tar`) {
        await Deno.remove(new URL(entry.name, PGLITE_CACHE_DIR)).catch(() => {});
      }
    }
    return db;
  } finally {
    lock.close();
  }
}

/**
 * A hash of what a migrated data directory depends on: the migrations, PGlite's version and the
 * settings the copy is made with.
 */
function cacheKey(migrations: Migration[]): Promise<string> {
  return templateKey(migrations, [PGLITE_SETTINGS]);
}

async function readCache(file: URL): Promise<Blob | undefined> {
  try {
    return new Blob([await Deno.readFile(file)]);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/** The query naming the tables a test may have written to, per database handle. */
const dirtyTablesQuery = new WeakMap<Sql, Promise<string | undefined>>();

/**
 * Empties every table but the migrations record and the pruning horizon of the remembered
 * pages' change records (migration 0055: one row, which the pages' check needs), as a
 * `truncate … restart identity cascade` of all of them would, but truncating only the tables
 * that hold rows or whose identity sequence has been used: a truncate of all 60-odd tables cost
 * 125–175 ms a test on Postgres and 250–420 ms on PGlite, about 2,000 times per suite.
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
          and c.relname not in ('schema_migrations', 'snapshot_prune')
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
    ...configuredProviders(config, db.sql),
    // Tests never reach Google; tests/lib/places_google_test.ts covers it with a fake.
    places: createOfflinePlacesProvider(),
    // Offline unless a test configures Stripe, and then only a fake Stripe API
    // (STRIPE_API_BASE; tests/_stripe_fake.ts).
    payments: config.STRIPE_API_BASE
      ? createPaymentsProvider(config)
      : createOfflinePaymentsProvider(),
    // Survey files: Postgres unless a test sets S3_BUCKET (and S3_ENDPOINT: a local s3rver).
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
