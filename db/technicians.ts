/**
 * Technicians and their assignments to surveys (migration 0016).
 *
 * A technician is a user with role technician and a `technicians` row naming their firm
 * (`surveyor_id`), or Meridian's own staff when it is null. `technician_assignments` keeps every
 * assignment of a survey: the current one has `is_current`, earlier ones were ended by a
 * reassignment (or by the technician leaving their firm) and stay as history;
 * `surveys.assigned_technician_id` mirrors the current one for cheap ownership checks
 * (db/survey_access.ts).
 */
import type postgres from "postgres";
import type { Db } from "./client.ts";
import { getUserWithUnreadCount, isUuid, readWithViewer, type Viewer } from "./users.ts";
import {
  checklistProgressColumn,
  checklistProgressFromJson,
  type ChecklistProgressJson,
} from "./checklists.ts";
import type { ChecklistProgress } from "../lib/checklist_types.ts";
import type { SurveyStatus } from "../lib/survey_status.ts";
import type { SurveyType } from "../lib/survey_types.ts";

/** A firm's (or Meridian's) technician as the crew lists show them. */
export interface TechnicianMember {
  /** The technician's user id (what assignments name). */
  id: string;
  fullName: string;
  email: string;
  phone: string | null;
  /** Their firm's surveyor record, or null for Meridian staff. */
  surveyorId: string | null;
  /** Their firm's company name, or null for Meridian staff. */
  companyName: string | null;
  /** When they were invited (ISO time). */
  invitedAt: string;
  /** Their last sign-in (ISO time), or null while the invitation is unused. */
  lastLogin: string | null;
  /** When an admin disabled the account (ISO time), or null. */
  disabledAt: string | null;
  /** Surveys they are the current technician of that are not finished yet. */
  openJobs: number;
}

/** Page size of the crew lists. */
export const TECHNICIANS_PAGE_SIZE = 50;

/** The survey statuses a technician works in: they can be (re)assigned then. */
export const TECHNICIAN_ASSIGNABLE_STATUSES = [
  "assigned",
  "scheduled",
  "in_fieldwork",
] as const satisfies readonly SurveyStatus[];

/** The statuses of a job whose fieldwork is done: the technician's past jobs. */
export const TECHNICIAN_PAST_STATUSES = [
  "surveyed",
  "completed",
] as const satisfies readonly SurveyStatus[];

type MemberRow = Omit<TechnicianMember, "invitedAt" | "lastLogin" | "disabledAt"> & {
  invitedAt: Date;
  lastLogin: Date | null;
  disabledAt: Date | null;
};

function toMember(row: MemberRow): TechnicianMember {
  return {
    id: row.id,
    fullName: row.fullName,
    email: row.email,
    phone: row.phone,
    surveyorId: row.surveyorId,
    companyName: row.companyName,
    invitedAt: row.invitedAt.toISOString(),
    lastLogin: row.lastLogin ? row.lastLogin.toISOString() : null,
    disabledAt: row.disabledAt ? row.disabledAt.toISOString() : null,
    openJobs: row.openJobs,
  };
}

// The open-jobs count reads technician_assignments_technician_idx (current rows only).
function memberColumns(db: Db) {
  return db`
    u.id, u.full_name, u.email, u.phone, t.surveyor_id, v.company_name,
    t.created_at as invited_at, u.last_login, u.disabled_at,
    (select count(*)::int from technician_assignments a join surveys s on s.id = a.survey_id
      where a.technician_id = u.id and a.is_current
        and s.status in ('assigned', 'scheduled', 'in_fieldwork')) as open_jobs`;
}

/** A surveyor record (a firm) as `findFirms` names it. */
export interface FirmMatch {
  id: string;
  companyName: string;
  status: string;
  /** The account linked to the record, or null. */
  userId: string | null;
}

/**
 * The firms `match` names: the record with that id (a uuid), else those whose company name is
 * `match` in any letter case (at most `limit`, by name). Empty when none does.
 */
