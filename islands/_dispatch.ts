/**
 * The dispatch panel's data and wording (islands/DispatchPanel.tsx), kept apart so the server
 * page and the tests use the same shapes and sentences. Browser-safe and light: no zod, no
 * database.
 */
// Types only: lib/dispatch.ts reaches the database, which never goes to the browser.
import type { DispatchLeadInfo, SurveyDispatchState } from "../lib/dispatch.ts";
import type { NearbySurveyorInfo } from "../lib/surveyor_schema.ts";
import type { SurveyStatus } from "../lib/survey_status.ts";
import { formatMiles } from "./_dispatch_format.ts";

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

/** A surveyor the admin may assign, with why they are listed ("Bought the lead", "Matched"). */
export interface AssignCandidate {
  surveyorId: string;
  companyName: string;
  detail: string;
}

/** A buyer of the survey's lead, as the assignment form lists it. */
export interface CandidateBuyer {
  surveyorId: string;
  companyName: string;
  kind: "buy" | "claim";
  isRefunded: boolean;
}

/**
 * Whom the assignment form offers: the lead's buyers first (not refunded), then the matched
 * active in-network records, each once. The server's first render and the form's redraw after
 * Find or Notify both use it.
 */
export function assignCandidates(
  buyers: readonly CandidateBuyer[],
  matches: readonly Pick<
    NearbySurveyorInfo,
    "surveyorId" | "inNetwork" | "status" | "name" | "distanceMiles"
  >[],
): AssignCandidate[] {
  const candidates: AssignCandidate[] = [];
  const seen = new Set<string>();
  for (const b of buyers) {
    if (b.isRefunded || seen.has(b.surveyorId)) continue;
    seen.add(b.surveyorId);
    candidates.push({
      surveyorId: b.surveyorId,
      companyName: b.companyName,
      detail: b.kind === "claim" ? "Claimed the lead" : "Bought the lead",
    });
  }
  for (const m of matches) {
    if (!m.surveyorId || !m.inNetwork || m.status !== "active" || seen.has(m.surveyorId)) continue;
    seen.add(m.surveyorId);
    candidates.push({
      surveyorId: m.surveyorId,
      companyName: m.name,
      detail: `Matched, ${formatMiles(m.distanceMiles)}`,
    });
  }
  return candidates;
}
