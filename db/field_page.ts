/**
 * The field page's read (/technician-survey-detail/{surveyId}, routes/technician_survey_pages.tsx):
 * the survey as the crew needs it (db/fieldwork.ts), the caller's access to it
 * (db/survey_access.ts's rule), its checklist, its current technician and, for the technician
 * on the job, the conversation they write in, in one statement, with the viewer for a page that
 * reads its own (routes/_auth.ts `ownViewerPage`). What is read before the access is decided is
 * used only once it is.
 */
import type { Db } from "./client.ts";
import { getUserWithUnreadCount, isUuid, readWithViewer, type Viewer } from "./users.ts";
import { type FieldSurvey, fieldSurveyOf, type FieldSurveyRow } from "./fieldwork.ts";
import {
  callerSurveyorIdColumn,
  type FieldworkRole,
  fieldworkRoleOf,
  workingSurveyorId,
} from "./survey_access.ts";
import { checklistFromJson, type ChecklistItemJson, checklistJsonColumn } from "./checklists.ts";
import {
  crewFromJson,
  currentCrewJsonColumn,
  type CurrentTechnicianAssignment,
} from "./technicians.ts";
import {
  type MessageAccess,
  type MessageAccessColumns,
  messageAccessOf,
  type MessageAccessOptions,
  messageAccessReads,
} from "./messages.ts";
import type { SessionUser } from "../lib/roles.ts";
import type { ChecklistView } from "../lib/checklist_types.ts";

/** The field page of a survey for a caller who may see it. */
export interface FieldPage {
  survey: FieldSurvey;
  /** The caller's role on the survey (db/survey_access.ts). */
  as: FieldworkRole;
  checklist: ChecklistView | undefined;
  crew: CurrentTechnicianAssignment | undefined;
  /**
   * The survey row's version (its `xmin`): another value after every write to the row, even
   * one that puts back what an earlier write changed. A page kept by what it shows
   * (routes/technician_survey_pages.tsx) is compared by it, so a status moved forward and back
   * between two views is another page.
   */
  version: string;
  /**
   * The technician's conversation as db/messages.ts `getMessageAccess` answers it (its first
   * thread's newest `messages.limit` messages with it), read only when asked for (`messages`)
   * for a technician: for lib/messages.ts `loadMessagesCard`'s `read`.
   */
  messages?: { access: MessageAccess | undefined };
}

/** What the page asks for beyond the survey: a technician's conversation, its first page. */
export interface FieldPageInput {
  surveyId: string;
  user: Pick<SessionUser, "id" | "role">;
  /** The first thread's newest messages to read with a technician's conversation. */
  messages: { limit: number };
}

type FieldPageRow =
  & FieldSurveyRow
  & Partial<MessageAccessColumns>
  & {
    clientId: string;
    clientName?: string;
    rowVersion: string;
    assignedTechnicianId: string | null;
    workingSurveyorId: string | null;
    callerSurveyorId: string | null;
    checklist: { templateVersion: number; items: ChecklistItemJson[] } | null;
    crew: Parameters<typeof crewFromJson>[0];
  };

// The conversation is read for a technician only: the page shows it to no one else.
function messageOptions(input: FieldPageInput): MessageAccessOptions | undefined {
  return input.user.role === "technician"
    ? { user: input.user, firstPage: { preferred: null, limit: input.messages.limit } }
    : undefined;
}

