/**
 * `deno task user …`: create and manage accounts of any role from the command line, for
 * operators and tests. There is no seeded admin and no default password: the first admin is
 * created here, with a generated password unless one is given.
 *
 *   deno task user create --role admin --email a@b.c --name "Ada Admin" [--password …]
 *                         [--company …] [--phone …] [--firm …]
 *   deno task user set-role --email a@b.c --role surveyor [--firm …]
 *   deno task user disable --email a@b.c
 *   deno task user enable --email a@b.c
 *
 * Every account it makes is complete for its role. A technician is also a member of a crew
 * (the `technicians` row the assign form, the crew lists and the technician pages read):
 * Meridian's staff crew, or with `--firm` (a surveyor record's id or company name) that firm's,
 * made by the same `createTechnicianInTx` as an invitation from /admin/technicians or a
 * surveyor's "Your crew". A surveyor is linked to the firm record `--firm` names (as the admin's
 * "Link account" does); without one the command says what is missing and how to link it.
 *
 * It opens the same database and KV as the server (loadConfig + openDatabase + migrate +
 * openKv), so role changes and disabling end the user's sessions at once. It works while the
 * server runs: with the embedded PGlite (no DATABASE_URL) the server holds DATA_DIR's lock, and
 * the command reaches the server's database through the pglite-socket port it records there
 * (db/embedded.ts) instead of opening the files a second time; with no server running it opens
 * them itself.
 */
import { endSentence } from "../text.ts";
import { parseArgs } from "node:util";
import { z } from "zod";
import type { Db, Sql } from "../../db/client.ts";
import {
  disableUser,
  enableUser,
  getUserByEmail,
  insertUser,
  ROLES,
  setUserRole,
  UserExistsError,
} from "../../db/users.ts";
import { insertAuditEvent } from "../../db/audit.ts";
import { deletePasswordResetTokens } from "../../db/password_resets.ts";
import {
  generatePassword,
  hashPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from "../passwords.ts";
import { revokeUserSessions } from "../sessions.ts";
import type { Role } from "../roles.ts";
import { createTechnicianInTx, TechnicianError } from "../technicians.ts";
import {
  findFirms,
  type FirmMatch,
  getTechnician,
  insertTechnician,
} from "../../db/technicians.ts";
import {
  getLinkedSurveyorId,
  lockSurveyorAccountLink,
  setSurveyorUser,
} from "../../db/surveyor_accounts.ts";

/** Usage text printed for `help` and for bad arguments. */
export const USAGE = `Usage:
  deno task user create --role <admin|client|surveyor|technician> --email <email> --name <full name>
                        [--password <password>] [--company <company>] [--phone <phone>]
                        [--firm <surveyor record id or company name>]
  deno task user set-role --email <email> --role <admin|client|surveyor|technician>
                          [--firm <surveyor record id or company name>]
  deno task user disable --email <email>
  deno task user enable --email <email>

Without --password, create generates one and prints it once.
A technician joins Meridian's staff crew, or with --firm that firm's crew (their company is the
firm's). A surveyor is linked to the firm record --firm names, which must have no account yet.`;

/** Where the CLI writes; tests capture it. */
export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

const consoleOutput: CliOutput = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
};

class UsageError extends Error {}

/** A refusal that is not a usage mistake (unknown firm, email taken): exit code 1. */
class CliError extends Error {}

const Email = z.email();

function requireOption(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value.trim() === "") {
    throw new UsageError(`Missing --${name}`);
  }
  return value.trim();
}

function parseRole(value: string): Role {
  if (!(ROLES as readonly string[]).includes(value)) {
    throw new UsageError(`--role must be one of ${ROLES.join(", ")}`);
  }
  return value as Role;
}

function parseEmail(value: string): string {
  if (value.length > 254 || !Email.safeParse(value).success) {
    throw new UsageError(`Not a valid email address: ${value}`);
  }
  return value;
}

const AUDIT = { ip: null, userAgent: "cli", actorId: null } as const;

/** What a surveyor account without a firm record is missing, and how to link one. */
function unlinkedSurveyorLines(email: string): string[] {
  return [
    `No firm record is linked to ${email}: until one is, their dashboard says "No surveyor ` +
    `profile is linked to your account yet" and they get no leads.`,
    `Link one: run again with --firm <surveyor record id or company name>, or open the firm in ` +
    `/surveyors and use "Link an existing surveyor account" with this email.`,
  ];
}

/** The one firm `--firm` names; a `CliError` when none or several do. */
async function resolveFirm(sql: Sql, match: string): Promise<FirmMatch> {
  const firms = await findFirms(sql, { match, limit: 6 });
  if (firms.length === 0) {
    throw new CliError(
      `No surveyor firm matches --firm ${match} (give a record id, or the company name as ` +
        `/surveyors shows it).`,
    );
  }
  if (firms.length > 1) {
    throw new CliError(
      `--firm ${match} matches ${firms.length} firms; give the record id of one: ` +
        firms.map((f) => `${f.companyName} (${f.id})`).join(", "),
    );
  }
  return firms[0];
}

