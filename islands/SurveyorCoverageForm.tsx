/**
 * A signed-in surveyor's own coverage and company details (the surveyor dashboard and
 * /profile): company, principal, licence and licensed states, phone and website, the office
 * (address autocomplete → address and coordinates, with city, state and ZIP filled in from
 * it), service radius and survey types. Saving sends only what changed to
 * PATCH /api/surveyor/profile; the server's field errors are shown by their fields.
 */
import { type FormEvent, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { CheckedForm, SelectField, TextField } from "./_fields.tsx";
import AddressAutocomplete, { type AddressSelection } from "./AddressAutocomplete.tsx";
import { addressParts, fieldErrors, MAX_RADIUS_MILES, text } from "./_surveyor_shared.ts";
import type { OwnSurveyorProfile } from "../lib/surveyor_profile.ts";
import { SURVEY_TYPE_INFO, SURVEY_TYPES } from "../lib/survey_types.ts";
import { STATE_CODES, US_STATES } from "../lib/survey_options.ts";

const STATE_CHOICES = STATE_CODES.map((code) => ({ id: code, label: US_STATES[code] }));

/** Props of the coverage form: the surveyor's record as the server rendered it. */
export interface SurveyorCoverageFormProps {
  profile: OwnSurveyorProfile;
}

/** The form's values: strings as inputs hold them, lists as they are. */
interface Values {
  companyName: string;
  principalName: string;
  licenseNumber: string;
  licenseStates: string[];
  phone: string;
  website: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  serviceRadiusMiles: string;
  surveyTypes: string[];
}

const TEXT_FIELDS = [
  "companyName",
  "principalName",
  "licenseNumber",
  "phone",
  "website",
  "address",
  "city",
  "state",
  "zip",
] as const;

type Point = { lat: number; lng: number };

function valuesOf(p: OwnSurveyorProfile): Values {
  return {
    companyName: p.companyName,
    principalName: text(p.principalName),
    licenseNumber: text(p.licenseNumber),
    licenseStates: [...p.licenseStates],
    phone: text(p.phone),
    website: text(p.website),
    address: text(p.address),
    city: text(p.city),
    state: text(p.state),
    zip: text(p.zip),
    serviceRadiusMiles: String(p.serviceRadiusMiles),
    surveyTypes: [...p.surveyTypes],
  };
}

function pointOf(p: OwnSurveyorProfile): Point | null {
  return p.lat !== null && p.lng !== null ? { lat: p.lat, lng: p.lng } : null;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v) => b.includes(v));
}

/**
 * The PATCH body: what differs from `saved` (text trimmed; "" clears a field). A changed
 * address carries the coordinates of the suggestion picked for it, or none when it was typed.
 */
function patchOf(saved: Values, values: Values, picked: Point | null): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const key of TEXT_FIELDS) {
    if (values[key].trim() !== saved[key].trim()) patch[key] = values[key].trim();
  }
  if (!sameSet(values.licenseStates, saved.licenseStates)) {
    patch.licenseStates = STATE_CODES.filter((c) => values.licenseStates.includes(c));
  }
  if (!sameSet(values.surveyTypes, saved.surveyTypes)) {
    patch.surveyTypes = SURVEY_TYPES.filter((t) => values.surveyTypes.includes(t));
  }
  if (values.serviceRadiusMiles.trim() !== saved.serviceRadiusMiles) {
    patch.serviceRadiusMiles = Number(values.serviceRadiusMiles.trim());
  }
  if ("address" in patch || picked) {
    patch.lat = picked?.lat ?? null;
    patch.lng = picked?.lng ?? null;
  }
  return patch;
}

/** The island's own checks, before anything is sent. */
function check(values: Values): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!values.companyName.trim()) errors.companyName = "Enter your company name";
  const radius = values.serviceRadiusMiles.trim();
  if (!/^\d+$/.test(radius) || Number(radius) < 1 || Number(radius) > MAX_RADIUS_MILES) {
    errors.serviceRadiusMiles = `Enter a whole number of miles from 1 to ${MAX_RADIUS_MILES}`;
  }
  return errors;
}

/** The server's `errors` by top-level field ("licenseStates.0" is shown on licenseStates). */
function serverErrors(err: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [key, message] of Object.entries(fieldErrors(err))) {
    errors[key.split(".")[0]] ??= message;
  }
  return errors;
}

