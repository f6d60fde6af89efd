import type { SurveyEvent } from "../../lib/survey_schema.ts";
import { STATUS_INFO } from "../../lib/survey_status.ts";
import { Island } from "../Island.tsx";
import LocalTime from "../../islands/LocalTime.tsx";

/**
 * Every status change of a request, oldest first, with who made it and any note. `events`
 * arrive already filtered for the viewer (db/surveys.ts); `showNoteAudience` (admins) marks
 * each note as internal or visible to the client.
 */
export function SurveyTimeline(
  { events, showNoteAudience = false }: {
    events: readonly SurveyEvent[];
    showNoteAudience?: boolean;
  },
) {
  if (events.length === 0) return <p className="muted">No changes recorded yet.</p>;
  return (
    <ol className="survey-timeline">
      {events.map((event) => (
        <li
          key={event.id}
          className={`survey-timeline__item survey-timeline__item--${event.toStatus}`}
        >
          <span className="survey-timeline__dot" aria-hidden="true" />
          <div className="survey-timeline__body">
            <p className="survey-timeline__title">
              {event.fromStatus === null
                ? "Request submitted"
                : `${STATUS_INFO[event.fromStatus].label} → ${STATUS_INFO[event.toStatus].label}`}
            </p>
            {/* A div, not a p: the island's marker is a div. */}
            <div className="survey-timeline__meta">
              <Island
                component={LocalTime}
                props={{ iso: event.createdAt }}
                hydrate="visible"
                // The server's text is the UTC time its props give: remembered, not rendered
                // again for each event of each visit.
                isPure
              />
              {event.actorName ? ` · ${event.actorName}` : ""}
            </div>
            {event.note
              ? (
                <p className="survey-timeline__note">
                  {showNoteAudience
                    ? (
                      <strong className="survey-timeline__audience">
                        {event.isNoteVisibleToClient ? "Visible to client: " : "Internal note: "}
                      </strong>
                    )
                    : null}
                  {event.note}
                </p>
              )
              : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
