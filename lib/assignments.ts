/**
 * Surveyor assignments (spec §3 "surveyor assignment: agreedPrice, status", §7 assign and
 * assignment status): who does a survey, at what agreed price, and how far they are.
 *
 * Lifecycle and who may move it: lib/assignment_constants.ts `ASSIGNMENT_MOVES` (a visit day
 * may not be in the past). A claim (H1's lead market) is accepted at once; an admin's assignment is offered and waits
 * for the surveyor. The survey follows through lib/survey_status.ts `canAssignmentMove`, each
 * move with its survey_events row (db/surveys.ts `applySurveyStatusChange`):
 *
 * - assigning: the survey → assigned (from requested, surveyors_notified, or scheduled when a
 *   reassignment replaces the surveyor who had booked the visit: their date is cleared).
 * - scheduled: assigned → scheduled with the visit day (a survey already scheduled gets the new
 *   day); the client is notified and emailed (VisitScheduled).
 * - completed: the surveyor finishes the job by completing the survey itself (PATCH status
 *   → completed with a deliverable, lib/fieldwork.ts), which completes their open assignment
 *   here (`completeAssignmentForDeliveredSurveyInTx`). Only an admin still completes an
 *   assignment by hand (the survey stays as it is); the admins are notified.
 * - declined / cancelled: assigned or scheduled → surveyors_notified when the survey has a lead,
 *   else → requested; the visit day and `surveys.assigned_surveyor_id` are cleared. A survey past
 *   scheduled (fieldwork started by an admin's hand) keeps its status.
 *
 * Who is told: the client once a surveyor has taken the job (a claim at once; an admin's offer
 * when the surveyor accepts — before that nothing is settled, so nothing is claimed), at
 * scheduling, and when their surveyor drops out after they were told; the surveyor when an
 * admin offers them a job or ends their assignment; the admins when a surveyor accepts,
 * declines or completes. Everything is written in the caller's transaction.
 */
import type { Db } from "../db/client.ts";
import {
  type AssignableSurvey,
  type AssignmentParty,
  getAssignmentParty,
  getOpenAssignment,
  getSurveyorAssignment,
  getSurveyorIdForUser,
  insertAssignment,
  lockAssignableSurvey,
  setAssignedSurveyor,
  updateAssignmentStatus,
} from "../db/assignments.ts";
import { applySurveyStatusChange, type StatusChangeNotice } from "../db/surveys.ts";
import { closePendingProposalsOnAssignment } from "../db/proposals.ts";
import { insertNotification, notifyAdmins } from "../db/notifications.ts";
import { townFromAddress } from "./address_parts.ts";
import {
  queueAssignmentOfferedEmail,
  queueSurveyorAssignedEmail,
  queueVisitScheduledEmail,
} from "./mail/emails.ts";
import type { Assignment } from "./lead_market_schema.ts";
import {
  ASSIGNMENT_TOASTS,
  type AssignmentStatus,
  canMoveAssignment,
  formatVisitDate,
  nextAssignmentStatuses,
} from "./assignment_constants.ts";
import type { Role } from "./roles.ts";
import { canAssignmentMove, isTerminal, STATUS_INFO } from "./survey_status.ts";
import { SURVEY_TYPE_INFO } from "./survey_types.ts";
import { US_STATES } from "./survey_details.ts";
import { formatCents } from "./quote_text.ts";
import type { AssignmentActionsProps } from "../islands/AssignmentActions.tsx";
import { todayInHawaii } from "./us_days.ts";

/** Texts the assignment API answers with (toasts are the islands'). */
export const ASSIGNMENT_MESSAGES = {
  assigned: ASSIGNMENT_TOASTS.assigned,
  updated: ASSIGNMENT_TOASTS.updated,
  surveyNotFound: "Survey not found",
  surveyorNotFound: "Surveyor not found",
  assignmentNotFound: "Assignment not found",
  fieldworkStarted:
    "Fieldwork has started on this survey; change its status before assigning another surveyor.",
  surveyorPaused: "This surveyor is paused and cannot be assigned.",
  alreadyAssigned: "This surveyor is already assigned to this survey.",
  dateRequired: "Choose the day of the field visit.",
  dateInPast: "The visit date cannot be in the past.",
  dateOnlyWhenScheduling: "A visit date is only given when scheduling.",
  changedMeanwhile: "This assignment changed meanwhile; reload and try again.",
} as const;

/** The reason stored on an assignment a new one replaced, when the admin gave none. */
export const DEFAULT_REASSIGN_REASON = "Reassigned";

