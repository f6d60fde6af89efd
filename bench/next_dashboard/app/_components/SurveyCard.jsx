// components/survey/SurveyCard.tsx as a Server Component: the card's header, tracker, facts,
// proposals (components/Proposals.tsx DashboardProposals), price breakdown and actions.
// Meridian's own components render what a Server Component can: the status badge, the
// surveyor's contact and the price breakdown; the cancel button and the proposals are
// Meridian's islands. The card's own markup is written here because Meridian's puts its
// pieces in through its HTML cache (a renderToString of its own), and its module imports the
// cancel island into the server graph; surveyTitle and firstProposalAt are one line each,
// repeated for the same reason.
import { SURVEY_TYPE_INFO } from "@meridian/lib/survey_types.ts";
import { CLIENT_CANCELLABLE } from "@meridian/lib/survey_status.ts";
import { formatCents, turnaroundLine, turnaroundValue } from "@meridian/lib/quote_text.ts";
import {
  agreedPriceOf,
  agreedPriceReason,
  AWAITING_SURVEYOR_LABEL,
  isAwaitingSurveyor,
  quotedPrice,
  SurveyorContact,
} from "@meridian/components/survey/SurveyFacts.tsx";
import { StatusBadge } from "@meridian/components/survey/StatusBadge.tsx";
import { formatDate } from "@meridian/components/survey/format.ts";
import { QuoteBreakdown } from "@meridian/islands/_create_survey/QuoteBreakdown.tsx";
import { CancelSurveyButton, SurveyProposals } from "../islands.jsx";
import { ProgressTracker } from "./ProgressTracker.jsx";

const surveyTitle = (s) =>
  `${SURVEY_TYPE_INFO[s.surveyType].name} at ${s.formattedAddress || s.address}`;

export function SurveyCard({ survey: s, events, proposals, leadExpiredAt }) {
  const headingId = `survey-${s.id}-title`;
  const awaiting = isAwaitingSurveyor(s);
  const agreed = agreedPriceOf(s);
  let proposalsAt = null;
  for (const p of proposals) {
    if (proposalsAt === null || p.sentAt < proposalsAt) proposalsAt = p.sentAt;
  }
  const showsProposals = proposals.length > 0 ||
    (leadExpiredAt !== null && s.status === "surveyors_notified");
  return (
    <article className="card survey-card" aria-labelledby={headingId} data-survey-id={s.id}>
      <div className="card__header survey-card__header">
        <div>
          <h2 id={headingId} className="survey-card__title">
            <a href={`/survey/${s.id}`}>{SURVEY_TYPE_INFO[s.surveyType].name}</a>
          </h2>
          <p className="survey-card__address">{s.formattedAddress || s.address}</p>
        </div>
        <StatusBadge status={s.status} label={awaiting ? AWAITING_SURVEYOR_LABEL : undefined} />
      </div>
      <div className="card__body">
        <ProgressTracker
          survey={s}
          events={events}
          currentLabel={awaiting ? AWAITING_SURVEYOR_LABEL : undefined}
          proposalsAt={proposalsAt}
        />
        <dl className="survey-card__facts">
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
        </dl>
        {showsProposals
          ? (
            <section className="survey-card__proposals" aria-label="Proposals for this request">
              <SurveyProposals
                leadExpiredAt={leadExpiredAt}
                surveyId={s.id}
                surveyStatus={s.status}
                hasSurveyor={s.assignedSurveyor !== null}
                canAnswer
                quotedPriceCents={s.quote.quoteRequired ? null : s.quotedPriceCents}
                quoteTurnaround={turnaroundLine(s.quote)}
                proposals={proposals}
                isCompact
              />
            </section>
          )
          : null}
        {s.quote.quoteRequired ? null : (
          <details className="survey-card__breakdown">
            <summary>Price breakdown</summary>
            <QuoteBreakdown quote={s.quote} caption="Quoted price breakdown" />
          </details>
        )}
        <div className="cluster survey-card__actions">
          <a className="btn btn--secondary btn--sm" href={`/survey/${s.id}`}>
            View details<span className="visually-hidden">{` of ${surveyTitle(s)}`}</span>
          </a>
          {CLIENT_CANCELLABLE.includes(s.status)
            ? <CancelSurveyButton surveyId={s.id} description={surveyTitle(s)} />
            : null}
        </div>
      </div>
    </article>
  );
}