function ChoiceGrid({ name, legend, hint, error, choices, values, onToggle }: {
  name: string;
  legend: string;
  hint?: string;
  error?: string;
  choices: readonly { id: string; label: string; title?: string }[];
  values: readonly string[];
  onToggle(id: string, isOn: boolean): void;
}) {
  const described = [hint ? `${name}-hint` : "", error ? `${name}-error` : ""].filter(Boolean);
  return (
    <fieldset
      className="field surveyor-choices"
      aria-describedby={described.length ? described.join(" ") : undefined}
    >
      <legend className="field__label">{legend}</legend>
      {hint ? <p className="field__hint" id={`${name}-hint`}>{hint}</p> : null}
      <div className={`surveyor-choices__grid surveyor-choices__grid--${name}`}>
        {choices.map((c) => (
          <label key={c.id} className="surveyor-check" title={c.title}>
            <input
              type="checkbox"
              name={name}
              value={c.id}
              checked={values.includes(c.id)}
              aria-invalid={error ? true : undefined}
              onChange={(e) => onToggle(c.id, e.currentTarget.checked)}
            />{" "}
            {c.label}
          </label>
        ))}
      </div>
      {error ? <p className="field__error" id={`${name}-error`}>{error}</p> : null}
    </fieldset>
  );
}

function located(point: Point): string {
  return `Office located at ${point.lat.toFixed(4)}, ${point.lng.toFixed(4)}.`;
}