export async function findFirms(
  db: Db,
  { match, limit = 10 }: { match: string; limit?: number },
): Promise<FirmMatch[]> {
  const text = match.trim();
  if (text === "") return [];
  return [
    ...await (isUuid(text)
      ? db<FirmMatch[]>`
        select id, company_name, status, user_id from surveyors where id = ${text.toLowerCase()}`
      : db<FirmMatch[]>`
        select id, company_name, status, user_id from surveyors
        where lower(company_name) = lower(${text})
        order by company_name, id
        limit ${limit}`),
  ];
}

/** Records `userId` as a technician of firm `surveyorId` (null: Meridian staff). */
export async function insertTechnician(
  db: Db,
  input: { userId: string; surveyorId: string | null; invitedBy: string | null },
): Promise<void> {
  await db`
    insert into technicians (user_id, surveyor_id, invited_by)
    values (${input.userId}, ${input.surveyorId}, ${input.invitedBy})`;
}

/**
 * The technician `userId`, or undefined when there is none (not a uuid, not a technician, or
 * no longer in a firm). With `lock`, their `technicians` row is locked until the caller's
 * transaction ends, so a removal and an assignment of the same person are served in turn.
 */
export async function getTechnician(
  db: Db,
  { userId, lock = false }: { userId: string; lock?: boolean },
): Promise<TechnicianMember | undefined> {
  if (!isUuid(userId)) return undefined;
  const [row] = await db<MemberRow[]>`
    select ${memberColumns(db)}
    from technicians t
    join users u on u.id = t.user_id and u.role = 'technician'
    left join surveyors v on v.id = t.surveyor_id
    where t.user_id = ${userId}
    ${lock ? db`for update of t` : db``}`;
  return row && toMember(row);
}

/** Which technicians a crew list shows: one firm, Meridian staff, or everyone (admins). */
export type TechnicianScope = { surveyorId: string } | { staff: true } | { all: true };

/**
 * One page of technicians in `scope`, by name, with the total. Disabled accounts are listed
 * (marked) so a firm sees everyone it has.
 */
export async function listTechnicians(
  db: Db,
  { scope, page = 1, pageSize = TECHNICIANS_PAGE_SIZE }: {
    scope: TechnicianScope;
    page?: number;
    pageSize?: number;
  },
): Promise<{ technicians: TechnicianMember[]; total: number }> {
  if ("surveyorId" in scope && !isUuid(scope.surveyorId)) return { technicians: [], total: 0 };
  const where = "surveyorId" in scope
    ? db`t.surveyor_id = ${scope.surveyorId}`
    : "staff" in scope
    ? db`t.surveyor_id is null`
    : db`true`;
  const rows = await db<(MemberRow & { total: number })[]>`
    select ${memberColumns(db)}, count(*) over ()::int as total
    from technicians t
    join users u on u.id = t.user_id and u.role = 'technician'
    left join surveyors v on v.id = t.surveyor_id
    where ${where}
    order by lower(u.full_name), u.id
    limit ${pageSize} offset ${(page - 1) * pageSize}`;
  return { technicians: rows.map(toMember), total: rows[0]?.total ?? 0 };
}

/** A technician the survey's assign form offers. */
export interface EligibleTechnician {
  id: string;
  fullName: string;
  phone: string | null;
  /** Their firm's company name, or null for Meridian staff. */
  companyName: string | null;
}

/** At most this many technicians in an assign form (a firm's crew is far smaller). */
const ELIGIBLE_LIMIT = 500;

/**
 * The enabled technicians of firm `surveyorId` (none when null) and, with `includeStaff`,
 * Meridian's staff technicians: whom a survey's technician may be. The firm's first, by name.
 */
export async function listEligibleTechnicians(
  db: Db,
  { surveyorId, includeStaff }: { surveyorId: string | null; includeStaff: boolean },
): Promise<EligibleTechnician[]> {
  const firm = surveyorId && isUuid(surveyorId) ? surveyorId : null;
  if (!firm && !includeStaff) return [];
  const [row] = await db<{ technicians: EligibleTechnician[] }[]>`
    select ${eligibleTechniciansJsonColumn(db, db`${firm}::uuid`, includeStaff)} as technicians`;
  return row.technicians;
}

/**
 * SQL for `listEligibleTechnicians`' list as a JSON array: the technicians of the firm whose
 * id `firm` gives (SQL: a parameter, or a column of the statement it is in; none when null)
 * and, with `includeStaff`, Meridian's staff; for a page's statement (db/surveyor_jobs.ts).
 */
