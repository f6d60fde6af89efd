/**
 * The surveyor's delivery actions on their job page (/surveyor/jobs/{surveyId}):
 *
 * - before and during the fieldwork, links to the survey's field page
 *   (/technician-survey-detail/{id}) where "Start fieldwork" and "Mark surveyed" are;
 * - once surveyed, "Mark complete" with the delivery day (today by default, not before the
 *   day of the fieldwork): disabled, with the reason, until at least one deliverable is
 *   uploaded (the DeliverableUpload island beside it announces uploads on `window`,
 *   DELIVERABLES_EVENT; the server refuses anyway). Completing emails the client and closes
 *   the assignment.
 */
import { useEffect, useId, useState } from "react";
import { errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import {
  changeStatus,
  DELIVERABLES_EVENT,
  formatDay,
  isOffline,
  localToday,
} from "./_field_status.ts";
import { STATUS_INFO, type SurveyStatus } from "../lib/survey_status.ts";
import type { MailDelivery } from "../lib/mail/delivery.ts";
import { NO_SCRIPT_FORM } from "./_fields.tsx";

/** Texts of the island. */
export const COMPLETE_TEXTS = {
  completed: "Survey completed",
  completeFailed: "Could not complete the survey",
  needsDeliverable:
    "Upload at least one deliverable (the plat, certificate, drawing or point file) to complete the survey.",
  offline: "No connection. Try again when you are back online.",
} as const;

/**
 * Props of CompleteSurvey (plain JSON):
 * - `surveyId`, `status`: the survey and its status now.
 * - `deliverables`: how many deliverable files are uploaded.
 * - `surveyedDate`, `completedDate`: the recorded days (YYYY-MM-DD) or null.
 * - `today`: the server's today for the first render; `maxDate`: the latest day accepted.
 */
export interface CompleteSurveyProps {
  surveyId: string;
  status: SurveyStatus;
  deliverables: number;
  surveyedDate: string | null;
  completedDate: string | null;
  today: string;
  maxDate: string;
  /** Whether the client's "survey delivered" email really leaves (a mail server is set up). */
  mailDelivery: MailDelivery;
}

/** What completing tells the surveyor about the client's email, by mail delivery. */
export const CLIENT_EMAIL_TEXTS = {
  smtp: "An email with a link to the deliverables is on its way to the client.",
  none:
    "The deliverables are on the client's survey page. No mail server is configured, so the client was not emailed.",
} as const;

/** The delivery actions (see the file's comment). */
export default function CompleteSurvey(props: CompleteSurveyProps) {
  const [status, setStatus] = useState(props.status);
  const [deliverables, setDeliverables] = useState(props.deliverables);
  const [completedDate, setCompletedDate] = useState(props.completedDate);
  const [date, setDate] = useState(props.today);
  const [isBusy, setBusy] = useState(false);
  const [isHydrated, setHydrated] = useState(false);
  const id = useId();
  const fieldPage = `/technician-survey-detail/${encodeURIComponent(props.surveyId)}`;

  useEffect(() => {
    setHydrated(true);
    const today = localToday();
    setDate((d) => (d === props.today && today <= props.maxDate ? today : d));
    function onFiles(e: Event) {
      const detail = (e as CustomEvent<{ surveyId: string; count: number }>).detail;
      if (detail?.surveyId === props.surveyId && typeof detail.count === "number") {
        setDeliverables(detail.count);
      }
    }
    globalThis.addEventListener(DELIVERABLES_EVENT, onFiles);
    return () => globalThis.removeEventListener(DELIVERABLES_EVENT, onFiles);
  }, [props.surveyId, props.today, props.maxDate]);

  async function complete(e: { preventDefault(): void }) {
    e.preventDefault();
    setBusy(true);
    try {
      const survey = await changeStatus(props.surveyId, {
        status: "completed",
        completedDate: date,
      });
      setStatus(survey.status);
      setCompletedDate(survey.completedDate);
      toast({
        title: COMPLETE_TEXTS.completed,
        description: CLIENT_EMAIL_TEXTS[props.mailDelivery],
      });
    } catch (err) {
      toast({
        title: COMPLETE_TEXTS.completeFailed,
        description: isOffline(err) ? COMPLETE_TEXTS.offline : errorMessage(
          err,
          "Please try again.",
        ),
        variant: "destructive",
      });
    } finally {
      setBusy(false);
    }
  }

  const blocker = deliverables > 0 ? null : COMPLETE_TEXTS.needsDeliverable;
  return (
    <div className="stack complete-survey" data-hydrated={isHydrated || undefined}>
      <p className="complete-survey__status" role="status" aria-live="polite">
        <span className={`badge badge--${STATUS_INFO[status].badge}`}>
          {STATUS_INFO[status].label}
        </span>{" "}
        {status === "completed" && completedDate ? `Delivered on ${formatDay(completedDate)}.` : ""}
      </p>
      {status === "scheduled"
        ? (
          <p>
            <a className="btn btn--primary" href={fieldPage}>Start fieldwork</a>{" "}
            <span className="muted">on the survey's field page, with its checklist.</span>
          </p>
        )
        : null}
      {status === "in_fieldwork"
        ? (
          <p>
            <a className="btn btn--primary" href={fieldPage}>Mark surveyed</a>{" "}
            <span className="muted">
              on the survey's field page, once every required checklist item is done.
            </span>
          </p>
        )
        : null}
      {status === "surveyed"
        ? (
          <form {...NO_SCRIPT_FORM} className="stack" onSubmit={complete} noValidate>
            <div className="field">
              <label className="field__label" htmlFor={`${id}-date`}>Delivery day</label>
              <input
                id={`${id}-date`}
                type="date"
                className="field__input"
                value={date}
                min={props.surveyedDate ?? undefined}
                max={props.maxDate}
                required
                onChange={(e) => setDate(e.currentTarget.value)}
              />
            </div>
            <button
              type="submit"
              className="btn btn--primary"
              disabled={!isHydrated || isBusy || blocker !== null || !date}
              aria-describedby={blocker ? `${id}-blocker` : undefined}
            >
              {isBusy ? "Saving..." : "Mark complete"}
            </button>
            {blocker
              ? <p id={`${id}-blocker`} className="complete-survey__blocker">{blocker}</p>
              : (
                <p className="muted">
                  {props.mailDelivery === "smtp"
                    ? "The client is emailed a link to the "
                    : "The client finds the "}
                  {deliverables} deliverable file{deliverables === 1 ? "" : "s"}
                  {props.mailDelivery === "smtp"
                    ? " and can rate your work."
                    : " on their survey page and can rate your work (no mail server is configured, so no email tells them)."}
                </p>
              )}
          </form>
        )
        : null}
      {status === "surveyed"
        ? (
          <p>
            <a href={fieldPage}>Open the field page</a>{" "}
            <span className="muted">(property, crew notes, checklist)</span>
          </p>
        )
        : null}
    </div>
  );
}
