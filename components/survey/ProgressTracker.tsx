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

/** The label of the tracker's proposals step (issue 22), between notified and assigned. */
export const PROPOSALS_STEP_LABEL = "Proposals received";

type Step = SurveyStatus | "proposals";

/** The tracker's steps: the lifecycle with "Proposals received" after "Surveyors notified". */
const STEPS: readonly Step[] = [
  ...LIFECYCLE.slice(0, 2),
  "proposals",
  ...LIFECYCLE.slice(2),
];

/** One step of the tracker as it reads: what ProgressTracker draws. */
interface TrackerStep {
  step: Step;
  state: "done" | "current" | "todo";
  label: string;
  /** The day reached, formatted, or "". */
  date: string;
  isSkipped: boolean;
}

/**
 * The request's lifecycle as an ordered list: steps done (with the day reached), the current
 * one (`aria-current="step"`) and those to come. A cancelled request shows where it stopped.
 * "Proposals received" sits between "Surveyors notified" and "Surveyor assigned": current while
 * the client has proposals and no surveyor yet, done once one is assigned, and "No proposals"
 * when the job was taken without any (a claim of the instant quote, an admin's assignment).
 *
 * Not remembered on its own: the pieces holding it are (a dashboard card's parts, a request
 * page's progress card: components/html_cache.ts), by everything they read.
 */
export function ProgressTracker(props: TrackerProps) {
  return (
    <div className="survey-tracker">
      <ProgressTrackerContent {...props} />
    </div>
  );
}

/**
 * The inside of `ProgressTracker` (its list, and since when it is cancelled): for a caller that
 * remembers a larger piece holding it and draws the `survey-tracker` wrapper itself (a dashboard
 * card, components/survey/SurveyCard.tsx).
 */
export function ProgressTrackerContent(props: TrackerProps) {
  const { steps, cancelledOn } = trackerSteps(props);
  return <TrackerMarkup steps={steps} cancelledOn={cancelledOn} />;
}

interface TrackerProps {
  survey: Pick<Survey, "status" | "createdAt">;
  events: readonly SurveyEvent[];
  /** Replaces the current step's label (e.g. an assignment not accepted yet). */
  currentLabel?: string;
  /** When the first proposal arrived (ISO), or null when none has. */
  proposalsAt?: string | null;
}

/** The steps as the tracker reads them, and " on {date}" (or "") when cancelled, else null. */
function trackerSteps(
  { survey, events, currentLabel, proposalsAt = null }: TrackerProps,
): { steps: TrackerStep[]; cancelledOn: string | null } {
  const dates = statusDates(survey, events);
  const isCancelled = survey.status === "cancelled";
  const reachedStatus = reachedIndex(survey.status, events);
  // Position in STEPS: lifecycle steps after "surveyors notified" move one along.
  const proposalsPos = STEPS.indexOf("proposals");
  let reached = reachedStatus < proposalsPos ? reachedStatus : reachedStatus + 1;
  if (proposalsAt && reached < proposalsPos) reached = proposalsPos;
  const steps = STEPS.map((step, i): TrackerStep => {
    const state = i < reached || (i === reached && step === "completed")
      ? "done"
      : i === reached && !isCancelled
      ? "current"
      : "todo";
    const isSkipped = step === "proposals" && state === "done" && !proposalsAt;
    const label = step === "proposals"
      ? (isSkipped ? "No proposals" : PROPOSALS_STEP_LABEL)
      : state === "current" && currentLabel
      ? currentLabel
      : STATUS_INFO[step].label;
    const date = step === "proposals" ? proposalsAt : dates[step];
    return {
      step,
      state,
      label,
      date: state !== "todo" && date ? formatDate(date) : "",
      isSkipped,
    };
  });
  const cancelledOn = isCancelled
    ? (dates.cancelled ? ` on ${formatDate(dates.cancelled)}` : "")
    : null;
  return { steps, cancelledOn };
}

/** The tracker's list (and, when cancelled, since when): the inside of `ProgressTracker`. */
function TrackerMarkup({ steps, cancelledOn }: {
  steps: readonly TrackerStep[];
  /** " on Nov 21, 2026" (or "") when cancelled, else null. */
  cancelledOn: string | null;
}) {
  return (
    <>
      <ol
        className={`survey-tracker__list${
          cancelledOn !== null ? " survey-tracker__list--cancelled" : ""
        }`}
      >
        {steps.map(({ step, state, label, date, isSkipped }) => (
          <li
            key={step}
            className={`survey-tracker__step survey-tracker__step--${state}${
              isSkipped ? " survey-tracker__step--skipped" : ""
            }`}
            aria-current={state === "current" ? "step" : undefined}
          >
            <span className="survey-tracker__dot" aria-hidden="true" />
            <span className="survey-tracker__label">{label}</span>
            <span className="survey-tracker__date">{date}</span>
            {
              // A step still to come says nothing more (no empty span per step and card).
              state === "todo" && !isSkipped ? null : (
                <span className="visually-hidden">
                  {isSkipped ? "(skipped)" : state === "done" ? "(done)" : "(current step)"}
                </span>
              )
            }
          </li>
        ))}
      </ol>
      {cancelledOn !== null
        ? <p className="survey-tracker__cancelled">Cancelled{cancelledOn}.</p>
        : null}
    </>
  );
}
