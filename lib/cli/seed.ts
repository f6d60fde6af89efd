/**
 * `deno task seed --demo`: fills an empty database with the demo network of lib/demo_network.ts
 * (several hundred surveyor firms at real US city coordinates with contacts and contact
 * history, a demo admin, surveyor accounts linked to in-network firms, demo clients and their
 * survey requests), so a newcomer sees dispatch working on the embedded default at once.
 *
 *   deno task seed --demo [--seed <n>] [--surveyors <n>]
 *   deno task seed --demo --reset-demo      # replace an earlier demo network
 *
 * Everything it writes is marked as demo data (`is_demo` on users and surveyors, emails at
 * @demo.meridian.invalid), in one transaction. It refuses a database with real data (a user or
 * surveyor record it did not make) and one that already has the demo network. Demo accounts
 * get random passwords, printed once at the end. Like `deno task user` it works while the
 * server runs on the embedded database (it reaches the server's database through its socket).
 */
import { parseArgs } from "node:util";
import type postgres from "postgres";
import type { Db, Sql } from "../../db/client.ts";
import { insertUser } from "../../db/users.ts";
import { insertAuditEvent } from "../../db/audit.ts";
import { getActivePricingConfig } from "../../db/pricing.ts";
import { insertSurvey, insertSurveyEvent } from "../../db/surveys.ts";
import { generatePassword, hashPassword } from "../passwords.ts";
import { priceSurvey } from "../pricing.ts";
import { SurveyRequestSchema } from "../survey_schema.ts";
import {
  DEFAULT_DEMO_SEED,
  DEFAULT_DEMO_SURVEYORS,
  DEMO_EMAIL_DOMAIN,
  type DemoCity,
  type DemoNetwork,
  type DemoSurveyor,
  generateDemoNetwork,
  loadDemoCities,
} from "../demo_network.ts";
import type { Role } from "../roles.ts";

/** Usage text printed for `--help` and for bad arguments. */
export const SEED_USAGE = `Usage:
  deno task seed --demo [--seed <n>] [--surveyors <n>]
  deno task seed --demo --reset-demo [--seed <n>] [--surveyors <n>]

Fills an empty database with a demo surveyor network, demo accounts and requests, all marked
as demo data. --reset-demo replaces an earlier demo network. --seed picks another network
(default ${DEFAULT_DEMO_SEED}); --surveyors how many firms (default ${DEFAULT_DEMO_SURVEYORS}, 60 to 5000).`;

/** Where the CLI writes; tests capture it. */
export interface SeedOutput {
  out(line: string): void;
  err(line: string): void;
}

const consoleOutput: SeedOutput = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
};

class UsageError extends Error {}

// Any fixed number: two seeds at once wait for each other instead of both seeing "empty".
const SEED_LOCK_ID = 7_240_114;
// Rows per insert statement: one parameter (a JSON array) each, well under any message limit.
const BATCH = 5_000;

/** Thrown inside the transaction to roll it back with a one-line reason. */
class SeedRefused extends Error {}

/** Ids of the demo surveyors a bulk insert made, in the order given. */
export interface InsertedSurveyors {
  ids: string[];
  contacts: number;
  history: number;
}

/**
 * Inserts `surveyors` (generated records) in batches of one statement each, with their
 * contacts, and their contact history written by `authorId` (dated `minutesAgo` before now).
 * `userIds` links records to accounts by index. `isDemo` marks the rows as demo data (the
 * benchmarks insert the same records unmarked). Returns the new ids in input order.
 */
