/**
 * The survey request lifecycle as an explicit state machine. Pure: no HTTP, no database.
 *
 *   requested → surveyors_notified → assigned → scheduled → in_fieldwork → surveyed → completed
 *   and, from any step before completed, → cancelled.
 *
 * Who may make which move lives in one table (`canTransition`), so the API, the admin table's
 * status menu and the client's "Cancel request" button all agree.
 */
import type { Role } from "./roles.ts";

/** Every status a survey request can be in, in lifecycle order (cancelled last). */
export const SURVEY_STATUSES = [
  "requested",
  "surveyors_notified",
  "assigned",
  "scheduled",
  "in_fieldwork",
  "surveyed",
  "completed",
  "cancelled",
] as const;

/** A survey request status. */
export type SurveyStatus = typeof SURVEY_STATUSES[number];

/** The forward path the progress tracker draws (everything but cancelled), in order. */
export const LIFECYCLE: readonly SurveyStatus[] = SURVEY_STATUSES.filter((s) => s !== "cancelled");

/** Statuses nothing moves out of. */
export const TERMINAL_STATUSES: readonly SurveyStatus[] = ["completed", "cancelled"];

/**
 * Statuses in which a client may still cancel their own request: before a surveyor is
 * assigned, nobody has committed time to it yet.
 */
export const CLIENT_CANCELLABLE: readonly SurveyStatus[] = ["requested", "surveyors_notified"];

/** Label and one-line description per status, for badges and the progress tracker. */
export const STATUS_INFO: Record<
  SurveyStatus,
  {
    label: string;
    description: string;
    badge: "neutral" | "info" | "warning" | "success" | "danger";
  }
> = {
  requested: {
    label: "Requested",
    description: "We received your request and your instant quote.",
    badge: "neutral",
  },
  surveyors_notified: {
    label: "Surveyors notified",
    description: "Licensed surveyors near the property have been offered the job.",
    badge: "info",
  },
  assigned: {
    label: "Surveyor assigned",
    description: "A surveyor has taken the job and will contact you to confirm details.",
    badge: "info",
  },
  scheduled: {
    label: "Scheduled",
    description: "The field visit is booked.",
    badge: "info",
  },
  in_fieldwork: {
    label: "In fieldwork",
    description: "The crew is measuring the property.",
    badge: "warning",
  },
  surveyed: {
    label: "Surveyed",
    description: "Fieldwork is done; the surveyor is drafting the plat and report.",
    badge: "warning",
  },
  completed: {
    label: "Completed",
    description: "The final survey has been delivered.",
    badge: "success",
  },
  cancelled: {
    label: "Cancelled",
    description: "This request was cancelled.",
    badge: "danger",
  },
};

/**
 * Title of the client's notification when their request moves to a status: a sentence about
 * their request, true whoever made the move.
 */
export const STATUS_NOTIFICATION_TITLES: Record<SurveyStatus, string> = {
  requested: "We received your request",
  surveyors_notified: "Your request was sent to local surveyors",
  assigned: "A surveyor took your request",
  scheduled: "Your survey visit is scheduled",
  in_fieldwork: "Fieldwork has started",
  surveyed: "Fieldwork is done",
  completed: "Your survey is complete",
  cancelled: "Your request was cancelled",
};

/** True when `value` is a known status. */
export function isSurveyStatus(value: unknown): value is SurveyStatus {
  return typeof value === "string" && (SURVEY_STATUSES as readonly string[]).includes(value);
}

/** Position on the forward path (0 = requested); -1 for cancelled. */
export function lifecycleIndex(status: SurveyStatus): number {
  return LIFECYCLE.indexOf(status);
}

