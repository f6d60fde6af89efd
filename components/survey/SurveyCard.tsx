import { Fragment, type ReactNode } from "react";
import type { DashboardSurvey, Survey, SurveyEvent } from "../../lib/survey_schema.ts";
import { CLIENT_CANCELLABLE } from "../../lib/survey_status.ts";
import { SURVEY_TYPE_INFO } from "../../lib/survey_types.ts";
import { Island } from "../Island.tsx";
import CancelSurveyButton from "../../islands/CancelSurveyButton.tsx";
import { QuoteBreakdown } from "../../islands/_create_survey/QuoteBreakdown.tsx";
import { turnaroundValue } from "../../lib/quote_text.ts";
import { ProgressTrackerContent } from "./ProgressTracker.tsx";
import { StatusBadge } from "./StatusBadge.tsx";
import {
  agreedPriceOf,
  agreedPriceReason,
  AWAITING_SURVEYOR_LABEL,
  isAwaitingSurveyor,
  quotedPrice,
  SurveyorContact,
} from "./SurveyFacts.tsx";
import { formatCents } from "../../lib/quote_text.ts";
import { formatDate } from "./format.ts";
import { cachedCardParts } from "../html_cache.ts";

/** What a client's request says about itself in one line, e.g. for the cancel dialog. */
export function surveyTitle(s: Pick<Survey, "surveyType" | "formattedAddress" | "address">) {
  return `${SURVEY_TYPE_INFO[s.surveyType].name} at ${s.formattedAddress || s.address}`;
}

/**
 * One request on the client dashboard: status, progress tracker with dates, quoted price
 * with a collapsible breakdown, turnaround, surveyor and schedule, and its actions. Only the
 * cancel button is interactive (an island); the breakdown folds with <details>.
 */
export function SurveyCard({ survey: s, events, proposalsAt = null, children }: {
  survey: DashboardSurvey;
  events: SurveyEvent[];
  /** When the first proposal arrived (ISO), or null: the tracker's "Proposals received". */
  proposalsAt?: string | null;
  /** Shown under the facts: the request's proposals (components/Proposals.tsx). */
  children?: ReactNode;
}) {
  const headingId = `survey-${s.id}-title`;
  // The header, the tracker, the facts and the breakdown are remembered together by the survey
  // the card is given (a DashboardSurvey: only what the cards show), its timeline and when its
  // first proposal came (components/html_cache.ts): the pieces read nothing else, so none can be
  // stale, and a repeat view compares that input instead of rendering.
  const [header, tracker, facts, breakdown] = cachedCardParts(
    s.id,
    { survey: s, events, proposalsAt },
    ({ survey, events, proposalsAt }) => [
      <CardHeader key="header" survey={survey} />,
      <ProgressTrackerContent
        key="tracker"
        survey={survey}
        events={events}
        currentLabel={isAwaitingSurveyor(survey) ? AWAITING_SURVEYOR_LABEL : undefined}
        proposalsAt={proposalsAt}
      />,
      <CardFacts key="facts" survey={survey} />,
      <Fragment key="breakdown">
        {survey.quote.quoteRequired ? null : (
          <>
            <summary>Price breakdown</summary>
            <QuoteBreakdown quote={survey.quote} caption="Quoted price breakdown" />
          </>
        )}
      </Fragment>,
    ],
  );
  return (
    <article className="card survey-card" aria-labelledby={headingId} data-survey-id={s.id}>
      <div
        className="card__header survey-card__header"
        dangerouslySetInnerHTML={{ __html: header }}
      />
      <div className="card__body">
        <div className="survey-tracker" dangerouslySetInnerHTML={{ __html: tracker }} />
        <dl className="survey-card__facts" dangerouslySetInnerHTML={{ __html: facts }} />
        {children}
        {s.quote.quoteRequired ? null : (
          <details
            className="survey-card__breakdown"
            dangerouslySetInnerHTML={{ __html: breakdown }}
          />
        )}
        <div className="cluster survey-card__actions">
          <a className="btn btn--secondary btn--sm" href={`/survey/${s.id}`}>
            View details<span className="visually-hidden">{` of ${surveyTitle(s)}`}</span>
          </a>
          {CLIENT_CANCELLABLE.includes(s.status)
            ? (
              <Island
                component={CancelSurveyButton}
                props={{ surveyId: s.id, description: surveyTitle(s) }}
                hydrate="visible"
                // Its server HTML is the button alone (the dialog is drawn at the first click):
                // remembered by its props, not rendered again for each card of each visit.
                isPure
              />
            )
            : null}
        </div>
      </div>
    </article>
  );
}

/** The card's heading, address and status badge: the inside of its header. */
function CardHeader({ survey: s }: { survey: DashboardSurvey }) {
  const headingId = `survey-${s.id}-title`;
  return (
    <>
      <div>
        <h2 id={headingId} className="survey-card__title">
          <a href={`/survey/${s.id}`}>{SURVEY_TYPE_INFO[s.surveyType].name}</a>
        </h2>
        <p className="survey-card__address">{s.formattedAddress || s.address}</p>
      </div>
      <StatusBadge
        status={s.status}
        label={isAwaitingSurveyor(s) ? AWAITING_SURVEYOR_LABEL : undefined}
      />
    </>
  );
}

/** Price, agreed price, turnaround, surveyor and schedule: the inside of the card's facts. */
function CardFacts({ survey: s }: { survey: DashboardSurvey }) {
  const agreed = agreedPriceOf(s);
  return (
    <>
      <div>
        <dt>Quoted price</dt>
        <dd className="survey-card__price" data-testid="quoted-price">{quotedPrice(s)}</dd>
      </div>
      {agreed === undefined ? null : (
        <div>
          <dt>Agreed price</dt>
          <dd data-testid="agreed-price-fact">
            <span className="survey-card__price">{formatCents(agreed)}</span>
            <span className="muted survey-card__price-note">{agreedPriceReason(s)}</span>
          </dd>
        </div>
      )}
      <div>
        <dt>Turnaround</dt>
        <dd>{turnaroundValue(s.quote)}</dd>
      </div>
      <div>
        <dt>Surveyor</dt>
        <dd>
          <SurveyorContact survey={s} />
        </dd>
      </div>
      <div>
        <dt>Scheduled</dt>
        <dd>{s.scheduledDate ? formatDate(s.scheduledDate) : "Not yet"}</dd>
      </div>
    </>
  );
}