export async function insertGeneratedSurveyors(
  db: Db,
  surveyors: readonly DemoSurveyor[],
  { authorId = null, userIds = new Map(), isDemo = true }: {
    authorId?: string | null;
    userIds?: ReadonlyMap<number, string>;
    isDemo?: boolean;
  } = {},
): Promise<InsertedSurveyors> {
  const ids = surveyors.map(() => crypto.randomUUID());
  let contacts = 0;
  let history = 0;
  for (let start = 0; start < surveyors.length; start += BATCH) {
    const rows = surveyors.slice(start, start + BATCH).map((s, i) => {
      const f = s.fields;
      contacts += s.contacts.length;
      return {
        id: ids[start + i],
        company_name: f.companyName,
        principal_name: f.principalName ?? null,
        license_number: f.licenseNumber ?? null,
        license_states: f.licenseStates,
        email: f.email ?? null,
        phone: f.phone ?? null,
        website: f.website ?? null,
        address: f.address ?? null,
        city: f.city ?? null,
        state: f.state,
        zip: f.zip ?? null,
        lat: f.lat,
        lng: f.lng,
        service_radius_miles: f.serviceRadiusMiles,
        survey_types: f.surveyTypes,
        in_network: f.inNetwork,
        status: f.status,
        source: s.source,
        place_id: s.placeId,
        rating: f.rating ?? null,
        review_count: f.reviewCount ?? null,
        user_id: userIds.get(start + i) ?? null,
        contacts: s.contacts,
        notes: f.notes ?? null,
        // Firms joined the directory before their oldest history entry.
        minutes_ago: Math.max(0, ...s.history.map((h) => h.minutesAgo)) + 60 * 24,
      };
    });
    await db`
      insert into surveyors (
        id, company_name, principal_name, license_number, license_states, email, phone,
        website, address, city, state, zip, lat, lng, service_radius_miles, survey_types,
        in_network, status, source, place_id, rating, review_count, user_id, contacts, notes,
        is_demo, created_at, updated_at
      )
      select
        id, company_name, principal_name, license_number, license_states, email, phone,
        website, address, city, state, zip, lat, lng, service_radius_miles, survey_types,
        in_network, status, source, place_id, rating, review_count, user_id, contacts, notes,
        ${isDemo}, now() - make_interval(mins => minutes_ago), now()
      from jsonb_to_recordset(${db.json(rows as unknown as postgres.JSONValue)}) as r(
        id uuid, company_name text, principal_name text, license_number text,
        license_states text[], email text, phone text, website text, address text, city text,
        state text, zip text, lat double precision, lng double precision,
        service_radius_miles integer, survey_types text[], in_network boolean, status text,
        source text, place_id text, rating double precision, review_count integer,
        user_id uuid, contacts jsonb, notes text, minutes_ago integer
      )`;
    const entries = surveyors.slice(start, start + BATCH).flatMap((s, i) =>
      s.history.map((h) => ({
        surveyor_id: ids[start + i],
        channel: h.channel,
        summary: h.summary,
        outcome: h.outcome,
        next_follow_up: h.nextFollowUp,
        minutes_ago: h.minutesAgo,
      }))
    );
    history += entries.length;
    if (entries.length === 0) continue;
    await db`
      insert into surveyor_contact_history (
        surveyor_id, channel, summary, outcome, next_follow_up, author_id, created_at
      )
      select surveyor_id, channel, summary, outcome, next_follow_up, ${authorId},
        now() - make_interval(mins => minutes_ago)
      from jsonb_to_recordset(${db.json(entries as unknown as postgres.JSONValue)}) as r(
        surveyor_id uuid, channel text, summary text, outcome text, next_follow_up date,
        minutes_ago integer
      )`;
  }
  return { ids, contacts, history };
}

interface Existing {
  realUsers: number;
  realSurveyors: number;
  demoUsers: number;
  demoSurveyors: number;
}

async function existingData(db: Db): Promise<Existing> {
  const [row] = await db<Existing[]>`
    select
      (select count(*)::int from users where not is_demo) as real_users,
      (select count(*)::int from surveyors where not is_demo) as real_surveyors,
      (select count(*)::int from users where is_demo) as demo_users,
      (select count(*)::int from surveyors where is_demo) as demo_surveyors`;
  return row;
}

/** Deletes the demo network: the demo clients' surveys, demo surveyors, demo accounts. */
async function deleteDemoData(db: Db): Promise<void> {
  await db`delete from surveys where client_id in (select id from users where is_demo)`;
  await db`delete from surveyors where is_demo`;
  await db`delete from users where is_demo`;
}

function plural(n: number, one: string, many = `${one}s`) {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

function positiveInt(value: string | undefined, name: string, min: number, max: number) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  }
  return n;
}

interface Account {
  role: Role;
  email: string;
  fullName: string;
  companyName: string | null;
  phone: string | null;
  password: string;
  note: string;
}

/** What a finished seed stored, for the summary and the tests. */
export interface SeedResult {
  network: DemoNetwork;
  accounts: Account[];
  surveyorIds: string[];
  surveyIds: string[];
  contacts: number;
  history: number;
}

