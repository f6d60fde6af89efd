/**
 * A surveyor's job: one survey they have (or had) an assignment on, as their own job page
 * (/surveyor/jobs/{surveyId}) shows it, whether or not they bought the survey's lead (an admin
 * may assign any surveyor, even on a request that was never dispatched).
 *
 * Personal data rule: while the assignment is only offered (or after it was declined or
 * cancelled) the job reads like a lead — type, town and state, acreage, property type,
 * needed-by, the agreed price — and the client's name, phone, email, street address, parcel,
 * notes and the rest of the request stay in the database (the SQL nulls them). Once the
 * surveyor accepted (accepted, scheduled, completed), or when they bought or claimed the
 * survey's lead anyway, they are unlocked, as for a buyer.
 */
import type postgres from "postgres";
import type { Db } from "./client.ts";
import { isSurveyId } from "./surveys.ts";
import { readWithViewer, type Viewer } from "./users.ts";
import {
  type FieldworkAccess,
  type FieldworkSurvey,
  workingFirmFieldworkJson,
  workingSurveyorId,
} from "./survey_access.ts";
import {
  crewFromJson,
  currentCrewJsonColumn,
  type CurrentTechnicianAssignment,
  type EligibleTechnician,
  eligibleTechniciansJsonColumn,
} from "./technicians.ts";
import { deliverablesFromJson, deliverablesJsonColumn } from "./survey_files.ts";
import {
  type MessageAccess,
  type MessageAccessColumns,
  messageAccessOf,
  type MessageAccessOptions,
  messageAccessReads,
} from "./messages.ts";
import type { SurveyFileInfo } from "../lib/survey_file_types.ts";
import { contactEmailColumn } from "./lead_market.ts";
import { townFromAddress } from "../lib/address_parts.ts";
import type { Assignment } from "../lib/lead_market_schema.ts";
import type { SurveyStatus } from "../lib/survey_status.ts";
import type { SurveyType } from "../lib/survey_types.ts";
import type { AltaItemId, StateCode, Terrain, Vegetation } from "../lib/survey_options.ts";

/** Assignment statuses in which the surveyor has the job, so the client's details are theirs. */
export const JOB_UNLOCKED_STATUSES = ["accepted", "scheduled", "completed"] as const;

/** What an accepted job unlocks: the client, the exact place and the full request. */
export interface JobUnlocked {
  client: { name: string; phone: string; email: string | null };
  address: string;
  formattedAddress: string | null;
  parcel: unknown;
  purpose: string;
  accessNotes: string | null;
  notes: string | null;
  terrain: Terrain | null;
  vegetation: Vegetation | null;
  structures: number;
  cornersKnown: boolean | null;
  cornersToSet: number;
  altaItems: AltaItemId[];
}

/** A surveyor's job as their job page shows it. */
export interface SurveyorJob {
  /** This surveyor's open assignment on the survey, else their latest. */
  assignment: Assignment;
  surveyId: string;
  surveyType: SurveyType;
  surveyStatus: SurveyStatus;
  /** "Austin" of the address, when it can be told (never the street). */
  city: string | null;
  state: StateCode;
  acreage: number | null;
  propertyType: string;
  /** YYYY-MM-DD or null. */
  neededBy: string | null;
  rush: string;
  /** ISO timestamp of the request. */
  requestedAt: string;
  /** The survey's lead when this surveyor bought or claimed it (its purchased-lead page). */
  purchasedLeadId: string | null;
  /** Null while the job is not theirs (see the module comment). */
  unlocked: JobUnlocked | null;
}

interface JobRow {
  assignment: Omit<Assignment, "agreedPriceCents"> & { agreedPriceCents: number | string };
  surveyId: string;
  surveyType: SurveyType;
  surveyStatus: SurveyStatus;
  place: string;
  state: StateCode;
  acreage: number | string | null;
  propertyType: string;
  neededBy: string | null;
  rush: string;
  requestedAt: Date;
  purchasedLeadId: string | null;
  isUnlocked: boolean;
  contactName: string | null;
  contactPhone: string | null;
  contactEmail: string | null;
  address: string | null;
  formattedAddress: string | null;
  parcel: unknown;
  purpose: string | null;
  accessNotes: string | null;
  notes: string | null;
  terrain: Terrain | null;
  vegetation: Vegetation | null;
  structures: number | null;
  cornersKnown: boolean | null;
  cornersToSet: number | null;
  altaItems: AltaItemId[] | null;
}

