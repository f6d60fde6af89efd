/**
 * The surveyor coverage fields shared by the join form (`mode` "join"), a surveyor's own
 * coverage card ("own") and the admin's profile card ("admin"): company, principal and
 * licence; licensed states; the office (address autocomplete → address and coordinates, with
 * city, state and ZIP filled in from the suggestion); service radius; survey types. Each
 * island lays them out and adds its own fields; `idPrefix` keeps the ids unique per island
 * (`${idPrefix}-company`, `${idPrefix}-address-hint`, `${idPrefix}-licenseStates-error`, ...).
 * `useCoverageForm` holds the values and the picked office location.
 */
import { useState } from "react";
import { SelectField, TextField } from "./_fields.tsx";
import AddressAutocomplete, { type AddressSelection } from "./AddressAutocomplete.tsx";
import { addressParts } from "./_surveyor_shared.ts";
import {
  type CoveragePoint,
  type CoverageValues,
  locatedAt,
  orderedStates,
  toggled,
} from "./_coverage_values.ts";
import { MAX_SERVICE_RADIUS_MILES } from "../lib/surveyor_constants.ts";
import { SURVEY_TYPE_INFO, SURVEY_TYPES } from "../lib/survey_types.ts";
import { STATE_CODES, US_STATES } from "../lib/survey_options.ts";

/** Who fills the fields in: a firm joining, a surveyor editing their own, an admin. */
export type CoverageMode = "join" | "own" | "admin";

/** The coverage fields that hold text. */
export type CoverageTextKey = {
  [K in keyof CoverageValues]: CoverageValues[K] extends string ? K : never;
}[keyof CoverageValues];

/** The two multi-choice lists. */
export type CoverageListKey = "licenseStates" | "surveyTypes";

const STATE_CHOICES = STATE_CODES.map((code) => ({ id: code, label: US_STATES[code] }));
const STATE_CHECKS = STATE_CODES.map((c) => ({ id: c, label: c, title: US_STATES[c] }));
const TYPE_CHECKS = SURVEY_TYPES.map((t) => ({ id: t, label: SURVEY_TYPE_INFO[t].name }));

/**
 * The state of a coverage form: its values (`init` runs once), the location of the address
 * suggestion picked (`initialPoint` at first), and the setters the fields call. Typing an
 * address forgets the picked location; picking a suggestion with coordinates sets it and fills
 * in city, state and ZIP; one without coordinates only sets the address.
 */
export function useCoverageForm<V extends CoverageValues>(
  init: () => V,
  initialPoint: CoveragePoint | null = null,
) {
  const [values, setValues] = useState(init);
  const [picked, setPicked] = useState(initialPoint);

  function setText(key: CoverageTextKey, value: string) {
    setValues((v) => ({ ...v, [key]: value }));
  }

  function toggle(key: CoverageListKey, id: string, isOn: boolean) {
    setValues((v) => ({ ...v, [key]: toggled(v[key], id, isOn) }));
  }

  function onAddressChange(address: string) {
    setPicked(null);
    setText("address", address);
  }

  function onAddressSelect(selection: AddressSelection) {
    const address = selection.formattedAddress ?? selection.description;
    if (selection.lat === undefined || selection.lng === undefined) {
      onAddressChange(address);
      return;
    }
    setPicked({ lat: selection.lat, lng: selection.lng });
    setValues((v) => ({ ...v, address, ...addressParts(address, STATE_CODES) }));
  }

  return {
    values,
    setValues,
    picked,
    setPicked,
    setText,
    toggle,
    onAddressChange,
    onAddressSelect,
  };
}

/** Props every field group takes. */
export interface CoverageGroupProps {
  /** Prefix of the ids, unique per island ("join", "coverage", "surveyor"). */
  idPrefix: string;
  mode: CoverageMode;
  values: CoverageValues;
  errors: Record<string, string>;
  onText(key: CoverageTextKey, value: string): void;
}

