/**
 * The link between a surveyor record and its surveyor account (`surveyors.user_id`, unique
 * when set). Invitations and links lock the record first (`lockSurveyorAccountLink`) so two
 * admins acting at once are served one after the other; the unique index settles the rest.
 */
import type { Db } from "./client.ts";
import { isUuid } from "./users.ts";
import type { SurveyorStatus } from "../lib/surveyor_schema.ts";
import type { SurveyorAccount } from "../lib/surveyor_profile.ts";

/** What an invitation or a link needs to know about a record, read under its row lock. */
export interface SurveyorAccountLink {
  id: string;
  companyName: string;
  principalName: string | null;
  email: string | null;
  phone: string | null;
  status: SurveyorStatus;
  userId: string | null;
}

/** Thrown by `setSurveyorUser` when the account is already linked to another record. */
export class AccountAlreadyLinkedError extends Error {
  constructor() {
    super("This account is already linked to another surveyor record");
    this.name = "AccountAlreadyLinkedError";
  }
}

/**
 * Locks the record `id` (`for update`, until the caller's transaction ends) and returns its
 * account-related fields, or undefined when there is no such record. Call inside `sql.begin`.
 */
export async function lockSurveyorAccountLink(
  db: Db,
  { id }: { id: string },
): Promise<SurveyorAccountLink | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db<SurveyorAccountLink[]>`
    select id, company_name, principal_name, email, phone, status, user_id
    from surveyors where id = ${id}
    for update`;
  return row;
}

/** The id of the record linked to account `userId`, or undefined. */
export async function getLinkedSurveyorId(
  db: Db,
  { userId }: { userId: string },
): Promise<string | undefined> {
  if (!isUuid(userId)) return undefined;
  const [row] = await db<{ id: string }[]>`select id from surveyors where user_id = ${userId}`;
  return row?.id;
}

/**
 * Links account `userId` to record `id` (null unlinks it) and touches `updated_at`. With
 * `isInvitation`, a prospect becomes 'invited' in the same statement (any other status is
 * kept). Returns false when there is no such record. Throws `AccountAlreadyLinkedError` when
 * the account is linked to another record (the unique index decides, so a race cannot link
 * one account twice).
 */
export async function setSurveyorUser(
  db: Db,
  { id, userId, isInvitation = false }: {
    id: string;
    userId: string | null;
    isInvitation?: boolean;
  },
): Promise<boolean> {
  if (!isUuid(id)) return false;
  try {
    const rows = await db`
      update surveyors set
        user_id = ${userId},
        status = case when ${isInvitation} and status = 'prospect' then 'invited' else status end,
        updated_at = now()
      where id = ${id}
      returning id`;
    return rows.length === 1;
  } catch (err) {
    if ((err as { code?: string }).code === "23505") throw new AccountAlreadyLinkedError();
    throw err;
  }
}

/** The linked account as `surveyorAccountJsonColumn` gives it: its times as JSON writes them. */
export interface SurveyorAccountJson {
  id: string;
  fullName: string;
  email: string;
  lastLogin: string | null;
  disabledAt: string | null;
}

/**
 * SQL for the account linked to the `surveyors` row in scope as JSON (null when none), as the
 * admin's account panel shows it (lib/surveyor_profile.ts `SurveyorAccount`), for a page's
 * statement (db/surveyor_record.ts); `surveyorAccountFromJson` makes the panel's account.
 */
export function surveyorAccountJsonColumn(db: Db) {
  return db`(select json_build_object('id', u.id, 'fullName', u.full_name, 'email', u.email,
      'lastLogin', u.last_login, 'disabledAt', u.disabled_at)
    from users u where u.id = surveyors.user_id)`;
}

/** `surveyorAccountJsonColumn`'s JSON as the panel's account (ISO times), or null. */
export function surveyorAccountFromJson(
  json: SurveyorAccountJson | null,
): SurveyorAccount | null {
  if (!json) return null;
  const iso = (time: string | null) => time === null ? null : new Date(time).toISOString();
  return { ...json, lastLogin: iso(json.lastLogin), disabledAt: iso(json.disabledAt) };
}
