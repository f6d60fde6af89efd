/**
 * The assigned surveyor's actions on one assignment (admins may use it too): Accept, Decline
 * (with an optional reason), Schedule the visit (a day, not before `minDate`; again to move it)
 * and Mark completed — each `PATCH /api/surveys/{surveyId}/assignment/{surveyorId}/status`.
 * Toasts (spec §8): 'Assignment updated' with what changed, or 'Failed to update assignment
 * status' with the server's message. Only the moves in `allowed` are offered, so the buttons
 * match what the server will accept.
 *
 * Placing it: on the surveyor's job page /surveyor/jobs/{surveyId} and on
 * /surveyor/purchased-leads/{id}, from an
 * `Assignment` through lib/assignments.ts `assignmentActionsProps(assignment, user.role)`:
 *
 * ```tsx
 * <Island component={AssignmentActions} props={assignmentActionsProps(a, user.role)} hydrate="idle" />
 * ```
 *
 * After a successful move the island shows the new status, the moves that follow and (with
 * `showNextStep`) the sentence on what to do next (from lib/assignment_constants.ts), so
 * nothing on it still says "Accept it…" once accepted; with `unlockHref`, accepting also links
 * to the page again, which then shows the client's details.
 */
import { useEffect, useId, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import {
  ASSIGNMENT_LABELS,
  ASSIGNMENT_TOASTS,
  type AssignmentStatus,
  nextAssignmentStatuses,
  SURVEYOR_NEXT_STEP,
} from "../lib/assignment_constants.ts";
import { formatCents } from "../lib/quote_text.ts";
import { NO_SCRIPT_FORM } from "./_fields.tsx";

/**
 * Props of AssignmentActions (plain JSON):
 * - `surveyId`, `surveyorId`: the assignment's survey and surveyor (the URL of the PATCH).
 * - `status`: its status now; `scheduledDate`: the booked visit day (YYYY-MM-DD) or null.
 * - `agreedPriceCents`: shown beside the status.
 * - `allowed`: the moves the viewer may make from `status` (`nextAssignmentStatuses`).
 * - `role`: "surveyor" or "admin", to recompute `allowed` after a move.
 * - `minDate`: the earliest visit day the server accepts (YYYY-MM-DD).
 * - `showNextStep`: also say what to do next (SURVEYOR_NEXT_STEP) under the actions.
 * - `unlockHref`: where the client's details show once accepted (the job page, reloaded).
 */
export interface AssignmentActionsProps {
  surveyId: string;
  surveyorId: string;
  status: AssignmentStatus;
  scheduledDate: string | null;
  agreedPriceCents: number;
  allowed: AssignmentStatus[];
  role: "surveyor" | "admin";
  minDate: string;
  showNextStep?: boolean;
  unlockHref?: string;
}

interface AssignmentAnswer {
  message: string;
  assignment: { status: AssignmentStatus; scheduledDate: string | null };
}

const DAY = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  weekday: "short",
  month: "short",
  day: "numeric",
  year: "numeric",
});

function day(date: string): string {
  return DAY.format(new Date(`${date}T00:00:00Z`));
}

const DONE: Partial<Record<AssignmentStatus, string>> = {
  accepted: "You accepted the job.",
  declined: "You declined the job.",
  completed: "The job is marked completed.",
  cancelled: "The assignment is cancelled.",
};