/** A refused assignment or move: `status` is the HTTP status to answer, `message` the text. */
export class AssignmentError extends Error {
  /** Builds the error; `status` is 400, 404 or 409. */
  constructor(readonly status: 400 | 404 | 409, message: string) {
    super(message);
    this.name = "AssignmentError";
  }
}

/**
 * The surveyor's page of their job on `surveyId` (routes/surveyor_job_pages.tsx), where they
 * accept, decline, schedule and complete it: what their notifications and emails link to.
 */
export function surveyorJobPath(surveyId: string): string {
  return `/surveyor/jobs/${encodeURIComponent(surveyId)}`;
}

/** Statuses whose survey cannot take a new assignment besides the terminal ones. */
const PAST_SCHEDULING = ["in_fieldwork", "surveyed"] as const;

/** The 409 sentence for a refused move. */
export function assignmentMoveError(
  role: Role,
  from: AssignmentStatus,
  to: AssignmentStatus,
): string {
  if (from === "declined" || from === "completed" || from === "cancelled") {
    return `This assignment was ${from}; it can no longer change.`;
  }
  if (to === "cancelled" && role !== "admin") {
    return from === "offered"
      ? "Decline the assignment instead."
      : "You accepted this assignment; ask Meridian support to cancel it.";
  }
  if (to === "scheduled") return "Accept the assignment before scheduling the visit.";
  if (to === "completed") return "Schedule the visit before completing the assignment.";
  if (to === "accepted" || to === "declined") {
    return `This assignment was already ${from === "scheduled" ? "scheduled" : "accepted"}.`;
  }
  return "This assignment cannot move to that status.";
}

/**
 * Today's date (YYYY-MM-DD) in Hawaii, the last US time zone to start a day: a visit day
 * before it is in the past everywhere a survey can be, and today anywhere in the US passes.
 */
export function earliestVisitDate(now = new Date()): string {
  return todayInHawaii(now);
}

/** "TX 6012": the licence number with the survey's state when licensed there. */
function licenseText(party: AssignmentParty, surveyState: string): string | null {
  if (!party.licenseNumber) return null;
  const state = party.licenseStates.includes(surveyState) ? surveyState : party.licenseStates[0];
  return state ? `${state} ${party.licenseNumber}` : party.licenseNumber;
}

function typeName(survey: AssignableSurvey): string {
  return SURVEY_TYPE_INFO[survey.surveyType].name;
}

function surveyLink(surveyId: string): string {
  return `/survey/${surveyId}`;
}

/** The town and state a surveyor is told before they accept: never the street. */
function location(survey: AssignableSurvey): string {
  const state = US_STATES[survey.state as keyof typeof US_STATES] ?? survey.state;
  const city = townFromAddress(survey.address, survey.state);
  return city ? `${city}, ${survey.state}` : state;
}

function assignedNotice(survey: AssignableSurvey, party: AssignmentParty, cents: number) {
  const who = party.principalName
    ? `${party.companyName} (${party.principalName})`
    : party.companyName;
  return {
    kind: "surveyor_assigned",
    title: "Surveyor assigned",
    body: `${who} will do your ${typeName(survey)} for ${survey.address} at the agreed price of ${
      formatCents(cents)
    }.`,
  } satisfies StatusChangeNotice;
}

/** The client's "Surveyor assigned" email, plus the notification unless the status move sent it. */
async function tellClientAssigned(
  tx: Db,
  survey: AssignableSurvey,
  party: AssignmentParty,
  cents: number,
  { publicUrl, notify }: { publicUrl: string; notify: boolean },
): Promise<void> {
  if (notify) {
    await insertNotification(tx, {
      userId: survey.clientId,
      ...assignedNotice(survey, party, cents),
      link: surveyLink(survey.id),
    });
  }
  if (!survey.clientEmail) return;
  await queueSurveyorAssignedEmail(tx, {
    to: survey.clientEmail,
    name: survey.clientName,
    surveyId: survey.id,
    surveyTypeName: typeName(survey),
    address: survey.address,
    companyName: party.companyName,
    surveyorName: party.principalName,
    phone: party.phone,
    license: licenseText(party, survey.state),
    agreedPrice: formatCents(cents),
    publicUrl,
  });
}

