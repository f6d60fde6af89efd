/**
 * Step 1: the property address (suggestions + geocode) and a map-free confirmation of what
 * was found, plus the state, which the price depends on. The confirmation claims only what
 * the geocode knows: the property itself, or just its town or ZIP (the offline data's best).
 */
import AddressAutocomplete, { type AddressSelection } from "../AddressAutocomplete.tsx";
import { isPropertyPrecision } from "../../lib/geo/provider.ts";
import { FieldError, SelectField } from "../_fields.tsx";
import { SURVEY_OPTIONS } from "./options.ts";
import type { Answers, Errors } from "./types.ts";

/** Props of the property step. */
export interface PropertyStepProps {
  answers: Answers;
  errors: Errors;
  update(patch: Partial<Answers>): void;
  onSelect(selection: AddressSelection): void;
  /** Geocodes the typed address (the "Find address" button). */
  onLookup(): void;
  lookup: "idle" | "pending" | "not_found";
}

function formatCoordinate(value: number, positive: string, negative: string): string {
  return `${Math.abs(value).toFixed(5)}° ${value >= 0 ? positive : negative}`;
}

/** Said when only the address's town or ZIP was located, not the property. */
export const TOWN_MATCH_TITLE = "We matched the town; the surveyor confirms the exact parcel";

/** The address step. */
export function PropertyStep(
  { answers, errors, update, onSelect, onLookup, lookup }: PropertyStepProps,
) {
  const isConfirmed = answers.formattedAddress !== "" && answers.lat !== null &&
    answers.lng !== null;
  const isPinpointed = isPropertyPrecision(answers.precision);
  return (
    <>
      <p className="cs-lead">
        Where is the property? Start typing and pick your address from the list.
      </p>
      <div className="field">
        <AddressAutocomplete
          id="cs-address"
          name="address"
          label="Property address"
          placeholder="e.g. 123 Main St, Austin, TX"
          required
          defaultValue={answers.address}
          invalid={!!errors.address}
          describedBy={errors.address ? "cs-address-error" : "cs-address-hint"}
          onChange={(text) =>
            update({
              address: text,
              formattedAddress: "",
              placeId: "",
              lat: null,
              lng: null,
              precision: "",
              acreageSource: "",
              parcelNumber: "",
            })}
          onSelect={onSelect}
        />
        {errors.address ? null : (
          <p className="field__hint" id="cs-address-hint">
            Street address, city and state. We use it to find surveyors licensed in your area.
          </p>
        )}
        <FieldError id="cs-address" error={errors.address} />
      </div>

      {isConfirmed
        ? (
          <div className="cs-confirm" role="status">
            <svg className="cs-confirm__icon" viewBox="0 0 24 24" aria-hidden="true">
              <path
                fill="currentColor"
                d="M12 2a7 7 0 0 0-7 7c0 5.25 7 13 7 13s7-7.75 7-13a7 7 0 0 0-7-7Zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5Z"
              />
            </svg>
            <div>
              <p className="cs-confirm__title">
                {isPinpointed ? "We found this property" : TOWN_MATCH_TITLE}
              </p>
              <p className="cs-confirm__address">{answers.formattedAddress}</p>
              {isPinpointed
                ? (
                  <p className="cs-confirm__coords">
                    {formatCoordinate(answers.lat!, "N", "S")},{" "}
                    {formatCoordinate(answers.lng!, "E", "W")}
                  </p>
                )
                : null}
              <p className="cs-confirm__hint">
                {isPinpointed
                  ? "Not the right place? Change the address above and pick the matching suggestion."
                  : "Not the right town? Change the address above and pick the matching suggestion."}
              </p>
            </div>
          </div>
        )
        : (
          <div className="cs-lookup">
            <button
              type="button"
              className="btn btn--secondary btn--sm"
              onClick={onLookup}
              disabled={lookup === "pending" || answers.address.trim().length < 5}
            >
              {lookup === "pending" ? "Finding address…" : "Find this address"}
            </button>
            <p className="field__hint" role="status">
              {lookup === "not_found"
                ? "We could not confirm this address. Check it, or continue and the surveyor will verify it with you."
                : ""}
            </p>
          </div>
        )}

      <SelectField
        id="cs-state"
        label="State"
        value={answers.state}
        onValue={(state) => update({ state })}
        choices={SURVEY_OPTIONS.states}
        error={errors.state}
        hint="Filled in from the address when we can. Survey costs vary by state."
      />
    </>
  );
}
