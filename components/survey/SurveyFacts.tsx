import type { ReactNode } from "react";
import type { Survey } from "../../lib/survey_schema.ts";
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
import { formatDecimal } from "../../lib/numbers.ts";
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

/**
 * The surveyor of the open assignment: company, name, phone, licence and agreed price once
 * they accepted; while only offered, who was asked and that they have not accepted; nothing
 * before any assignment.
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
      <span data-testid="agreed-price">{`Agreed price ${formatCents(s.agreedPriceCents)}`}</span>
    </span>
  );
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
