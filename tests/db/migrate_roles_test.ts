/**
 * Migrations as the database role an operator is given (issue 19): a database owner that is
 * not a superuser, on a database made from template0.
 *
 * - A fresh database needs no earthdistance (not a trusted extension: only a superuser may
 *   create it); matching runs on geo_point, geo_distance_m and geo_box over cube (0008).
 * - A database migrated before 0025, with earthdistance and the old generated columns and
 *   indexes, is moved by 0025 to exactly what a fresh one has (the old texts of the four
 *   migrations that used earthdistance are in fixtures/migrations_before_0025/): an embedded
 *   data directory made with earthdistance loaded, opened without it; and, when
 *   EARTHDISTANCE_DATABASE_URL names an empty Postgres database in which a superuser created
 *   earthdistance (CI does), one this role may not drop it from.
 * - A role that may not create an extension (or tables) is told in one line which SQL a
 *   superuser must run, nothing is applied, and `deno task migrate` prints that line alone.
 */
import postgres from "postgres";
import { assert, assertEquals, assertMatch, assertRejects } from "../_assert.ts";
import { resetDatabase, test, testDatabase } from "../_helpers.ts";
import { type Db, openDatabase, type Sql } from "../../db/client.ts";
import {
  migrate,
  type Migration,
  MigrationPrivilegeError,
  readMigrations,
} from "../../db/migrate.ts";
import { findCandidateSurveyors } from "../../lib/matching.ts";
import { DENO_RUN } from "../_deno.ts";
import { embeddedTest } from "../_suite.ts";

const DATABASE_URL = Deno.env.get("DATABASE_URL") || undefined;
const EARTHDISTANCE_DATABASE_URL = Deno.env.get("EARTHDISTANCE_DATABASE_URL") || undefined;
const ROOT = new URL("../../", import.meta.url);

/** db/migrations/ up to 0024 as they were before 0025: with earthdistance. */
async function migrationsBefore0025(): Promise<Migration[]> {
  const old = new URL("fixtures/migrations_before_0025/", import.meta.url);
  const texts = new Map<number, string>();
  for await (const entry of Deno.readDir(old)) {
    texts.set(Number(entry.name.slice(0, 4)), await Deno.readTextFile(new URL(entry.name, old)));
  }
  return (await readMigrations()).filter((m) => m.version < 25)
    .map((m) => ({ ...m, sql: texts.get(m.version) ?? m.sql }));
}

/** What matching is built on, as the catalog describes it: comparable between databases. */
async function geoSchema(sql: Db) {
  const columns = await sql<{ name: string; type: string; expression: string }[]>`
    select a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
      pg_get_expr(d.adbin, d.adrelid) as expression
    from pg_attribute a join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where a.attrelid = 'surveyors'::regclass and a.attname in ('location', 'coverage')
    order by a.attname`;
  const indexes = await sql<{ name: string; definition: string }[]>`
    select indexname as name, indexdef as definition from pg_indexes
    where schemaname = current_schema() and indexdef ilike '%gist%' order by indexname`;
  const functions = await sql<{ definition: string }[]>`
    select pg_get_functiondef(p.oid) as definition from pg_proc p
    where p.pronamespace = current_schema()::regnamespace and p.proname like 'geo\\_%'
      and not exists (select 1 from pg_depend e where e.objid = p.oid and e.deptype = 'e')
    order by p.proname`;
  const extensions = await sql<{ name: string }[]>`
    select extname as name from pg_extension order by extname`;
  return {
    columns: [...columns],
    indexes: [...indexes],
    functions: functions.map((f) => f.definition),
    extensions: extensions.map((e) => e.name),
  };
}

/**
 * Tables, indexes, column defaults and functions of ours (not the extension's own) that use
 * anything of earthdistance's: none once 0025 ran.
 */
async function earthdistanceUsers(sql: Db): Promise<number> {
  const [{ n }] = await sql<{ n: number }[]>`
    select count(*)::int as n from pg_depend d
    where d.deptype = 'n'
      and d.classid in ('pg_class'::regclass, 'pg_attrdef'::regclass, 'pg_proc'::regclass)
      and not exists (select 1 from pg_depend x where x.objid = d.objid and x.deptype = 'e')
      and d.refobjid in (
      select m.objid from pg_depend m join pg_extension e on e.oid = m.refobjid
      where m.refclassid = 'pg_extension'::regclass and e.extname = 'earthdistance')`;
  return n;
}

