/**
 * Licence checks of states and numbers a verified firm's surveyor asked for (issue 20): the
 * per-state record `surveyor_licence_states` and the firm's `pending_license_number`
 * (db/migrations/0032_licence_states.sql). A request never touches `license_states` or
 * `license_number`, the values that count; only an admin's approval does.
 *
 * Every write here runs in the caller's transaction after the firm's row is locked
 * (`lockSurveyorAccountLink` or `lockFirm`), so a request and a decision on the same firm are
 * served one after the other.
 */
import type { Db } from "./client.ts";
import { isUuid } from "./users.ts";
import type { StateCode } from "../lib/survey_options.ts";
import type { LicenceCheck, LicenceChecks } from "../lib/surveyor_licence.ts";

/** True when a surveyor record `id` exists. */
export async function firmExists(db: Db, { id }: { id: string }): Promise<boolean> {
  if (!isUuid(id)) return false;
  const [row] = await db`select 1 from surveyors where id = ${id}`;
  return Boolean(row);
}

/** The firm's row, locked, as a licence decision needs it; undefined when there is none. */
export async function lockFirm(
  db: Db,
  { id }: { id: string },
): Promise<
  | {
    id: string;
    companyName: string;
    userId: string | null;
    licenseNumber: string | null;
    licenseStates: StateCode[];
    pendingLicenseNumber: string | null;
    verifiedAt: Date | null;
  }
  | undefined
> {
  if (!isUuid(id)) return undefined;
  const [row] = await db<
    {
      id: string;
      companyName: string;
      userId: string | null;
      licenseNumber: string | null;
      licenseStates: StateCode[];
      pendingLicenseNumber: string | null;
      verifiedAt: Date | null;
    }[]
  >`
    select id, company_name, user_id, license_number, license_states, pending_license_number,
      verified_at
    from surveyors where id = ${id}
    for update`;
  return row;
}

/**
 * Records `states` as asked for by account `userId` under `licenceNumber`: each becomes pending
 * (a rejected one is asked again, with a new request time); one already pending or verified is
 * left as it is. Returns the states that became pending now.
 */
export async function requestLicenceStates(
  db: Db,
  { surveyorId, states, licenceNumber, userId }: {
    surveyorId: string;
    states: readonly StateCode[];
    licenceNumber: string | null;
    userId: string;
  },
): Promise<StateCode[]> {
  if (states.length === 0) return [];
  const rows = await db<{ state: StateCode }[]>`
    insert into surveyor_licence_states
      (surveyor_id, state, status, licence_number, requested_at, requested_by)
    select ${surveyorId}, st, 'pending', ${licenceNumber}, now(), ${userId}
    from unnest(${db.array([...states])}::text[]) as st
    on conflict (surveyor_id, state) do update
      set status = 'pending', licence_number = excluded.licence_number,
        requested_at = now(), requested_by = excluded.requested_by,
        decided_at = null, decided_by = null, verified_via = null
      where surveyor_licence_states.status = 'rejected'
    returning state`;
  return rows.map((r) => r.state).sort();
}

/** Withdraws the pending requests for `states` (the surveyor took them off their list). */
export async function withdrawLicenceStates(
  db: Db,
  { surveyorId, states }: { surveyorId: string; states: readonly StateCode[] },
): Promise<void> {
  if (states.length === 0) return;
  await db`
    delete from surveyor_licence_states
    where surveyor_id = ${surveyorId} and status = 'pending'
      and state = any(${db.array([...states])}::text[])`;
}

/** Sets (a string) or withdraws (null) the firm's pending licence number. */
export async function setPendingLicenceNumber(
  db: Db,
  { surveyorId, licenceNumber }: { surveyorId: string; licenceNumber: string | null },
): Promise<void> {
  await db`
    update surveyors
    set pending_license_number = ${licenceNumber},
      pending_license_number_at = case when ${licenceNumber}::text is null then null
        when pending_license_number is not distinct from ${licenceNumber}::text
          then pending_license_number_at
        else now() end,
      updated_at = now()
    where id = ${surveyorId}`;
}

/** An admin's answer to a licence request. */
export type LicenceDecision = "verify" | "reject";

/**
 * Decides the pending request for `state` of firm `surveyorId` (locked by the caller):
 * verified, it joins `license_states` (kept in order) and counts from now; rejected, it stays
 * off. Returns false when no request for that state is pending (nothing changed).
 */
export async function decideLicenceState(
  db: Db,
  { surveyorId, state, decision, adminId }: {
    surveyorId: string;
    state: StateCode;
    decision: LicenceDecision;
    adminId: string;
  },
): Promise<boolean> {
  const rows = await db`
    update surveyor_licence_states
    set status = ${decision === "verify" ? "verified" : "rejected"},
      decided_at = now(), decided_by = ${adminId},
      verified_via = ${decision === "verify" ? "admin" : null}
    where surveyor_id = ${surveyorId} and state = ${state} and status = 'pending'
    returning state`;
  if (rows.length === 0) return false;
  if (decision === "verify") {
    // The row is verified first, so the sync trigger keeps this approval's provenance.
    await db`
      update surveyors
      set license_states = array(
          select distinct st from unnest(license_states || array[${state}::text]) as st
          order by st
        ),
        updated_at = now()
      where id = ${surveyorId}`;
  }
  return true;
}

/**
 * Decides the firm's pending licence number when it is still `licenceNumber` (the one the
 * admin checked): verified, it becomes the firm's number (and the number its verified states
 * are recorded under); rejected, the firm keeps its number. Returns false when that number is
 * not pending (none, or the surveyor changed it meanwhile): nothing changed.
 */
