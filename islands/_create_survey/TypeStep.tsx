/**
 * Step 2: the survey type, as six radio cards with what each is for, its starting price and
 * turnaround, and the "Which survey do I need?" helper that suggests one by purpose.
 */
import { formatDollars, SURVEY_TYPE_INFO, SURVEY_TYPES } from "../../lib/survey_types.ts";
import { FieldError } from "../_fields.tsx";
import { PURPOSE_WHY } from "./purposes.ts";
import { SURVEY_OPTIONS } from "./options.ts";
import type { Answers, Errors } from "./types.ts";

/** Props of the type step. */
export interface TypeStepProps {
  answers: Answers;
  errors: Errors;
  update(patch: Partial<Answers>): void;
}

/** The survey-type step. */
export function TypeStep({ answers, errors, update }: TypeStepProps) {
  const purpose = SURVEY_OPTIONS.purposes.find((p) => p.id === answers.purpose);
  const suggested = purpose?.suggests ? SURVEY_TYPE_INFO[purpose.suggests] : undefined;
  return (
    <>
      <section className="cs-helper" aria-labelledby="cs-helper-title">
        <h3 id="cs-helper-title" className="cs-helper__title">Which survey do I need?</h3>
        <p className="cs-helper__intro">Tell us what the survey is for and we will suggest one.</p>
        <div className="cs-chips" role="group" aria-labelledby="cs-helper-title">
          {SURVEY_OPTIONS.purposes.map((p) => (
            <button
              key={p.id}
              type="button"
              className="cs-chip"
              aria-pressed={answers.purpose === p.id}
              onClick={() =>
                update(p.suggests ? { purpose: p.id, surveyType: p.suggests } : { purpose: p.id })}
            >
              {p.label}
            </button>
          ))}
        </div>
        <p className="cs-helper__result" role="status">
          {purpose
            ? suggested
              ? (
                <>
                  For <strong>{purpose.label.toLowerCase()}</strong> we suggest a{" "}
                  <strong>{suggested.name}</strong>. {PURPOSE_WHY[purpose.id] ?? ""}
                </>
              )
              : PURPOSE_WHY[purpose.id] ?? ""
            : ""}
        </p>
      </section>

      <fieldset
        className="cs-types"
        aria-describedby={errors.surveyType ? "cs-surveyType-error" : undefined}
      >
        <legend className="field__label">Survey type</legend>
        <div className="cs-types__grid">
          {SURVEY_TYPES.map((id, i) => {
            const info = SURVEY_TYPE_INFO[id];
            return (
              <label
                key={id}
                className={`cs-type${answers.surveyType === id ? " cs-type--selected" : ""}`}
              >
                <input
                  type="radio"
                  name="cs-surveyType"
                  id={i === 0 ? "cs-surveyType" : `cs-surveyType-${id}`}
                  value={id}
                  className="cs-type__radio"
                  checked={answers.surveyType === id}
                  aria-invalid={errors.surveyType ? true : undefined}
                  onChange={() => update({ surveyType: id })}
                />
                <span className="cs-type__name">
                  {info.name}
                  {suggested?.id === id
                    ? <span className="badge badge--info cs-type__badge">Suggested</span>
                    : null}
                </span>
                <span className="cs-type__summary">{info.summary}</span>
                <span className="cs-type__meta">
                  <span className="cs-type__price">
                    {info.startingPrice === null
                      ? "Quote required"
                      : `From ${formatDollars(info.startingPrice)}`}
                  </span>
                  <span className="cs-type__turnaround">
                    {info.startingPrice === null ? "Timeline set with the quote" : info.turnaround}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
        <FieldError id="cs-surveyType" error={errors.surveyType} />
      </fieldset>
    </>
  );
}