/**
 * A located, active surveyor in Austin serving 50 miles; the surveyor's id. On a database made
 * before 0026 (`isBeforeVerification`) an active firm has no verification columns yet; 0026
 * records one for it.
 */
async function insertAustinFirm(sql: Db, { isBeforeVerification = false } = {}): Promise<string> {
  const [{ id }] = isBeforeVerification
    ? await sql<{ id: string }[]>`
      insert into surveyors (company_name, lat, lng, service_radius_miles, status, in_network,
        license_states, survey_types)
      values ('Austin Survey Co', 30.2672, -97.7431, 50, 'active', true, '{TX}', '{boundary}')
      returning id`
    : await sql<{ id: string }[]>`
      insert into surveyors (company_name, lat, lng, service_radius_miles, status, in_network,
        license_states, survey_types, verified_at, verified_via)
      values ('Austin Survey Co', 30.2672, -97.7431, 50, 'active', true, '{TX}', '{boundary}',
        now(), 'seed')
      returning id`;
  return id;
}

/** Matching for a property in Round Rock (about 17 miles north): the firm, at what distance. */
async function matchFromRoundRock(sql: Db) {
  const found = await findCandidateSurveyors(sql, {
    lat: 30.5083,
    lng: -97.6789,
    state: "TX",
    surveyType: "boundary",
  });
  return found.map((c) => ({ name: c.companyName, miles: c.distanceMiles }));
}

/** The fresh test database's geo schema and the Round Rock match on it. */
async function freshReference() {
  const { sql } = await testDatabase();
  await resetDatabase(sql);
  await insertAustinFirm(sql);
  const reference = { schema: await geoSchema(sql), match: await matchFromRoundRock(sql) };
  await resetDatabase(sql);
  return reference;
}

test("[migrate] a fresh database is migrated without earthdistance, and matching works", async () => {
  const { sql } = await testDatabase();
  const schema = await geoSchema(sql);
  assert(!schema.extensions.includes("earthdistance"), schema.extensions.join(", "));
  assertEquals(schema.columns.map((c) => [c.name, c.type]), [["coverage", "cube"], [
    "location",
    "cube",
  ]]);
  assertEquals(schema.functions.length, 3);
  const { match } = await freshReference();
  assertEquals(match, [{ name: "Austin Survey Co", miles: 17.1 }]);
  // What earthdistance gives for these points (earth_distance: 27,538.19567088278 m; its
  // earth_box of 27,600 m around Austin holds Round Rock, of 20,000 m it does not).
  const [{ metres, isInBox, isInSmallBox, nothing }] = await sql<
    { metres: string; isInBox: boolean; isInSmallBox: boolean; nothing: number | null }[]
  >`
    select round(geo_distance_m(geo_point(30.2672, -97.7431), geo_point(30.5083, -97.6789))
        ::numeric, 3)::text as metres,
      geo_box(geo_point(30.2672, -97.7431), 27600) @> geo_point(30.5083, -97.6789) as is_in_box,
      geo_box(geo_point(30.2672, -97.7431), 20000) @> geo_point(30.5083, -97.6789)
        as is_in_small_box,
      geo_distance_m(null, geo_point(0, 0)) as nothing`;
  assertEquals([metres, isInBox, isInSmallBox, nothing], ["27538.196", true, false, null]);
});

