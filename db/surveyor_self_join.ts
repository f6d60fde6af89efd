/**
 * Firms that join by themselves (issue 22, /for-surveyors): finding a firm among the
 * directory's prospects, spotting a firm that is already on another record, and the claim
 * requests such a sign-up leaves for the admins (db/migrations/0042_surveyor_join_requests.sql).
 */
import type postgres from "postgres";
import type { Db } from "./client.ts";
import { isUuid } from "./users.ts";
import type { StateCode } from "../lib/survey_options.ts";
import type { SurveyType } from "../lib/survey_types.ts";

/** A prospect as the public sign-up shows it: directory fields only, never contacts. */
export interface ProspectMatch {
  id: string;
  companyName: string;
  city: string | null;
  state: string | null;
  licenseStates: StateCode[];
  surveyTypes: SurveyType[];
}

/** Most matches one search returns. */
export const PROSPECT_MATCH_LIMIT = 8;

// Company names compared without case, punctuation, spaces or a trailing legal form, so
// "Smith Surveying, LLC" and "smith surveying" are one firm. The SQL below spells the same rule.
const LEGAL_FORM = /(llc|pllc|inc|incorporated|corp|corporation|co|company|ltd|pc|lp|llp)$/;

/** The company name as duplicates are compared: "Smith Surveying, LLC" → "smithsurveying". */
export function normaliseCompanyName(name: string): string {
  const bare = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  const stripped = bare.replace(LEGAL_FORM, "");
  return stripped || bare;
}

