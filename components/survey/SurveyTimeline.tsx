import type { SurveyEvent } from "../../lib/survey_schema.ts";
import { STATUS_INFO } from "../../lib/survey_status.ts";
import { formatDateTime } from "./format.ts";

/** Every status change of a request, oldest first, with who made it and any note. */
export function SurveyTimeline({ events }: { events: readonly SurveyEvent[] }) {
  if (events.length === 0) return <p className="muted">No changes recorded yet.</p>;
  return (
    <ol className="timeline">
      {events.map((event) => (
        <li key={event.id} className={`timeline__item timeline__item--${event.toStatus}`}>
          <span className="timeline__dot" aria-hidden="true" />
          <div className="timeline__body">
            <p className="timeline__title">
              {event.fromStatus === null
                ? "Request submitted"
                : `${STATUS_INFO[event.fromStatus].label} → ${STATUS_INFO[event.toStatus].label}`}
            </p>
            <p className="timeline__meta">
              <time dateTime={event.createdAt}>{formatDateTime(event.createdAt)}</time>
              {event.actorName ? ` · ${event.actorName}` : ""}
            </p>
            {event.note ? <p className="timeline__note">{event.note}</p> : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