/** Where a technician works, for the CLI's output. */
function crewName(firm: FirmMatch | null): string {
  return firm ? `the crew of ${firm.companyName} (record id ${firm.id})` : "Meridian's staff crew";
}

/** Links account `userId` to `firm` under the record's lock, with an audit row. */
async function linkFirm(tx: Db, firm: FirmMatch, userId: string): Promise<void> {
  const record = await lockSurveyorAccountLink(tx, { id: firm.id });
  if (!record) throw new CliError(`The firm record ${firm.id} no longer exists.`);
  if (record.userId && record.userId !== userId) {
    throw new CliError(
      `${record.companyName} already has a linked account; unlink it on its page in ` +
        `/surveyors first, or pick another firm.`,
    );
  }
  await setSurveyorUser(tx, { id: firm.id, userId });
  await insertAuditEvent(tx, {
    event: "surveyor_account_linked",
    ...AUDIT,
    targetId: userId,
    details: { surveyorId: firm.id, via: "cli" },
  });
}

/** The line saying which firm record a surveyor account was linked to. */
function linkedLine(firm: FirmMatch): string {
  return `Linked to the firm record ${firm.companyName} (id ${firm.id}, status ${firm.status}).`;
}

/**
 * Runs one CLI command against `sql` and `kv`. Returns the process exit code: 0 done,
 * 1 failed (e.g. unknown user, duplicate email), 2 bad usage.
 */