/** The assignment's actions (see the file's comment). */
export default function AssignmentActions(props: AssignmentActionsProps) {
  const [status, setStatus] = useState(props.status);
  const [scheduledDate, setScheduledDate] = useState(props.scheduledDate);
  const [allowed, setAllowed] = useState(props.allowed);
  const [busy, setBusy] = useState<AssignmentStatus | null>(null);
  const [date, setDate] = useState(props.scheduledDate ?? "");
  const [reason, setReason] = useState("");
  const [isDeclining, setDeclining] = useState(false);
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const id = useId();

  const path = `/api/surveys/${encodeURIComponent(props.surveyId)}/assignment/${
    encodeURIComponent(props.surveyorId)
  }/status`;
  const can = (to: AssignmentStatus) => allowed.includes(to);
  const disabled = !isHydrated || busy !== null;

  async function move(to: AssignmentStatus, extra: { scheduledDate?: string; reason?: string }) {
    setBusy(to);
    try {
      const data = await apiJson<AssignmentAnswer>("PATCH", path, { status: to, ...extra });
      if (!data?.assignment) throw new Error("Empty answer");
      const next = data.assignment;
      setStatus(next.status);
      setScheduledDate(next.scheduledDate);
      setAllowed(nextAssignmentStatuses(props.role, next.status));
      setDeclining(false);
      toast({
        title: ASSIGNMENT_TOASTS.updated,
        description: next.status === "scheduled" && next.scheduledDate
          ? `Visit scheduled for ${day(next.scheduledDate)}.`
          : DONE[next.status],
      });
    } catch (err) {
      toast({
        title: ASSIGNMENT_TOASTS.updateFailed,
        description: errorMessage(err, "Could not update the assignment. Please try again."),
        variant: "destructive",
      });
    } finally {
      setBusy(null);
    }
  }

  function schedule(e: { preventDefault(): void }) {
    e.preventDefault();
    if (!date) {
      toast({
        title: ASSIGNMENT_TOASTS.updateFailed,
        description: "Choose the day of the field visit.",
        variant: "destructive",
      });
      return;
    }
    void move("scheduled", { scheduledDate: date });
  }

  return (
    <div className="stack assignment-actions" data-hydrated={isHydrated || undefined}>
      <p className="assignment-actions__status" role="status" aria-live="polite">
        <span className="badge badge--info">{ASSIGNMENT_LABELS[status]}</span>{" "}
        {`Agreed price ${formatCents(props.agreedPriceCents)}`}
        {scheduledDate ? ` · visit ${day(scheduledDate)}` : ""}
      </p>
      {can("accepted") || can("declined")
        ? (
          <div className="cluster assignment-actions__row">
            {can("accepted")
              ? (
                <button
                  type="button"
                  className="btn btn--primary"
                  disabled={disabled}
                  onClick={() => move("accepted", {})}
                >
                  {busy === "accepted" ? "Accepting..." : "Accept"}
                </button>
              )
              : null}
            {can("declined") && !isDeclining
              ? (
                <button
                  type="button"
                  className="btn btn--secondary"
                  disabled={disabled}
                  onClick={() => setDeclining(true)}
                >
                  Decline
                </button>
              )
              : null}
          </div>
        )
        : null}
      {can("declined") && isDeclining
        ? (
          <form
            {...NO_SCRIPT_FORM}
            className="stack assignment-actions__form"
            onSubmit={(e) => {
              e.preventDefault();
              void move("declined", reason.trim() ? { reason: reason.trim() } : {});
            }}
          >
            <label className="field__label" htmlFor={`${id}-reason`}>Reason (optional)</label>
            <input
              id={`${id}-reason`}
              className="field__input"
              maxLength={500}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
            />
            <div className="cluster assignment-actions__row">
              <button type="submit" className="btn btn--danger" disabled={disabled}>
                {busy === "declined" ? "Declining..." : "Decline the job"}
              </button>
              <button
                type="button"
                className="btn btn--secondary"
                disabled={busy !== null}
                onClick={() => setDeclining(false)}
              >
                Keep it
              </button>
            </div>
          </form>
        )
        : null}
      {can("scheduled")
        ? (
          <form {...NO_SCRIPT_FORM} className="stack assignment-actions__form" onSubmit={schedule}>
            <label className="field__label" htmlFor={`${id}-date`}>
              {status === "scheduled" ? "Move the visit to" : "Visit date"}
            </label>
            <input
              id={`${id}-date`}
              className="field__input"
              type="date"
              required
              min={props.minDate}
              value={date}
              onChange={(e) => setDate(e.currentTarget.value)}
            />
            <button type="submit" className="btn btn--primary" disabled={disabled}>
              {busy === "scheduled"
                ? "Saving..."
                : status === "scheduled"
                ? "Reschedule"
                : "Schedule visit"}
            </button>
          </form>
        )
        : null}
      {can("completed")
        ? (
          <div className="cluster assignment-actions__row">
            <button
              type="button"
              className="btn btn--secondary"
              disabled={disabled}
              onClick={() => move("completed", {})}
            >
              {busy === "completed" ? "Saving..." : "Mark completed"}
            </button>
          </div>
        )
        : null}
      {can("cancelled")
        ? (
          <div className="cluster assignment-actions__row">
            <button
              type="button"
              className="btn btn--danger"
              disabled={disabled}
              onClick={() => move("cancelled", {})}
            >
              {busy === "cancelled" ? "Cancelling..." : "Cancel assignment"}
            </button>
          </div>
        )
        : null}
      {props.showNextStep
        ? <p className="muted" data-testid="next-step">{SURVEYOR_NEXT_STEP[status]}</p>
        : null}
      {props.unlockHref && props.status === "offered" && status !== "offered" &&
          status !== "declined" && status !== "cancelled"
        ? (
          <p>
            <a className="btn btn--secondary btn--sm" href={props.unlockHref}>
              Show the client's details
            </a>
          </p>
        )
        : null}
    </div>
  );
}