/** Company name, then principal and licence number side by side. */
export function CompanyFields({ idPrefix, mode, values, errors, onText }: CoverageGroupProps) {
  const isJoin = mode === "join";
  return (
    <>
      <TextField
        id={`${idPrefix}-company`}
        name="companyName"
        label="Company name"
        autoComplete="organization"
        maxLength={200}
        value={values.companyName}
        error={errors.companyName}
        onValue={(v) => onText("companyName", v)}
      />
      <div className="surveyor-form__pair">
        <TextField
          id={`${idPrefix}-principal`}
          name="principalName"
          label={isJoin ? "Your full name" : "Principal surveyor"}
          optional={!isJoin}
          autoComplete={mode === "admin" ? undefined : "name"}
          maxLength={isJoin ? 100 : 120}
          hint={isJoin ? "The licensed surveyor in charge." : undefined}
          value={values.principalName}
          error={errors.principalName}
          onValue={(v) => onText("principalName", v)}
        />
        <TextField
          id={`${idPrefix}-license`}
          name="licenseNumber"
          label="Licence number"
          optional={!isJoin}
          maxLength={60}
          value={values.licenseNumber}
          error={errors.licenseNumber}
          onValue={(v) => onText("licenseNumber", v)}
        />
      </div>
    </>
  );
}

const JOIN_ADDRESS_HINT =
  "Pick a suggestion to place your office on the map: jobs are offered by distance from it.";

const ADDRESS_HINTS: Record<CoverageMode, { typed: string; none: string }> = {
  join: { typed: JOIN_ADDRESS_HINT, none: JOIN_ADDRESS_HINT },
  own: {
    typed:
      "Pick a suggestion to place your office on the map: a typed address is saved without a location, and requests are then not matched to you by distance.",
    none: "Not on the map yet: pick a suggestion so requests near you can be matched to you.",
  },
  admin: {
    typed:
      "Pick a suggestion to place the office on the map; a typed address is saved without a location, and the surveyor is not matched by distance.",
    none: "No location yet: pick a suggestion so the surveyor can be matched by distance.",
  },
};

/** Props of `OfficeFields`. */
export interface OfficeFieldsProps extends CoverageGroupProps {
  /** A new key remounts the address input with `values.address` (after a save or discard). */
  addressKey?: number;
  /** The address was typed (not picked) and differs from the saved one. */
  isTyped: boolean;
  /** Where the office is placed now (the suggestion picked, else the saved location). */
  point: CoveragePoint | null;
  onAddressChange(address: string): void;
  onAddressSelect(selection: AddressSelection): void;
}

/** The office address with its location hint, then city, state and ZIP. */
export function OfficeFields(props: OfficeFieldsProps) {
  const { idPrefix, mode, values, errors, onText, point } = props;
  const isAdmin = mode === "admin";
  const error = errors.address ?? errors.lat ?? errors.lng;
  const hintId = `${idPrefix}-address-hint`;
  const errorId = `${idPrefix}-address-error`;
  return (
    <>
      <div>
        <AddressAutocomplete
          key={props.addressKey}
          id={`${idPrefix}-address`}
          name="address"
          label={isAdmin ? "Office address (optional)" : "Office address"}
          placeholder={isAdmin ? "Start typing an address" : "Your office address"}
          required={mode === "join" || undefined}
          defaultValue={values.address}
          invalid={Boolean(error)}
          describedBy={error ? `${hintId} ${errorId}` : hintId}
          onChange={props.onAddressChange}
          onSelect={props.onAddressSelect}
        />
        <p className="field__hint" id={hintId}>
          {props.isTyped
            ? ADDRESS_HINTS[mode].typed
            : point
            ? locatedAt(values)
            : ADDRESS_HINTS[mode].none}
        </p>
        {error ? <p className="field__error" id={errorId}>{error}</p> : null}
      </div>
      <div className="surveyor-form__triple">
        <TextField
          id={`${idPrefix}-city`}
          name="city"
          label="City"
          optional
          autoComplete={isAdmin ? undefined : "address-level2"}
          maxLength={120}
          value={values.city}
          error={errors.city}
          onValue={(v) => onText("city", v)}
        />
        <SelectField
          id={`${idPrefix}-state`}
          name="state"
          label="State"
          optional
          placeholder={isAdmin ? "Not known" : "Not set"}
          choices={STATE_CHOICES}
          value={values.state}
          error={errors.state}
          onValue={(v) => onText("state", v)}
        />
        <TextField
          id={`${idPrefix}-zip`}
          name="zip"
          label={isAdmin ? "ZIP" : "ZIP code"}
          optional
          inputMode="numeric"
          autoComplete={isAdmin ? undefined : "postal-code"}
          maxLength={10}
          value={values.zip}
          error={errors.zip}
          onValue={(v) => onText("zip", v)}
        />
      </div>
    </>
  );
}

