/**
 * The profile and coverage form of /surveyor-detail/{id}: company, principal, licence and
 * licensed states, how to reach the firm, the office (address autocomplete → address and
 * coordinates, with city, state and ZIP filled in from it), service radius, survey types,
 * in-network and status. Saving sends only what changed (PATCH /api/surveyors/{id}), so two
 * admins editing different fields do not undo each other.
 */
import { type FormEvent, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { CheckedForm, SelectField, TextareaField, TextField } from "./_fields.tsx";
import AddressAutocomplete, { type AddressSelection } from "./AddressAutocomplete.tsx";
import {
  addressParts,
  fieldErrors,
  MAX_RADIUS_MILES,
  STATUS_LABELS,
  STATUSES,
  text,
} from "./_surveyor_shared.ts";
import type { Surveyor } from "../lib/surveyor_schema.ts";
import { SURVEY_TYPE_INFO, SURVEY_TYPES } from "../lib/survey_types.ts";
import { STATE_CODES, US_STATES } from "../lib/survey_options.ts";

const STATE_CHOICES = STATE_CODES.map((code) => ({ id: code, label: US_STATES[code] }));
const STATUS_CHOICES = STATUSES.map((s) => ({ id: s, label: STATUS_LABELS[s] }));

/** The form's values: strings as inputs hold them, lists and flags as they are. */
export interface ProfileValues {
  companyName: string;
  principalName: string;
  licenseNumber: string;
  licenseStates: string[];
  email: string;
  phone: string;
  website: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  serviceRadiusMiles: string;
  surveyTypes: string[];
  inNetwork: boolean;
  status: string;
  notes: string;
}

/** The form's values for `s`. */
export function profileValues(s: Surveyor): ProfileValues {
  return {
    companyName: s.companyName,
    principalName: text(s.principalName),
    licenseNumber: text(s.licenseNumber),
    licenseStates: [...s.licenseStates],
    email: text(s.email),
    phone: text(s.phone),
    website: text(s.website),
    address: text(s.address),
    city: text(s.city),
    state: text(s.state),
    zip: text(s.zip),
    serviceRadiusMiles: String(s.serviceRadiusMiles),
    surveyTypes: [...s.surveyTypes],
    inNetwork: s.inNetwork,
    status: s.status,
    notes: text(s.notes),
  };
}

const TEXT_FIELDS = [
  "companyName",
  "principalName",
  "licenseNumber",
  "email",
  "phone",
  "website",
  "address",
  "city",
  "state",
  "zip",
  "status",
  "notes",
] as const;

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v) => b.includes(v));
}

/**
 * The PATCH body: the fields of `values` that differ from `saved` (text trimmed; "" clears a
 * field). A changed address carries the coordinates of the suggestion picked for it, or
 * null ones when it was typed (the office is then no longer placed on the map).
 */
export function profilePatch(
  saved: ProfileValues,
  values: ProfileValues,
  picked: { lat: number; lng: number } | null,
): Record<string, unknown> {
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
  if (values.inNetwork !== saved.inNetwork) patch.inNetwork = values.inNetwork;
  if (values.serviceRadiusMiles.trim() !== saved.serviceRadiusMiles) {
    const n = Number(values.serviceRadiusMiles.trim());
    patch.serviceRadiusMiles = values.serviceRadiusMiles.trim() === "" ? null : n;
  }
  if ("address" in patch) {
    patch.lat = picked?.lat ?? null;
    patch.lng = picked?.lng ?? null;
  }
  return patch;
}

/** The island's own checks, before anything is sent. */
function check(values: ProfileValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!values.companyName.trim()) errors.companyName = "Enter the company name";
  const radius = Number(values.serviceRadiusMiles.trim());
  if (
    !/^\d+$/.test(values.serviceRadiusMiles.trim()) || radius < 1 || radius > MAX_RADIUS_MILES
  ) {
    errors.serviceRadiusMiles = `Enter a whole number of miles from 1 to ${MAX_RADIUS_MILES}`;
  }
  return errors;
}

