/**
 * Joining from an invitation: the claim tokens in the `/surveyor/claim?token=…` links that
 * prospects get with a lead invitation, and the record's way from joined (`pending`) to
 * verified (`active`).
 *
 * Only the SHA-256 of a token is stored (like password-reset tokens); the token itself is only
 * in the emailed link. A token works once, until it expires, for a record that has no account
 * yet and is not paused. Using one (`consumeClaimToken`) is a single conditional update, so two
 * joins with the same link at once cannot both succeed: the second waits on the row lock and
 * then finds it used.
 */
import type { Db } from "./client.ts";
import { isUuid } from "./users.ts";
import type { StateCode } from "../lib/survey_options.ts";
import type { SurveyType } from "../lib/survey_types.ts";
import type { SurveyorStatus } from "../lib/surveyor_schema.ts";
import type { VerifiedVia } from "../lib/surveyor_constants.ts";

/** How long a claim link in a lead invitation works. */
export const CLAIM_TOKEN_TTL_DAYS = 30;

/**
 * Stores a token hash for the record `surveyorId` (invited for `leadId`), valid for
 * `ttlDays` (30 unless given). Call it in the transaction that queues the invitation email.
 */
export async function insertClaimToken(
  db: Db,
  input: { surveyorId: string; leadId: string | null; tokenHash: string; ttlDays?: number },
): Promise<void> {
  await db`
    insert into surveyor_claim_tokens (token_hash, surveyor_id, lead_id, expires_at)
    values (${input.tokenHash}, ${input.surveyorId}, ${input.leadId},
      now() + make_interval(days => ${input.ttlDays ?? CLAIM_TOKEN_TTL_DAYS}::int))`;
}

/** Why a claim link does not work, or that it does. */
export type ClaimTokenState = "valid" | "used" | "expired" | "unknown";

/** The prospect record a claim link belongs to: what the join form starts from. */
export interface ClaimRecord {
  surveyorId: string;
  leadId: string | null;
  companyName: string;
  principalName: string | null;
  licenseNumber: string | null;
  licenseStates: StateCode[];
  email: string | null;
  phone: string | null;
  address: string | null;
  city: string | null;
  state: StateCode | null;
  zip: string | null;
  lat: number | null;
  lng: number | null;
  serviceRadiusMiles: number;
  surveyTypes: SurveyType[];
  status: SurveyorStatus;
}

/**
 * What the link with token hash `tokenHash` opens: `valid` with its record, or why not —
 * `used` (used, or the record already has an account), `expired`, or `unknown` (no such
 * token, or its record is paused: such a link says nothing about the record).
 */
export async function getClaimToken(
  db: Db,
  { tokenHash }: { tokenHash: string },
): Promise<{ state: ClaimTokenState; record?: ClaimRecord }> {
  const [row] = await db<(ClaimRecord & { isUsed: boolean; isExpired: boolean })[]>`
    select t.surveyor_id, t.lead_id, s.company_name, s.principal_name, s.license_number,
      s.license_states, s.email, s.phone, s.address, s.city, s.state, s.zip, s.lat, s.lng,
      s.service_radius_miles, s.survey_types, s.status,
      (t.used_at is not null or s.user_id is not null) as is_used,
      t.expires_at <= now() as is_expired
    from surveyor_claim_tokens t join surveyors s on s.id = t.surveyor_id
    where t.token_hash = ${tokenHash}`;
  if (!row || row.status === "paused") return { state: "unknown" };
  if (row.isUsed) return { state: "used" };
  if (row.isExpired) return { state: "expired" };
  const { isUsed: _u, isExpired: _e, ...record } = row;
  return { state: "valid", record };
}

/**
 * Uses the token: marks it used if it is unused and unexpired, returning its record's id and
 * lead, else undefined. Run it in the transaction that creates the account, so a failure
 * later leaves the link usable.
 */
export async function consumeClaimToken(
  db: Db,
  { tokenHash }: { tokenHash: string },
): Promise<{ surveyorId: string; leadId: string | null } | undefined> {
  const [row] = await db<{ surveyorId: string; leadId: string | null }[]>`
    update surveyor_claim_tokens set used_at = now()
    where token_hash = ${tokenHash} and used_at is null and expires_at > now()
    returning surveyor_id, lead_id`;
  return row;
}

/** Marks every unused token of the record used (its other invitation links stop working). */
export async function voidClaimTokens(db: Db, { surveyorId }: { surveyorId: string }) {
  await db`
    update surveyor_claim_tokens set used_at = now()
    where surveyor_id = ${surveyorId} and used_at is null`;
}

/**
 * The record `id` has joined: status `pending` (waiting for the licence check), in the network,
 * any earlier verification cleared (the licence details were just entered). Source stays.
 */
export async function markSurveyorJoined(db: Db, { id }: { id: string }): Promise<void> {
  await db`
    update surveyors set status = 'pending', in_network = true, verified_at = null,
      verified_by = null, verified_via = null, updated_at = now()
    where id = ${id}`;
}

/** The statuses a record can be verified from (with a linked account for the first two). */
export const VERIFIABLE_STATUSES: readonly SurveyorStatus[] = ["pending", "invited", "prospect"];

/**
 * Verifies the licence of record `id`: pending (or prospect/invited with a linked account) →
 * active, in the network, `verified_at` now, `verified_by` the admin. Returns false (nothing
 * changed) when the record is in any other state or has no account for a prospect/invited.
 */
export async function verifySurveyor(
  db: Db,
  { id, adminId }: { id: string; adminId: string },
): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db`
    update surveyors set status = 'active', in_network = true, verified_at = now(),
      verified_by = ${adminId}, verified_via = 'admin', updated_at = now()
    where id = ${id}
      and (status = 'pending' or (status in ('prospect', 'invited') and user_id is not null))
    returning id`;
  return rows.length === 1;
}

/** When, how and by whom a record's licence was verified (nulls when it was not). */
export interface SurveyorVerification {
  verifiedAt: Date | null;
  verifiedVia: VerifiedVia | null;
  /** The admin's name (null when not verified by an admin, or their account is gone). */
  verifiedByName: string | null;
}

/** When, how and by whom the record's licence was verified, or undefined for no record. */
export async function getSurveyorVerification(
  db: Db,
  { id }: { id: string },
): Promise<SurveyorVerification | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db<SurveyorVerification[]>`
    select ${surveyorVerificationColumns(db)} from surveyors where id = ${id}`;
  return row;
}

/**
 * SQL for the columns of `SurveyorVerification` of the `surveyors` row in scope, for a page's
 * statement (db/surveyor_record.ts) or `getSurveyorVerification`'s.
 */
export function surveyorVerificationColumns(db: Db) {
  return db`verified_at, verified_via,
    (select u.full_name from users u where u.id = surveyors.verified_by) as verified_by_name`;
}