/** The service radius in whole miles. */
export function RadiusField({ idPrefix, mode, values, errors, onText }: CoverageGroupProps) {
  return (
    <TextField
      id={`${idPrefix}-radius`}
      name="serviceRadiusMiles"
      label="Service radius (miles)"
      type="number"
      inputMode="numeric"
      min={1}
      max={MAX_SERVICE_RADIUS_MILES}
      step={1}
      hint={mode === "admin"
        ? "How far from the office they take work."
        : `How far from your office you take work, up to ${MAX_SERVICE_RADIUS_MILES} miles.`}
      value={values.serviceRadiusMiles}
      error={errors.serviceRadiusMiles}
      onValue={(v) => onText("serviceRadiusMiles", v)}
    />
  );
}

/** Props of the two multi-choice groups. */
export interface CoverageChoicesProps {
  idPrefix: string;
  mode: CoverageMode;
  values: CoverageValues;
  errors: Record<string, string>;
  onToggle(key: CoverageListKey, id: string, isOn: boolean): void;
}

const STATE_HINTS: Record<CoverageMode, string> = {
  join: "We check the licence in these states; you are offered jobs only where you are licensed.",
  own:
    "You are offered requests only in the states Meridian has verified your licence in. A state you add, or a new licence number, is checked by Meridian before you can buy leads with it.",
  admin: "Matching offers a request only to surveyors licensed in its state.",
};

/**
 * The licensed states as checkboxes: open for a firm joining; folded under a "Licensed in:
 * TX, OK" summary when editing (unfolded while it has an error).
 */
export function LicensedStatesField(props: CoverageChoicesProps) {
  const { mode, values, errors } = props;
  const grid = (
    <ChoiceGrid
      {...props}
      name="licenseStates"
      legend={mode === "join" ? "Licensed in" : "Licensed states"}
      hint={STATE_HINTS[mode]}
      choices={STATE_CHECKS}
    />
  );
  if (mode === "join") return grid;
  return (
    <details className="surveyor-states" open={Boolean(errors.licenseStates) || undefined}>
      <summary>
        {`Licensed in: ${
          values.licenseStates.length
            ? orderedStates(values.licenseStates).join(", ")
            : "no states yet"
        }`}
      </summary>
      {grid}
    </details>
  );
}

/** The survey types offered, as checkboxes. */
export function SurveyTypesField(props: CoverageChoicesProps) {
  return (
    <ChoiceGrid
      {...props}
      name="surveyTypes"
      legend={props.mode === "admin" ? "Survey types offered" : "Survey types you offer"}
      choices={TYPE_CHECKS}
    />
  );
}

function ChoiceGrid({ idPrefix, name, legend, hint, errors, choices, values, onToggle }:
  & CoverageChoicesProps
  & {
    name: CoverageListKey;
    legend: string;
    hint?: string;
    choices: readonly { id: string; label: string; title?: string }[];
  }) {
  const error = errors[name];
  const id = `${idPrefix}-${name}`;
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean);
  const chosen = values[name];
  return (
    <fieldset
      className="field surveyor-choices"
      aria-describedby={described.length ? described.join(" ") : undefined}
    >
      <legend className="field__label">{legend}</legend>
      {hint ? <p className="field__hint" id={`${id}-hint`}>{hint}</p> : null}
      <div className={`surveyor-choices__grid surveyor-choices__grid--${name}`}>
        {choices.map((c, i) => (
          <label key={c.id} className="surveyor-check" title={c.title}>
            <input
              type="checkbox"
              id={i === 0 ? id : undefined}
              name={name}
              value={c.id}
              checked={chosen.includes(c.id)}
              aria-invalid={error ? true : undefined}
              onChange={(e) => onToggle(name, c.id, e.currentTarget.checked)}
            />{" "}
            {c.label}
          </label>
        ))}
      </div>
      {error ? <p className="field__error" id={`${id}-error`}>{error}</p> : null}
    </fieldset>
  );
}
