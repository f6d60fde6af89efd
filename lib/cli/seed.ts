/**
 * `deno task seed --demo`: fills an empty database with the demo network of lib/demo_network.ts
 * (several hundred surveyor firms at real US city coordinates with contacts and contact
 * history, a demo admin, verified surveyor accounts with credit, a technician in one firm's
 * crew, demo clients and their survey requests), then takes the requests through the app's own
 * domain functions (lib/cli/seed_lifecycle.ts): dispatched, a lead bought, jobs claimed,
 * in fieldwork and delivered with a file and a review. So every role has something to see and
 * do on first sign-in, on the embedded default at once.
 *
 *   deno task seed --demo [--seed <n>] [--surveyors <n>]
 *   deno task seed --demo --reset-demo      # replace an earlier demo network
 *
 * Everything it writes is marked as demo data (`is_demo` on users and surveyors, emails at
 * @demo.meridian.invalid). The network goes in in one transaction; the lifecycle steps are the
 * app's own transactions, and when one fails the demo data is removed again. It refuses a database with real data (a user or
 * surveyor record it did not make) and one that already has the demo network. Demo accounts
 * get random passwords, printed once at the end with the address to open and, per account,
 * what to try. Like `deno task user` it works while the
 * server runs on the embedded database (it reaches the server's database through its socket).
 */
import { parseArgs } from "node:util";
import type postgres from "postgres";
import type { Db, Sql } from "../../db/client.ts";
import { insertUser } from "../../db/users.ts";
import { insertAuditEvent } from "../../db/audit.ts";
import { getActivePricingConfig } from "../../db/pricing.ts";
import { insertSurvey, insertSurveyEvent } from "../../db/surveys.ts";
import { insertTechnician } from "../../db/technicians.ts";
import { getBalance, postLedgerEntry } from "../../db/ledger.ts";
import { createPostgresStorage } from "../storage/postgres.ts";
import type { StorageProvider } from "../storage/provider.ts";
import { formatCents } from "../quote_text.ts";
import { STATUS_INFO, type SurveyStatus } from "../survey_status.ts";
import type { SurveyorStatus } from "../surveyor_schema.ts";
import { type LifecycleRequest, type LifecycleResult, playLifecycle } from "./seed_lifecycle.ts";
import { listAvailableLeads } from "../../db/lead_market.ts";
import { generatePassword, hashPassword } from "../passwords.ts";
import { priceSurvey } from "../pricing.ts";
import { SurveyRequestSchema } from "../survey_schema.ts";
import {
  DEFAULT_DEMO_SEED,
  DEFAULT_DEMO_SURVEYORS,
  DEMO_EMAIL_DOMAIN,
  type DemoCity,
  type DemoNetwork,
  type DemoStage,
  type DemoSurveyor,
  generateDemoNetwork,
  loadDemoCities,
} from "../demo_network.ts";
import type { Role } from "../roles.ts";
import { listenUrl } from "../public_url.ts";

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
 * benchmarks insert the same records unmarked). Every active record is verified (an active
 * firm is one whose licence was checked): `verified_at` a day after it joined, `verified_by`
 * the admin `verifiedBy` with `verified_via` 'admin' (null: nobody recorded, 'seed'). Returns
 * the new ids in input order.
 */