function ChoiceGrid({ name, legend, hint, choices, values, onToggle }: {
  name: string;
  legend: string;
  hint?: string;
  choices: readonly { id: string; label: string; title?: string }[];
  values: readonly string[];
  onToggle(id: string, isOn: boolean): void;
}) {
  return (
    <fieldset
      className="field surveyor-choices"
      aria-describedby={hint ? `${name}-hint` : undefined}
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
              onChange={(e) => onToggle(c.id, e.currentTarget.checked)}
            />{" "}
            {c.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Props of the profile form. */
export interface ProfileFormProps {
  surveyor: Surveyor;
  /** Called with the record the server returned after a save. */
  onSaved(surveyor: Surveyor): void;
}

/** The profile and coverage card. */
export function SurveyorProfileForm({ surveyor, onSaved }: ProfileFormProps) {
  const [saved, setSaved] = useState(() => profileValues(surveyor));
  const [values, setValues] = useState(saved);
  const [picked, setPicked] = useState<{ lat: number; lng: number } | null>(null);
  const [location, setLocation] = useState(
    surveyor.lat !== null && surveyor.lng !== null
      ? { lat: surveyor.lat, lng: surveyor.lng }
      : null,
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isPending, setPending] = useState(false);
  // A new key remounts the address field with the saved address after a save.
  const [addressKey, setAddressKey] = useState(0);

  const patch = profilePatch(saved, values, picked);
  const isDirty = Object.keys(patch).length > 0;

  function set<K extends keyof ProfileValues>(key: K, value: ProfileValues[K]) {
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
    const parts = addressParts(formatted, STATE_CODES);
    setValues((v) => ({ ...v, address: formatted, ...parts }));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = check(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    if (!isDirty) return;
    setPending(true);
    try {
      const res = await apiJson<{ message?: string; surveyor?: Surveyor }>(
        "PATCH",
        `/api/surveyors/${surveyor.id}`,
        patch,
      );
      if (!res?.surveyor) throw new Error("No surveyor in the answer");
      const next = profileValues(res.surveyor);
      setSaved(next);
      setValues(next);
      setPicked(null);
      setLocation(
        res.surveyor.lat !== null && res.surveyor.lng !== null
          ? { lat: res.surveyor.lat, lng: res.surveyor.lng }
          : null,
      );
      setAddressKey((k) => k + 1);
      onSaved(res.surveyor);
      toast({ title: "Surveyor updated", description: res.message ?? "Changes saved." });
    } catch (err) {
      setErrors(fieldErrors(err));
      toast({
        title: "Failed to update surveyor",
        description: errorMessage(err, "Could not save the changes. Please try again."),
        variant: "destructive",
      });
    } finally {
      setPending(false);
    }
  }

  const isAddressTyped = values.address.trim() !== saved.address.trim() && !picked;
  return (
    <section className="card" aria-labelledby="surveyor-profile-title">
      <div className="card__header">
        <h2 id="surveyor-profile-title">Profile and coverage</h2>
      </div>
      <div className="card__body">
        <CheckedForm errors={errors} isPending={isPending} onSubmit={submit}>
          <TextField
            id="surveyor-company"
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
              id="surveyor-principal"
              name="principalName"
              label="Principal surveyor"
              optional
              maxLength={120}
              value={values.principalName}
              error={errors.principalName}
              onValue={(v) => set("principalName", v)}
            />
            <TextField
              id="surveyor-license"
              name="licenseNumber"
              label="Licence number"
              optional
              maxLength={60}
              value={values.licenseNumber}
              error={errors.licenseNumber}
              onValue={(v) => set("licenseNumber", v)}
            />
          </div>
          <details className="surveyor-states">
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
              hint="Matching offers a request only to surveyors licensed in its state."
              choices={STATE_CODES.map((c) => ({ id: c, label: c, title: US_STATES[c] }))}
              values={values.licenseStates}
              onToggle={(id, isOn) => toggle("licenseStates", id, isOn)}
            />
          </details>
          {errors.licenseStates
            ? <p className="field__error" role="alert">{errors.licenseStates}</p>
            : null}
          <div className="surveyor-form__pair">
            <TextField
              id="surveyor-email"
              name="email"
              type="email"
              label="Email"
              optional
              maxLength={254}
              value={values.email}
              error={errors.email}
              onValue={(v) => set("email", v)}
            />
            <TextField
              id="surveyor-phone"
              name="phone"
              type="tel"
              label="Phone"
              optional
              maxLength={40}
              value={values.phone}
              error={errors.phone}
              onValue={(v) => set("phone", v)}
            />
          </div>
          <TextField
            id="surveyor-website"
            name="website"
            type="url"
            label="Website"
            optional
            placeholder="https://"
            maxLength={300}
            value={values.website}
            error={errors.website}
            onValue={(v) => set("website", v)}
          />
          <AddressAutocomplete
            key={addressKey}
            id="surveyor-address"
            name="address"
            label="Office address (optional)"
            placeholder="Start typing an address"
            defaultValue={values.address}
            invalid={Boolean(errors.address || errors.lat)}
            describedBy="surveyor-address-hint"
            onChange={(v) => {
              setPicked(null);
              set("address", v);
            }}
            onSelect={onAddressSelect}
          />
          <p className="field__hint" id="surveyor-address-hint">
            {isAddressTyped
              ? "Pick a suggestion to place the office on the map; a typed address is saved without a location, and the surveyor is not matched by distance."
              : picked
              ? `Office located at ${picked.lat.toFixed(4)}, ${picked.lng.toFixed(4)}.`
              : location
              ? `Office located at ${location.lat.toFixed(4)}, ${location.lng.toFixed(4)}.`
              : "No location yet: pick a suggestion so the surveyor can be matched by distance."}
          </p>
          {errors.address || errors.lat
            ? <p className="field__error" role="alert">{errors.address ?? errors.lat}</p>
            : null}
          <div className="surveyor-form__triple">
            <TextField
              id="surveyor-city"
              name="city"
              label="City"
              optional
              maxLength={120}
              value={values.city}
              error={errors.city}
              onValue={(v) => set("city", v)}
            />
            <SelectField
              id="surveyor-state"
              name="state"
              label="State"
              optional
              placeholder="Not known"
              choices={STATE_CHOICES}
              value={values.state}
              error={errors.state}
              onValue={(v) => set("state", v)}
            />
            <TextField
              id="surveyor-zip"
              name="zip"
              label="ZIP"
              optional
              inputMode="numeric"
              maxLength={10}
              value={values.zip}
              error={errors.zip}
              onValue={(v) => set("zip", v)}
            />
          </div>
          <TextField
            id="surveyor-radius"
            name="serviceRadiusMiles"
            label="Service radius (miles)"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_RADIUS_MILES}
            step={1}
            hint="How far from the office they take work."
            value={values.serviceRadiusMiles}
            error={errors.serviceRadiusMiles}
            onValue={(v) => set("serviceRadiusMiles", v)}
          />
          <ChoiceGrid
            name="surveyTypes"
            legend="Survey types offered"
            choices={SURVEY_TYPES.map((t) => ({ id: t, label: SURVEY_TYPE_INFO[t].name }))}
            values={values.surveyTypes}
            onToggle={(id, isOn) => toggle("surveyTypes", id, isOn)}
          />
          {errors.surveyTypes
            ? <p className="field__error" role="alert">{errors.surveyTypes}</p>
            : null}
          <div className="surveyor-form__pair">
            <SelectField
              id="surveyor-status"
              name="status"
              label="Status"
              placeholder={null}
              hint="Only active surveyors are matched to requests."
              choices={STATUS_CHOICES}
              value={values.status}
              error={errors.status}
              onValue={(v) => set("status", v)}
            />
            <label className="surveyor-check surveyor-form__network" htmlFor="surveyor-network">
              <input
                id="surveyor-network"
                type="checkbox"
                name="inNetwork"
                checked={values.inNetwork}
                onChange={(e) => set("inNetwork", e.currentTarget.checked)}
              />{" "}
              In network
            </label>
          </div>
          <TextareaField
            id="surveyor-notes"
            name="notes"
            label="Notes"
            optional
            rows={3}
            maxLength={4000}
            value={values.notes}
            error={errors.notes}
            onValue={(v) => set("notes", v)}
          />
          <div className="form-actions">
            {isDirty
              ? (
                <button
                  type="button"
                  className="btn btn--ghost"
                  disabled={isPending}
                  onClick={() => {
                    setValues(saved);
                    setPicked(null);
                    setErrors({});
                    setAddressKey((k) => k + 1);
                  }}
                >
                  Discard changes
                </button>
              )
              : null}
            <button type="submit" className="btn btn--primary" disabled={isPending || !isDirty}>
              {isPending ? "Saving..." : "Save changes"}
            </button>
          </div>
        </CheckedForm>
      </div>
    </section>
  );
}