export async function runUserCli(
  args: string[],
  { sql, kv, output = consoleOutput }: { sql: Sql; kv: Deno.Kv; output?: CliOutput },
): Promise<number> {
  const [command, ...rest] = args;
  try {
    const { values } = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: false,
      options: {
        role: { type: "string" },
        email: { type: "string" },
        name: { type: "string" },
        password: { type: "string" },
        company: { type: "string" },
        phone: { type: "string" },
        firm: { type: "string" },
      },
    });
    switch (command) {
      case "create": {
        const role = parseRole(requireOption(values, "role"));
        const email = parseEmail(requireOption(values, "email"));
        const name = requireOption(values, "name");
        if (name.length > 100) throw new UsageError("--name must be at most 100 characters");
        const given = values.password;
        if (
          given !== undefined &&
          (given.length < PASSWORD_MIN_LENGTH || given.length > PASSWORD_MAX_LENGTH)
        ) {
          throw new UsageError(
            `--password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
          );
        }
        const firmOption = values.firm?.trim();
        if (values.firm !== undefined && !firmOption) throw new UsageError("--firm is empty");
        if (firmOption && role !== "technician" && role !== "surveyor") {
          throw new UsageError("--firm applies only to --role technician or --role surveyor");
        }
        if (role === "technician" && values.company?.trim()) {
          throw new UsageError(
            "--company does not apply to a technician: their company is their firm's (--firm)",
          );
        }
        const firm = firmOption ? await resolveFirm(sql, firmOption) : null;
        if (role === "surveyor" && firm?.userId) {
          throw new CliError(
            `${firm.companyName} already has a linked account; unlink it on its page in ` +
              `/surveyors first, or pick another firm.`,
          );
        }
        const password = given ?? generatePassword();
        const passwordHash = await hashPassword(password);
        const phone = values.phone?.trim() || null;
        let user;
        try {
          user = await sql.begin(async (tx) => {
            if (role === "technician") {
              // The same account and crew row an invitation makes, with a known password.
              return await createTechnicianInTx(tx, {
                fullName: name,
                email,
                phone,
                surveyorId: firm?.id ?? null,
                passwordHash,
                audit: AUDIT,
                via: "cli",
              });
            }
            const created = await insertUser(tx, {
              email,
              username: email,
              fullName: name,
              role,
              passwordHash,
              companyName: values.company?.trim() || (firm ? firm.companyName.slice(0, 100) : null),
              phone,
            });
            await insertAuditEvent(tx, {
              event: "user_created",
              ...AUDIT,
              targetId: created.id,
              details: { role, via: "cli" },
            });
            if (role === "surveyor" && firm) await linkFirm(tx, firm, created.id);
            return created;
          });
        } catch (err) {
          if (
            err instanceof UserExistsError ||
            (err instanceof TechnicianError && err.status === 409)
          ) {
            output.err(`An account with the email ${email} already exists.`);
            return 1;
          }
          // The firm was deleted between the lookup and the insert.
          if (err instanceof TechnicianError) throw new CliError(`${err.message}: ${firmOption}`);
          throw err;
        }
        output.out(`Created ${role} ${user.email} (id ${user.id}).`);
        if (role === "technician") {
          output.out(
            `In ${
              crewName(firm)
            }: they can be assigned to its surveys and appear in its crew list.`,
          );
        } else if (role === "surveyor") {
          if (firm) output.out(linkedLine(firm));
          else for (const line of unlinkedSurveyorLines(user.email)) output.out(line);
        }
        if (given === undefined) {
          output.out(`Generated password: ${password}`);
          output.out("It is shown only once; the user can change it on /profile.");
        }
        return 0;
      }
      case "set-role": {
        const email = parseEmail(requireOption(values, "email"));
        const role = parseRole(requireOption(values, "role"));
        const firmOption = values.firm?.trim();
        if (values.firm !== undefined && !firmOption) throw new UsageError("--firm is empty");
        if (firmOption && role !== "technician" && role !== "surveyor") {
          throw new UsageError("--firm applies only to --role technician or --role surveyor");
        }
        const found = await getUserByEmail(sql, email);
        if (!found) {
          output.err(`No account with the email ${email}.`);
          return 1;
        }
        const firm = firmOption ? await resolveFirm(sql, firmOption) : null;
        const outcome = await sql.begin(async (tx) => {
          const result = await setUserRole(tx, { id: found.id, role });
          if (result && result.previousRole !== role) {
            await insertAuditEvent(tx, {
              event: "role_changed",
              ...AUDIT,
              targetId: found.id,
              details: { from: result.previousRole, to: role, via: "cli" },
            });
          }
          // The role alone is not a complete account: a technician needs a crew, a surveyor a firm.
          let crewLine: string | null = null;
          let firmLines: string[] = [];
          if (role === "technician") {
            const member = await getTechnician(tx, { userId: found.id, lock: true });
            if (member) {
              crewLine = `In ${
                member.surveyorId
                  ? `the crew of ${member.companyName} (record id ${member.surveyorId})`
                  : "Meridian's staff crew"
              }${firm && firm.id !== member.surveyorId ? "; --firm was not applied" : ""}.`;
            } else {
              await insertTechnician(tx, {
                userId: found.id,
                surveyorId: firm?.id ?? null,
                invitedBy: null,
              });
              crewLine = `Added to ${endSentence(crewName(firm))}`;
            }
          } else if (role === "surveyor") {
            const linked = await getLinkedSurveyorId(tx, { userId: found.id });
            if (linked) {
              firmLines = firm && firm.id !== linked
                ? [`Already linked to the firm record ${linked}; --firm was not applied.`]
                : [];
            } else if (firm) {
              if (firm.userId) {
                throw new CliError(
                  `${firm.companyName} already has a linked account; unlink it on its page in ` +
                    `/surveyors first, or pick another firm.`,
                );
              }
              await linkFirm(tx, firm, found.id);
              firmLines = [linkedLine(firm)];
            } else {
              firmLines = unlinkedSurveyorLines(found.email);
            }
          }
          return { changed: result, crewLine, firmLines };
        });
        const { changed } = outcome;
        if (changed && changed.previousRole !== role) await revokeUserSessions(kv, found.id);
        output.out(
          changed?.previousRole === role
            ? `${found.email} is already ${role}.`
            : `${found.email} is now ${role} (was ${changed?.previousRole}); their sessions ended.`,
        );
        if (outcome.crewLine) output.out(outcome.crewLine);
        for (const line of outcome.firmLines) output.out(line);
        return 0;
      }
      case "disable":
      case "enable": {
        const email = parseEmail(requireOption(values, "email"));
        const found = await getUserByEmail(sql, email);
        if (!found) {
          output.err(`No account with the email ${email}.`);
          return 1;
        }
        if (command === "disable") {
          await sql.begin(async (tx) => {
            await disableUser(tx, { id: found.id });
            await deletePasswordResetTokens(tx, { userId: found.id });
            if (!found.disabledAt) {
              await insertAuditEvent(tx, {
                event: "user_disabled",
                ...AUDIT,
                targetId: found.id,
                details: { via: "cli" },
              });
            }
          });
          await revokeUserSessions(kv, found.id);
          output.out(`${found.email} is disabled; their sessions ended.`);
        } else {
          await enableUser(sql, { id: found.id });
          if (found.disabledAt) {
            await insertAuditEvent(sql, {
              event: "user_enabled",
              ...AUDIT,
              targetId: found.id,
              details: { via: "cli" },
            });
          }
          output.out(`${found.email} is enabled.`);
        }
        return 0;
      }
      case "help":
      case "--help":
      case undefined:
        output.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`Unknown command: ${command}`);
    }
  } catch (err) {
    if (err instanceof CliError) {
      output.err(err.message);
      return 1;
    }
    if (
      err instanceof UsageError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
    ) {
      output.err((err as Error).message);
      output.err(USAGE);
      return 2;
    }
    throw err;
  }
}

if (import.meta.main) {
  const { kvPath } = await import("../config.ts");
  const { configOrExit, migrateOrExit, openDatabaseOrExit } = await import("./startup.ts");
  const { openKv } = await import("../../db/kv.ts");
  const config = configOrExit();
  const db = await openDatabaseOrExit(config, { shareRunning: true });
  const kv = await openKv(kvPath(config));
  let code = 1;
  try {
    await migrateOrExit(db);
    code = await runUserCli(Deno.args, { sql: db.sql, kv });
  } finally {
    kv.close();
    await db.close();
  }
  Deno.exit(code);
}