export function eligibleTechniciansJsonColumn(
  db: Db,
  firm: postgres.PendingQuery<postgres.Row[]>,
  includeStaff: boolean,
) {
  return db`coalesce((select json_agg(json_build_object('id', e.id, 'fullName', e.full_name,
        'phone', e.phone, 'companyName', e.company_name) order by e.n)
      from (
        select u.id, u.full_name, u.phone, v.company_name,
          row_number() over (order by (t.surveyor_id is null), lower(u.full_name), u.id) as n
        from technicians t
        join users u on u.id = t.user_id and u.role = 'technician' and u.disabled_at is null
        left join surveyors v on v.id = t.surveyor_id
        where t.surveyor_id = ${firm} ${includeStaff ? db`or t.surveyor_id is null` : db``}
        order by (t.surveyor_id is null), lower(u.full_name), u.id
        limit ${ELIGIBLE_LIMIT}
      ) e), '[]'::json)`;
}

/** Deletes the `technicians` row of `userId` (they no longer belong to a firm). */
export async function deleteTechnician(db: Db, { userId }: { userId: string }): Promise<void> {
  await db`delete from technicians where user_id = ${userId}`;
}

/** A survey's current technician assignment, as the assign form and the job pages show it. */
export interface CurrentTechnicianAssignment {
  id: string;
  surveyId: string;
  technicianId: string;
  technicianName: string;
  technicianPhone: string | null;
  /** The surveyor's notes for the crew, or null. */
  notes: string | null;
  /** When this technician was assigned (ISO time). */
  assignedAt: string;
}

type AssignmentRow = Omit<CurrentTechnicianAssignment, "assignedAt"> & { assignedAt: Date };

function toAssignment(row: AssignmentRow): CurrentTechnicianAssignment {
  return { ...row, assignedAt: row.assignedAt.toISOString() };
}

/**
 * SQL for the current technician assignment of the survey aliased `s` as JSON (null when nobody
 * is assigned), for a column of a page's statement (db/field_page.ts); `crewFromJson` reads it.
 */
export function currentCrewJsonColumn(db: Db) {
  return db`(select json_build_object('id', a.id, 'surveyId', a.survey_id,
      'technicianId', a.technician_id, 'technicianName', u.full_name,
      'technicianPhone', u.phone, 'notes', a.notes, 'assignedAt', a.created_at)
    from technician_assignments a join users u on u.id = a.technician_id
    where a.survey_id = s.id and a.is_current)`;
}

/** `currentCrewJsonColumn`'s JSON as the assignment, or undefined. */
export function crewFromJson(
  json: (Omit<CurrentTechnicianAssignment, "assignedAt"> & { assignedAt: string }) | null,
): CurrentTechnicianAssignment | undefined {
  return json ? toAssignment({ ...json, assignedAt: new Date(json.assignedAt) }) : undefined;
}

/** The current technician assignment of `surveyId`, or undefined when nobody is assigned. */
export async function getCurrentTechnicianAssignment(
  db: Db,
  { surveyId }: { surveyId: string },
): Promise<CurrentTechnicianAssignment | undefined> {
  if (!isUuid(surveyId)) return undefined;
  const [row] = await db<{ crew: Parameters<typeof crewFromJson>[0] }[]>`
    select ${currentCrewJsonColumn(db)} as crew from surveys s where s.id = ${surveyId}`;
  return crewFromJson(row?.crew ?? null);
}

/**
 * Inserts the current assignment of `technicianId` to `surveyId` and points the survey at
 * them. The caller has ended the previous current row (one current row per survey: the unique
 * index refuses a second).
 */
export async function insertTechnicianAssignment(
  db: Db,
  input: {
    surveyId: string;
    technicianId: string;
    notes: string | null;
    assignedBy: string | null;
  },
): Promise<CurrentTechnicianAssignment> {
  const [row] = await db<AssignmentRow[]>`
    with inserted as (
      insert into technician_assignments (survey_id, technician_id, notes, assigned_by)
      values (${input.surveyId}, ${input.technicianId}, ${input.notes}, ${input.assignedBy})
      returning id, survey_id, technician_id, notes, created_at
    ), pointed as (
      update surveys set assigned_technician_id = ${input.technicianId}, updated_at = now()
      where id = ${input.surveyId}
    )
    select i.id, i.survey_id, i.technician_id, u.full_name as technician_name,
      u.phone as technician_phone, i.notes, i.created_at as assigned_at
    from inserted i join users u on u.id = i.technician_id`;
  return toAssignment(row);
}

