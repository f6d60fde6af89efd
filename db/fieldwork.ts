/**
 * What the crew needs on site (/technician-survey-detail/{surveyId}): the property, its parcel
 * data, access notes, the client's contact and the firm doing the job, read with the caller's
 * access to it (db/survey_access.ts's rule).
 */
import type { Db } from "./client.ts";
import { getUserWithUnreadCount, isUuid, readWithViewer, type Viewer } from "./users.ts";
import {
  callerSurveyorIdColumn,
  type FieldworkRole,
  fieldworkRoleOf,
  workingSurveyorId,
} from "./survey_access.ts";
import type { SessionUser } from "../lib/roles.ts";
import type { SurveyStatus } from "../lib/survey_status.ts";
import type { SurveyType } from "../lib/survey_types.ts";

/** A survey as the field page shows it. */
export interface FieldSurvey {
  id: string;
  status: SurveyStatus;
  surveyType: SurveyType;
  address: string;
  formattedAddress: string | null;
  lat: number | null;
  lng: number | null;
  state: string;
  acreage: number | null;
  propertyType: string;
  structures: number;
  cornersToSet: number;
  cornersKnown: boolean | null;
  altaItems: string[];
  /** Whatever the parcel provider returned, or null. */
  parcel: unknown;
  accessNotes: string | null;
  /** The client's own notes on the request. */
  notes: string | null;
  contactName: string;
  contactPhone: string;
  scheduledDate: string | null;
  surveyedDate: string | null;
  completedDate: string | null;
  /** ISO time of "Start fieldwork", or null. */
  fieldworkStartedAt: string | null;
  /** The firm doing the job (accepted, scheduled or completed assignment), or null. */
  companyName: string | null;
  companyPhone: string | null;
}

type Row = Omit<FieldSurvey, "fieldworkStartedAt" | "acreage"> & {
  fieldworkStartedAt: Date | null;
  acreage: number | string | null;
};

function fieldSurveyOf(row: Row): FieldSurvey {
  return {
    ...row,
    acreage: row.acreage === null ? null : Number(row.acreage),
    fieldworkStartedAt: row.fieldworkStartedAt?.toISOString() ?? null,
  };
}

/** The field page of a survey for a caller who may see it, and as what. */
export interface FieldPage {
  survey: FieldSurvey;
  /** The caller's role on the survey (db/survey_access.ts). */
  as: FieldworkRole;
}

type FieldPageRow = Row & {
  clientId: string;
  assignedTechnicianId: string | null;
  workingSurveyorId: string | null;
  callerSurveyorId: string | null;
};

/** The field page's survey with what `fieldworkRoleOf` needs to decide `user`'s access. */
function fieldPageStatement(db: Db, surveyId: string, user: Pick<SessionUser, "id" | "role">) {
  return db`
    select s.id, s.status, s.survey_type, s.address, s.formatted_address, s.lat, s.lng, s.state,
      s.acreage, s.property_type, s.structures, s.corners_to_set, s.corners_known, s.alta_items,
      s.parcel, s.access_notes, s.notes, s.contact_name, s.contact_phone,
      s.scheduled_date::text as scheduled_date, s.surveyed_date::text as surveyed_date,
      s.completed_date::text as completed_date, s.fieldwork_started_at,
      v.company_name, v.phone as company_phone,
      s.client_id, s.assigned_technician_id, w.working_surveyor_id,
      ${callerSurveyorIdColumn(db, user)} as caller_surveyor_id
    from surveys s
    cross join lateral (select ${workingSurveyorId(db)} as working_surveyor_id) w
    left join surveyors v on v.id = w.working_surveyor_id
    where s.id = ${surveyId}`;
}

function fieldPageOf(
  row: FieldPageRow | undefined,
  user: Pick<SessionUser, "id" | "role">,
): FieldPage | undefined {
  if (!row) return undefined;
  const { clientId, assignedTechnicianId, workingSurveyorId, callerSurveyorId, ...survey } = row;
  const as = fieldworkRoleOf(
    { clientId, assignedTechnicianId, workingSurveyorId },
    user,
    callerSurveyorId,
  );
  return as ? { as, survey: fieldSurveyOf(survey) } : undefined;
}

/**
 * The field page of `surveyId` for `user` in one statement (the survey with
 * `getFieldworkAccess`'s rule), or undefined when the survey does not exist or `user` may not
 * see its fieldwork.
 */
export async function getFieldPage(
  db: Db,
  { surveyId, user }: { surveyId: string; user: Pick<SessionUser, "id" | "role"> },
): Promise<FieldPage | undefined> {
  if (!isUuid(surveyId)) return undefined;
  const [row] = await fieldPageStatement(db, surveyId, user) as unknown as FieldPageRow[];
  return fieldPageOf(row, user);
}

/**
 * `getFieldPage` with the viewer `viewerId` (the user with the bell's count) in the same
 * statement (db/users.ts `readWithViewer`), for a page that reads its own viewer
 * (routes/_auth.ts `ownViewerPage`): `user` is the role the session was opened with, which the
 * caller checks against the viewer read.
 */
export async function getFieldPageWithViewer(
  db: Db,
  { surveyId, user, viewerId }: {
    surveyId: string;
    user: Pick<SessionUser, "id" | "role">;
    viewerId: string;
  },
): Promise<{ viewer: Viewer | undefined; page: FieldPage | undefined }> {
  if (!isUuid(surveyId)) {
    return { viewer: await getUserWithUnreadCount(db, viewerId), page: undefined };
  }
  const { viewer, rows } = await readWithViewer<FieldPageRow>(
    db,
    viewerId,
    fieldPageStatement(db, surveyId, user),
  );
  return { viewer, page: fieldPageOf(rows[0], user) };
}

/** The firm that does (or did) a survey's job. */
export interface WorkingFirm {
  surveyorId: string;
  companyName: string;
  phone: string | null;
}

/**
 * SQL for the firm doing or having done the job of the survey aliased `s` (an accepted,
 * scheduled or completed assignment; the open one first), as a JSON object in snake_case
 * (null when no firm works it): for a column of a survey query (db/surveys.ts
 * getSurveyPageData).
 */
export function workingFirmColumn(db: Db) {
  return db`(select json_build_object('surveyor_id', v.id, 'company_name', v.company_name,
      'phone', v.phone)
    from surveyors v where v.id = ${workingSurveyorId(db)})`;
}