export async function insertGeneratedSurveyors(
  db: Db,
  surveyors: readonly DemoSurveyor[],
  { authorId = null, userIds = new Map(), isDemo = true, verifiedBy = null }: {
    authorId?: string | null;
    userIds?: ReadonlyMap<number, string>;
    isDemo?: boolean;
    verifiedBy?: string | null;
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
        is_demo, created_at, updated_at, verified_at, verified_by, verified_via
      )
      select
        id, company_name, principal_name, license_number, license_states, email, phone,
        website, address, city, state, zip, lat, lng, service_radius_miles, survey_types,
        in_network, status, source, place_id, rating, review_count, user_id, contacts, notes,
        ${isDemo}, now() - make_interval(mins => minutes_ago), now(),
        case when status = 'active'
          then now() - make_interval(mins => greatest(minutes_ago - 24 * 60, 0)) end,
        case when status = 'active' then ${verifiedBy}::uuid end,
        case when status = 'active' then ${verifiedBy === null ? "seed" : "admin"} end
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

/**
 * Deletes the demo network: the demo clients' surveys (with their leads, jobs, files and
 * reviews), demo surveyors (with their ledgers), demo accounts, and the mail queued to demo
 * addresses (which never leaves: the domain is reserved).
 */
async function deleteDemoData(db: Db): Promise<void> {
  await db`delete from surveys where client_id in (select id from users where is_demo)`;
  await db`delete from surveyors where is_demo`;
  await db`delete from users where is_demo`;
  await db`delete from email_outbox where lower(to_address) like ${`%@${DEMO_EMAIL_DOMAIN}`}`;
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

/**
 * Credit each demo surveyor account's firm has to try the lead market with: an admin's
 * adjustment (the crew firm's also covers the jobs the seed takes for it).
 */
export const DEMO_CREDIT_CENTS = 50_000;

/** Where a demo request's stage leaves its status. */
const STAGE_STATUS: Record<DemoStage, SurveyStatus> = {
  requested: "requested",
  offered: "surveyors_notified",
  bought: "surveyors_notified",
  assigned: "assigned",
  fieldwork: "in_fieldwork",
  delivered: "completed",
};

/** Who an account is in the network, so its id can be found after the insert. */
type AccountOf =
  | { kind: "admin" }
  | { kind: "surveyor"; index: number }
  | { kind: "technician" }
  | { kind: "client"; index: number };

interface Account {
  role: Role;
  of: AccountOf;
  email: string;
  fullName: string;
  companyName: string | null;
  phone: string | null;
  password: string;
  /** What to try first, filled in once the lifecycle has run. */
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

/** The network's ids once stored: accounts by position in `accounts`, firms, requests. */
interface Stored extends SeedResult {
  userIds: string[];
}

async function storeNetwork(
  tx: Db,
  network: DemoNetwork,
  accounts: (Account & { passwordHash: string })[],
): Promise<Stored> {
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
  const idOf = (match: (of: AccountOf) => boolean) => {
    const i = accounts.findIndex((a) => match(a.of));
    return i < 0 ? undefined : userIds[i];
  };
  const adminId = idOf((of) => of.kind === "admin")!;
  const surveyorUserIds = new Map(
    network.surveyorAccounts.map((a, i) => [
      a.surveyorIndex,
      idOf((of) => of.kind === "surveyor" && of.index === i)!,
    ]),
  );

  const inserted = await insertGeneratedSurveyors(tx, network.surveyors, {
    authorId: adminId,
    userIds: surveyorUserIds,
    // The one place the demo says who verified its firms' licences.
    verifiedBy: adminId,
  });

  // Credit as an admin adds it when card top-ups are not set up: a ledger adjustment. The crew
  // firm also gets what its jobs may cost at most (a lead bought and two claim fees at the
  // price cap; its first claim is free), so it keeps the same credit to try the market with.
  const { version, config } = await getActivePricingConfig(tx);
  const crewIndex = network.technician?.surveyorAccountIndex;
  const jobsCents = config.lead.capCents +
    2 * Math.ceil(config.lead.capCents * config.lead.claimFeeMultiple);
  for (const [i, a] of network.surveyorAccounts.entries()) {
    await postLedgerEntry(tx, {
      surveyorId: inserted.ids[a.surveyorIndex],
      kind: "adjustment",
      amountCents: DEMO_CREDIT_CENTS + (i === crewIndex ? jobsCents : 0),
      note: "Demo credit to try the lead market",
      actorId: adminId,
    });
  }

  const technicianId = idOf((of) => of.kind === "technician");
  if (network.technician && technicianId) {
    const crew = network.surveyorAccounts[network.technician.surveyorAccountIndex];
    await insertTechnician(tx, {
      userId: technicianId,
      surveyorId: inserted.ids[crew.surveyorIndex],
      invitedBy: surveyorUserIds.get(crew.surveyorIndex) ?? null,
    });
  }

  // Requests go in the way the app stores a submission: validated by the same schema,
  // priced by the active configuration, inserted with their first event.
  const surveyIds: string[] = [];
  for (const demo of network.requests) {
    const request = SurveyRequestSchema.parse(demo.request);
    const quote = priceSurvey(config, request);
    quote.configVersion = version;
    const id = crypto.randomUUID();
    const clientId = idOf((of) => of.kind === "client" && of.index === demo.clientIndex)!;
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
    userIds,
    surveyorIds: inserted.ids,
    surveyIds,
    contacts: inserted.contacts,
    history: inserted.history,
  };
}

/** The stored requests with the ids of the people the lifecycle acts as. */
function lifecycleRequests(stored: Stored): LifecycleRequest[] {
  const { network, accounts, userIds } = stored;
  const idOf = (match: (of: AccountOf) => boolean) =>
    userIds[accounts.findIndex((a) => match(a.of))];
  const technicianId = network.technician ? idOf((of) => of.kind === "technician") : null;
  return network.requests.map((demo, i) => {
    const account = demo.takenBy === null ? undefined : network.surveyorAccounts[demo.takenBy];
    return {
      surveyId: stored.surveyIds[i],
      stage: demo.stage,
      clientId: idOf((of) => of.kind === "client" && of.index === demo.clientIndex),
      lat: demo.request.lat,
      lng: demo.request.lng,
      firm: account
        ? {
          surveyorId: stored.surveyorIds[account.surveyorIndex],
          userId: idOf((of) => of.kind === "surveyor" && of.index === demo.takenBy),
        }
        : null,
      technicianId: network.technician?.surveyorAccountIndex === demo.takenBy ? technicianId : null,
    };
  });
}

/** "Dansville, NY" from a demo address ("5486 Mill Way, Dansville, NY 14437"). */
function townOf(address: string): string {
  const [, city, stateZip] = address.split(", ");
  return `${city}, ${stateZip.split(" ")[0]}`;
}

/** The demo firms per status as stored now (dispatch has invited some prospects). */
async function countByStatus(sql: Sql): Promise<Record<SurveyorStatus, number>> {
  const byStatus = { active: 0, paused: 0, invited: 0, pending: 0, prospect: 0 };
  const rows = await sql<{ status: SurveyorStatus; n: number }[]>`
    select status, count(*)::int as n from surveyors where is_demo group by status`;
  for (const row of rows) byStatus[row.status] = row.n;
  return byStatus;
}

/** What each account should try first, from what the lifecycle left (read back from the app). */
async function writeNotes(sql: Sql, stored: Stored): Promise<void> {
  const { network, accounts } = stored;
  for (const a of accounts) {
    const of = a.of;
    switch (of.kind) {
      case "admin": {
        const waiting = network.requests.find((r) => r.stage === "requested");
        a.note = waiting
          ? `start here: dispatch the new request in ${
            townOf(waiting.request.address)
          } from /admin-dashboard; the network is on /surveyors`
          : "start here: /admin-dashboard, and the network on /surveyors";
        break;
      }
      case "surveyor": {
        const surveyorId = stored.surveyorIds[network.surveyorAccounts[of.index].surveyorIndex];
        const [balance, open] = await Promise.all([
          getBalance(sql, { surveyorId }),
          listAvailableLeads(sql, { surveyorId, page: 1, pageSize: 1 }),
        ]);
        const isCrew = network.technician?.surveyorAccountIndex === of.index;
        a.note = `${plural(open.total, "open lead")} on /leads, ${
          formatCents(balance ?? 0)
        } credit; ${
          isCrew
            ? "jobs at every stage on /surveyor-dashboard"
            : "buy or claim one, then find it on /surveyor-dashboard"
        }`;
        break;
      }
      case "technician":
        a.note =
          "a job in fieldwork on /technician-dashboard: finish its checklist, mark it surveyed";
        break;
      case "client": {
        const mine = network.requests.filter((r) => r.clientIndex === of.index);
        const stages = [...new Set(mine.map((r) => STATUS_INFO[STAGE_STATUS[r.stage]].label))];
        const delivered = mine.some((r) => r.stage === "delivered");
        const [{ proposals }] = await sql<{ proposals: number }[]>`
          select count(*)::int as proposals
          from survey_proposals p join surveys s on s.id = p.survey_id
          join users u on u.id = s.client_id
          where lower(u.email) = lower(${a.email}) and p.status = 'pending'`;
        a.note = `${plural(mine.length, "request")} on /client-dashboard: ${
          stages.join(", ").toLowerCase()
        }${delivered ? " (open the completed one for its plat and review)" : ""}${
          proposals ? `; ${plural(proposals, "proposal")} from surveyors to compare and accept` : ""
        }`;
        break;
      }
    }
  }
}

function printSummary(
  output: SeedOutput,
  result: SeedResult,
  seconds: number,
  siteUrl: string,
  lifecycle: LifecycleResult & { byStatus: Record<SurveyorStatus, number> },
) {
  const { network } = result;
  const { byStatus } = lifecycle;
  const states = new Set(network.surveyors.map((s) => s.fields.state));
  const requestStates = [...new Set(network.requests.map((r) => r.request.state))];
  const count = (stage: DemoStage) => network.requests.filter((r) => r.stage === stage).length;
  output.out(
    `Seeded the demo network (seed ${network.seed}) in ${seconds.toFixed(1)} s. ` +
      `Everything below is demo data: marked is_demo, emails at @${DEMO_EMAIL_DOMAIN}.`,
  );
  output.out(
    `  ${plural(network.surveyors.length, "surveyor firm")} in ${states.size} states: ` +
      `${byStatus.active} active in-network (licences verified), ${byStatus.paused} paused, ` +
      `${byStatus.invited} invited, ${plural(byStatus.prospect, "prospect")}; ` +
      `${plural(result.contacts, "contact")}, ${
        plural(result.history, "contact-history entry", "contact-history entries")
      }`,
  );
  output.out(
    `  1 admin, ${plural(network.surveyorAccounts.length, "surveyor account")} (${
      formatCents(DEMO_CREDIT_CENTS)
    } of credit each to try the lead market), ${network.technician ? "1 technician, " : ""}${
      plural(network.clients.length, "client")
    } with ${plural(network.requests.length, "survey request")} in ${requestStates.join(", ")}`,
  );
  output.out(
    `  ${plural(lifecycle.dispatched, "request")} dispatched (${
      plural(lifecycle.offers, "offer")
    } to firms); ${plural(count("bought"), "lead")} bought; claimed: ${
      count("assigned")
    } assigned, ` +
      `${count("fieldwork")} in fieldwork, ${
        count("delivered")
      } delivered with a plat and a review; ` +
      `${count("requested")} waiting to be dispatched`,
  );
  output.out("");
  output.out(
    `Open ${siteUrl}/auth and sign in as any of these (passwords are random and shown only this once):`,
  );
  const width = Math.max(...result.accounts.map((a) => a.email.length));
  for (const a of result.accounts) {
    output.out(
      `  ${a.role.padEnd(10)} ${a.email.padEnd(width)}  ${a.password}  ${a.note}`.trimEnd(),
    );
  }
  output.out("");
  output.out(
    "New requests submitted as a demo client are dispatched automatically (AUTO_DISPATCH). " +
      "Replace the demo later with `deno task seed --demo --reset-demo`.",
  );
}

/**
 * Runs the seed command against `sql`. Returns the process exit code: 0 seeded, 1 refused
 * (real data, or demo data without --reset-demo), 2 bad usage. `cities` defaults to the
 * offline ZIP data; `publicUrl` is the address printed and put in the demo's email links
 * (lib/public_url.ts commandPublicUrl; default the default
 * address; null when unknown: the sign-in is printed as a path and the emails link to the
 * default address); `storage` keeps the demo's files (default
 * the Postgres provider on `sql`). Throws when a lifecycle step fails, after removing the demo
 * data it had stored.
 */
export async function runSeedCli(
  args: string[],
  { sql, output = consoleOutput, cities, publicUrl = listenUrl("127.0.0.1", 8000), storage }: {
    sql: Sql;
    output?: SeedOutput;
    cities?: readonly DemoCity[];
    publicUrl?: string | null;
    storage?: StorageProvider;
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
  const add = async (role: Role, of: AccountOf, a: DemoNetwork["admin"]) => {
    const password = generatePassword();
    accounts.push({
      role,
      of,
      ...a,
      password,
      passwordHash: await hashPassword(password),
      note: "",
    });
  };
  await add("admin", { kind: "admin" }, network.admin);
  for (const [index, a] of network.surveyorAccounts.entries()) {
    await add("surveyor", { kind: "surveyor", index }, a);
  }
  if (network.technician) await add("technician", { kind: "technician" }, network.technician);
  for (const [index, c] of network.clients.entries()) {
    await add("client", { kind: "client", index }, c);
  }

  let stored: Stored;
  try {
    stored = await sql.begin(async (tx) => {
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
  let lifecycle: LifecycleResult;
  let byStatus: Record<SurveyorStatus, number>;
  try {
    lifecycle = await playLifecycle(
      {
        sql,
        publicUrl: publicUrl ?? listenUrl("127.0.0.1", 8000),
        storage: storage ?? createPostgresStorage(sql),
      },
      lifecycleRequests(stored),
    );
    await writeNotes(sql, stored);
    byStatus = await countByStatus(sql);
  } catch (err) {
    // Half a demo would refuse the next run as "already there": take it out again.
    await sql.begin((tx) => deleteDemoData(tx));
    throw err;
  }
  if (reset && (before.demoUsers || before.demoSurveyors)) {
    output.out(
      `Removed the earlier demo network (${plural(before.demoUsers, "account")}, ${
        plural(before.demoSurveyors, "surveyor")
      }).`,
    );
  }
  printSummary(output, stored, (performance.now() - started) / 1000, publicUrl ?? "", {
    ...lifecycle,
    byStatus,
  });
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
  const { configOrExit, migrateOrExit, openDatabaseOrExit } = await import("./startup.ts");
  const { createStorageProvider } = await import("../storage/select.ts");
  const { commandPublicUrl } = await import("../public_url.ts");
  const config = configOrExit();
  const db = await openDatabaseOrExit(config, { shareRunning: true });
  let code = 1;
  try {
    await migrateOrExit(db);
    code = await runSeedCli(Deno.args, {
      sql: db.sql,
      publicUrl: (await commandPublicUrl(config)) ?? null,
      storage: createStorageProvider(config, db.sql),
    });
  } finally {
    await db.close();
  }
  Deno.exit(code);
}
