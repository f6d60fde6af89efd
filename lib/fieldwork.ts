/**
 * The field actions and the delivery of a survey, as the status API (`PATCH
 * /api/surveys/{id}/status`, routes/surveys.ts) applies them for every role:
 *
 * - "Start fieldwork" (scheduled → in_fieldwork; the assigned technician or the firm doing the
 *   job): records when, and where when the browser gave a position.
 * - "Mark surveyed" (in_fieldwork → surveyed with surveyedDate): refused while a required
 *   checklist item is not done (db/checklists.ts countMissingRequired).
 * - "Mark complete" (surveyed → completed with completedDate; the firm doing the job): refused
 *   without a deliverable (db/survey_files.ts countDeliverables); completes the open assignment,
 *   tells the client (notification 'survey_delivered' and the SurveyDelivered email) and the
 *   admins.
 *
 * Who may make which move is lib/survey_status.ts (`canTransition`, `deliveryBlockers`). An
 * admin may still make a move that breaks the delivery rules, with a note: the move is then an
 * override, recorded as such in the timeline ("Override: …").
 */
import { z } from "zod";
import type { Db } from "../db/client.ts";
import { countMissingRequired } from "../db/checklists.ts";
import { countDeliverables } from "../db/survey_files.ts";
import type { WorkingFirm } from "../db/fieldwork.ts";
import type { SurveyorReview } from "../db/reviews.ts";
import type { ChecklistProgress } from "./checklist_types.ts";
import type { SurveyFileInfo } from "./survey_file_types.ts";
import { notifyAdmins } from "../db/notifications.ts";
import type { StatusChangeNotice } from "../db/surveys.ts";
import { SurveyStatusUpdateSchema } from "./survey_schema.ts";
import { type DeliveryState, lifecycleIndex, type SurveyStatus } from "./survey_status.ts";
import { SURVEY_TYPE_INFO, type SurveyType } from "./survey_types.ts";
import { completeAssignmentForDeliveredSurveyInTx } from "./assignments.ts";
import { queueSurveyDeliveredEmail } from "./mail/emails.ts";
import { todayInGuam } from "./us_days.ts";

/** Texts of the field actions that the status API answers with. */
export const FIELDWORK_MESSAGES = {
  /** Starts the 400 an admin gets for a rule-breaking move without a note. */
  noteRequired: "A note is required to override the delivery rules:",
  positionOnlyWhenStarting: "A position is only sent when starting fieldwork.",
  dateInFuture: "The date cannot be in the future.",
} as const;

/** Where the crew was when they started fieldwork (WGS 84 degrees). */
export const FieldPositionSchema = z.object({
  lat: z.number({ error: "Latitude must be a number" }).min(-90, {
    error: "Latitude must be between -90 and 90",
  }).max(90, { error: "Latitude must be between -90 and 90" }),
  lng: z.number({ error: "Longitude must be a number" }).min(-180, {
    error: "Longitude must be between -180 and 180",
  }).max(180, { error: "Longitude must be between -180 and 180" }),
}, { error: "Position must be {lat, lng}" }).strict();

/**
 * `PATCH /api/surveys/{id}/status` body: the status change of lib/survey_schema.ts plus the
 * optional position of "Start fieldwork".
 */
export const FieldStatusUpdateSchema = SurveyStatusUpdateSchema.extend({
  position: FieldPositionSchema.optional(),
});

/** Validated status change with its optional position. */
export type FieldStatusUpdate = z.infer<typeof FieldStatusUpdateSchema>;

/**
 * The latest day the crew may give as the day of the fieldwork or of the delivery: today in
 * Guam, the first US time zone to start a day, so "today" anywhere in the US passes and a day
 * after it is in the future everywhere.
 */
export function latestFieldDate(now = new Date()): string {
  return todayInGuam(now);
}

// Built once (lib/us_days.ts says why).
const LONG_DATE = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  year: "numeric",
  month: "long",
  day: "numeric",
});

/**
 * What the delivery rules look at for a move from `from` to `to`, counted only when the move
 * needs it: required checklist items when it reaches surveyed, deliverables when it completes.
 */
export async function deliveryState(
  db: Db,
  { surveyId, from, to }: { surveyId: string; from: SurveyStatus; to: SurveyStatus },
): Promise<DeliveryState> {
  const reachesSurveyed = lifecycleIndex(from) < lifecycleIndex("surveyed") &&
    lifecycleIndex(to) >= lifecycleIndex("surveyed");
  const [missingRequired, deliverables] = await Promise.all([
    reachesSurveyed ? countMissingRequired(db, { surveyId }) : 0,
    to === "completed" ? countDeliverables(db, { surveyId }) : 0,
  ]);
  return { missingRequired, deliverables };
}

/** The timeline note of an admin's override: which rules it broke, then the admin's words. */
export function overrideNote(blockers: readonly string[], note: string): string {
  return `Override: ${blockers.join(" ")} Note: ${note}`;
}