/** Tells a surveyor's account (when linked) that an admin changed their assignment. */
async function tellSurveyor(
  tx: Db,
  party: AssignmentParty,
  surveyId: string,
  title: string,
  body: string,
): Promise<void> {
  if (!party.userId) return;
  await insertNotification(tx, {
    userId: party.userId,
    kind: "assignment_status_changed",
    title,
    body,
    link: surveyorJobPath(surveyId),
  });
}

/** Input of `assignSurveyorInTx`. */
export interface AssignSurveyorInput {
  surveyId: string;
  surveyorId: string;
  /** Whole cents, more than 0. */
  agreedPriceCents: number;
  /**
   * "claim": the surveyor took the lead at the quote; "proposal": the client accepted the
   * surveyor's proposal (both accepted at once); "admin": offered.
   */
  source: "claim" | "admin" | "proposal";
  /** Who assigned (the admin, or the claiming surveyor's user); null for the system. */
  actorId: string | null;
  /** Why the open assignment, if any, ends (stored on it); default "Reassigned". */
  reason?: string;
  /** The site's public origin (config PUBLIC_URL), for the links in the emails. */
  publicUrl: string;
}

/**
 * Assigns `surveyorId` to `surveyId` at `agreedPriceCents`, in the caller's transaction `tx`:
 * locks the survey row, ends the open assignment if any (status cancelled, `reason` or
 * "Reassigned"), inserts the new one (a claim accepted, an admin's offered), points the survey
 * at the surveyor and moves it to assigned with its event, and notifies and emails (see the
 * module comment). Returns the new assignment.
 *
 * Throws `AssignmentError` 404 for an unknown survey or surveyor, 409 for a cancelled or
 * completed survey, one whose fieldwork started, a paused surveyor or the surveyor already
 * assigned; nothing is written then (the caller's transaction stays usable).
 */
export async function assignSurveyorInTx(
  tx: Db,
  input: AssignSurveyorInput,
): Promise<Assignment> {
  const survey = await lockAssignableSurvey(tx, { surveyId: input.surveyId });
  if (!survey) throw new AssignmentError(404, ASSIGNMENT_MESSAGES.surveyNotFound);
  if (isTerminal(survey.status)) {
    throw new AssignmentError(
      409,
      `This survey is ${
        STATUS_INFO[survey.status].label.toLowerCase()
      }; it can no longer be assigned.`,
    );
  }
  if ((PAST_SCHEDULING as readonly string[]).includes(survey.status)) {
    throw new AssignmentError(409, ASSIGNMENT_MESSAGES.fieldworkStarted);
  }
  const party = await getAssignmentParty(tx, { surveyorId: input.surveyorId });
  if (!party) throw new AssignmentError(404, ASSIGNMENT_MESSAGES.surveyorNotFound);
  if (party.status === "paused") throw new AssignmentError(409, ASSIGNMENT_MESSAGES.surveyorPaused);
  if (!Number.isSafeInteger(input.agreedPriceCents) || input.agreedPriceCents <= 0) {
    throw new AssignmentError(400, "Agreed price must be more than $0");
  }

  const open = await getOpenAssignment(tx, { surveyId: survey.id });
  if (open?.surveyorId === party.id) {
    throw new AssignmentError(409, ASSIGNMENT_MESSAGES.alreadyAssigned);
  }
  if (open) {
    await updateAssignmentStatus(tx, {
      id: open.id,
      from: open.status,
      status: "cancelled",
      endedReason: input.reason ?? DEFAULT_REASSIGN_REASON,
    });
    const previous = await getAssignmentParty(tx, { surveyorId: open.surveyorId });
    if (previous) {
      await tellSurveyor(
        tx,
        previous,
        survey.id,
        "Your assignment was ended",
        `Meridian assigned another surveyor to the ${typeName(survey)} in ${location(survey)}.`,
      );
    }
  }

  // A claim or an accepted proposal: both sides already agreed, so it is accepted at once.
  const isClaim = input.source !== "admin";
  const assignment = await insertAssignment(tx, {
    surveyId: survey.id,
    surveyorId: party.id,
    agreedPriceCents: input.agreedPriceCents,
    status: isClaim ? "accepted" : "offered",
    source: input.source,
    assignedBy: input.actorId,
  });
  await setAssignedSurveyor(tx, { surveyId: survey.id, surveyorId: party.id });
  // Assigned without a proposal: the pending ones no longer stand (lib/proposals.ts accepts its
  // own and declines the rest itself).
  if (input.source !== "proposal") {
    const declined = await closePendingProposalsOnAssignment(tx, {
      surveyId: survey.id,
      assigneeId: party.id,
    });
    for (const d of declined) {
      const proposer = await getAssignmentParty(tx, { surveyorId: d.surveyorId });
      if (!proposer?.userId) continue;
      await insertNotification(tx, {
        userId: proposer.userId,
        kind: "proposal_declined",
        title: "The survey went to another surveyor",
        body: `${typeName(survey)} in ${location(survey)}: your proposal was declined.`,
        link: `/surveyor/purchased-leads/${encodeURIComponent(d.leadId)}`,
      });
    }
  }

  // The client hears of it once the surveyor has taken the job: a claim now, an offer when
  // accepted. The status change carries that notification, or none for an offer.
  const notice = isClaim ? assignedNotice(survey, party, input.agreedPriceCents) : null;
  let notified = false;
  if (survey.status !== "assigned" && canAssignmentMove("assign", survey.status, "assigned")) {
    notified = await applySurveyStatusChange(tx, {
      survey,
      to: "assigned",
      actorId: input.actorId,
      clearScheduledDate: survey.status === "scheduled",
      notice,
    }) && notice !== null;
  }
  if (isClaim) {
    await tellClientAssigned(tx, survey, party, input.agreedPriceCents, {
      publicUrl: input.publicUrl,
      notify: !notified,
    });
  } else {
    await tellSurveyor(
      tx,
      party,
      survey.id,
      "You were assigned a survey",
      `${typeName(survey)} in ${location(survey)} at ${
        formatCents(input.agreedPriceCents)
      }. Accept or decline it.`,
    );
    if (party.email) {
      await queueAssignmentOfferedEmail(tx, {
        to: party.email,
        companyName: party.companyName,
        surveyTypeName: typeName(survey),
        location: location(survey),
        agreedPrice: formatCents(input.agreedPriceCents),
        actionPath: surveyorJobPath(survey.id),
        publicUrl: input.publicUrl,
      });
    }
  }
  return assignment;
}

