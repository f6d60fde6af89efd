/**
 * The two field actions of /technician-survey-detail/{surveyId}, for the assigned technician
 * and the surveyor doing the job (admins see them too):
 *
 * - "Start fieldwork" (scheduled → in_fieldwork): asks the browser for the position with a
 *   short timeout and goes on without it when refused, unavailable or slow.
 * - "Mark surveyed" (in_fieldwork → surveyed with the day of the fieldwork, today by default):
 *   disabled, with the reason beside it, until every required checklist item is done. It
 *   follows the checklist island's progress as the crew answers (the SurveyChecklist island
 *   announces it on `window`, CHECKLIST_PROGRESS_EVENT); the server refuses anyway.
 *
 * Both `PATCH /api/surveys/{id}/status`; the island then shows the new status.
 */
import { useEffect, useId, useState } from "react";
import { errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import {
  changeStatus,
  CHECKLIST_PROGRESS_EVENT,
  type ChecklistProgressDetail,
  formatDay,
  isOffline,
  localToday,
} from "./_field_status.ts";
import type { ChecklistProgress } from "../lib/checklist_types.ts";
import { STATUS_INFO, type SurveyStatus } from "../lib/survey_status.ts";
import { newerStatus, readFieldMemory, rememberStatus } from "./_field_memory.ts";
import { NO_SCRIPT_FORM } from "./_fields.tsx";

/** How long "Start fieldwork" waits for the position before going on without it. */
export const POSITION_TIMEOUT_MS = 8000;

/** Texts of the island (toasts and the reasons shown beside the buttons). */
export const FIELD_ACTION_TEXTS = {
  started: "Fieldwork started",
  startFailed: "Could not start fieldwork",
  surveyed: "Survey marked surveyed",
  surveyedFailed: "Could not mark the survey surveyed",
  offline: "No connection. Try again when you have signal; checklist answers are kept.",
  notScheduled: "Fieldwork can start once the field visit is scheduled.",
  waitingForSync:
    "Checklist answers are still saved on this device only; mark the survey surveyed once they have synced.",
} as const;

/**
 * Props of FieldActions (plain JSON):
 * - `surveyId`, `status`: the survey and its status now.
 * - `progress`: the checklist's progress, or null when the survey has no checklist (then
 *   nothing is required).
 * - `surveyedDate`: the day recorded when it was marked surveyed (YYYY-MM-DD) or null.
 * - `today`: the server's today for the first render; the island uses the device's own once
 *   hydrated. `maxDate`: the latest day the server accepts.
 * - `renderedAt`: when the server rendered the page (ISO). A copy kept for offline use
 *   (static/sw.js) may be older than what this device did since: a status this device got
 *   from the server later replaces the page's (islands/_field_memory.ts).
 */
export interface FieldActionsProps {
  surveyId: string;
  status: SurveyStatus;
  progress: ChecklistProgress | null;
  surveyedDate: string | null;
  today: string;
  maxDate: string;
  renderedAt: string;
}

/** The position, or undefined when the browser cannot or will not tell in time. */
function currentPosition(): Promise<{ lat: number; lng: number } | undefined> {
  if (typeof navigator === "undefined" || !navigator.geolocation) {
    return Promise.resolve(undefined);
  }
  return new Promise((resolve) => {
    // Some browsers never call back when the prompt is dismissed: the timer decides then.
    const timer = setTimeout(() => resolve(undefined), POSITION_TIMEOUT_MS + 500);
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        clearTimeout(timer);
        resolve({ lat: pos.coords.latitude, lng: pos.coords.longitude });
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
      { enableHighAccuracy: true, timeout: POSITION_TIMEOUT_MS, maximumAge: 60_000 },
    );
  });
}

/**
 * Why "Mark surveyed" is disabled, or null when it is not: required items left, or answers
 * still waiting on the device to be sent (the server counts only what it has).
 */
export function surveyedBlocker(
  progress: ChecklistProgress | null,
  isSynced = true,
): string | null {
  if (!progress) return null;
  const left = progress.requiredTotal - progress.requiredDone;
  if (left > 0) {
    return `Complete the ${left} remaining required checklist item${
      left === 1 ? "" : "s"
    } to mark the survey surveyed.`;
  }
  return isSynced ? null : FIELD_ACTION_TEXTS.waitingForSync;
}

