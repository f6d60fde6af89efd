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
import {
  CompanyFields,
  LicensedStatesField,
  OfficeFields,
  RadiusField,
  SurveyTypesField,
  useCoverageForm,
} from "./_coverage_fields.tsx";
import {
  changedCoverage,
  type CoveragePoint,
  type CoverageValues,
  coverageValues,
  pointOf,
  radiusError,
  serverFieldErrors,
} from "./_coverage_values.ts";
import { STATUS_LABELS, STATUSES, text } from "./_surveyor_shared.ts";
import type { Surveyor } from "../lib/surveyor_schema.ts";
const STATUS_CHOICES = STATUSES.map((s) => ({ id: s, label: STATUS_LABELS[s] }));

/** The form's values: strings as inputs hold them, lists and flags as they are. */
export interface ProfileValues extends CoverageValues {
  email: string;
  website: string;
  inNetwork: boolean;
  status: string;
  notes: string;
}

/** The form's values for `s`. */
export function profileValues(s: Surveyor): ProfileValues {
  return {
    ...coverageValues(s),
    email: text(s.email),
    website: text(s.website),
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

/**
 * The PATCH body: the fields of `values` that differ from `saved` (text trimmed; "" clears a
 * field). A changed address carries the coordinates of the suggestion picked for it, or
 * null ones when it was typed (the office is then no longer placed on the map).
 */
export function profilePatch(
  saved: ProfileValues,
  values: ProfileValues,
  picked: CoveragePoint | null,
): Record<string, unknown> {
  const patch = changedCoverage(saved, values, TEXT_FIELDS);
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
  const radius = radiusError(values.serviceRadiusMiles);
  if (radius) errors.serviceRadiusMiles = radius;
  return errors;
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
  const form = useCoverageForm(() => saved);
  const { values, setValues, picked, setPicked } = form;
  const [location, setLocation] = useState(() => pointOf(surveyor));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isPending, setPending] = useState(false);
  // A new key remounts the address field with the saved address after a save.
  const [addressKey, setAddressKey] = useState(0);

  const patch = profilePatch(saved, values, picked);
  const isDirty = Object.keys(patch).length > 0;

  function set<K extends "email" | "website" | "status" | "notes">(key: K, value: string) {
    setValues((v) => ({ ...v, [key]: value }));
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
      setLocation(pointOf(res.surveyor));
      setAddressKey((k) => k + 1);
      onSaved(res.surveyor);
      toast({ title: "Surveyor updated", description: res.message ?? "Changes saved." });
    } catch (err) {
      setErrors(serverFieldErrors(err));
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
  const group = { idPrefix: "surveyor", mode: "admin", values, errors } as const;
  return (
    <section className="card" aria-labelledby="surveyor-profile-title">
      <div className="card__header">
        <h2 id="surveyor-profile-title">Profile and coverage</h2>
      </div>
      <div className="card__body">
        <CheckedForm errors={errors} isPending={isPending} onSubmit={submit}>
          <CompanyFields {...group} onText={form.setText} />
          <LicensedStatesField {...group} onToggle={form.toggle} />
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
              onValue={(v) => form.setText("phone", v)}
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
          <OfficeFields
            {...group}
            onText={form.setText}
            addressKey={addressKey}
            isTyped={isAddressTyped}
            point={picked ?? location}
            onAddressChange={form.onAddressChange}
            onAddressSelect={form.onAddressSelect}
          />
          <RadiusField {...group} onText={form.setText} />
          <SurveyTypesField {...group} onToggle={form.toggle} />
          <div className="surveyor-form__pair">
            <SelectField
              id="surveyor-status"
              name="status"
              label="Status"
              placeholder={null}
              hint="Only active surveyors are matched to requests and can buy leads. Active means the licence is verified: setting it records you as the verifier if no one was."
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
                onChange={(e) => setValues((v) => ({ ...v, inNetwork: e.currentTarget.checked }))}
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