/** Input of `updateAssignmentStatusInTx`. */
export interface UpdateAssignmentStatusInput {
  surveyId: string;
  surveyorId: string;
  status: AssignmentStatus;
  /** YYYY-MM-DD; required when scheduling, refused otherwise. */
  scheduledDate?: string;
  /** Why a declined or cancelled assignment ended. */
  reason?: string;
  /** Who asks: an admin, or the surveyor whose account is linked to `surveyorId`. */
  actor: { id: string; role: Role };
  /** Who is recorded on the survey's timeline: default `actor.id` (an impersonating admin). */
  actorId?: string;
  /** The site's public origin (config PUBLIC_URL), for the links in the emails. */
  publicUrl: string;
  /** For tests: the moment "the past" is measured from. */
  now?: Date;
}

/**
 * Moves the assignment of `surveyorId` on `surveyId` to `status` in the caller's transaction,
 * the survey following (see the module comment). Returns the updated assignment.
 *
 * Throws `AssignmentError`: 404 when the survey or the assignment does not exist or the actor
 * is neither an admin nor the surveyor linked to `surveyorId`; 409 for a move the lifecycle or
 * the actor's role does not allow (with the reason), or any move but cancelling on a cancelled
 * or completed survey; 400 for scheduling without a date or with
 * a past one, or a date with any other move.
 */
