/**
 * Assignment constants without zod, so islands can import them (lib/lead_market_schema.ts
 * re-exports the statuses and labels): the lifecycle, who may make each move, and the texts
 * the islands and pages show.
 *
 *   offered → accepted | declined        (the assigned surveyor; admins too)
 *   accepted → scheduled (a visit day) → completed (admins; the surveyor's completion of the
 *                                                  survey completes it: lib/fieldwork.ts)
 *   scheduled → scheduled                (moving the visit to another day)
 *   offered | accepted | scheduled → cancelled   (admins; a surveyor declines instead, and only
 *                                                 before accepting)
 */
import type { Role } from "./roles.ts";

/**
 * Assignment lifecycle (spec §3/§4 "assignment status"): offered → accepted | declined;
 * accepted → scheduled (with its date) → completed; any open status → cancelled.
 */
export const ASSIGNMENT_STATUSES = [
  "offered",
  "accepted",
  "declined",
  "scheduled",
  "completed",
  "cancelled",
] as const;
/** An assignment's status. */
export type AssignmentStatus = typeof ASSIGNMENT_STATUSES[number];
/** Statuses of an assignment still in force (one per survey at most). */
export const OPEN_ASSIGNMENT_STATUSES: readonly AssignmentStatus[] = [
  "offered",
  "accepted",
  "scheduled",
];
/** Label per assignment status. */
export const ASSIGNMENT_LABELS: Record<AssignmentStatus, string> = {
  offered: "Offered",
  accepted: "Accepted",
  declined: "Declined",
  scheduled: "Scheduled",
  completed: "Completed",
  cancelled: "Cancelled",
};

/**
 * What the surveyor may do with the job now, in words, per assignment status (their job page,
 * beside the actions; the actions island swaps it when the status moves).
 */
export const SURVEYOR_NEXT_STEP: Record<AssignmentStatus, string> = {
  offered:
    "Meridian offers you this job at the agreed price. Accept it to see the client's name, contact details and the exact address; the client is told once you accept.",
  accepted: "Call the client to agree the visit, then schedule it here.",
  scheduled:
    "On the day, start fieldwork on the field page; once the survey is marked surveyed, upload the deliverables and mark it complete.",
  completed: "You completed this job.",
  declined: "You declined this job.",
  cancelled: "This assignment has ended; the job is no longer yours.",
};

/** Who may make each move: `from → to → roles`. */
export const ASSIGNMENT_MOVES: Readonly<
  Record<AssignmentStatus, Partial<Record<AssignmentStatus, readonly Role[]>>>
> = {
  offered: {
    accepted: ["surveyor", "admin"],
    declined: ["surveyor", "admin"],
    cancelled: ["admin"],
  },
  accepted: { scheduled: ["surveyor", "admin"], cancelled: ["admin"] },
  scheduled: {
    scheduled: ["surveyor", "admin"],
    // The surveyor completes the job by completing the survey with its deliverables
    // (lib/fieldwork.ts), which completes the assignment; an admin may still do it by hand.
    completed: ["admin"],
    cancelled: ["admin"],
  },
  declined: {},
  completed: {},
  cancelled: {},
};

/** Whether `role` may move an assignment from `from` to `to`. */
export function canMoveAssignment(
  role: Role,
  from: AssignmentStatus,
  to: AssignmentStatus,
): boolean {
  return ASSIGNMENT_MOVES[from][to]?.includes(role) ?? false;
}

/** The moves `role` may make from `from`, in lifecycle order. */
export function nextAssignmentStatuses(role: Role, from: AssignmentStatus): AssignmentStatus[] {
  return (Object.keys(ASSIGNMENT_MOVES[from]) as AssignmentStatus[])
    .filter((to) => canMoveAssignment(role, from, to));
}

/** Spec §8 toasts, word for word. */
export const ASSIGNMENT_TOASTS = {
  assigned: "Surveyor assigned",
  assignFailed: "Failed to assign surveyor",
  updated: "Assignment updated",
  updateFailed: "Failed to update assignment status",
} as const;

/**
 * Where an open assignment stands, for the admin's request page: never "assigned" for an offer
 * the surveyor has not accepted.
 */
export const ADMIN_ASSIGNMENT_TEXT: Record<AssignmentStatus, string> = {
  offered: "Surveyor offered the job — waiting for them to accept",
  accepted: "Surveyor assigned — accepted, visit not booked yet",
  scheduled: "Surveyor assigned — visit scheduled",
  declined: "The surveyor declined",
  completed: "The surveyor completed the job",
  cancelled: "Assignment cancelled",
};

const VISIT_DAY = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  weekday: "long",
  month: "long",
  day: "numeric",
  year: "numeric",
});

/** "Tuesday, March 3, 2026" for a YYYY-MM-DD date. */
export function formatVisitDate(date: string): string {
  return VISIT_DAY.format(new Date(`${date}T00:00:00Z`));
}