async function storeNetwork(
  tx: Db,
  network: DemoNetwork,
  accounts: (Account & { passwordHash: string })[],
): Promise<SeedResult> {
  const userIds: string[] = [];
  for (const account of accounts) {
    const user = await insertUser(tx, {
      email: account.email,
      fullName: account.fullName,
      role: account.role,
      passwordHash: account.passwordHash,
      companyName: account.companyName,
      phone: account.phone,
    });
    await insertAuditEvent(tx, {
      event: "user_created",
      ip: null,
      userAgent: "cli",
      actorId: null,
      targetId: user.id,
      details: { role: account.role, via: "seed --demo" },
    });
    userIds.push(user.id);
  }
  await tx`update users set is_demo = true where id = any(${userIds}::uuid[])`;
  const [adminId] = userIds;
  const surveyorUserIds = new Map(
    network.surveyorAccounts.map((a, i) => [a.surveyorIndex, userIds[1 + i]]),
  );
  const clientIds = userIds.slice(1 + network.surveyorAccounts.length);

  const inserted = await insertGeneratedSurveyors(tx, network.surveyors, {
    authorId: adminId,
    userIds: surveyorUserIds,
  });

  // Requests go in the way the app stores a submission: validated by the same schema,
  // priced by the active configuration, inserted with their first event.
  const { version, config } = await getActivePricingConfig(tx);
  const surveyIds: string[] = [];
  for (const demo of network.requests) {
    const request = SurveyRequestSchema.parse(demo.request);
    const quote = priceSurvey(config, request);
    quote.configVersion = version;
    const id = crypto.randomUUID();
    const clientId = clientIds[demo.clientIndex];
    await insertSurvey(tx, { id, clientId, request, quote, pricingConfigVersion: version });
    await insertSurveyEvent(tx, {
      surveyId: id,
      actorId: clientId,
      fromStatus: null,
      toStatus: "requested",
    });
    await tx`
      update surveys set created_at = now() - make_interval(mins => ${demo.minutesAgo}::int),
        updated_at = now() - make_interval(mins => ${demo.minutesAgo}::int)
      where id = ${id}`;
    await tx`
      update survey_events set created_at = now() - make_interval(mins => ${demo.minutesAgo}::int)
      where survey_id = ${id}`;
    surveyIds.push(id);
  }
  return {
    network,
    accounts,
    surveyorIds: inserted.ids,
    surveyIds,
    contacts: inserted.contacts,
    history: inserted.history,
  };
}

function printSummary(output: SeedOutput, result: SeedResult, seconds: number, publicUrl?: string) {
  const { network } = result;
  const byStatus = { active: 0, paused: 0, invited: 0, pending: 0, prospect: 0 };
  for (const s of network.surveyors) byStatus[s.fields.status]++;
  const states = new Set(network.surveyors.map((s) => s.fields.state));
  const requestStates = [...new Set(network.requests.map((r) => r.request.state))];
  output.out(
    `Seeded the demo network (seed ${network.seed}) in ${seconds.toFixed(1)} s. ` +
      `Everything below is demo data: marked is_demo, emails at @${DEMO_EMAIL_DOMAIN}.`,
  );
  output.out(
    `  ${plural(network.surveyors.length, "surveyor firm")} in ${states.size} states: ` +
      `${byStatus.active} active in-network, ${byStatus.paused} paused, ` +
      `${byStatus.invited} invited, ${plural(byStatus.prospect, "prospect")}; ` +
      `${plural(result.contacts, "contact")}, ${
        plural(result.history, "contact-history entry", "contact-history entries")
      }`,
  );
  output.out(
    `  1 admin, ${plural(network.surveyorAccounts.length, "surveyor account")}, ` +
      `${plural(network.clients.length, "client")} with ${
        plural(network.requests.length, "survey request")
      } in ${requestStates.join(", ")}`,
  );
  output.out("");
  output.out("Demo accounts (passwords are random and shown only this once):");
  const width = Math.max(...result.accounts.map((a) => a.email.length));
  for (const a of result.accounts) {
    output.out(
      `  ${a.role.padEnd(9)} ${a.email.padEnd(width)}  ${a.password}  ${a.note}`.trimEnd(),
    );
  }
  output.out("");
  const signIn = publicUrl ? `${publicUrl.replace(/\/$/, "")}/auth` : "/auth";
  output.out(
    `Sign in at ${signIn} as ${network.admin.email} to see the network on /surveyors and ` +
      "dispatch the demo requests from the admin dashboard.",
  );
  output.out(
    "The demo requests wait in 'requested' for you to find and notify surveyors; a new request " +
      "submitted as a demo client is dispatched automatically (AUTO_DISPATCH).",
  );
  output.out("Replace it later with `deno task seed --demo --reset-demo`.");
}

/**
 * Runs the seed command against `sql`. Returns the process exit code: 0 seeded, 1 refused
 * (real data, or demo data without --reset-demo), 2 bad usage. `cities` defaults to the
 * offline ZIP data; `publicUrl` is only used in the closing hint.
 */