/** Replaces the crew notes of assignment `id`; returns it updated. */
export async function updateTechnicianAssignmentNotes(
  db: Db,
  { id, notes }: { id: string; notes: string | null },
): Promise<CurrentTechnicianAssignment | undefined> {
  const [row] = await db<AssignmentRow[]>`
    with updated as (
      update technician_assignments set notes = ${notes}
      where id = ${id} and is_current
      returning id, survey_id, technician_id, notes, created_at
    )
    select d.id, d.survey_id, d.technician_id, u.full_name as technician_name,
      u.phone as technician_phone, d.notes, d.created_at as assigned_at
    from updated d join users u on u.id = d.technician_id`;
  return row && toAssignment(row);
}

/**
 * Ends the current assignment `id` (kept as history) and clears the survey's technician.
 * Returns false when it was no longer current.
 */
export async function endTechnicianAssignment(db: Db, { id }: { id: string }): Promise<boolean> {
  const [ended] = await db<{ surveyId: string; technicianId: string }[]>`
    update technician_assignments set is_current = false, ended_at = now()
    where id = ${id} and is_current
    returning survey_id, technician_id`;
  if (!ended) return false;
  await db`
    update surveys set assigned_technician_id = null, updated_at = now()
    where id = ${ended.surveyId} and assigned_technician_id = ${ended.technicianId}`;
  return true;
}

/** A job a technician lost because they left their firm. */
export interface EndedTechnicianJob {
  surveyId: string;
  surveyType: SurveyType;
  address: string;
}

/**
 * Ends every current assignment of `technicianId` on a survey not yet finished (fieldwork
 * still to do) and clears those surveys' technician, in one statement. Assignments of
 * surveyed, completed or cancelled surveys stay current: they are the record of who did the
 * work. Returns the jobs ended.
 */
export async function endOpenAssignmentsOf(
  db: Db,
  { technicianId }: { technicianId: string },
): Promise<EndedTechnicianJob[]> {
  return [
    ...await db<EndedTechnicianJob[]>`
    with ended as (
      update technician_assignments a set is_current = false, ended_at = now()
      from surveys s
      where a.technician_id = ${technicianId} and a.is_current and s.id = a.survey_id
        and s.status in ('assigned', 'scheduled', 'in_fieldwork')
      returning a.survey_id
    )
    update surveys s set assigned_technician_id = null, updated_at = now()
    from ended e
    where s.id = e.survey_id
    returning s.id as survey_id, s.survey_type, coalesce(s.formatted_address, s.address) as address`,
  ];
}

/** A job on the technician's dashboard. */
export interface TechnicianJob {
  surveyId: string;
  status: SurveyStatus;
  surveyType: SurveyType;
  address: string;
  state: string;
  /** YYYY-MM-DD, or null while the visit is not booked. */
  scheduledDate: string | null;
  surveyedDate: string | null;
  completedDate: string | null;
  accessNotes: string | null;
  contactName: string;
  contactPhone: string;
  /** The surveyor's notes for the crew, or null. */
  crewNotes: string | null;
  /** The firm doing the job, or null. */
  companyName: string | null;
  /** When this technician was assigned (ISO time). */
  assignedAt: string;
}

/** Page size of the technician's past jobs. */
export const PAST_JOBS_PAGE_SIZE = 20;
/** At most this many open jobs on the dashboard (a crew's week is far fewer). */
export const OPEN_JOBS_LIMIT = 200;

type JobRow = Omit<TechnicianJob, "assignedAt"> & {
  assignedAt: Date;
  section: "open" | "past";
  sectionTotal: number;
  progress: ChecklistProgressJson | null;
};

/** The technician's jobs, one page of the past ones, and each job's checklist progress. */
export interface TechnicianJobs {
  open: TechnicianJob[];
  past: TechnicianJob[];
  pastTotal: number;
  /** Survey id → its checklist's progress (db/checklists.ts `getChecklistProgress`'s). */
  progress: Map<string, ChecklistProgress>;
}