/** The "Your coverage" card. */
export default function SurveyorCoverageForm({ profile }: SurveyorCoverageFormProps) {
  const [saved, setSaved] = useState(() => valuesOf(profile));
  const [values, setValues] = useState(saved);
  const [location, setLocation] = useState(() => pointOf(profile));
  const [picked, setPicked] = useState<Point | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isPending, setPending] = useState(false);
  // A new key remounts the address field with the saved address after a save or discard.
  const [addressKey, setAddressKey] = useState(0);

  const patch = patchOf(saved, values, picked);
  const isDirty = Object.keys(patch).length > 0;

  function set<K extends keyof Values>(key: K, value: Values[K]) {
    setValues((v) => ({ ...v, [key]: value }));
  }

  function toggle(key: "licenseStates" | "surveyTypes", id: string, isOn: boolean) {
    setValues((v) => ({
      ...v,
      [key]: isOn ? [...v[key].filter((x) => x !== id), id] : v[key].filter((x) => x !== id),
    }));
  }

  function onAddressSelect(selection: AddressSelection) {
    const formatted = selection.formattedAddress ?? selection.description;
    if (selection.lat === undefined || selection.lng === undefined) {
      set("address", formatted);
      return;
    }
    setPicked({ lat: selection.lat, lng: selection.lng });
    setValues((v) => ({ ...v, address: formatted, ...addressParts(formatted, STATE_CODES) }));
  }

  function discard() {
    setValues(saved);
    setPicked(null);
    setErrors({});
    setAddressKey((k) => k + 1);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = check(values);
    setErrors(found);
    if (Object.keys(found).length || !isDirty) return;
    setPending(true);
    try {
      const res = await apiJson<{ message?: string; surveyor?: OwnSurveyorProfile }>(
        "PATCH",
        "/api/surveyor/profile",
        patch,
      );
      if (!res?.surveyor) throw new Error("No profile in the answer");
      const next = valuesOf(res.surveyor);
      setSaved(next);
      setValues(next);
      setLocation(pointOf(res.surveyor));
      setPicked(null);
      setAddressKey((k) => k + 1);
      toast({
        title: res.message ?? "Coverage saved",
        description: "Survey requests are matched to you with these details from now on.",
      });
    } catch (err) {
      setErrors(serverErrors(err));
      toast({
        title: "Could not save your coverage",
        description: errorMessage(err, "Please check your connection and try again."),
        variant: "destructive",
      });
    } finally {
      setPending(false);
    }
  }

  const isAddressTyped = values.address.trim() !== saved.address.trim() && !picked;
  const addressError = errors.address ?? errors.lat ?? errors.lng;
  return (
    <CheckedForm errors={errors} isPending={isPending} onSubmit={submit}>
      <TextField
        id="coverage-company"
        name="companyName"
        label="Company name"
        autoComplete="organization"
        maxLength={200}
        value={values.companyName}
        error={errors.companyName}
        onValue={(v) => set("companyName", v)}
      />
      <div className="surveyor-form__pair">
        <TextField
          id="coverage-principal"
          name="principalName"
          label="Principal surveyor"
          optional
          autoComplete="name"
          maxLength={120}
          value={values.principalName}
          error={errors.principalName}
          onValue={(v) => set("principalName", v)}
        />
        <TextField
          id="coverage-license"
          name="licenseNumber"
          label="Licence number"
          optional
          maxLength={60}
          value={values.licenseNumber}
          error={errors.licenseNumber}
          onValue={(v) => set("licenseNumber", v)}
        />
      </div>
      <div className="surveyor-form__pair">
        <TextField
          id="coverage-phone"
          name="phone"
          type="tel"
          label="Office phone"
          optional
          autoComplete="tel"
          maxLength={40}
          value={values.phone}
          error={errors.phone}
          onValue={(v) => set("phone", v)}
        />
        <TextField
          id="coverage-website"
          name="website"
          type="url"
          label="Website"
          optional
          placeholder="https://"
          autoComplete="url"
          maxLength={300}
          value={values.website}
          error={errors.website}
          onValue={(v) => set("website", v)}
        />
      </div>
      <div>
        <AddressAutocomplete
          key={addressKey}
          id="coverage-address"
          name="address"
          label="Office address"
          placeholder="Start typing your office address"
          defaultValue={values.address}
          invalid={Boolean(addressError)}
          describedBy={addressError
            ? "coverage-address-hint coverage-address-error"
            : "coverage-address-hint"}
          onChange={(v) => {
            setPicked(null);
            set("address", v);
          }}
          onSelect={onAddressSelect}
        />
        <p className="field__hint" id="coverage-address-hint">
          {isAddressTyped
            ? "Pick a suggestion to place your office on the map: a typed address is saved without a location, and requests are then not matched to you by distance."
            : picked
            ? located(picked)
            : location
            ? located(location)
            : "Not on the map yet: pick a suggestion so requests near you can be matched to you."}
        </p>
        {addressError
          ? <p className="field__error" id="coverage-address-error">{addressError}</p>
          : null}
      </div>
      <div className="surveyor-form__triple">
        <TextField
          id="coverage-city"
          name="city"
          label="City"
          optional
          autoComplete="address-level2"
          maxLength={120}
          value={values.city}
          error={errors.city}
          onValue={(v) => set("city", v)}
        />
        <SelectField
          id="coverage-state"
          name="state"
          label="State"
          optional
          placeholder="Not set"
          choices={STATE_CHOICES}
          value={values.state}
          error={errors.state}
          onValue={(v) => set("state", v)}
        />
        <TextField
          id="coverage-zip"
          name="zip"
          label="ZIP code"
          optional
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={10}
          value={values.zip}
          error={errors.zip}
          onValue={(v) => set("zip", v)}
        />
      </div>
      <TextField
        id="coverage-radius"
        name="serviceRadiusMiles"
        label="Service radius (miles)"
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_RADIUS_MILES}
        step={1}
        hint={`How far from your office you take work, up to ${MAX_RADIUS_MILES} miles.`}
        value={values.serviceRadiusMiles}
        error={errors.serviceRadiusMiles}
        onValue={(v) => set("serviceRadiusMiles", v)}
      />
      <details className="surveyor-states" open={Boolean(errors.licenseStates) || undefined}>
        <summary>
          {`Licensed in: ${
            values.licenseStates.length
              ? STATE_CODES.filter((c) => values.licenseStates.includes(c)).join(", ")
              : "no states yet"
          }`}
        </summary>
        <ChoiceGrid
          name="licenseStates"
          legend="Licensed states"
          hint="You are offered requests only in the states you are licensed in."
          error={errors.licenseStates}
          choices={STATE_CODES.map((c) => ({ id: c, label: c, title: US_STATES[c] }))}
          values={values.licenseStates}
          onToggle={(id, isOn) => toggle("licenseStates", id, isOn)}
        />
      </details>
      <ChoiceGrid
        name="surveyTypes"
        legend="Survey types you offer"
        error={errors.surveyTypes}
        choices={SURVEY_TYPES.map((t) => ({ id: t, label: SURVEY_TYPE_INFO[t].name }))}
        values={values.surveyTypes}
        onToggle={(id, isOn) => toggle("surveyTypes", id, isOn)}
      />
      <div className="form-actions">
        {isDirty
          ? (
            <button type="button" className="btn btn--ghost" disabled={isPending} onClick={discard}>
              Discard changes
            </button>
          )
          : null}
        <button type="submit" className="btn btn--primary" disabled={isPending || !isDirty}>
          {isPending ? "Saving..." : "Save coverage"}
        </button>
      </div>
    </CheckedForm>
  );
}
