/**
 * `deno task user …`: create and manage accounts of any role from the command line, for
 * operators and tests. There is no seeded admin and no default password: the first admin is
 * created here, with a generated password unless one is given.
 *
 *   deno task user create --role admin --email a@b.c --name "Ada Admin" [--password …]
 *                         [--company …] [--phone …]
 *   deno task user set-role --email a@b.c --role surveyor
 *   deno task user disable --email a@b.c
 *   deno task user enable --email a@b.c
 *
 * It opens the same database and KV as the server (loadConfig + openDatabase + migrate +
 * openKv), so role changes and disabling end the user's sessions at once. It works while the
 * server runs: with the embedded PGlite (no DATABASE_URL) the server holds DATA_DIR's lock, and
 * the command reaches the server's database through the pglite-socket port it records there
 * (db/embedded.ts) instead of opening the files a second time; with no server running it opens
 * them itself.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import type { Sql } from "../../db/client.ts";
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

/** Usage text printed for `help` and for bad arguments. */
export const USAGE = `Usage:
  deno task user create --role <admin|client|surveyor|technician> --email <email> --name <full name>
                        [--password <password>] [--company <company>] [--phone <phone>]
  deno task user set-role --email <email> --role <admin|client|surveyor|technician>
  deno task user disable --email <email>
  deno task user enable --email <email>

Without --password, create generates one and prints it once.`;

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
        const password = given ?? generatePassword();
        const passwordHash = await hashPassword(password);
        let user;
        try {
          user = await sql.begin(async (tx) => {
            const created = await insertUser(tx, {
              email,
              username: email,
              fullName: name,
              role,
              passwordHash,
              companyName: values.company?.trim() || null,
              phone: values.phone?.trim() || null,
            });
            await insertAuditEvent(tx, {
              event: "user_created",
              ...AUDIT,
              targetId: created.id,
              details: { role, via: "cli" },
            });
            return created;
          });
        } catch (err) {
          if (err instanceof UserExistsError) {
            output.err(`An account with the email ${email} already exists.`);
            return 1;
          }
          throw err;
        }
        output.out(`Created ${role} ${user.email} (id ${user.id}).`);
        if (given === undefined) {
          output.out(`Generated password: ${password}`);
          output.out("It is shown only once; the user can change it on /profile.");
        }
        return 0;
      }
      case "set-role": {
        const email = parseEmail(requireOption(values, "email"));
        const role = parseRole(requireOption(values, "role"));
        const found = await getUserByEmail(sql, email);
        if (!found) {
          output.err(`No account with the email ${email}.`);
          return 1;
        }
        const changed = await sql.begin(async (tx) => {
          const result = await setUserRole(tx, { id: found.id, role });
          if (result && result.previousRole !== role) {
            await insertAuditEvent(tx, {
              event: "role_changed",
              ...AUDIT,
              targetId: found.id,
              details: { from: result.previousRole, to: role, via: "cli" },
            });
          }
          return result;
        });
        if (changed && changed.previousRole !== role) await revokeUserSessions(kv, found.id);
        output.out(
          changed?.previousRole === role
            ? `${found.email} is already ${role}.`
            : `${found.email} is now ${role} (was ${changed?.previousRole}); their sessions ended.`,
        );
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