export async function runSeedCli(
  args: string[],
  { sql, output = consoleOutput, cities, publicUrl }: {
    sql: Sql;
    output?: SeedOutput;
    cities?: readonly DemoCity[];
    publicUrl?: string;
  },
): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        demo: { type: "boolean" },
        "reset-demo": { type: "boolean" },
        seed: { type: "string" },
        surveyors: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
    if (values.help) {
      output.out(SEED_USAGE);
      return 0;
    }
    if (!values.demo) throw new UsageError("Missing --demo (the only kind of seed there is)");
    positiveInt(values.seed, "seed", 1, 2 ** 31 - 1);
    positiveInt(values.surveyors, "surveyors", 60, 5_000);
  } catch (err) {
    if (
      err instanceof UsageError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
    ) {
      output.err((err as Error).message);
      output.err(SEED_USAGE);
      return 2;
    }
    throw err;
  }
  const seed = positiveInt(values.seed, "seed", 1, 2 ** 31 - 1) ?? DEFAULT_DEMO_SEED;
  const surveyorCount = positiveInt(values.surveyors, "surveyors", 60, 5_000) ??
    DEFAULT_DEMO_SURVEYORS;
  const reset = values["reset-demo"] === true;

  const started = performance.now();
  // A cheap look first, so a refusal does not wait for the data and the password hashing.
  const before = await existingData(sql);
  const refusal = refusalOf(before, reset);
  if (refusal) {
    output.err(refusal);
    return 1;
  }

  const network = generateDemoNetwork(cities ?? await loadDemoCities(), {
    seed,
    surveyorCount,
  });
  const accounts: (Account & { passwordHash: string })[] = [];
  const add = async (role: Role, a: DemoNetwork["admin"], note: string) => {
    const password = generatePassword();
    accounts.push({ role, ...a, password, passwordHash: await hashPassword(password), note });
  };
  await add("admin", network.admin, "← start here");
  for (const a of network.surveyorAccounts) {
    const s = network.surveyors[a.surveyorIndex].fields;
    await add("surveyor", a, `${a.companyName}, ${s.city}, ${s.state}`);
  }
  for (const c of network.clients) {
    const n = network.requests.filter((r) => network.clients[r.clientIndex] === c).length;
    await add("client", c, plural(n, "request"));
  }

  let result: SeedResult;
  try {
    result = await sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(${SEED_LOCK_ID})`;
      const now = await existingData(tx);
      const refused = refusalOf(now, reset);
      if (refused) throw new SeedRefused(refused);
      if (reset) await deleteDemoData(tx);
      return await storeNetwork(tx, network, accounts);
    });
  } catch (err) {
    if (!(err instanceof SeedRefused)) throw err;
    output.err(err.message);
    return 1;
  }
  if (reset && (before.demoUsers || before.demoSurveyors)) {
    output.out(
      `Removed the earlier demo network (${plural(before.demoUsers, "account")}, ${
        plural(before.demoSurveyors, "surveyor")
      }).`,
    );
  }
  printSummary(output, result, (performance.now() - started) / 1000, publicUrl);
  return 0;
}

function refusalOf(existing: Existing, reset: boolean): string | undefined {
  if (existing.realUsers > 0 || existing.realSurveyors > 0) {
    return `This database has real data (${plural(existing.realUsers, "user")}, ${
      plural(existing.realSurveyors, "surveyor record")
    } not made by the demo seed); \`deno task seed --demo\` only fills an empty database.`;
  }
  if (!reset && (existing.demoUsers > 0 || existing.demoSurveyors > 0)) {
    return `This database already has the demo network (${
      plural(existing.demoUsers, "demo account")
    }, ${
      plural(existing.demoSurveyors, "demo surveyor")
    }). Run \`deno task seed --demo --reset-demo\` to replace it.`;
  }
  return undefined;
}

if (import.meta.main) {
  const { configOrExit, openDatabaseOrExit } = await import("./startup.ts");
  const { migrate } = await import("../../db/migrate.ts");
  const { commandPublicUrl } = await import("../public_url.ts");
  const config = configOrExit();
  const db = await openDatabaseOrExit(config, { shareRunning: true });
  let code = 1;
  try {
    await migrate(db.sql);
    const publicUrl = await commandPublicUrl(config);
    code = await runSeedCli(Deno.args, { sql: db.sql, publicUrl });
  } finally {
    await db.close();
  }
  Deno.exit(code);
}
