import type { ReactNode } from "react";
import type { AssignedSurveyor, Survey } from "../../lib/survey_schema.ts";
import { PURPOSE_INFO } from "../../lib/survey_schema.ts";
import {
  ALTA_TABLE_A_ITEMS,
  PROPERTY_TYPE_LABELS,
  RUSH_LABELS,
  TERRAIN_LABELS,
  US_STATES,
  usesFactor,
  VEGETATION_LABELS,
} from "../../lib/survey_details.ts";
import { formatCents } from "../../lib/quote_text.ts";
import { formatDate } from "./format.ts";
import { formatDecimal, formatInteger } from "../../lib/numbers.ts";
import { ADMIN_ASSIGNMENT_TEXT } from "../../lib/assignment_constants.ts";

/** The quoted price of a survey as text ("Quote required" for subdivisions). */
export function quotedPrice(survey: Pick<Survey, "quotedPriceCents">): string {
  return survey.quotedPriceCents === null ? "Quote required" : formatCents(survey.quotedPriceCents);
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="survey-facts__row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** True while the open assignment is only offered: the surveyor has not accepted yet. */
export function isAwaitingSurveyor(survey: Pick<Survey, "status" | "assignedSurveyor">): boolean {
  return survey.status === "assigned" && survey.assignedSurveyor?.status === "offered";
}

/** The status label while the surveyor has not accepted (never "Surveyor assigned"). */
export const AWAITING_SURVEYOR_LABEL = "Waiting for the surveyor";

/** How the surveyor is rated: by Meridian's clients when any reviewed them, else publicly. */
export function surveyorRatingText(
  s: Pick<AssignedSurveyor, "rating" | "reviewCount" | "meridianRatingSum" | "meridianReviewCount">,
): string {
  if (s.meridianReviewCount > 0) {
    const n = s.meridianReviewCount;
    const stars = (s.meridianRatingSum / n).toFixed(1);
    return `Rated ${stars} of 5 by ${n} Meridian client${n === 1 ? "" : "s"}`;
  }
  if (s.rating !== null) {
    const n = s.reviewCount;
    return `Rated ${s.rating.toFixed(1)} of 5${
      n ? ` (${formatInteger(n)} public review${n === 1 ? "" : "s"})` : ""
    }`;
  }
  return "No ratings yet";
}

/**
 * The surveyor of the assignment (the open one, else the one that completed the job):
 * company, rating, and name, phone, licence and agreed price once they accepted; while only
 * offered, who was asked and that they have not accepted; nothing before any assignment.
 */
export function SurveyorContact({ survey }: { survey: Pick<Survey, "assignedSurveyor"> }) {
  const s = survey.assignedSurveyor;
  if (!s) return <span className="muted">Not assigned yet</span>;
  if (s.status === "offered") {
    return (
      <span className="surveyor-contact" data-assignment="offered">
        <strong>{s.companyName}</strong>
        <span className="muted">{ADMIN_ASSIGNMENT_TEXT.offered}</span>
      </span>
    );
  }
  const license = s.licenseNumber
    ? `Licence ${s.licenseState ? `${s.licenseState} ` : ""}${s.licenseNumber}`
    : null;
  return (
    <span className="surveyor-contact" data-assignment={s.status}>
      <strong>{s.companyName}</strong>
      {s.name ? <span>{s.name}</span> : null}
      {s.phone ? <a href={`tel:${s.phone.replace(/[^\d+]/g, "")}`}>{s.phone}</a> : null}
      {license ? <span>{license}</span> : null}
      <span data-testid="surveyor-rating">{surveyorRatingText(s)}</span>
      <span data-testid="agreed-price">{`Agreed price ${formatCents(s.agreedPriceCents)}`}</span>
    </span>
  );
}

/**
 * The price the client pays, once a surveyor accepted the job: the agreed price, or undefined
 * before (or while the assignment is only offered).
 */
export function agreedPriceOf(survey: Pick<Survey, "assignedSurveyor">): number | undefined {
  const s = survey.assignedSurveyor;
  return s && s.status !== "offered" ? s.agreedPriceCents : undefined;
}

/**
 * Why the agreed price is what it is, beside the instant quote: how it compares and who
 * agreed it, as it happened (a claim at the quote, a proposal the client accepted, Meridian's
 * assignment). E.g. "$42 more than the instant quote of $658: the price Austin Survey Co.
 * agreed with you after confirming the parcel and the work."
 */
export function agreedPriceReason(
  survey: Pick<Survey, "assignedSurveyor" | "quotedPriceCents">,
): string {
  const s = survey.assignedSurveyor;
  if (!s) return "";
  const who = s.source === "claim"
    ? `the price ${s.companyName} agreed with you after confirming the parcel and the work`
    : s.source === "proposal"
    ? `the price in ${s.companyName}'s proposal, which you accepted`
    : `the price set when Meridian assigned ${s.companyName}, after confirming the details`;
  const quote = survey.quotedPriceCents;
  if (quote === null) return `No instant quote for this survey type: ${who}.`;
  const diff = s.agreedPriceCents - quote;
  if (diff === 0) return `Same as the instant quote: ${who}.`;
  const by = formatCents(Math.abs(diff));
  return `${by} ${diff > 0 ? "more" : "less"} than the instant quote of ${
    formatCents(quote)
  }: ${who}.`;
}

/**
 * Everything the client asked for, as a definition list: the details the survey type uses
 * (SURVEY_TYPE_FACTORS), plus any other a request from before that table holds, so a stored
 * request reads as it was made.
 */
export function SurveyFacts({ survey: s }: { survey: Survey }) {
  const alta = s.altaItems.map((id) => `${id}. ${ALTA_TABLE_A_ITEMS[id] ?? ""}`.trim());
  const shows = (factor: Parameters<typeof usesFactor>[1], isGiven: boolean) =>
    isGiven || usesFactor(s.surveyType, factor);
  return (
    <dl className="survey-facts">
      <Fact term="Address">{s.formattedAddress || s.address}</Fact>
      <Fact term="State">{US_STATES[s.state] ?? s.state}</Fact>
      <Fact term="Purpose">{PURPOSE_INFO[s.purpose]?.label ?? s.purpose}</Fact>
      <Fact term="Property type">{PROPERTY_TYPE_LABELS[s.propertyType] ?? s.propertyType}</Fact>
      {s.acreage !== null ? <Fact term="Lot size">{formatDecimal(s.acreage)} acres</Fact> : null}
      {s.terrain ? <Fact term="Terrain">{TERRAIN_LABELS[s.terrain] ?? s.terrain}</Fact> : null}
      {s.vegetation
        ? <Fact term="Vegetation">{VEGETATION_LABELS[s.vegetation] ?? s.vegetation}</Fact>
        : null}
      {shows("structures", s.structures > 0) ? <Fact term="Structures">{s.structures}</Fact> : null}
      {shows("cornersKnown", s.cornersKnown !== null)
        ? (
          <Fact term="Corners marked">
            {s.cornersKnown === null ? "Not stated" : s.cornersKnown ? "Yes" : "No or not sure"}
          </Fact>
        )
        : null}
      {shows("cornersToSet", s.cornersToSet > 0)
        ? <Fact term="Corners to set">{s.cornersToSet}</Fact>
        : null}
      {alta.length ? <Fact term="ALTA Table A items">{alta.join("; ")}</Fact> : null}
      <Fact term="Timing">
        {RUSH_LABELS[s.rush] ?? s.rush}
        {s.neededBy ? `, needed by ${formatDate(s.neededBy)}` : ""}
      </Fact>
      {s.accessNotes ? <Fact term="Access notes">{s.accessNotes}</Fact> : null}
      <Fact term="Contact">
        {s.contactName},{" "}
        <a href={`tel:${s.contactPhone.replace(/[^\d+]/g, "")}`}>{s.contactPhone}</a>
      </Fact>
      <Fact term="Requested">{formatDate(s.createdAt)}</Fact>
    </dl>
  );
}
