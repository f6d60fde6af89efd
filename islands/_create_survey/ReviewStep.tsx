/**
 * Step 6: everything the request says, with links back to each step, the quoted total and
 * the note that there is nothing to pay now.
 */
import type { ReactNode } from "react";
import { SURVEY_TYPE_INFO } from "../../lib/survey_types.ts";
import { turnaroundLine } from "../../lib/quote_text.ts";
import { asks, formatMoney } from "./details.ts";
import { SURVEY_OPTIONS } from "./options.ts";
import type { Answers, IslandUser, QuoteState } from "./types.ts";

/** Props of the review step. */
export interface ReviewStepProps {
  answers: Answers;
  quote: QuoteState | null;
  user: IslandUser | null;
  onEdit(step: number): void;
}

function labelOf(list: { id: string; label: string }[], id: string): string {
  return list.find((c) => c.id === id)?.label ?? id;
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="cs-review__row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Section(
  { title, step, onEdit, children }: {
    title: string;
    step: number;
    onEdit(step: number): void;
    children: ReactNode;
  },
) {
  return (
    <section className="cs-review__section">
      <div className="cs-review__header">
        <h3>{title}</h3>
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => onEdit(step)}>
          Edit<span className="visually-hidden">{` ${title.toLowerCase()}`}</span>
        </button>
      </div>
      <dl>{children}</dl>
    </section>
  );
}

/** The review step. */
export function ReviewStep({ answers: a, quote, user, onEdit }: ReviewStepProps) {
  const type = a.surveyType ? SURVEY_TYPE_INFO[a.surveyType] : undefined;
  const calc = quote?.calculation;
  return (
    <>
      <div className="cs-review__total">
        <p className="cs-quote__label">{type?.name ?? "Survey"}</p>
        <p className="cs-quote__total" data-testid="review-total">
          {calc?.totalCents == null ? "Quote required" : formatMoney(calc.totalCents)}
        </p>
        {calc ? <p className="cs-quote__turnaround">{turnaroundLine(calc)}</p> : null}
        <p className="cs-quote__free">
          Free quote, no payment step: submitting sends your request to licensed surveyors near the
          property. You pay only after a surveyor confirms the scope with you.
        </p>
      </div>
      <div className="cs-review">
        <Section title="Property" step={0} onEdit={onEdit}>
          <Row term="Address">{a.formattedAddress || a.address}</Row>
          <Row term="State">{labelOf(SURVEY_OPTIONS.states, a.state)}</Row>
        </Section>
        <Section title="Survey" step={1} onEdit={onEdit}>
          <Row term="Type">{type?.name ?? "—"}</Row>
          <Row term="Purpose">{labelOf(SURVEY_OPTIONS.purposes, a.purpose)}</Row>
        </Section>
        <Section title="Details" step={2} onEdit={onEdit}>
          <Row term="Property type">{labelOf(SURVEY_OPTIONS.propertyTypes, a.propertyType)}</Row>
          {asks(a, "acreage") ? <Row term="Lot size">{a.acreage} acres</Row> : null}
          {asks(a, "terrain")
            ? <Row term="Terrain">{labelOf(SURVEY_OPTIONS.terrains, a.terrain)}</Row>
            : null}
          {asks(a, "vegetation")
            ? <Row term="Vegetation">{labelOf(SURVEY_OPTIONS.vegetations, a.vegetation)}</Row>
            : null}
          {asks(a, "structures") ? <Row term="Structures">{a.structures || "0"}</Row> : null}
          {asks(a, "cornersKnown")
            ? <Row term="Corners marked">{a.cornersKnown === "yes" ? "Yes" : "No or not sure"}</Row>
            : null}
          {asks(a, "cornersToSet")
            ? <Row term="Corners to set">{a.cornersToSet || "0"}</Row>
            : null}
          {asks(a, "altaItems") && a.altaItems.length
            ? <Row term="Table A items">{[...a.altaItems].sort().join(", ")}</Row>
            : null}
          <Row term="Timing">
            {labelOf(SURVEY_OPTIONS.rushLevels, a.rush)}
            {a.neededBy ? `, needed by ${a.neededBy}` : ""}
          </Row>
          {a.accessNotes.trim() ? <Row term="Access notes">{a.accessNotes}</Row> : null}
        </Section>
        <Section title="Contact" step={4} onEdit={onEdit}>
          <Row term="Name">{a.contactName}</Row>
          <Row term="Phone">{a.contactPhone}</Row>
          <Row term="Account">{user ? user.email : "Not signed in"}</Row>
        </Section>
      </div>
    </>
  );
}
