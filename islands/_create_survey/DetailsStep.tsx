/**
 * Step 3: what the price depends on and what the surveyor needs to know (purpose, date,
 * access). Property type and timing are asked for every survey; the rest only where the
 * chosen type's price uses it (SURVEY_TYPE_FACTORS in lib/survey_options.ts, the table the
 * pricing engine reads), so an elevation certificate is not asked for a lot size it ignores.
 */
import type { ReactNode } from "react";
import { RadioGroup, SelectField, TextareaField, TextField } from "../_fields.tsx";
import { LIMITS, todayIso } from "./validate.ts";
import { SURVEY_OPTIONS } from "./options.ts";
import { asks } from "./details.ts";
import type { Answers, Errors } from "./types.ts";

/** Props of the details step. */
export interface DetailsStepProps {
  answers: Answers;
  errors: Errors;
  update(patch: Partial<Answers>): void;
}

const CORNERS = [
  { id: "yes", label: "Yes, the corner markers can be found" },
  { id: "no", label: "No, or I am not sure" },
];

const RUSH_HINTS: Record<string, string> = {
  standard: "Usual turnaround",
  expedited: "Faster, at extra cost",
  rush: "Fastest, at the highest cost",
};

/** The property-details step. */
export function DetailsStep({ answers, errors, update }: DetailsStepProps) {
  const acreageHint = answers.acreageSource === "parcel"
    ? `From county parcel records${
      answers.parcelNumber ? ` (parcel ${answers.parcelNumber})` : ""
    }. Change it if it looks wrong.`
    : "A quarter-acre city lot is 0.25. Your deed or tax bill shows it.";
  const isElevation = answers.surveyType === "elevation_certificate";
  const propertyType = (
    <SelectField
      key="propertyType"
      id="cs-propertyType"
      label="Property type"
      value={answers.propertyType}
      onValue={(propertyType) => update({ propertyType })}
      choices={SURVEY_OPTIONS.propertyTypes}
      error={errors.propertyType}
    />
  );
  const acreage = asks(answers, "acreage")
    ? (
      <TextField
        key="acreage"
        id="cs-acreage"
        label="Lot size (acres)"
        inputMode="decimal"
        value={answers.acreage}
        onValue={(acreage) => update({ acreage, acreageSource: "" })}
        error={errors.acreage}
        hint={acreageHint}
        maxLength={12}
      />
    )
    : null;
  const structures = asks(answers, "structures")
    ? (
      <TextField
        key="structures"
        id="cs-structures"
        label={isElevation ? "Buildings to certify" : "Number of structures"}
        type="number"
        inputMode="numeric"
        min={0}
        max={50}
        step={1}
        value={answers.structures}
        onValue={(structures) => update({ structures })}
        error={errors.structures}
        hint={isElevation
          ? "Each building on the policy needs its own certificate."
          : "House, garage, sheds, barns…"}
      />
    )
    : null;
  const cornersToSet = asks(answers, "cornersToSet")
    ? (
      <TextField
        key="cornersToSet"
        id="cs-cornersToSet"
        label="Corner markers to set"
        type="number"
        inputMode="numeric"
        min={0}
        max={20}
        step={1}
        value={answers.cornersToSet}
        onValue={(cornersToSet) => update({ cornersToSet })}
        error={errors.cornersToSet}
        hint="Missing or new iron pins the surveyor should place. 0 if none."
      />
    )
    : null;
  // Two fields to a row: without a lot size, the counts share the property type's row.
  const rows: ReactNode[][] = acreage
    ? [[propertyType, acreage], [structures, cornersToSet]]
    : [[propertyType, structures, cornersToSet]];
  const [firstRow, countRow = []] = rows.map((row) => row.filter(Boolean));
  return (
    <>
      <div className="grid-2 cs-grid">{firstRow}</div>
      {asks(answers, "terrain")
        ? (
          <RadioGroup
            id="cs-terrain"
            label="Terrain"
            value={answers.terrain}
            onValue={(terrain) => update({ terrain })}
            choices={SURVEY_OPTIONS.terrains}
            error={errors.terrain}
          />
        )
        : null}
      {asks(answers, "vegetation")
        ? (
          <RadioGroup
            id="cs-vegetation"
            label="Vegetation"
            value={answers.vegetation}
            onValue={(vegetation) => update({ vegetation })}
            choices={SURVEY_OPTIONS.vegetations}
            error={errors.vegetation}
          />
        )
        : null}
      {countRow.length ? <div className="grid-2 cs-grid">{countRow}</div> : null}
      {asks(answers, "cornersKnown")
        ? (
          <RadioGroup
            id="cs-cornersKnown"
            label="Are the property corners marked?"
            value={answers.cornersKnown}
            onValue={(cornersKnown) => update({ cornersKnown: cornersKnown as "yes" | "no" })}
            choices={CORNERS}
            error={errors.cornersKnown}
            inline={false}
            hint="Unmarked corners take extra research at the county records office."
          />
        )
        : null}
      {asks(answers, "altaItems")
        ? (
          <fieldset className="field cs-alta">
            <legend className="field__label">
              ALTA/NSPS Table A items <span className="field__optional">(optional)</span>
            </legend>
            <p className="field__hint">
              Your lender or title company lists the items they need; each adds to the price.
            </p>
            <div className="cs-alta__grid">
              {SURVEY_OPTIONS.altaItems.map((item) => (
                <label key={item.id} className="field--check cs-check">
                  <input
                    type="checkbox"
                    name="cs-altaItems"
                    value={item.id}
                    checked={answers.altaItems.includes(item.id)}
                    onChange={(e) => {
                      const checked = e.currentTarget.checked;
                      update({
                        altaItems: checked
                          ? [...answers.altaItems, item.id]
                          : answers.altaItems.filter((id) =>
                            id !== item.id
                          ),
                      });
                    }}
                  />
                  <span>
                    <strong>{item.id}.</strong> {item.label}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        )
        : null}
      <div className="grid-2 cs-grid">
        <SelectField
          id="cs-purpose"
          label="What is the survey for?"
          value={answers.purpose}
          onValue={(purpose) => update({ purpose })}
          choices={SURVEY_OPTIONS.purposes}
          error={errors.purpose}
        />
        <TextField
          id="cs-neededBy"
          label="Needed by"
          type="date"
          optional
          min={todayIso()}
          value={answers.neededBy}
          onValue={(neededBy) => update({ neededBy })}
          error={errors.neededBy}
          hint="Leave empty if there is no deadline."
        />
      </div>
      <RadioGroup
        id="cs-rush"
        label="How soon?"
        value={answers.rush}
        onValue={(rush) => update({ rush })}
        choices={SURVEY_OPTIONS.rushLevels.map((r) => ({
          id: r.id,
          label: RUSH_HINTS[r.id] ? `${r.label} — ${RUSH_HINTS[r.id]}` : r.label,
        }))}
        error={errors.rush}
        inline={false}
      />
      <TextareaField
        id="cs-accessNotes"
        label="Access notes"
        optional
        value={answers.accessNotes}
        onValue={(accessNotes) => update({ accessNotes })}
        error={errors.accessNotes}
        maxLength={LIMITS.accessNotes}
        rows={3}
        className="cs-textarea"
        placeholder="Gate codes, dogs, where to park…"
      />
    </>
  );
}