/** The field actions (see the file's comment). */
export default function FieldActions(props: FieldActionsProps) {
  const [status, setStatus] = useState(props.status);
  const [progress, setProgress] = useState(props.progress);
  const [surveyedDate, setSurveyedDate] = useState(props.surveyedDate);
  const [date, setDate] = useState(props.today);
  const [busy, setBusy] = useState<"start" | "surveyed" | null>(null);
  const [isLocating, setLocating] = useState(false);
  const [isSynced, setSynced] = useState(true);
  const [isHydrated, setHydrated] = useState(false);
  const id = useId();

  useEffect(() => {
    setHydrated(true);
    const known = newerStatus(readFieldMemory(props.surveyId), {
      status: props.status,
      renderedAt: props.renderedAt,
    });
    if (known) {
      setStatus(known.status);
      setSurveyedDate(known.surveyedDate);
    }
    const today = localToday();
    setDate((d) => (d === props.today && today <= props.maxDate ? today : d));
    function onProgress(e: Event) {
      const detail = (e as CustomEvent<ChecklistProgressDetail>).detail;
      if (detail?.surveyId !== props.surveyId || !detail.progress) return;
      setProgress(detail.progress);
      setSynced(detail.isSynced !== false);
    }
    globalThis.addEventListener(CHECKLIST_PROGRESS_EVENT, onProgress);
    return () => globalThis.removeEventListener(CHECKLIST_PROGRESS_EVENT, onProgress);
  }, [props.surveyId, props.status, props.renderedAt, props.today, props.maxDate]);

  function remember(survey: Awaited<ReturnType<typeof changeStatus>>) {
    rememberStatus(props.surveyId, {
      status: survey.status,
      surveyedDate: survey.surveyedDate,
      at: survey.answeredAt,
    });
  }

  async function start() {
    setBusy("start");
    try {
      setLocating(true);
      const position = await currentPosition();
      setLocating(false);
      const survey = await changeStatus(props.surveyId, {
        status: "in_fieldwork",
        ...(position ? { position } : {}),
      });
      remember(survey);
      setStatus(survey.status);
      toast({
        title: FIELD_ACTION_TEXTS.started,
        description: position
          ? "The start time and your position were recorded."
          : "The start time was recorded.",
      });
    } catch (err) {
      toast({
        title: FIELD_ACTION_TEXTS.startFailed,
        description: isOffline(err)
          ? FIELD_ACTION_TEXTS.offline
          : errorMessage(err, "Please try again."),
        variant: "destructive",
      });
    } finally {
      setLocating(false);
      setBusy(null);
    }
  }

  async function markSurveyed(e: { preventDefault(): void }) {
    e.preventDefault();
    setBusy("surveyed");
    try {
      const survey = await changeStatus(props.surveyId, { status: "surveyed", surveyedDate: date });
      remember(survey);
      setStatus(survey.status);
      setSurveyedDate(survey.surveyedDate);
      toast({
        title: FIELD_ACTION_TEXTS.surveyed,
        description: survey.surveyedDate
          ? `Fieldwork recorded on ${formatDay(survey.surveyedDate)}.`
          : undefined,
      });
    } catch (err) {
      toast({
        title: FIELD_ACTION_TEXTS.surveyedFailed,
        description: isOffline(err)
          ? FIELD_ACTION_TEXTS.offline
          : errorMessage(err, "Please try again."),
        variant: "destructive",
      });
    } finally {
      setBusy(null);
    }
  }

  const blocker = surveyedBlocker(progress, isSynced);
  const disabled = !isHydrated || busy !== null;
  return (
    <div className="stack field-actions" data-hydrated={isHydrated || undefined}>
      <p className="field-actions__status" role="status" aria-live="polite">
        <span className={`badge badge--${STATUS_INFO[status].badge}`}>
          {STATUS_INFO[status].label}
        </span>{" "}
        {status === "surveyed" && surveyedDate ? `Fieldwork on ${formatDay(surveyedDate)}.` : ""}
      </p>
      {status === "scheduled"
        ? (
          <button
            type="button"
            className="btn btn--primary btn--lg btn--block"
            disabled={disabled}
            onClick={() => void start()}
          >
            {busy === "start"
              ? (isLocating ? "Finding your position..." : "Starting...")
              : "Start fieldwork"}
          </button>
        )
        : null}
      {status === "scheduled"
        ? (
          <p className="muted field-actions__hint">
            Your position is recorded with the start time if your browser allows it.
          </p>
        )
        : null}
      {status === "in_fieldwork"
        ? (
          <form
            {...NO_SCRIPT_FORM}
            className="stack field-actions__form"
            onSubmit={markSurveyed}
            noValidate
          >
            <div className="field">
              <label className="field__label" htmlFor={`${id}-date`}>
                Day of the fieldwork
              </label>
              <input
                id={`${id}-date`}
                type="date"
                className="field__input"
                value={date}
                max={props.maxDate}
                required
                onChange={(e) => setDate(e.currentTarget.value)}
              />
            </div>
            <button
              type="submit"
              className="btn btn--primary btn--lg btn--block"
              disabled={disabled || blocker !== null || !date}
              aria-describedby={blocker ? `${id}-blocker` : undefined}
            >
              {busy === "surveyed" ? "Saving..." : "Mark surveyed"}
            </button>
            {blocker
              ? (
                <p id={`${id}-blocker`} className="field-actions__blocker">
                  {blocker}
                </p>
              )
              : null}
          </form>
        )
        : null}
      {status === "requested" || status === "surveyors_notified" || status === "assigned"
        ? <p className="muted">{FIELD_ACTION_TEXTS.notScheduled}</p>
        : null}
    </div>
  );
}