embeddedTest(
  "[migrate] an embedded database made before 0025 (with earthdistance) upgrades to what a fresh one has",
  async () => {
    const reference = await freshReference();
    const dir = await Deno.makeTempDir({ prefix: "meridian-before-0025-" });
    try {
      // The data directory as the release before 0025 left it: earthdistance loaded and used.
      const { PGlite } = await import("@electric-sql/pglite");
      const [{ cube }, { earthdistance }, { pg_trgm }] = await Promise.all([
        import("@electric-sql/pglite/contrib/cube"),
        import("@electric-sql/pglite/contrib/earthdistance"),
        import("@electric-sql/pglite/contrib/pg_trgm"),
      ]);
      const old = await PGlite.create(`${dir}/pglite`, {
        extensions: { cube, earthdistance, pg_trgm },
      });
      await old.exec(`create table schema_migrations (
      version integer primary key, name text not null,
      applied_at timestamptz not null default now())`);
      for (const m of await migrationsBefore0025()) {
        await old.transaction(async (tx) => {
          await tx.exec(m.sql);
          await tx.query("insert into schema_migrations (version, name) values ($1, $2)", [
            m.version,
            m.name,
          ]);
        });
      }
      await old.exec(`insert into surveyors (company_name, lat, lng, service_radius_miles, status,
      in_network, license_states, survey_types) values ('Austin Survey Co', 30.2672, -97.7431,
      50, 'active', true, '{TX}', '{boundary}')`);
      const { rows } = await old.query<{ type: string }>(
        "select format_type(atttypid, null) as type from pg_attribute " +
          "where attrelid = 'surveyors'::regclass and attname = 'location'",
      );
      assertEquals(rows, [{ type: "earth" }], "the starting point uses earthdistance");
      await old.close();

      // Opened by today's code, which no longer loads earthdistance, and migrated.
      const db = await openDatabase({ DATABASE_URL: undefined, DATA_DIR: dir });
      try {
        const applied = await migrate(db.sql);
        assertEquals(applied.filter((v) => v <= 25), [25]);
        assertEquals(await geoSchema(db.sql), reference.schema);
        assertEquals(await earthdistanceUsers(db.sql), 0);
        assertEquals(await matchFromRoundRock(db.sql), reference.match);
      } finally {
        await db.close();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test({
  name:
    "[migrate] a Postgres database made before 0025, whose earthdistance a superuser created, upgrades to what a fresh one has",
  ignore: !EARTHDISTANCE_DATABASE_URL,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const reference = await freshReference();
    const sql = postgres(EARTHDISTANCE_DATABASE_URL!, {
      max: 1,
      onnotice: () => {},
      transform: { column: { from: postgres.toCamel, to: postgres.fromCamel } },
    });
    try {
      const [{ isEmpty }] = await sql<{ isEmpty: boolean }[]>`
        select to_regclass('schema_migrations') is null as is_empty`;
      assert(isEmpty, "EARTHDISTANCE_DATABASE_URL must name a database not migrated yet");
      assertEquals(await migrate(sql, await migrationsBefore0025()), [
        ...(await migrationsBefore0025()).map((m) => m.version),
      ]);
      await insertAustinFirm(sql, { isBeforeVerification: true });
      assert((await earthdistanceUsers(sql)) > 0, "the starting point uses earthdistance");
      const applied = await migrate(sql);
      assertEquals(applied.filter((v) => v <= 25), [25]);
      const schema = await geoSchema(sql);
      const [{ isOwner }] = await sql<{ isOwner: boolean }[]>`
        select coalesce(bool_or(pg_has_role(extowner, 'usage')), true) as is_owner
        from pg_extension where extname = 'earthdistance'`;
      // Left in place, unused, when this role may not drop it; dropped when it may.
      assertEquals(schema, {
        ...reference.schema,
        extensions: isOwner
          ? reference.schema.extensions
          : [...reference.schema.extensions, "earthdistance"].sort(),
      });
      assertEquals(await earthdistanceUsers(sql), 0);
      assertEquals(await matchFromRoundRock(sql), reference.match);
    } finally {
      await sql.end();
    }
  },
});

/** Expects `migrate` on `sql` to be refused with `message`, and nothing to be applied. */
async function assertRefused(sql: Sql, message: string): Promise<void> {
  const err = await assertRejects(() => migrate(sql));
  assert(err instanceof MigrationPrivilegeError, String(err));
  assertEquals(err.message, message);
  const [{ tables }] = await sql<{ tables: number }[]>`
    select count(*)::int as tables from pg_tables where schemaname = current_schema()`;
  assertEquals(tables, 0, "nothing is applied");
}

embeddedTest(
  "[migrate] an embedded role that may not create the extensions or tables is told what a superuser must run",
  async () => {
    const db = await openDatabase({ DATABASE_URL: undefined, DATA_DIR: "" }, { memory: true });
    try {
      await db.sql`create role plain nosuperuser`;
      await db.sql`set role plain`;
      await assertRefused(
        db.sql,
        `Cannot migrate as role "plain" in database "postgres": it may not create tables in ` +
          `schema "public". A superuser must run, in that database: grant create on schema ` +
          `"public" to "plain";`,
      );
      await db.sql`reset role`;
      await db.sql`grant create on schema public to plain`;
      await db.sql`set role plain`;
      await assertRefused(
        db.sql,
        `Cannot migrate as role "plain" in database "postgres": migration ` +
          `0008_surveyors_leads_jobs needs the extension(s) cube, pg_trgm, which this role may ` +
          `not create. A superuser must run, in that database: create extension if not exists ` +
          `cube; create extension if not exists pg_trgm;`,
      );
    } finally {
      await db.close();
    }
  },
);

test("[migrate] a statement refused to the role (a table a superuser made) is one line naming the SQL, and nothing is applied", async () => {
  const db = await openDatabase({ DATABASE_URL: undefined, DATA_DIR: "" }, { memory: true });
  try {
    await db.sql`create table made_by_superuser (id int)`;
    await db.sql`create role plain nosuperuser`;
    await db.sql`grant create on schema public to plain`;
    await db.sql`set role plain`;
    const err = await assertRejects(() =>
      migrate(db.sql, [
        { version: 1, name: "first", sql: "create table first_table (id int)" },
        { version: 2, name: "widen", sql: "alter table made_by_superuser add column note text" },
      ])
    );
    assert(err instanceof MigrationPrivilegeError, String(err));
    assertEquals(
      err.message,
      `Migration 0002_widen was refused to role "plain": must be owner of table ` +
        `made_by_superuser. A superuser must run, in that database: alter table ` +
        `made_by_superuser owner to "plain"; (or run the migrations as the role that owns it).`,
    );
    const [{ tables }] = await db.sql<{ tables: string[] }[]>`
      select array_agg(tablename::text order by tablename) as tables from pg_tables
      where schemaname = 'public'`;
    assertEquals(tables, ["made_by_superuser"], "nothing is applied");
  } finally {
    await db.close();
  }
});

Deno.test({
  name:
    "[migrate] a Postgres role without CREATE on its database is told in one line what a superuser must run, by deno task migrate too",
  ignore: !DATABASE_URL,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const admin = postgres(DATABASE_URL!, { max: 1, onnotice: () => {} });
    const name = `${new URL(DATABASE_URL!).pathname.slice(1)}_priv_${
      crypto.randomUUID().slice(0, 8)
    }`;
    const [{ role, isSuperuser }] = await admin<{ role: string; isSuperuser: boolean }[]>`
      select current_user as role, rolsuper as "isSuperuser" from pg_roles
      where rolname = current_user`;
    // A database this role owns (CI's role may create databases) with its CREATE privilege
    // revoked; a superuser, whom no privilege check stops, checks as a new plain role instead.
    await admin.unsafe(`create database "${name}" template template0`);
    const url = new URL(DATABASE_URL!);
    url.pathname = `/${name}`;
    const who = isSuperuser ? name : role;
    const sql = postgres(url.href, {
      max: 1,
      onnotice: () => {},
      transform: { column: { from: postgres.toCamel, to: postgres.fromCamel } },
    });
    try {
      if (isSuperuser) {
        await sql.unsafe(`create role "${name}" login nosuperuser`);
        await sql.unsafe(`grant create on schema public to "${name}"`);
        await sql.unsafe(`set role "${name}"`);
        url.username = name;
      } else {
        await sql.unsafe(`revoke create on database "${name}" from "${role}"`);
      }
      const message = `Cannot migrate as role "${who}" in database "${name}": migration ` +
        `0008_surveyors_leads_jobs needs the extension(s) cube, pg_trgm, which this role may ` +
        `not create. A superuser must run, in that database: create extension if not exists ` +
        `cube; create extension if not exists pg_trgm;`;
      await assertRefused(sql, message);
      await sql.end();

      const out = await new Deno.Command(Deno.execPath(), {
        args: [...DENO_RUN, "--no-check", "db/migrate.ts"],
        cwd: ROOT,
        env: { DATABASE_URL: url.href, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assertEquals(out.code, 1, stderr);
      assertEquals(stderr, `${message}\n`);
      assertMatch(new TextDecoder().decode(out.stdout), /^$/);
    } finally {
      await sql.end();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      if (isSuperuser) await admin.unsafe(`drop role if exists "${name}"`);
      await admin.end();
    }
  },
});