export async function decideLicenceNumber(
  db: Db,
  { surveyorId, licenceNumber, decision }: {
    surveyorId: string;
    licenceNumber: string;
    decision: LicenceDecision;
  },
): Promise<boolean> {
  const rows = await db`
    update surveyors
    set license_number = case when ${decision} = 'verify' then pending_license_number
        else license_number end,
      pending_license_number = null, pending_license_number_at = null, updated_at = now()
    where id = ${surveyorId} and pending_license_number = ${licenceNumber}
    returning id`;
  if (rows.length === 0) return false;
  if (decision === "verify") {
    await db`
      update surveyor_licence_states set licence_number = ${licenceNumber}
      where surveyor_id = ${surveyorId} and status = 'verified'`;
  }
  return true;
}

/** One state of a firm as the licence record has it. */
export interface LicenceStateRecord {
  state: StateCode;
  status: "pending" | "verified" | "rejected";
  licenceNumber: string | null;
  /** ISO time of the request (or, for a state verified with the record, of its recording). */
  requestedAt: string;
  /** ISO time of the decision, or null while pending. */
  decidedAt: string | null;
  verifiedVia: "admin" | "record" | "migration" | null;
  /** The deciding admin's name, when an admin decided and their account still exists. */
  decidedByName: string | null;
}

/** Every state of firm `surveyorId` on its licence record, by state. */
export async function listLicenceStates(
  db: Db,
  { surveyorId }: { surveyorId: string },
): Promise<LicenceStateRecord[]> {
  if (!isUuid(surveyorId)) return [];
  const rows = await db<
    (Omit<LicenceStateRecord, "requestedAt" | "decidedAt"> & {
      requestedAt: Date;
      decidedAt: Date | null;
    })[]
  >`
    select ls.state, ls.status, ls.licence_number, ls.requested_at, ls.decided_at,
      ls.verified_via, u.full_name as decided_by_name
    from surveyor_licence_states ls left join users u on u.id = ls.decided_by
    where ls.surveyor_id = ${surveyorId}
    order by ls.state`;
  return rows.map((r) => ({
    ...r,
    requestedAt: r.requestedAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
  }));
}

/** Most firms `listLicenceChecks` returns at once. */
export const LICENCE_CHECKS_LIMIT = 100;

/**
 * The firms with a pending state or licence number, or waiting for their first licence check
 * (status pending, with an account: they joined by themselves or from an invitation), oldest
 * request first (at most
 * `LICENCE_CHECKS_LIMIT`), and how many there are in all.
 */
export async function listLicenceChecks(
  db: Db,
): Promise<LicenceChecks> {
  const rows = await db<
    (Omit<LicenceCheck, "oldestRequestAt" | "pendingStates"> & {
      oldestRequestAt: Date;
      pendingStates: { state: StateCode; licenceNumber: string | null; requestedAt: string }[];
      total: number;
    })[]
  >`
    with waiting as (
      select surveyor_id, min(requested_at) as oldest from (
        select surveyor_id, requested_at from surveyor_licence_states where status = 'pending'
        union all
        select id, pending_license_number_at from surveyors
        where pending_license_number is not null
        union all
        -- A firm that joined (on /for-surveyors or from an invitation) and waits for its
        -- first licence check; its last change is when it went to the check.
        select id, updated_at from surveyors where status = 'pending' and user_id is not null
      ) r group by surveyor_id
    )
    select s.id as surveyor_id, s.company_name, s.license_number, s.license_states,
      s.pending_license_number, w.oldest as oldest_request_at,
      (s.status = 'pending') as awaiting_first_check, s.principal_name, s.city, s.state,
      (select count(*) from waiting)::int as total,
      coalesce((
        select jsonb_agg(jsonb_build_object('state', ls.state,
          'licenceNumber', ls.licence_number, 'requestedAt', ls.requested_at) order by ls.state)
        from surveyor_licence_states ls
        where ls.surveyor_id = s.id and ls.status = 'pending'
      ), '[]'::jsonb) as pending_states
    from waiting w join surveyors s on s.id = w.surveyor_id
    order by w.oldest, s.id
    limit ${LICENCE_CHECKS_LIMIT}`;
  return {
    total: rows[0]?.total ?? 0,
    checks: rows.map(({ total: _total, oldestRequestAt, pendingStates, ...r }) => ({
      ...r,
      pendingStates: pendingStates.map((p) => ({
        ...p,
        requestedAt: new Date(p.requestedAt).toISOString(),
      })),
      oldestRequestAt: oldestRequestAt.toISOString(),
    })),
  };
}

/**
 * How many firms wait for a licence check: of a state or number they asked for, or their first
 * (a firm that joined and has not been verified yet). A scalar subquery (an int), read in the
 * statement of a console tab (db/admin_console.ts).
 */
export function licenceChecksCountColumn(db: Db) {
  return db`(
    select count(*)::int from (
      select surveyor_id from surveyor_licence_states where status = 'pending'
      union
      select id from surveyors where pending_license_number is not null
      union
      select id from surveyors where status = 'pending' and user_id is not null
    ) w
  )`;
}

/**
 * Rejects the first licence check of firm `id` (status pending): the firm is paused, so it
 * buys no lead and has no public page, and it leaves the queue. Returns false, changing
 * nothing, when the firm is not waiting for its first check.
 */
export async function rejectFirstLicenceCheck(
  db: Db,
  { id }: { id: string },
): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db`
    update surveyors set status = 'paused', updated_at = now()
    where id = ${id} and status = 'pending'
    returning id`;
  return rows.length === 1;
}