/** True when no further transition is possible from `status`. */
export function isTerminal(status: SurveyStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/**
 * Statuses no status change may set: each is the result of an action that does more than
 * change a label, with the sentence that says which. `surveyors_notified` is set by Notify
 * surveyors (or automatic dispatch), and only when someone was actually notified; `assigned`
 * by an assignment (a surveyor claiming the lead, or an admin assigning one).
 */
export const ACTION_ONLY_STATUSES: Readonly<Partial<Record<SurveyStatus, string>>> = {
  surveyors_notified: "Use Notify surveyors to offer the lead.",
  assigned: "A surveyor is assigned when they claim the lead or an admin assigns one.",
};

/**
 * Whether `role` may move a survey from `from` to `to` by a status change
 * (`PATCH /api/surveys/{id}/status`, the admin table's status menu).
 *
 * - admin: forward to any later step (steps may be skipped, e.g. scheduling a visit arranged
 *   by phone) and cancel anything not yet finished, but never to a status in
 *   ACTION_ONLY_STATUSES: a survey is "surveyors notified" only once the lead was offered to
 *   someone, and "assigned" only once a surveyor is.
 * - client: cancel only, and only before a surveyor is assigned (CLIENT_CANCELLABLE). The
 *   route also checks that the survey is theirs.
 * - surveyor, technician: the field moves of FIELD_MOVES, one step at a time: the crew starts
 *   fieldwork and marks the survey surveyed; only the surveyor completes it. The route checks
 *   that the caller works on the survey (db/survey_access.ts: the firm doing the job, the
 *   assigned technician) and the requirements of `deliveryBlockers`. Everything before the
 *   visit goes through the assignment (accept, schedule, decline: `canAssignmentMove`).
 *
 * Staying in the same status, moving backwards and leaving a terminal status are never legal.
 */
export function canTransition(role: Role, from: SurveyStatus, to: SurveyStatus): boolean {
  if (from === to || isTerminal(from)) return false;
  switch (role) {
    case "admin":
      return to === "cancelled" ||
        (lifecycleIndex(to) > lifecycleIndex(from) && ACTION_ONLY_STATUSES[to] === undefined);
    case "client":
      return to === "cancelled" && CLIENT_CANCELLABLE.includes(from);
    case "surveyor":
    case "technician":
      return FIELD_MOVES[role].some(([a, b]) => a === from && b === to);
  }
}

/**
 * The moves the crew makes on site and after, by role: "Start fieldwork" (scheduled →
 * in_fieldwork), "Mark surveyed" (in_fieldwork → surveyed) and, for the surveyor who drafts
 * and uploads the deliverables, "Mark complete" (surveyed → completed).
 */
export const FIELD_MOVES: Readonly<
  Record<"surveyor" | "technician", readonly (readonly [SurveyStatus, SurveyStatus])[]>
> = {
  technician: [["scheduled", "in_fieldwork"], ["in_fieldwork", "surveyed"]],
  surveyor: [["scheduled", "in_fieldwork"], ["in_fieldwork", "surveyed"], [
    "surveyed",
    "completed",
  ]],
};

/** What a survey holds that the delivery rules look at (counted by the route). */
export interface DeliveryState {
  /** Required checklist items not answered yet (0 when the survey has no checklist). */
  missingRequired: number;
  /** Deliverable files uploaded. */
  deliverables: number;
}

/**
 * Why moving a survey from `from` to `to` would break the delivery rules, as sentences (empty
 * when it would not): a survey is surveyed only once every required checklist item is done
 * (also when a move skips straight past surveyed), and completed only with at least one
 * deliverable. The crew is refused (409); an admin may override with a note.
 */
export function deliveryBlockers(
  from: SurveyStatus,
  to: SurveyStatus,
  state: DeliveryState,
): string[] {
  const reasons: string[] = [];
  const passesSurveyed = lifecycleIndex(from) < lifecycleIndex("surveyed") &&
    lifecycleIndex(to) >= lifecycleIndex("surveyed");
  if (passesSurveyed && state.missingRequired > 0) {
    const n = state.missingRequired;
    reasons.push(
      `${n} required checklist item${n === 1 ? " is" : "s are"} not done yet; ` +
        "complete the checklist before marking the survey surveyed.",
    );
  }
  if (to === "completed" && state.deliverables === 0) {
    reasons.push(
      "Upload at least one deliverable (the plat, certificate, drawing or point file) " +
        "before completing the survey.",
    );
  }
  return reasons;
}

/** Why an assignment moves a survey (lib/assignments.ts); never a status change by hand. */
export type AssignmentMove = "assign" | "schedule" | "unassign";

/**
 * Whether an assignment may move a survey from `from` to `to` (lib/assignments.ts):
 *
 * - `assign`: a surveyor is assigned (a claim, or an admin's assignment): → assigned from
 *   requested or surveyors_notified, and from scheduled when a reassignment replaces the
 *   surveyor who had booked the visit (their date goes with them).
 * - `schedule`: the assigned surveyor books the field visit: assigned → scheduled.
 * - `unassign`: the assignment ends without the job done (declined or cancelled): assigned or
 *   scheduled → surveyors_notified when the survey has a lead, else → requested.
 *
 * These moves go backwards on purpose, which `canTransition` never allows anyone by hand; the
 * status API still refuses `assigned` (ACTION_ONLY_STATUSES).
 */
export function canAssignmentMove(
  move: AssignmentMove,
  from: SurveyStatus,
  to: SurveyStatus,
): boolean {
  switch (move) {
    case "assign":
      return to === "assigned" &&
        (from === "requested" || from === "surveyors_notified" || from === "scheduled");
    case "schedule":
      return from === "assigned" && to === "scheduled";
    case "unassign":
      return (from === "assigned" || from === "scheduled") &&
        (to === "surveyors_notified" || to === "requested");
  }
}

/** The statuses `role` may move a survey in `from` to, in lifecycle order. */
export function nextStatuses(role: Role, from: SurveyStatus): SurveyStatus[] {
  return SURVEY_STATUSES.filter((to) => canTransition(role, from, to));
}

/**
 * The date a status change must carry: scheduling by hand (an admin's) needs the visit day, so a
 * survey never reads "Scheduled" with no day; marking surveyed needs the day of the fieldwork,
 * completing needs the delivery day. Undefined when none is required.
 */
export function requiredDateField(
  to: SurveyStatus,
): "scheduledDate" | "surveyedDate" | "completedDate" | undefined {
  if (to === "scheduled") return "scheduledDate";
  if (to === "surveyed") return "surveyedDate";
  if (to === "completed") return "completedDate";
  return undefined;
}

/** A sentence explaining why a move is refused, for the API's 409 message. */
export function transitionError(role: Role, from: SurveyStatus, to: SurveyStatus): string {
  const fromLabel = STATUS_INFO[from].label;
  const toLabel = STATUS_INFO[to].label;
  if (from === to) return `This survey is already ${fromLabel.toLowerCase()}.`;
  if (isTerminal(from)) {
    return `This survey is ${fromLabel.toLowerCase()}; its status can no longer change.`;
  }
  if (role === "client") {
    return to === "cancelled"
      ? "This request can no longer be cancelled because a surveyor has been assigned."
      : "You can only cancel your request.";
  }
  if (role === "admin") {
    if (lifecycleIndex(to) > lifecycleIndex(from)) {
      const reason = ACTION_ONLY_STATUSES[to];
      if (reason) return reason;
    }
    return `A survey cannot go back from ${fromLabel} to ${toLabel}.`;
  }
  if (role === "surveyor" || role === "technician") {
    if (to === "cancelled") return "Ask Meridian support to cancel this survey.";
    if (to === "completed" && role === "technician") {
      return "The surveyor completes the survey once the deliverables are uploaded.";
    }
    if (to === "in_fieldwork") return "Fieldwork starts once the visit is scheduled.";
    if (to === "surveyed") return "Start fieldwork before marking the survey surveyed.";
    if (to === "completed") return "Mark the survey surveyed before completing it.";
  }
  return "You do not have permission to change this survey's status.";
}
