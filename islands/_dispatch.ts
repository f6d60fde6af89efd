/**
 * The dispatch panel's data and wording (islands/DispatchPanel.tsx), kept apart so the server
 * page and the tests use the same shapes and sentences. Browser-safe and light: no zod, no
 * database.
 */
// Types only: lib/dispatch.ts reaches the database, which never goes to the browser.
import type { DispatchLeadInfo, SurveyDispatchState } from "../lib/dispatch.ts";
import type { NearbySurveyorInfo } from "../lib/surveyor_schema.ts";
import type { SurveyStatus } from "../lib/survey_status.ts";

/** `GET /api/surveys/{id}/surveyors`: the matches, the lead and when the matches were found. */
export type DispatchState = SurveyDispatchState;
/** The survey's lead as the panel shows it. */
export type DispatchLead = DispatchLeadInfo;

/** Statuses in which nobody can be offered the job any more. */
const CLOSED: Partial<Record<SurveyStatus, string>> = {
  cancelled: "This request was cancelled: there is nobody to notify.",
  completed: "This request is completed: there is nobody to notify.",
};

/** Statuses in which the lead may still be offered (lib/dispatch.ts NOTIFIABLE_STATUSES). */
const NOTIFIABLE: readonly SurveyStatus[] = ["requested", "surveyors_notified"];

/**
 * Why "Notify surveyors" cannot be pressed now, or null when it can: the request is closed or
 * already has a surveyor, the lead has closed, nobody searched yet, or the search matched
 * nobody. The server checks all of it again (409 with its own words).
 */
export function notifyBlockedReason(state: DispatchState, status: SurveyStatus): string | null {
  const closed = CLOSED[status];
  if (closed) return closed;
  if (!NOTIFIABLE.includes(status)) {
    return "This request already has a surveyor: the lead is not offered to others.";
  }
  if (state.lead?.status === "closed") return "The lead has closed: nobody more can be offered it.";
  if (state.foundAt === null) return "Find surveyors first: nobody has been matched yet.";
  if (state.surveyors.length === 0) {
    return "Nobody matched this request. Refresh the search after adding surveyors.";
  }
  return null;
}

/**
 * The description of the 'Using existing surveyors' toast: the stored result, said as such
 * (nothing was searched this time).
 */
export function cachedToastText(n: number): string {
  return `${n} nearby surveyor(s) from the last search. Use Refresh to search again.`;
}

/** Badge of a match: the network it belongs to (or that it is only a prospect). */
export function matchBadge(
  match: Pick<NearbySurveyorInfo, "inNetwork" | "surveyorId" | "status">,
): { label: string; tone: "success" | "warning" | "neutral" } {
  if (match.inNetwork) return { label: "In network", tone: "success" };
  if (match.surveyorId === null || match.status === "prospect") {
    return { label: "Prospect", tone: "warning" };
  }
  return { label: "Out of network", tone: "neutral" };
}

/** A match's kind on the dispatch map (components/UsMap.tsx `MapPointKind`). */
export function matchMapKind(
  match: Pick<NearbySurveyorInfo, "inNetwork" | "surveyorId" | "status">,
): "in_network" | "prospect" | "out_of_network" {
  const { tone } = matchBadge(match);
  return tone === "success" ? "in_network" : tone === "warning" ? "prospect" : "out_of_network";
}
