/**
 * What the field-action islands (FieldActions, CompleteSurvey) share: the status request, the
 * local day for the date pickers, and how a survey's days read. No server imports.
 */
import { apiRequest } from "./_api.ts";
import { serverTime } from "./_field_memory.ts";
import type { SurveyStatus } from "../lib/survey_status.ts";
import type { ChecklistProgress } from "../lib/checklist_types.ts";

/**
 * The window event the SurveyChecklist island sends when its progress changes, with
 * `detail: {surveyId, progress, isSynced}`: progress (lib/checklist_types.ts) counts the
 * answers kept on the device too; `isSynced` is false while some still wait to be sent.
 */
export const CHECKLIST_PROGRESS_EVENT = "meridian:checklist-progress";

/** The window event DeliverableUpload sends (lib/survey_file_types.ts). */
export { DELIVERABLES_EVENT } from "../lib/survey_file_types.ts";

/** `detail` of CHECKLIST_PROGRESS_EVENT. */
export interface ChecklistProgressDetail {
  surveyId: string;
  progress: ChecklistProgress;
  isSynced: boolean;
}

/** The survey as the status API answers it (the fields these islands read). */
export interface StatusAnswer {
  message: string;
  /** When the server answered (ISO, its clock, after the commit). */
  answeredAt?: string;
  survey: {
    status: SurveyStatus;
    surveyedDate: string | null;
    completedDate: string | null;
  };
}

/**
 * `PATCH /api/surveys/{id}/status` with `body`: the survey as the server answered, with
 * `answeredAt`, the server's time of the answer (ISO, to the millisecond). Throws ApiError or
 * TypeError (offline).
 */
export async function changeStatus(
  surveyId: string,
  body: Record<string, unknown>,
): Promise<StatusAnswer["survey"] & { answeredAt: string }> {
  const res = await apiRequest(
    "PATCH",
    `/api/surveys/${encodeURIComponent(surveyId)}/status`,
    body,
  );
  const data = await res.json().catch(() => null) as StatusAnswer | null;
  if (!data?.survey) throw new Error("Empty answer");
  // The answer's own time; the Date header only for a server that does not send one.
  return { ...data.survey, answeredAt: data.answeredAt ?? serverTime(res) };
}

/** The device's today as YYYY-MM-DD (its own time zone: the day the crew lives in). */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const DAY = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  month: "long",
  day: "numeric",
  year: "numeric",
});

/** "March 5, 2026" for YYYY-MM-DD. */
export function formatDay(day: string): string {
  return DAY.format(new Date(`${day}T00:00:00Z`));
}

/** True when the failure is the network (no signal), not the server's refusal. */
export function isOffline(err: unknown): boolean {
  return err instanceof TypeError ||
    (typeof navigator !== "undefined" && navigator.onLine === false);
}