export async function updateAssignmentStatusInTx(
  tx: Db,
  input: UpdateAssignmentStatusInput,
): Promise<Assignment> {
  const { actor, status } = input;
  const survey = await lockAssignableSurvey(tx, { surveyId: input.surveyId });
  if (!survey) throw new AssignmentError(404, ASSIGNMENT_MESSAGES.assignmentNotFound);
  if (actor.role !== "admin") {
    const own = actor.role === "surveyor"
      ? await getSurveyorIdForUser(tx, { userId: actor.id })
      : undefined;
    if (!own || own !== input.surveyorId.toLowerCase()) {
      throw new AssignmentError(404, ASSIGNMENT_MESSAGES.assignmentNotFound);
    }
  }
  const current = await getSurveyorAssignment(tx, {
    surveyId: survey.id,
    surveyorId: input.surveyorId,
  });
  if (!current) throw new AssignmentError(404, ASSIGNMENT_MESSAGES.assignmentNotFound);
  if (!canMoveAssignment(actor.role, current.status, status)) {
    throw new AssignmentError(409, assignmentMoveError(actor.role, current.status, status));
  }
  // A cancelled or completed request keeps no live job: its assignment may only be ended.
  if (isTerminal(survey.status) && status !== "cancelled") {
    throw new AssignmentError(
      409,
      `This survey is ${
        STATUS_INFO[survey.status].label.toLowerCase()
      }; its assignment can only be cancelled.`,
    );
  }
  if (status === "scheduled") {
    if (!input.scheduledDate) throw new AssignmentError(400, ASSIGNMENT_MESSAGES.dateRequired);
    if (input.scheduledDate < earliestVisitDate(input.now)) {
      throw new AssignmentError(400, ASSIGNMENT_MESSAGES.dateInPast);
    }
  } else if (input.scheduledDate) {
    throw new AssignmentError(400, ASSIGNMENT_MESSAGES.dateOnlyWhenScheduling);
  }

  const ends = status === "declined" || status === "cancelled";
  const updated = await updateAssignmentStatus(tx, {
    id: current.id,
    from: current.status,
    status,
    scheduledDate: input.scheduledDate,
    endedReason: ends ? (input.reason ?? null) : null,
  });
  if (!updated) throw new AssignmentError(409, ASSIGNMENT_MESSAGES.changedMeanwhile);
  const party = (await getAssignmentParty(tx, { surveyorId: current.surveyorId }))!;
  const bySurveyor = actor.role === "surveyor";
  const eventActor = input.actorId ?? actor.id;
  const where = `${typeName(survey)} in ${location(survey)}`;
  const adminNote = (verb: string) =>
    notifyAdmins(tx, {
      kind: "assignment_status_changed",
      title: `${party.companyName} ${verb} an assignment`,
      body: `${where}, agreed price ${formatCents(current.agreedPriceCents)}.${
        input.reason ? ` Reason: ${input.reason}` : ""
      }`,
      link: surveyLink(survey.id),
    });

  switch (status) {
    case "accepted":
      if (bySurveyor) await adminNote("accepted");
      else {await tellSurveyor(
          tx,
          party,
          survey.id,
          "Your assignment was accepted for you",
          `${where}.`,
        );}
      await tellClientAssigned(tx, survey, party, current.agreedPriceCents, {
        publicUrl: input.publicUrl,
        notify: true,
      });
      break;
    case "scheduled":
      await followScheduling(tx, survey, party, input.scheduledDate!, eventActor, input.publicUrl);
      if (!bySurveyor) {
        await tellSurveyor(
          tx,
          party,
          survey.id,
          "Your visit was scheduled for you",
          `${where} on ${formatVisitDate(input.scheduledDate!)}.`,
        );
      }
      break;
    case "completed":
      if (bySurveyor) await adminNote("completed");
      break;
    case "declined":
    case "cancelled":
      await followEnding(
        tx,
        survey,
        party,
        current.status !== "offered" || current.source !== "admin",
        eventActor,
      );
      if (bySurveyor) await adminNote(status);
      else {
        await tellSurveyor(
          tx,
          party,
          survey.id,
          status === "cancelled"
            ? "Your assignment was cancelled"
            : "Your assignment was declined for you",
          `${where}.${input.reason ? ` Reason: ${input.reason}` : ""}`,
        );
      }
      break;
  }
  return updated;
}

/** The reason stored on an assignment ended because its request was cancelled. */
export const REQUEST_CANCELLED_REASON = "Request cancelled";

/**
 * Ends the survey's open assignment (offered, accepted or scheduled), if any, because the
 * request was cancelled, in the caller's transaction: `updateAssignmentStatusInTx` moves it to
 * cancelled with the reason "Request cancelled" and tells the surveyor
 * ('assignment_status_changed'). It acts for Meridian (as an admin): the caller has already
 * decided that `actorId` (the client or admin cancelling) may cancel the request. Call it after
 * the survey moved to cancelled, so the survey stays cancelled instead of going back to waiting
 * for a surveyor. Returns the ended assignment, or undefined when none was open. Throws
 * `AssignmentError` 409 when the assignment changed meanwhile.
 */
export async function endAssignmentForCancelledSurveyInTx(
  tx: Db,
  { surveyId, actorId, publicUrl }: { surveyId: string; actorId: string; publicUrl: string },
): Promise<Assignment | undefined> {
  const open = await getOpenAssignment(tx, { surveyId });
  if (!open) return undefined;
  return await updateAssignmentStatusInTx(tx, {
    surveyId,
    surveyorId: open.surveyorId,
    status: "cancelled",
    reason: REQUEST_CANCELLED_REASON,
    actor: { id: actorId, role: "admin" },
    publicUrl,
  });
}