/**
 * The technician's jobs in one statement: `open` (assigned, scheduled or in fieldwork; visit
 * day first, unscheduled last) and one page of `past` (surveyed or completed, newest first)
 * with their total, and each listed job's checklist progress. Only current assignments count:
 * a job they were reassigned away from is no longer theirs, and a cancelled request is no job.
 * With `viewerId`, the viewer is read in the same statement (db/users.ts `readWithViewer`:
 * what the technician's dashboard runs, routes/_auth.ts `ownViewerPage`).
 */
export async function listTechnicianJobs(
  db: Db,
  { technicianId, pastPage = 1, pastPageSize = PAST_JOBS_PAGE_SIZE, viewerId }: {
    technicianId: string;
    pastPage?: number;
    pastPageSize?: number;
    viewerId?: string;
  },
): Promise<TechnicianJobs & { viewer: Viewer | undefined }> {
  const none = { open: [], past: [], pastTotal: 0, progress: new Map() };
  if (!isUuid(technicianId)) {
    return { ...none, viewer: viewerId ? await getUserWithUnreadCount(db, viewerId) : undefined };
  }
  const { viewer, rows } = await readWithViewer<JobRow>(
    db,
    viewerId,
    db`
    with mine as (
      select s.id as survey_id, s.status, s.survey_type,
        coalesce(s.formatted_address, s.address) as address, s.state,
        s.scheduled_date, s.surveyed_date, s.completed_date, s.access_notes, s.contact_name,
        s.contact_phone, a.notes as crew_notes, v.company_name, a.created_at as assigned_at,
        case when s.status in ('surveyed', 'completed') then 'past' else 'open' end as section
      from technician_assignments a
      join surveys s on s.id = a.survey_id
      left join surveyors v on v.id = s.assigned_surveyor_id
      where a.technician_id = ${technicianId} and a.is_current
        and s.status in ('assigned', 'scheduled', 'in_fieldwork', 'surveyed', 'completed')
    ), ranked as (
      select m.*,
        count(*) over (partition by section)::int as section_total,
        row_number() over (
          partition by section
          order by
            case when section = 'open' then scheduled_date end asc nulls last,
            case when section = 'past'
              then coalesce(completed_date, surveyed_date, scheduled_date) end desc nulls last,
            assigned_at, survey_id
        ) as n
      from mine m
    )
    select r.survey_id, r.status, r.survey_type, r.address, r.state,
      r.scheduled_date::text as scheduled_date, r.surveyed_date::text as surveyed_date,
      r.completed_date::text as completed_date, r.access_notes, r.contact_name, r.contact_phone,
      r.crew_notes, r.company_name, r.assigned_at, r.section, r.section_total,
      (select ${checklistProgressColumn(db)} from surveys s where s.id = r.survey_id) as progress
    from ranked r
    where (r.section = 'open' and r.n <= ${OPEN_JOBS_LIMIT})
      or (r.section = 'past' and r.n > ${(pastPage - 1) * pastPageSize}
        and r.n <= ${pastPage * pastPageSize})
    order by r.section desc, r.n`,
  );
  const open: TechnicianJob[] = [];
  const past: TechnicianJob[] = [];
  const progress = new Map<string, ChecklistProgress>();
  let pastTotal = 0;
  for (const { section, sectionTotal, assignedAt, progress: counts, ...job } of rows) {
    const item = { ...job, assignedAt: assignedAt.toISOString() };
    if (counts) progress.set(job.surveyId, checklistProgressFromJson(counts));
    if (section === "open") open.push(item);
    else {
      past.push(item);
      pastTotal = sectionTotal;
    }
  }
  if (past.length === 0 && pastPage > 1) {
    // A page past the end: the total still tells the pager where the last page is.
    const [{ n }] = await db<{ n: number }[]>`
      select count(*)::int as n from technician_assignments a join surveys s on s.id = a.survey_id
      where a.technician_id = ${technicianId} and a.is_current
        and s.status in ('surveyed', 'completed')`;
    pastTotal = n;
  }
  return { open, past, pastTotal, progress, viewer };
}
