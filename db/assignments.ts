/**
 * Surveyor assignments (survey_assignments): which surveyor does a survey at which agreed
 * price, and where that stands. At most one open assignment (offered, accepted, scheduled) per
 * survey — a partial unique index decides, so two racing assignments cannot both stay open.
 *
 * The rules (who may move what, what the survey does meanwhile) live in lib/assignments.ts;
 * these functions read and write rows and take `tx` from the caller's transaction.
 */
import type { Db } from "./client.ts";
import { isSurveyId } from "./surveys.ts";
import { isSurveyorId } from "./surveyors.ts";
import type { Assignment, AssignmentStatus } from "../lib/lead_market_schema.ts";
import type { SurveyStatus } from "../lib/survey_schema.ts";
import type { SurveyType } from "../lib/survey_types.ts";

interface AssignmentRow extends Omit<Assignment, "createdAt" | "updatedAt"> {
  createdAt: Date;
  updatedAt: Date;
}

function toAssignment(row: AssignmentRow): Assignment {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

// `a` is survey_assignments, `v` the surveyor.
function assignmentColumns(db: Db) {
  return db`a.id, a.survey_id, a.surveyor_id, v.company_name, a.agreed_price_cents, a.status,
    a.source, a.scheduled_date::text as scheduled_date, a.ended_reason, a.created_at,
    a.updated_at`;
}

/** The survey as an assignment needs it, locked until the transaction ends. */
export interface AssignableSurvey {
  id: string;
  status: SurveyStatus;
  clientId: string;
  clientName: string;
  clientEmail: string | null;
  surveyType: SurveyType;
  address: string;
  state: string;
  quotedPriceCents: number | null;
  scheduledDate: string | null;
  assignedSurveyorId: string | null;
  /** The survey's lead, if it was ever offered to surveyors. */
  leadId: string | null;
}

/**
 * Locks the survey row (`for update`) and returns what an assignment needs, with the client's
 * name and email and the survey's lead, or undefined for an unknown or malformed id.
 */
export async function lockAssignableSurvey(
  db: Db,
  { surveyId }: { surveyId: string },
): Promise<AssignableSurvey | undefined> {
  if (!isSurveyId(surveyId)) return undefined;
  const [row] = await db<AssignableSurvey[]>`
    select s.id, s.status, s.client_id, u.full_name as client_name, u.email as client_email,
      s.survey_type, coalesce(s.formatted_address, s.address) as address, s.state,
      s.quoted_price_cents,
      s.scheduled_date::text as scheduled_date, s.assigned_surveyor_id,
      (select l.id from leads l where l.survey_id = s.id) as lead_id
    from surveys s join users u on u.id = s.client_id
    where s.id = ${surveyId}
    for update of s`;
  return row;
}

/** A surveyor as assignments name them to clients and reach them. */
export interface AssignmentParty {
  id: string;
  companyName: string;
  principalName: string | null;
  phone: string | null;
  licenseNumber: string | null;
  licenseStates: string[];
  status: string;
  /**
   * The linked account (role surveyor) unless there is none or it is disabled, and where to
   * email: the account's address, else the record's.
   */
  userId: string | null;
  email: string | null;
}

/** The surveyor record `surveyorId`, or undefined for an unknown or malformed id. */
export async function getAssignmentParty(
  db: Db,
  { surveyorId }: { surveyorId: string },
): Promise<AssignmentParty | undefined> {
  if (!isSurveyorId(surveyorId)) return undefined;
  const [row] = await db<AssignmentParty[]>`
    select v.id, v.company_name, v.principal_name, v.phone, v.license_number, v.license_states,
      v.status, u.id as user_id, coalesce(u.email, v.email) as email
    from surveyors v left join users u on u.id = v.user_id and u.disabled_at is null
    where v.id = ${surveyorId}`;
  return row;
}

/** The surveyor record linked to account `userId`, or undefined when there is none. */
export async function getSurveyorIdForUser(
  db: Db,
  { userId }: { userId: string },
): Promise<string | undefined> {
  const [row] = await db<{ id: string }[]>`select id from surveyors where user_id = ${userId}`;
  return row?.id;
}

/** The survey's open assignment (offered, accepted or scheduled), or undefined. */
export async function getOpenAssignment(
  db: Db,
  { surveyId }: { surveyId: string },
): Promise<Assignment | undefined> {
  if (!isSurveyId(surveyId)) return undefined;
  const [row] = await db<AssignmentRow[]>`
    select ${assignmentColumns(db)}
    from survey_assignments a join surveyors v on v.id = a.surveyor_id
    where a.survey_id = ${surveyId} and a.status in ('offered', 'accepted', 'scheduled')`;
  return row && toAssignment(row);
}

/**
 * The assignment of `surveyorId` on `surveyId` that a status change acts on: the open one if
 * any, else their latest. Undefined when they never had one (or an id is malformed).
 */
export async function getSurveyorAssignment(
  db: Db,
  { surveyId, surveyorId }: { surveyId: string; surveyorId: string },
): Promise<Assignment | undefined> {
  if (!isSurveyId(surveyId) || !isSurveyorId(surveyorId)) return undefined;
  const [row] = await db<AssignmentRow[]>`
    select ${assignmentColumns(db)}
    from survey_assignments a join surveyors v on v.id = a.surveyor_id
    where a.survey_id = ${surveyId} and a.surveyor_id = ${surveyorId}
    order by (a.status in ('offered', 'accepted', 'scheduled')) desc, a.created_at desc
    limit 1`;
  return row && toAssignment(row);
}

/** Inserts an assignment and returns it with the surveyor's company name. */
export async function insertAssignment(
  db: Db,
  input: {
    surveyId: string;
    surveyorId: string;
    agreedPriceCents: number;
    status: "offered" | "accepted";
    source: "claim" | "admin" | "proposal";
    assignedBy: string | null;
  },
): Promise<Assignment> {
  const [row] = await db<AssignmentRow[]>`
    with a as (
      insert into survey_assignments
        (survey_id, surveyor_id, agreed_price_cents, status, source, assigned_by)
      values (${input.surveyId}, ${input.surveyorId}, ${input.agreedPriceCents},
        ${input.status}, ${input.source}, ${input.assignedBy})
      returning *
    )
    select ${assignmentColumns(db)} from a join surveyors v on v.id = a.surveyor_id`;
  return toAssignment(row);
}

/**
 * Moves assignment `id` from `from` to `status` (compare-and-set: undefined, changing nothing,
 * when it is no longer in `from`), with the visit day when scheduling and the reason when it
 * ends.
 */
export async function updateAssignmentStatus(
  db: Db,
  input: {
    id: string;
    from: AssignmentStatus;
    status: AssignmentStatus;
    scheduledDate?: string;
    endedReason?: string | null;
  },
): Promise<Assignment | undefined> {
  const [row] = await db<AssignmentRow[]>`
    with a as (
      update survey_assignments set
        status = ${input.status},
        scheduled_date = coalesce(${input.scheduledDate ?? null}::date, scheduled_date),
        ended_reason = coalesce(${input.endedReason ?? null}, ended_reason),
        updated_at = now()
      where id = ${input.id} and status = ${input.from}
      returning *
    )
    select ${assignmentColumns(db)} from a join surveyors v on v.id = a.surveyor_id`;
  return row && toAssignment(row);
}

/** Points the survey at its assigned surveyor (null: nobody). */
export async function setAssignedSurveyor(
  db: Db,
  { surveyId, surveyorId }: { surveyId: string; surveyorId: string | null },
): Promise<void> {
  await db`
    update surveys set assigned_surveyor_id = ${surveyorId}, updated_at = now()
    where id = ${surveyId}`;
}

/** Page size of `listSurveyorAssignments`. */
export const SURVEYOR_ASSIGNMENTS_PAGE = 50;

/** An assignment with the survey facts a surveyor's list shows (no client details). */
export interface SurveyorAssignmentItem extends Assignment {
  surveyType: SurveyType;
  surveyStatus: SurveyStatus;
  state: string;
}

/**
 * A surveyor's assignments, open ones first then newest first, at most
 * `SURVEYOR_ASSIGNMENTS_PAGE` (read through survey_assignments_surveyor_idx).
 */
export async function listSurveyorAssignments(
  db: Db,
  { surveyorId, openOnly = false }: { surveyorId: string; openOnly?: boolean },
): Promise<SurveyorAssignmentItem[]> {
  if (!isSurveyorId(surveyorId)) return [];
  const rows = await db<(AssignmentRow & Omit<SurveyorAssignmentItem, keyof Assignment>)[]>`
    select ${assignmentColumns(db)}, s.survey_type, s.status as survey_status, s.state
    from survey_assignments a
    join surveyors v on v.id = a.surveyor_id
    join surveys s on s.id = a.survey_id
    where a.surveyor_id = ${surveyorId}
      ${openOnly ? db`and a.status in ('offered', 'accepted', 'scheduled')` : db``}
    order by (a.status in ('offered', 'accepted', 'scheduled')) desc, a.created_at desc
    limit ${SURVEYOR_ASSIGNMENTS_PAGE}`;
  return rows.map((r) => ({
    ...toAssignment(r),
    surveyType: r.surveyType,
    surveyStatus: r.surveyStatus,
    state: r.state,
  }));
}

/** A surveyor who bought or claimed the survey's lead. */
export interface SurveyBuyer {
  surveyorId: string;
  companyName: string;
  principalName: string | null;
  kind: "buy" | "claim";
  /** ISO timestamp. */
  purchasedAt: string;
  isRefunded: boolean;
}

/**
 * Who bought or claimed the survey's lead, first buyer first (a lead has at most its
 * `max_buyers`, so the list is short; read through the leads and lead_purchases keys).
 */
export async function listSurveyBuyers(
  db: Db,
  { surveyId }: { surveyId: string },
): Promise<SurveyBuyer[]> {
  if (!isSurveyId(surveyId)) return [];
  const rows = await db<(Omit<SurveyBuyer, "purchasedAt"> & { purchasedAt: Date })[]>`
    select p.surveyor_id, v.company_name, v.principal_name, p.kind,
      p.created_at as purchased_at, p.refunded_at is not null as is_refunded
    from leads l
    join lead_purchases p on p.lead_id = l.id
    join surveyors v on v.id = p.surveyor_id
    where l.survey_id = ${surveyId}
    order by p.created_at, p.id`;
  return rows.map((r) => ({ ...r, purchasedAt: r.purchasedAt.toISOString() }));
}

/** Company and principal names of the surveyor records `ids` (unknown ids are left out). */
export async function listSurveyorNames(
  db: Db,
  { ids }: { ids: string[] },
): Promise<{ id: string; companyName: string; principalName: string | null }[]> {
  const valid = ids.filter((id) => isSurveyorId(id));
  if (valid.length === 0) return [];
  return await db<{ id: string; companyName: string; principalName: string | null }[]>`
    select id, company_name, principal_name from surveyors
    where id = any(${db.array(valid)}::uuid[])`;
}