/**
 * "Start fieldwork": when (the first start counts; an admin's later move keeps it) and, when
 * given, where. Call after the survey moved to in_fieldwork, in the same transaction.
 */
export async function recordFieldworkStart(
  tx: Db,
  { surveyId, position }: { surveyId: string; position?: { lat: number; lng: number } },
): Promise<void> {
  await tx`
    update surveys set
      fieldwork_started_at = coalesce(fieldwork_started_at, now()),
      fieldwork_start_lat = ${position?.lat ?? null}::float8,
      fieldwork_start_lng = ${position?.lng ?? null}::float8
    where id = ${surveyId}`;
}

/** Who a delivery concerns: the client and the firm that did the job. */
export interface DeliveryParty {
  clientEmail: string | null;
  clientName: string;
  /** The firm doing the job, or null when an admin completes a survey nobody worked on. */
  companyName: string | null;
  deliverables: number;
}

/**
 * The client and the working firm's name of `surveyId` in one query, with `deliverables` as
 * the delivery rules counted them (`deliveryState`).
 */
export async function getDeliveryParty(
  db: Db,
  { surveyId, workingSurveyorId, deliverables }: {
    surveyId: string;
    workingSurveyorId: string | null;
    deliverables: number;
  },
): Promise<DeliveryParty> {
  const [row] = await db<Omit<DeliveryParty, "deliverables">[]>`
    select u.email as client_email, u.full_name as client_name,
      (select v.company_name from surveyors v where v.id = ${workingSurveyorId}) as company_name
    from surveys s join users u on u.id = s.client_id
    where s.id = ${surveyId}`;
  return { ...row, deliverables };
}

/** The client's notification when their survey is completed (replaces the default one). */
export function deliveredNotice(
  party: DeliveryParty,
  survey: { surveyType: SurveyType; address: string },
): StatusChangeNotice {
  const typeName = SURVEY_TYPE_INFO[survey.surveyType].name;
  const who = party.companyName ?? "Your surveyor";
  const files = party.deliverables === 1 ? "1 file" : `${party.deliverables} files`;
  return {
    kind: "survey_delivered",
    title: "Your survey is complete",
    body: party.deliverables > 0
      ? `${who} delivered your ${typeName} for ${survey.address}: ${files} to download.`
      : `Your ${typeName} for ${survey.address} is complete.`,
  };
}

/** "March 5, 2026" for a YYYY-MM-DD day. */
function longDate(day: string): string {
  return LONG_DATE.format(new Date(`${day}T00:00:00Z`));
}

/**
 * What follows a survey's completion, in the caller's transaction after the survey moved to
 * completed: the open assignment ends (completed), the client is emailed (SurveyDelivered,
 * linking to their request's page, when there are files) and, when the firm completed it,
 * the admins are told.
 */
export async function followDelivery(
  tx: Db,
  input: {
    survey: { id: string; surveyType: SurveyType; address: string };
    party: DeliveryParty;
    completedDate: string;
    bySurveyor: boolean;
    publicUrl: string;
  },
): Promise<void> {
  const { survey, party } = input;
  await completeAssignmentForDeliveredSurveyInTx(tx, { surveyId: survey.id });
  const typeName = SURVEY_TYPE_INFO[survey.surveyType].name;
  // A survey an admin completed without files (delivered outside Meridian) has nothing to
  // download: the notification tells the client, an email promising files would not.
  if (party.clientEmail && party.deliverables > 0) {
    await queueSurveyDeliveredEmail(tx, {
      to: party.clientEmail,
      name: party.clientName,
      surveyId: survey.id,
      surveyTypeName: typeName,
      address: survey.address,
      companyName: party.companyName ?? "Meridian",
      completedDate: longDate(input.completedDate),
      fileCount: party.deliverables,
      publicUrl: input.publicUrl,
    });
  }
  if (input.bySurveyor && party.companyName) {
    await notifyAdmins(tx, {
      kind: "assignment_status_changed",
      title: `${party.companyName} delivered a survey`,
      body: `${typeName} for ${survey.address}: ${party.deliverables} deliverable file${
        party.deliverables === 1 ? "" : "s"
      }.`,
      link: `/survey/${survey.id}`,
    });
  }
}

/** What a request's page shows of its fieldwork and delivery (routes/survey_pages.tsx). */
export interface SurveyDeliveryView {
  /** The checklist's progress, or undefined before a technician is assigned. */
  progress: ChecklistProgress | undefined;
  /** The firm doing or having done the job, or undefined. */
  firm: WorkingFirm | undefined;
  /** Deliverables the viewer may see now: the client's once completed, an admin's always. */
  deliverables: SurveyFileInfo[];
  /** The client's rating, or undefined. */
  review: SurveyorReview | undefined;
}
