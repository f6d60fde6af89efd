/**
 * The Meridian reviews card of a surveyor's directory record (/surveyor-detail/{id}): the
 * average and count, then the newest reviews (capped at REVIEWS_PAGE_SIZE), each with its
 * stars, client and a link to the survey, the public text (what /firms/{slug} shows), the
 * private comment and the firm's reply. Data: db/reviews.ts listSurveyorReviews.
 */
import { Card } from "./AppPage.tsx";
import { StarLine } from "../islands/RateSurveyor.tsx";
import type { SurveyorReviewListed } from "../db/reviews.ts";
import { SURVEY_TYPE_INFO, type SurveyType } from "../lib/survey_types.ts";
import { formatDate } from "./survey/format.ts";

/** The reviews card (see the file's comment). */
export function SurveyorReviews({ reviews, total, average }: {
  reviews: SurveyorReviewListed[];
  total: number;
  average: number | null;
}) {
  return (
    <Card id="surveyor-reviews-title" title="Meridian reviews" bodyClass="stack">
      {total === 0 || average === null
        ? <p className="muted">No client has rated this surveyor on Meridian yet.</p>
        : (
          <>
            <p data-testid="review-summary">
              <StarLine rating={average} /> <strong>{average.toFixed(1)}</strong>
              {` from ${total} review${total === 1 ? "" : "s"}`}
              {total > reviews.length ? ` · the ${reviews.length} newest below` : ""}
            </p>
            <ol className="review-list">
              {reviews.map((r) => (
                <li key={r.id} className="review-list__item">
                  <p className="review-list__head">
                    <StarLine rating={r.rating} />{" "}
                    <span className="muted">
                      {r.clientName} · <time dateTime={r.createdAt}>{formatDate(r.createdAt)}</time>
                      {" "}
                      ·{" "}
                      <a href={`/survey/${r.surveyId}`}>
                        {SURVEY_TYPE_INFO[r.surveyType as SurveyType]?.name ?? r.surveyType}
                      </a>
                    </span>
                  </p>
                  {r.text
                    ? (
                      <p className="review-list__text">
                        <strong>Public text:</strong> {r.text}
                      </p>
                    )
                    : <p className="muted">No public text (a rating alone on the profile).</p>}
                  {r.comment
                    ? (
                      <>
                        <p className="muted">Private comment (the firm and Meridian only):</p>
                        <blockquote className="review-list__comment">{r.comment}</blockquote>
                      </>
                    )
                    : null}
                  {r.reply
                    ? (
                      <div className="review-list__reply">
                        <p>
                          <strong>Firm's reply</strong>
                          {r.repliedAt
                            ? (
                              <span className="muted">
                                {" · "}
                                <time dateTime={r.repliedAt}>{formatDate(r.repliedAt)}</time>
                              </span>
                            )
                            : null}
                        </p>
                        <p>{r.reply}</p>
                      </div>
                    )
                    : <p className="muted">The firm has not replied.</p>}
                </li>
              ))}
            </ol>
          </>
        )}
    </Card>
  );
}