/** A licence number as duplicates are compared: "rpls 7788" → "RPLS7788". */
export function normaliseLicenceNumber(value: string): string {
  return value.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * Prospects (status prospect, no account) whose company name contains `q`, whose town starts
 * with it, or whose licence number is it (ignoring case and spaces); best first (name starting
 * with `q`), at most `PROSPECT_MATCH_LIMIT`.
 */
export async function listProspectMatches(
  db: Db,
  { q }: { q: string },
): Promise<ProspectMatch[]> {
  const text = q.trim();
  const licence = normaliseLicenceNumber(text);
  const contains = likePattern(text.toLowerCase());
  const starts = `${text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  return await db<ProspectMatch[]>`
    select id, company_name, city, state, license_states, survey_types
    from surveyors
    where status = 'prospect' and user_id is null
      and (lower(company_name) like ${contains}
        or lower(coalesce(city, '')) like ${starts}
        or (${licence} <> '' and license_number is not null
          and upper(regexp_replace(license_number, '[^A-Za-z0-9]', '', 'g')) = ${licence}))
    order by (lower(company_name) like ${starts}) desc, lower(company_name), id
    limit ${PROSPECT_MATCH_LIMIT}`;
}

/** Why a sign-up went to the admins instead of making or claiming a firm. */
export type ClaimRequestReason = "licence_number" | "company_state" | "taken";

/**
 * The record (other than `excludeId`) that already holds this firm: first one with the same
 * licence number (ignoring case and spaces), else one with the same normalised company name
 * whose office state or licensed states include one of `states`. Undefined when none.
 */
export async function findDuplicateFirm(
  db: Db,
  { companyName, states, licenseNumber, excludeId }: {
    companyName: string;
    states: readonly string[];
    licenseNumber: string;
    excludeId?: string | null;
  },
): Promise<{ id: string; companyName: string; reason: ClaimRequestReason } | undefined> {
  const exclude = excludeId && isUuid(excludeId) ? excludeId : null;
  const licence = normaliseLicenceNumber(licenseNumber);
  if (licence) {
    const [byLicence] = await db<{ id: string; companyName: string }[]>`
      select id, company_name from surveyors
      where license_number is not null
        and upper(regexp_replace(license_number, '[^A-Za-z0-9]', '', 'g')) = ${licence}
        and (${exclude}::uuid is null or id <> ${exclude}::uuid)
      order by created_at, id
      limit 1`;
    if (byLicence) return { ...byLicence, reason: "licence_number" };
  }
  const name = normaliseCompanyName(companyName);
  if (!name || states.length === 0) return undefined;
  const [byName] = await db<{ id: string; companyName: string }[]>`
    select id, company_name from surveyors
    where (state = any(${db.array([...states])}::text[])
        or license_states && ${db.array([...states])}::text[])
      and (${exclude}::uuid is null or id <> ${exclude}::uuid)
      and coalesce(nullif(regexp_replace(
          regexp_replace(lower(company_name), '[^a-z0-9]', '', 'g'),
          '(llc|pllc|inc|incorporated|corp|corporation|co|company|ltd|pc|lp|llp)$', ''), ''),
        regexp_replace(lower(company_name), '[^a-z0-9]', '', 'g')) = ${name}
    order by created_at, id
    limit 1`;
  return byName ? { ...byName, reason: "company_state" } : undefined;
}

/** Records account `userId`'s request to be linked to record `surveyorId`, for admin review. */
export async function insertClaimRequest(
  db: Db,
  { surveyorId, userId, reason, details }: {
    surveyorId: string;
    userId: string;
    reason: ClaimRequestReason;
    details: Record<string, unknown>;
  },
): Promise<{ id: string }> {
  const [row] = await db<{ id: string }[]>`
    insert into surveyor_claim_requests (surveyor_id, user_id, reason, details)
    values (${surveyorId}, ${userId}, ${reason}, ${db.json(details as postgres.JSONValue)})
    returning id`;
  return row;
}

/** The firm name of account `userId`'s pending claim request, or undefined when it has none. */
export async function getPendingClaimRequest(
  db: Db,
  { userId }: { userId: string },
): Promise<{ id: string; surveyorId: string; companyName: string } | undefined> {
  if (!isUuid(userId)) return undefined;
  const [row] = await db<{ id: string; surveyorId: string; companyName: string }[]>`
    select r.id, r.surveyor_id, s.company_name
    from surveyor_claim_requests r join surveyors s on s.id = r.surveyor_id
    where r.user_id = ${userId} and r.status = 'pending'
    limit 1`;
  return row;
}

/** A claim request as the admins review it. */
export interface ClaimRequestView {
  id: string;
  surveyorId: string;
  userId: string;
  userEmail: string;
  userName: string;
  reason: ClaimRequestReason;
  status: "pending" | "approved" | "denied";
  details: Record<string, unknown>;
  createdAt: Date;
}

/** The claim requests on record `surveyorId`, oldest first (at most 50). */
export async function listClaimRequests(
  db: Db,
  { surveyorId }: { surveyorId: string },
): Promise<ClaimRequestView[]> {
  if (!isUuid(surveyorId)) return [];
  const [row] = await db<{ claimRequests: ClaimRequestJson[] }[]>`
    select ${
    claimRequestsJsonColumn(db)
  } as claim_requests from surveyors where id = ${surveyorId}`;
  return claimRequestsFromJson(row?.claimRequests ?? []);
}

/** A claim request as `claimRequestsJsonColumn` gives it: its time as JSON writes it. */
export type ClaimRequestJson = Omit<ClaimRequestView, "createdAt"> & { createdAt: string };

/**
 * SQL for the claim requests on the `surveyors` row in scope as a JSON array, oldest first, at
 * most 50: a column of a page's statement (db/surveyor_record.ts) or `listClaimRequests`'.
 */
export function claimRequestsJsonColumn(db: Db) {
  return db`coalesce((select json_agg(json_build_object('id', r.id,
        'surveyorId', r.surveyor_id, 'userId', r.user_id, 'userEmail', u.email,
        'userName', u.full_name, 'reason', r.reason, 'status', r.status, 'details', r.details,
        'createdAt', r.created_at) order by r.created_at, r.id)
      from (
        select * from surveyor_claim_requests r where r.surveyor_id = surveyors.id
        order by r.created_at, r.id
        limit 50
      ) r join users u on u.id = r.user_id), '[]'::json)`;
}

/** `claimRequestsJsonColumn`'s JSON as the requests. */
export function claimRequestsFromJson(rows: ClaimRequestJson[]): ClaimRequestView[] {
  return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }));
}

/**
 * Decides pending request `id` on record `surveyorId` (locked, in the caller's transaction):
 * returns the request as it was, or undefined when there is no such pending request.
 */
export async function decideClaimRequest(
  db: Db,
  { id, surveyorId, status }: { id: string; surveyorId: string; status: "approved" | "denied" },
): Promise<{ id: string; userId: string } | undefined> {
  if (!isUuid(id) || !isUuid(surveyorId)) return undefined;
  const [row] = await db<{ id: string; userId: string }[]>`
    update surveyor_claim_requests set status = ${status}
    where id = ${id} and surveyor_id = ${surveyorId} and status = 'pending'
    returning id, user_id`;
  return row;
}

// Advisory lock space of sign-ups (db/surveys.ts uses 5, db/lead_market.ts 6).
const SIGN_UP_LOCK_SPACE = 7;

/**
 * Serialises sign-ups that name the same firm, until the caller's transaction ends: one lock
 * per normalised licence number and one per normalised company name, taken in a fixed order,
 * so two sign-ups for one firm at the same moment make one record and one review request.
 */
export async function lockFirmIdentity(
  db: Db,
  { companyName, licenseNumber }: { companyName: string; licenseNumber: string },
): Promise<void> {
  const keys = [
    `licence:${normaliseLicenceNumber(licenseNumber)}`,
    `name:${normaliseCompanyName(companyName)}`,
  ].sort();
  for (const key of keys) {
    await db`select pg_advisory_xact_lock(${SIGN_UP_LOCK_SPACE}, hashtext(${key}))`;
  }
}