/** The reason stored on an offer still open when its survey was completed by someone else. */
export const SURVEY_COMPLETED_REASON = "Survey completed";

/**
 * Ends the survey's open assignment because the survey was completed (delivered), in the
 * caller's transaction, after the survey moved to completed: an accepted or scheduled one
 * becomes completed (the firm did the job); an offer nobody accepted is cancelled ("Survey
 * completed"). Nobody is told here: the completion itself is the news. Returns the updated
 * assignment, or undefined when none was open. Throws `AssignmentError` 409 when the assignment
 * changed meanwhile.
 */
export async function completeAssignmentForDeliveredSurveyInTx(
  tx: Db,
  { surveyId }: { surveyId: string },
): Promise<Assignment | undefined> {
  const open = await getOpenAssignment(tx, { surveyId });
  if (!open) return undefined;
  const isOffer = open.status === "offered";
  const updated = await updateAssignmentStatus(tx, {
    id: open.id,
    from: open.status,
    status: isOffer ? "cancelled" : "completed",
    endedReason: isOffer ? SURVEY_COMPLETED_REASON : null,
  });
  if (!updated) throw new AssignmentError(409, ASSIGNMENT_MESSAGES.changedMeanwhile);
  return updated;
}

/** Scheduling: the survey's visit day, its move to scheduled, and the client told. */
async function followScheduling(
  tx: Db,
  survey: AssignableSurvey,
  party: AssignmentParty,
  date: string,
  actorId: string,
  publicUrl: string,
): Promise<void> {
  const visitDate = formatVisitDate(date);
  const notice: StatusChangeNotice = {
    kind: "assignment_status_changed",
    title: "Your survey visit is scheduled",
    body: `${party.companyName} will visit ${survey.address} on ${visitDate}.`,
  };
  if (survey.status === "assigned" && canAssignmentMove("schedule", survey.status, "scheduled")) {
    await applySurveyStatusChange(tx, {
      survey,
      to: "scheduled",
      actorId,
      scheduledDate: date,
      notice,
    });
  } else if (survey.status === "scheduled") {
    await tx`update surveys set scheduled_date = ${date}::date, updated_at = now()
      where id = ${survey.id}`;
    await insertNotification(tx, {
      userId: survey.clientId,
      ...notice,
      link: surveyLink(survey.id),
    });
  } else {
    return;
  }
  if (!survey.clientEmail) return;
  await queueVisitScheduledEmail(tx, {
    to: survey.clientEmail,
    name: survey.clientName,
    surveyId: survey.id,
    surveyTypeName: typeName(survey),
    address: survey.address,
    companyName: party.companyName,
    phone: party.phone,
    visitDate,
    publicUrl,
  });
}

/**
 * Declined or cancelled: the survey no longer has this surveyor; it goes back to waiting for
 * one (surveyors_notified with a lead, else requested). The client is told only when they had
 * been told of the surveyor (`clientKnew`).
 */
async function followEnding(
  tx: Db,
  survey: AssignableSurvey,
  party: AssignmentParty,
  clientKnew: boolean,
  actorId: string,
): Promise<void> {
  if (survey.assignedSurveyorId === party.id) {
    await setAssignedSurveyor(tx, { surveyId: survey.id, surveyorId: null });
  }
  const to = survey.leadId ? "surveyors_notified" : "requested";
  if (!canAssignmentMove("unassign", survey.status, to)) return;
  await applySurveyStatusChange(tx, {
    survey,
    to,
    actorId,
    clearScheduledDate: true,
    notice: clientKnew
      ? {
        kind: "assignment_status_changed",
        title: "Your surveyor is no longer assigned",
        body: `${party.companyName} can no longer do your survey for ${survey.address}. ` +
          "We are finding you another surveyor.",
      }
      : null,
  });
}

/**
 * Props of the AssignmentActions island for `assignment` as `role` sees it (the moves it may
 * make): what H5b's pages pass to `<Island component={AssignmentActions} props={…} />`.
 */
export function assignmentActionsProps(
  assignment: Assignment,
  role: "surveyor" | "admin",
  now?: Date,
): AssignmentActionsProps {
  return {
    role,
    surveyId: assignment.surveyId,
    surveyorId: assignment.surveyorId,
    status: assignment.status,
    scheduledDate: assignment.scheduledDate,
    agreedPriceCents: assignment.agreedPriceCents,
    allowed: nextAssignmentStatuses(role, assignment.status),
    minDate: earliestVisitDate(now),
  };
}
