/**
 * Who may work on a survey's fieldwork and delivery, and as what: the one ownership check
 * behind the technician pages, the checklist API, file uploads and downloads, the field
 * actions and completion.
 *
 * - admin: every survey.
 * - client: their own survey (they see progress and deliverables, never internal notes).
 * - surveyor: the surveyor firm doing the job, i.e. with an accepted, scheduled or completed
 *   assignment on it (an offer not yet accepted gives no access to the fieldwork).
 * - technician: the survey's current technician (surveys.assigned_technician_id).
 *
 * Anyone else gets undefined, which routes answer with a 404.
 */
import type postgres from "postgres";
import type { Db } from "./client.ts";
import { isSurveyId } from "./surveys.ts";
import { roleLiteral } from "./sql_literals.ts";
import type { SessionUser } from "../lib/roles.ts";
import type { SurveyStatus } from "../lib/survey_status.ts";
import type { SurveyType } from "../lib/survey_types.ts";

/** The role a caller works on a survey in. */
export type FieldworkRole = "admin" | "client" | "surveyor" | "technician";

/** The survey as fieldwork checks need it. */
export interface FieldworkSurvey {
  id: string;
  status: SurveyStatus;
  clientId: string;
  surveyType: SurveyType;
  address: string;
  state: string;
  altaItems: string[];
  scheduledDate: string | null;
  surveyedDate: string | null;
  completedDate: string | null;
  assignedTechnicianId: string | null;
  /** The firm doing the job (accepted, scheduled or completed assignment), or null. */
  workingSurveyorId: string | null;
}

/**
 * SQL for the id of the firm doing (or having done) the job of the survey aliased `s`: its
 * accepted, scheduled or completed assignment, the open one first; null when there is none.
 * The one spelling of "the working firm", for every query that needs it.
 */
export function workingSurveyorId(db: Db) {
  return db`(select a.surveyor_id from survey_assignments a
    where a.survey_id = s.id and a.status in ('accepted', 'scheduled', 'completed')
    order by (a.status <> 'completed') desc, a.created_at desc limit 1)`;
}

/** A caller's access to a survey's fieldwork. */
export interface FieldworkAccess {
  survey: FieldworkSurvey;
  as: FieldworkRole;
  /** The caller's own surveyor record when they are a surveyor, else null. */
  callerSurveyorId: string | null;
}

/**
 * SQL for the survey aliased `s` as `FieldworkSurvey` JSON, its working firm's id being
 * `working` (SQL; `workingSurveyorId` unless the caller knows it): the one spelling of what the
 * fieldwork checks read of a survey.
 */
function fieldworkSurveyJson(
  db: Db,
  working: postgres.PendingQuery<postgres.Row[]> = workingSurveyorId(db),
) {
  return db`json_build_object(
      'id', s.id, 'status', s.status, 'clientId', s.client_id, 'surveyType', s.survey_type,
      'address', coalesce(s.formatted_address, s.address), 'state', s.state,
      'altaItems', s.alta_items, 'scheduledDate', s.scheduled_date::text,
      'surveyedDate', s.surveyed_date::text, 'completedDate', s.completed_date::text,
      'assignedTechnicianId', s.assigned_technician_id, 'workingSurveyorId', ${working})`;
}

/**
 * SQL for the survey aliased `s` as `FieldworkSurvey` JSON when the firm `surveyorId` (SQL) is
 * the firm doing its job, else null: that firm's `getFieldworkAccess` (as "surveyor") for a
 * column of a statement that reads the survey anyway (db/surveyor_jobs.ts, the job page);
 * nothing of the survey comes back to any other firm.
 */
export function workingFirmFieldworkJson(
  db: Db,
  surveyorId: postgres.PendingQuery<postgres.Row[]>,
) {
  return db`case when ${workingSurveyorId(db)} = ${surveyorId}
    then ${fieldworkSurveyJson(db, surveyorId)} end`;
}

/**
 * The survey `surveyId` with the role `user` works on it in, or undefined when the survey does
 * not exist, the id is malformed, or the user may not see its fieldwork. With `lock`, the
 * survey row is locked (`for update`) until the transaction ends: pass the caller's `tx`.
 */
export async function getFieldworkAccess(
  db: Db,
  { surveyId, user, lock = false }: {
    surveyId: string;
    user: Pick<SessionUser, "id" | "role">;
    lock?: boolean;
  },
): Promise<FieldworkAccess | undefined> {
  if (!isSurveyId(surveyId)) return undefined;
  const [row] = await db<{ survey: FieldworkSurvey; callerSurveyorId: string | null }[]>`
    select ${fieldworkSurveyJson(db)} as survey,
      ${callerSurveyorIdColumn(db, user)} as caller_surveyor_id
    from surveys s
    where s.id = ${surveyId}
    ${lock ? db`for update of s` : db``}`;
  if (!row) return undefined;
  const { survey, callerSurveyorId } = row;
  const as = fieldworkRoleOf(survey, user, callerSurveyorId);
  return as ? { survey, as, callerSurveyorId } : undefined;
}

/** SQL for the caller's own surveyor record id when `user` is a surveyor, else null. */
export function callerSurveyorIdColumn(db: Db, user: Pick<SessionUser, "id" | "role">) {
  return db`(select v.id from surveyors v
    where ${roleLiteral(db, user.role)} = 'surveyor' and v.user_id = ${user.id})`;
}

/**
 * The role `user` works on a survey in, from the survey's client, its working firm and its
 * technician (`survey`) and the caller's own surveyor record (`callerSurveyorId`, when they are
 * a surveyor), or undefined: `getFieldworkAccess`'s rule, also for a statement that read those
 * columns with more (db/field_page.ts).
 */
export function fieldworkRoleOf(
  survey: Pick<FieldworkSurvey, "clientId" | "workingSurveyorId" | "assignedTechnicianId">,
  user: Pick<SessionUser, "id" | "role">,
  callerSurveyorId: string | null,
): FieldworkRole | undefined {
  switch (user.role) {
    case "admin":
      return "admin";
    case "client":
      return survey.clientId === user.id ? "client" : undefined;
    case "surveyor":
      return callerSurveyorId !== null && survey.workingSurveyorId === callerSurveyorId
        ? "surveyor"
        : undefined;
    case "technician":
      return survey.assignedTechnicianId === user.id ? "technician" : undefined;
  }
}
