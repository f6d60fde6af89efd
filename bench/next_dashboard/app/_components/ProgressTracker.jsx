// components/survey/ProgressTracker.tsx as a Server Component: the same steps from Meridian's
// own helpers (statusDates, reachedIndex, the labels); Meridian's component puts its list in
// through its HTML cache (a renderToString of its own), which a Server Component cannot.
import { LIFECYCLE, STATUS_INFO } from "@meridian/lib/survey_status.ts";
import {
  PROPOSALS_STEP_LABEL,
  reachedIndex,
  statusDates,
} from "@meridian/components/survey/ProgressTracker.tsx";
import { formatDate } from "@meridian/components/survey/format.ts";

const STEPS = [...LIFECYCLE.slice(0, 2), "proposals", ...LIFECYCLE.slice(2)];

export function ProgressTracker({ survey, events, currentLabel, proposalsAt = null }) {
  const dates = statusDates(survey, events);
  const isCancelled = survey.status === "cancelled";
  const reachedStatus = reachedIndex(survey.status, events);
  const proposalsPos = STEPS.indexOf("proposals");
  let reached = reachedStatus < proposalsPos ? reachedStatus : reachedStatus + 1;
  if (proposalsAt && reached < proposalsPos) reached = proposalsPos;
  const steps = STEPS.map((step, i) => {
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
  return (
    <div className="survey-tracker">
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
            {state === "todo" && !isSkipped ? null : (
              <span className="visually-hidden">
                {isSkipped ? "(skipped)" : state === "done" ? "(done)" : "(current step)"}
              </span>
            )}
          </li>
        ))}
      </ol>
      {cancelledOn !== null
        ? <p className="survey-tracker__cancelled">Cancelled{cancelledOn}.</p>
        : null}
    </div>
  );
}
