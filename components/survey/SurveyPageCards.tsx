import type { Survey, SurveyEvent } from "../../lib/survey_schema.ts";
import type { WorkingFirm } from "../../db/fieldwork.ts";
import { formatCents, turnaroundLine } from "../../lib/quote_text.ts";
import { QuoteBreakdown } from "../../islands/_create_survey/QuoteBreakdown.tsx";
import { WorkingFirmContact } from "../SurveyDelivery.tsx";
import { cachedSurveyPageParts } from "../html_cache.ts";
import { ProgressTracker } from "./ProgressTracker.tsx";
import {
  agreedPriceOf,
  agreedPriceReason,
  AWAITING_SURVEYOR_LABEL,
  isAwaitingSurveyor,
  quotedPrice,
  SurveyFacts,
  SurveyorContact,
} from "./SurveyFacts.tsx";
import { formatDate } from "./format.ts";

/** Everything a request page's progress, request and quote cards show, and nothing else. */
export interface SurveyPageCardsInput {
  survey: Survey;
  /** The timeline as this viewer reads it (the tracker's dates). */
  events: readonly SurveyEvent[];
  /** When the first proposal came, or null. */
  proposalsAt: string | null;
  /** The firm at work when no surveyor is assigned, or undefined. */
  firm: WorkingFirm | undefined;
  /** Admins see the client's name on the request card. */
  isAdmin: boolean;
}

/**
 * The bodies of a request page's progress, request and quote cards, in that order, rendered
 * once and remembered by their input (components/html_cache.ts): the pieces are drawn from that
 * object alone and a repeat is the same data compared value by value, so no value they show can
 * be left out, and changed data is a new render, never a stale card.
 */
export function surveyPageCardsHtml(input: SurveyPageCardsInput): readonly string[] {
  return cachedSurveyPageParts(
    input.survey.id,
    input,
    ({ survey, events, proposalsAt, firm, isAdmin }) => [
      <ProgressBody
        key="progress"
        survey={survey}
        events={events}
        proposalsAt={proposalsAt}
        firm={firm}
      />,
      <RequestBody key="request" survey={survey} isAdmin={isAdmin} />,
      <QuoteBody key="quote" survey={survey} />,
    ],
  );
}

function ProgressBody(
  { survey, events, proposalsAt, firm }: Omit<SurveyPageCardsInput, "isAdmin">,
) {
  return (
    <>
      <ProgressTracker
        survey={survey}
        events={events}
        currentLabel={isAwaitingSurveyor(survey) ? AWAITING_SURVEYOR_LABEL : undefined}
        proposalsAt={proposalsAt}
      />
      <dl className="survey-card__facts">
        <div>
          <dt>Surveyor</dt>
          <dd>
            {!survey.assignedSurveyor && firm
              ? <WorkingFirmContact firm={firm} />
              : <SurveyorContact survey={survey} />}
          </dd>
        </div>
        <div>
          <dt>Scheduled</dt>
          <dd>{survey.scheduledDate ? formatDate(survey.scheduledDate) : "Not yet"}</dd>
        </div>
        <div>
          <dt>Surveyed</dt>
          <dd>{formatDate(survey.surveyedDate)}</dd>
        </div>
        <div>
          <dt>Completed</dt>
          <dd>{formatDate(survey.completedDate)}</dd>
        </div>
      </dl>
    </>
  );
}

function RequestBody({ survey, isAdmin }: { survey: Survey; isAdmin: boolean }) {
  return (
    <>
      {isAdmin ? <p className="muted">{`Client: ${survey.clientName}`}</p> : null}
      <SurveyFacts survey={survey} />
    </>
  );
}

function QuoteBody({ survey }: { survey: Survey }) {
  const agreed = agreedPriceOf(survey);
  return (
    <>
      <p className="survey-page__price" data-testid="quoted-price">{quotedPrice(survey)}</p>
      <p className="muted">{turnaroundLine(survey.quote)}</p>
      <QuoteBreakdown quote={survey.quote} caption="Quoted price breakdown" />
      <p className="muted survey-page__note">
        Quoted on {formatDate(survey.createdAt)}
        {survey.pricingConfigVersion ? ` (pricing version ${survey.pricingConfigVersion})` : ""}.
        {" "}
        {agreed === undefined
          ? "This price does not change."
          : "The instant quote does not change; you pay the agreed price."}
      </p>
      {agreed === undefined
        ? null
        : (
          <div className="survey-page__agreed" data-testid="agreed-price-fact">
            <h3>Agreed price</h3>
            <p className="survey-page__price">{formatCents(agreed)}</p>
            <p className="muted">{agreedPriceReason(survey)}</p>
          </div>
        )}
    </>
  );
}
