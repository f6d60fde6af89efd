import type { Survey, SurveyEvent } from "../../lib/survey_schema.ts";
import {
  LIFECYCLE,
  lifecycleIndex,
  STATUS_INFO,
  type SurveyStatus,
} from "../../lib/survey_status.ts";
import { formatDate } from "./format.ts";

/** When each status was reached: the latest event into it (creation for "requested"). */
export function statusDates(
  survey: Pick<Survey, "createdAt">,
  events: readonly SurveyEvent[],
): Partial<Record<SurveyStatus, string>> {
  const dates: Partial<Record<SurveyStatus, string>> = { requested: survey.createdAt };
  for (const event of events) dates[event.toStatus] = event.createdAt;
  return dates;
}

/**
 * The furthest lifecycle step a survey reached: its status, or for a cancelled one the step it
 * was cancelled from.
 */
export function reachedIndex(status: SurveyStatus, events: readonly SurveyEvent[]): number {
  if (status !== "cancelled") return lifecycleIndex(status);
  let reached = 0;
  for (const event of events) {
    for (const s of [event.fromStatus, event.toStatus]) {
      if (s && s !== "cancelled") reached = Math.max(reached, lifecycleIndex(s));
    }
  }
  return reached;
}

/**
 * The request's lifecycle as an ordered list: steps done (with the day reached), the current
 * one (`aria-current="step"`) and those to come. A cancelled request shows where it stopped.
 */
export function ProgressTracker(
  { survey, events, currentLabel }: {
    survey: Pick<Survey, "status" | "createdAt">;
    events: readonly SurveyEvent[];
    /** Replaces the current step's label (e.g. an assignment not accepted yet). */
    currentLabel?: string;
  },
) {
  const dates = statusDates(survey, events);
  const isCancelled = survey.status === "cancelled";
  const reached = reachedIndex(survey.status, events);
  return (
    <div className="survey-tracker">
      <ol
        className={`survey-tracker__list${isCancelled ? " survey-tracker__list--cancelled" : ""}`}
      >
        {LIFECYCLE.map((status, i) => {
          const state = i < reached || (i === reached && status === "completed")
            ? "done"
            : i === reached && !isCancelled
            ? "current"
            : "todo";
          return (
            <li
              key={status}
              className={`survey-tracker__step survey-tracker__step--${state}`}
              aria-current={state === "current" ? "step" : undefined}
            >
              <span className="survey-tracker__dot" aria-hidden="true" />
              <span className="survey-tracker__label">
                {state === "current" && currentLabel ? currentLabel : STATUS_INFO[status].label}
              </span>
              <span className="survey-tracker__date">
                {state !== "todo" && dates[status] ? formatDate(dates[status]) : ""}
              </span>
              <span className="visually-hidden">
                {state === "done" ? "(done)" : state === "current" ? "(current step)" : ""}
              </span>
            </li>
          );
        })}
      </ol>
      {isCancelled
        ? (
          <p className="survey-tracker__cancelled">
            Cancelled{dates.cancelled ? ` on ${formatDate(dates.cancelled)}` : ""}.
          </p>
        )
        : null}
    </div>
  );
}