function fieldPageStatement(db: Db, input: FieldPageInput) {
  const { surveyId, user } = input;
  const options = messageOptions(input);
  const messages = options && messageAccessReads(db, options);
  // The conversation's reads name the working firm, the technician and the caller's firm
  // themselves, under the names the access check reads.
  const accessColumns = messages ? messages.columns : db`,
    s.assigned_technician_id, ${workingSurveyorId(db)} as working_surveyor_id,
    ${callerSurveyorIdColumn(db, user)} as caller_surveyor_id`;
  return db`
    select s.id, s.status, s.survey_type, s.address, s.formatted_address, s.lat, s.lng, s.state,
      s.acreage, s.property_type, s.structures, s.corners_to_set, s.corners_known, s.alta_items,
      s.parcel, s.access_notes, s.notes, s.contact_name, s.contact_phone,
      s.scheduled_date::text as scheduled_date, s.surveyed_date::text as surveyed_date,
      s.completed_date::text as completed_date, s.fieldwork_started_at,
      v.company_name, v.phone as company_phone, s.client_id, s.xmin::text as row_version,
      ${checklistJsonColumn(db)} as checklist,
      ${currentCrewJsonColumn(db)} as crew
      ${accessColumns}
      ${messages ? db`, cu.full_name as client_name` : db``}
    from surveys s
    left join surveyors v on v.id = ${workingSurveyorId(db)}
    ${messages ? db`join users cu on cu.id = s.client_id ${messages.join}` : db``}
    where s.id = ${surveyId}`;
}

function fieldPageOf(row: FieldPageRow | undefined, input: FieldPageInput): FieldPage | undefined {
  if (!row) return undefined;
  const { user } = input;
  const as = fieldworkRoleOf(row, user, row.callerSurveyorId);
  if (!as) return undefined;
  const survey = fieldSurveyOf(pick(row));
  const options = messageOptions(input);
  return {
    as,
    survey,
    checklist: checklistFromJson(survey.id, row.checklist),
    crew: crewFromJson(row.crew),
    version: row.rowVersion,
    ...(options && {
      messages: {
        access: messageAccessOf(
          {
            id: survey.id,
            status: survey.status,
            clientId: row.clientId,
            clientName: row.clientName ?? "",
            surveyType: survey.surveyType,
            address: survey.formattedAddress ?? survey.address,
          },
          row as MessageAccessColumns,
          options,
        ),
      },
    }),
  };
}

// The survey's own columns of the page's row.
function pick(row: FieldPageRow): FieldSurveyRow {
  return {
    id: row.id,
    status: row.status,
    surveyType: row.surveyType,
    address: row.address,
    formattedAddress: row.formattedAddress,
    lat: row.lat,
    lng: row.lng,
    state: row.state,
    acreage: row.acreage,
    propertyType: row.propertyType,
    structures: row.structures,
    cornersToSet: row.cornersToSet,
    cornersKnown: row.cornersKnown,
    altaItems: row.altaItems,
    parcel: row.parcel,
    accessNotes: row.accessNotes,
    notes: row.notes,
    contactName: row.contactName,
    contactPhone: row.contactPhone,
    scheduledDate: row.scheduledDate,
    surveyedDate: row.surveyedDate,
    completedDate: row.completedDate,
    fieldworkStartedAt: row.fieldworkStartedAt,
    companyName: row.companyName,
    companyPhone: row.companyPhone,
  };
}

/**
 * The field page of `surveyId` for `user` in one statement, or undefined when the survey does
 * not exist or `user` may not see its fieldwork.
 */
export async function getFieldPage(db: Db, input: FieldPageInput): Promise<FieldPage | undefined> {
  if (!isUuid(input.surveyId)) return undefined;
  const [row] = await fieldPageStatement(db, input) as unknown as FieldPageRow[];
  return fieldPageOf(row, input);
}

/**
 * `getFieldPage` with the viewer `viewerId` (the user with the bell's count) in the same
 * statement (db/users.ts `readWithViewer`), for a page that reads its own viewer: `user` is
 * the role the session was opened with, which the caller checks against the viewer read.
 */
export async function getFieldPageWithViewer(
  db: Db,
  input: FieldPageInput & { viewerId: string },
): Promise<{ viewer: Viewer | undefined; page: FieldPage | undefined }> {
  if (!isUuid(input.surveyId)) {
    return { viewer: await getUserWithUnreadCount(db, input.viewerId), page: undefined };
  }
  const { viewer, rows } = await readWithViewer<FieldPageRow>(
    db,
    input.viewerId,
    fieldPageStatement(db, input),
  );
  return { viewer, page: fieldPageOf(rows[0], input) };
}
