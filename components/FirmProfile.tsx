/**
 * The public profile of an active, verified firm (/firms/{slug}, routes/firms.tsx): company and
 * principal, verified licence states, survey types, the coverage map, Meridian's record (jobs
 * completed, median response to a lead, member since) and the clients' reviews (first name and
 * town only) with the firm's replies. The firm's own account gets a reply form under each
 * review it has not answered. Data: db/firm_profiles.ts.
 */
import { Breadcrumbs } from "./Breadcrumbs.tsx";
import { Card, Pager } from "./AppPage.tsx";
import { Island } from "./Island.tsx";
import { PublicLayout } from "./PublicLayout.tsx";
import { FirmCoverageMap } from "./FirmCoverageMap.tsx";
import { StarLine } from "../islands/RateSurveyor.tsx";
import ReviewReply from "../islands/ReviewReply.tsx";
import type { PublicFirm, PublicReview } from "../db/firm_profiles.ts";
import type { SessionUser } from "../lib/roles.ts";
import { SURVEY_TYPE_INFO, type SurveyType } from "../lib/survey_types.ts";
import { US_STATES } from "../lib/survey_options.ts";
import { formatInteger } from "../lib/numbers.ts";
import { formatDate } from "./survey/format.ts";

const MONTH = new Intl.DateTimeFormat("en-US", {
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

/** "under an hour", "3 hours", "2 days" for a median response in seconds. */
export function responseTimeText(seconds: number): string {
  const hours = seconds / 3600;
  if (hours < 1) {
    const minutes = Math.max(1, Math.round(seconds / 60));
    return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  }
  if (hours < 48) {
    const n = Math.round(hours);
    return `${n} hour${n === 1 ? "" : "s"}`;
  }
  const days = Math.round(hours / 24);
  return `${days} days`;
}

/** "Austin, TX", or null without a town. */
export function firmPlace(firm: Pick<PublicFirm, "city" | "state">): string | null {
  if (!firm.city) return null;
  return firm.state ? `${firm.city}, ${firm.state}` : firm.city;
}

function stateName(code: string): string {
  return US_STATES[code as keyof typeof US_STATES] ?? code;
}

function surveyTypeName(type: string): string {
  return SURVEY_TYPE_INFO[type as SurveyType]?.name ?? type;
}

function ReviewItem({ review, firm, canReply }: {
  review: PublicReview;
  firm: PublicFirm;
  canReply: boolean;
}) {
  const place = review.town ? `${review.town}, ${review.state}` : stateName(review.state);
  return (
    <li className="review-list__item" data-review-id={review.id}>
      <p className="review-list__head">
        <StarLine rating={review.rating} />{" "}
        <span className="muted">
          {`${review.firstName} in ${place} · ${surveyTypeName(review.surveyType)} · `}
          <time dateTime={review.createdAt}>{formatDate(review.createdAt)}</time>
        </span>
      </p>
      {review.text ? <p className="review-list__text">{review.text}</p> : null}
      {review.reply
        ? (
          <div className="review-list__reply">
            <p>
              <strong>{`Reply from ${firm.companyName}`}</strong>
              {review.repliedAt
                ? (
                  <span className="muted">
                    {" · "}
                    <time dateTime={review.repliedAt}>{formatDate(review.repliedAt)}</time>
                  </span>
                )
                : null}
            </p>
            <p>{review.reply}</p>
          </div>
        )
        : canReply
        ? (
          <Island
            component={ReviewReply}
            props={{ reviewId: review.id, companyName: firm.companyName }}
            hydrate="visible"
          />
        )
        : null}
    </li>
  );
}

/** The whole profile page body (see the file's comment). */
export function FirmProfile({ firm, reviews, page, pageSize, user }: {
  firm: PublicFirm;
  reviews: PublicReview[];
  page: number;
  pageSize: number;
  user: SessionUser | null;
}) {
  const place = firmPlace(firm);
  const canReply = user !== null && user.role === "surveyor" && user.id === firm.userId;
  const path = `/firms/${firm.slug}`;
  return (
    <PublicLayout user={user}>
      <section className="page-hero">
        <div className="container">
          <Breadcrumbs items={[{ href: "/", label: "Home" }, { label: firm.companyName }]} />
          <p className="eyebrow">Licensed land surveyor on Meridian</p>
          <h1>{firm.companyName}</h1>
          <p className="page-hero__lead">
            {[
              firm.principalName ? `Principal: ${firm.principalName}.` : null,
              place ? `Office in ${place}.` : null,
              firm.rating !== null
                ? `Rated ${firm.rating.toFixed(1)} of 5 by ${
                  formatInteger(firm.reviewCount)
                } client${firm.reviewCount === 1 ? "" : "s"} on Meridian.`
                : null,
            ].filter(Boolean).join(" ")}
          </p>
        </div>
      </section>
      <div className="container firm-profile">
        <Card id="firm-facts-title" title="On Meridian">
          <dl className="firm-profile__facts">
            <div>
              <dt>Principal</dt>
              <dd>{firm.principalName ?? "Not given"}</dd>
            </div>
            <div>
              <dt>Licence verified in</dt>
              <dd data-testid="firm-licence-states">
                {firm.licenseStates.length
                  ? firm.licenseStates.map(stateName).join(", ")
                  : "No state yet"}
              </dd>
            </div>
            <div>
              <dt>Rating</dt>
              <dd>
                {firm.rating === null ? "No reviews yet" : (
                  <>
                    <StarLine rating={firm.rating} />{" "}
                    {`${firm.rating.toFixed(1)} (${formatInteger(firm.reviewCount)} review${
                      firm.reviewCount === 1 ? "" : "s"
                    })`}
                  </>
                )}
              </dd>
            </div>
            <div>
              <dt>Jobs completed on Meridian</dt>
              <dd data-testid="firm-jobs">{formatInteger(firm.jobsCompleted)}</dd>
            </div>
            <div>
              <dt>Typical response to a new request</dt>
              <dd data-testid="firm-response">
                {firm.medianResponseSeconds === null
                  ? "Not measured yet"
                  : `${responseTimeText(firm.medianResponseSeconds)} (median)`}
              </dd>
            </div>
            <div>
              <dt>Member since</dt>
              <dd>
                <time dateTime={firm.memberSince}>
                  {MONTH.format(new Date(firm.memberSince))}
                </time>
              </dd>
            </div>
          </dl>
        </Card>
        <Card id="firm-types-title" title="Surveys offered">
          {firm.surveyTypes.length
            ? (
              <ul className="firm-profile__chips" role="list">
                {firm.surveyTypes.map((t) => {
                  const info = SURVEY_TYPE_INFO[t as SurveyType];
                  return (
                    <li key={t} className="badge badge--neutral">
                      {info ? <a href={info.path}>{info.name}</a> : t}
                    </li>
                  );
                })}
              </ul>
            )
            : <p className="muted">This firm has not listed its survey types yet.</p>}
        </Card>
        <Card id="firm-coverage-title" title="Where it works">
          <p>
            {`Travels up to ${firm.serviceRadiusMiles} miles${
              place ? ` from ${place}` : ""
            }. Licensed in ${
              firm.licenseStates.length
                ? firm.licenseStates.map(stateName).join(", ")
                : "no state yet"
            }, so it takes surveys there only.`}
          </p>
          {firm.lat !== null && firm.lng !== null
            ? (
              <FirmCoverageMap
                companyName={firm.companyName}
                lat={firm.lat}
                lng={firm.lng}
                radiusMiles={firm.serviceRadiusMiles}
                place={place}
              />
            )
            : null}
        </Card>
        <Card id="firm-reviews-title" title="Client reviews">
          {firm.reviewCount === 0
            ? <p className="muted">No client has reviewed this firm on Meridian yet.</p>
            : (
              <div className="stack">
                <p className="muted">
                  Written by clients after their survey was delivered through Meridian.
                </p>
                <ol className="review-list">
                  {reviews.map((r) => (
                    <ReviewItem key={r.id} review={r} firm={firm} canReply={canReply} />
                  ))}
                </ol>
                <Pager page={page} total={firm.reviewCount} pageSize={pageSize} path={path} />
              </div>
            )}
        </Card>
        <p>
          <a className="btn btn--primary" href="/create-survey">Get an instant quote</a>
        </p>
      </div>
    </PublicLayout>
  );
}