/** What the job page shows beside the job, read with it (`getSurveyorJobPageWithViewer`). */
export interface SurveyorJobExtras {
  /** The firm's fieldwork access (as "surveyor") while it is the firm doing the job, else undefined. */
  access: FieldworkAccess | undefined;
  /** The survey's current technician while the firm does the job (`access`), else undefined. */
  crew: CurrentTechnicianAssignment | undefined;
  /** The deliverables once the job is theirs (accepted, scheduled, completed), else null. */
  deliverables: SurveyFileInfo[] | null;
  /**
   * The firm's technicians the crew may be chosen from (db/technicians.ts
   * `listEligibleTechnicians`) while it does the job and its fieldwork is to do (accepted or
   * scheduled), else null.
   */
  crewChoices: EligibleTechnician[] | null;
  /** The firm's conversation with the client, for lib/messages.ts `loadMessagesCard`'s `read`. */
  messages: { access: MessageAccess | undefined };
}

/**
 * The job of the firm linked to account `userId` on survey `surveyId`: none unless the firm has
 * (or had) an assignment on it, or the survey id is malformed. One statement, with the user and
 * the bell's count (db/users.ts `readWithViewer`: what the job page runs, routes/_auth.ts
 * `ownViewerPage`): the assignment (open first, else the latest, through
 * survey_assignments_surveyor_idx), the survey, and whether the job is theirs, the client's
 * details selected only then; and the rest of the page: the firm's fieldwork access, the
 * current crew and the technicians it may be chosen from, the deliverables, and the firm's
 * conversation with the client with the newest `messages.limit` messages of it
 * (db/messages.ts `messageAccessReads`). The page read these in nine statements more.
 */
export async function getSurveyorJobPageWithViewer(
  db: Db,
  { surveyId, userId, messages }: {
    surveyId: string;
    userId: string;
    messages: { limit: number };
  },
): Promise<{ viewer: Viewer | undefined; job: (SurveyorJob & SurveyorJobExtras) | undefined }> {
  const firm = db`(select id from surveyors where user_id = ${userId})`;
  const user = { id: userId, role: "surveyor" as const };
  const options = { user, firstPage: { preferred: null, limit: messages.limit } };
  const statement = isSurveyId(surveyId)
    ? jobStatement(db, surveyId, firm, options)
    : db`select 1 as none where false`;
  const { viewer, rows } = await readWithViewer<JobRow & JobExtrasRow>(db, userId, statement);
  const row = rows[0];
  if (!row) return { viewer, job: undefined };
  const access: FieldworkAccess | undefined = row.fieldwork
    ? { survey: row.fieldwork, as: "surveyor", callerSurveyorId: row.assignment.surveyorId }
    : undefined;
  return {
    viewer,
    job: {
      ...toJob(row),
      access,
      crew: crewFromJson(row.crew),
      crewChoices: row.crewChoices,
      deliverables: row.deliverables ? deliverablesFromJson(row.deliverables) : null,
      messages: {
        access: messageAccessOf(
          {
            id: row.surveyId,
            status: row.surveyStatus,
            clientId: row.messageClientId,
            clientName: row.messageClientName,
            surveyType: row.surveyType,
            address: row.messageAddress,
          },
          row,
          options,
        ),
      },
    },
  };
}

/** The columns `getSurveyorJobPageWithViewer` reads beyond the job's. */
type JobExtrasRow = MessageAccessColumns & {
  fieldwork: FieldworkSurvey | null;
  crew: Parameters<typeof crewFromJson>[0];
  crewChoices: EligibleTechnician[] | null;
  deliverables: Parameters<typeof deliverablesFromJson>[0] | null;
  messageClientId: string;
  messageClientName: string;
  messageAddress: string;
};

