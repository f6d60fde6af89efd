/**
 * What the crew needs on site (/technician-survey-detail/{surveyId}): the property, its parcel
 * data, access notes, the client's contact and the firm doing the job (read by
 * db/field_page.ts with the caller's access to it).
 */
import type { Db } from "./client.ts";
import { workingSurveyorId } from "./survey_access.ts";
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

/** `FieldSurvey` as postgres.js reads its row. */
export type FieldSurveyRow = Omit<FieldSurvey, "fieldworkStartedAt" | "acreage"> & {
  fieldworkStartedAt: Date | null;
  acreage: number | string | null;
};

/** A survey as the field page shows it, from its row (db/field_page.ts reads it). */
export function fieldSurveyOf(row: FieldSurveyRow): FieldSurvey {
  return {
    ...row,
    acreage: row.acreage === null ? null : Number(row.acreage),
    fieldworkStartedAt: row.fieldworkStartedAt?.toISOString() ?? null,
  };
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