// The job page's statement (see `getSurveyorJobPageWithViewer`) for the firm `surveyorId`
// selects, its conversation read for `page`. Postgres runs it on a generic plan (0.68 ms an
// execution forced generic, 0.80 under plan_cache_mode auto, 2.9 forced custom) since the
// conversation's reads write the caller's role as a literal (db/sql_literals.ts
// `roleLiteral`); with the role as a parameter it planned the statement afresh at every
// execution (3.9 ms), and the page read the conversation in a statement of its own.
function jobStatement(
  db: Db,
  surveyId: string,
  surveyorId: postgres.PendingQuery<postgres.Row[]>,
  page: MessageAccessOptions,
): postgres.PendingQuery<postgres.Row[]> {
  const messages = messageAccessReads(db, page);
  // The client's name and the address are the conversation's, which only a firm in it gets
  // (lib/messages.ts); the deliverables are the firm's once the job is theirs.
  const pageColumns = db`,
      ${workingFirmFieldworkJson(db, db`j.surveyor_id`)} as fieldwork,
      case when j.is_working_firm then ${currentCrewJsonColumn(db)} end as crew,
      case when j.is_working_firm and j.status in ('accepted', 'scheduled')
        then ${eligibleTechniciansJsonColumn(db, db`j.surveyor_id`, false)} end as crew_choices,
      case when j.status in ('accepted', 'scheduled', 'completed')
        then coalesce(${deliverablesJsonColumn(db)}, '[]'::json) end as deliverables,
      s.client_id as message_client_id, cu.full_name as message_client_name,
      coalesce(s.formatted_address, s.address) as message_address
      ${messages.columns}`;
  return db`
    with a as (
      select a.*, v.company_name
      from survey_assignments a join surveyors v on v.id = a.surveyor_id
      where a.survey_id = ${surveyId} and a.surveyor_id = ${surveyorId}
      order by (a.status in ('offered', 'accepted', 'scheduled')) desc, a.created_at desc
      limit 1
    ),
    j as (
      select a.*, s.id as sid, p.lead_id as purchased_lead_id,
        -- Read once for the crew and its choices: the firm doing the survey's job.
        ${workingSurveyorId(db)} = a.surveyor_id as is_working_firm,
        -- A refunded purchase unlocks nothing (lib/refund_constants.ts).
        (a.status in ('accepted', 'scheduled', 'completed')
          or (p.lead_id is not null and p.refunded_at is null)) as is_unlocked
      from a
      join surveys s on s.id = a.survey_id
      left join leads l on l.survey_id = s.id
      left join lead_purchases p on p.lead_id = l.id and p.surveyor_id = a.surveyor_id
    )
    select
      json_build_object(
        'id', j.id, 'surveyId', j.survey_id, 'surveyorId', j.surveyor_id,
        'companyName', j.company_name, 'agreedPriceCents', j.agreed_price_cents,
        'status', j.status, 'source', j.source, 'scheduledDate', j.scheduled_date::text,
        'endedReason', j.ended_reason,
        'createdAt', to_char(j.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'updatedAt', to_char(j.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      ) as assignment,
      s.id as survey_id, s.survey_type, s.status as survey_status,
      coalesce(s.formatted_address, s.address) as place, s.state, s.acreage, s.property_type,
      s.needed_by::text as needed_by, s.rush, s.created_at as requested_at,
      j.purchased_lead_id, j.is_unlocked,
      case when j.is_unlocked then s.contact_name end as contact_name,
      case when j.is_unlocked then s.contact_phone end as contact_phone,
      case when j.is_unlocked then ${contactEmailColumn(db)} end as contact_email,
      case when j.is_unlocked then s.address end as address,
      case when j.is_unlocked then s.formatted_address end as formatted_address,
      case when j.is_unlocked then s.parcel end as parcel,
      case when j.is_unlocked then s.purpose end as purpose,
      case when j.is_unlocked then s.access_notes end as access_notes,
      case when j.is_unlocked then s.notes end as notes,
      case when j.is_unlocked then s.terrain end as terrain,
      case when j.is_unlocked then s.vegetation end as vegetation,
      case when j.is_unlocked then s.structures end as structures,
      case when j.is_unlocked then s.corners_known end as corners_known,
      case when j.is_unlocked then s.corners_to_set end as corners_to_set,
      case when j.is_unlocked then s.alta_items end as alta_items
      ${pageColumns}
    from j join surveys s on s.id = j.sid
    join users cu on cu.id = s.client_id ${messages.join}`;
}

function toJob(row: JobRow): SurveyorJob {
  return {
    assignment: { ...row.assignment, agreedPriceCents: Number(row.assignment.agreedPriceCents) },
    surveyId: row.surveyId,
    surveyType: row.surveyType,
    surveyStatus: row.surveyStatus,
    // The town is read from the address here; the street never leaves this function.
    city: townFromAddress(row.place, row.state),
    state: row.state,
    acreage: row.acreage === null ? null : Number(row.acreage),
    propertyType: row.propertyType,
    neededBy: row.neededBy,
    rush: row.rush,
    requestedAt: row.requestedAt.toISOString(),
    purchasedLeadId: row.purchasedLeadId,
    unlocked: row.isUnlocked
      ? {
        client: {
          name: row.contactName ?? "",
          phone: row.contactPhone ?? "",
          email: row.contactEmail,
        },
        address: row.address ?? "",
        formattedAddress: row.formattedAddress,
        parcel: row.parcel,
        purpose: row.purpose ?? "",
        accessNotes: row.accessNotes,
        notes: row.notes,
        terrain: row.terrain,
        vegetation: row.vegetation,
        structures: row.structures ?? 0,
        cornersKnown: row.cornersKnown,
        cornersToSet: row.cornersToSet ?? 0,
        altaItems: row.altaItems ?? [],
      }
      : null,
  };
}
