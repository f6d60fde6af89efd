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
import { CheckedForm, TextField } from "./_fields.tsx";
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
  orderedStates,
  pointOf,
  radiusError,
  serverFieldErrors,
} from "./_coverage_values.ts";
import { text } from "./_surveyor_shared.ts";
import type { OwnSurveyorProfile } from "../lib/surveyor_profile.ts";
import { stateNames } from "../lib/surveyor_licence.ts";

/** Props of the coverage form: the surveyor's record as the server rendered it. */
export interface SurveyorCoverageFormProps {
  profile: OwnSurveyorProfile;
}

/** The form's values: strings as inputs hold them, lists as they are. */
interface Values extends CoverageValues {
  website: string;
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

// The form shows what the surveyor asked for: states and number waiting for the licence check
// stay chosen (taking one off withdraws it); rejected states are not chosen.
function valuesOf(p: OwnSurveyorProfile): Values {
  return {
    ...coverageValues({
      ...p,
      licenseNumber: p.pendingLicenseNumber ?? p.licenseNumber,
      licenseStates: orderedStates([...p.licenseStates, ...(p.pendingLicenseStates ?? [])]),
    }),
    website: text(p.website),
  };
}

/**
 * What waits for Meridian's licence check, and what it refused, in the surveyor's words; null
 * when nothing does.
 */
export function licenceStatusLines(p: OwnSurveyorProfile): string[] {
  const lines: string[] = [];
  const pending = p.pendingLicenseStates ?? [];
  const rejected = p.rejectedLicenseStates ?? [];
  if (pending.length) {
    lines.push(
      `Waiting for Meridian's licence check: ${
        stateNames(pending)
      }. You can buy and claim leads there once an admin has verified it.`,
    );
  }
  if (p.pendingLicenseNumber) {
    lines.push(
      p.licenseNumber
        ? `Your new licence number ${p.pendingLicenseNumber} is waiting for Meridian's check; your verified number ${p.licenseNumber} stays on your profile until then.`
        : `Your licence number ${p.pendingLicenseNumber} is waiting for Meridian's check.`,
    );
  }
  if (rejected.length) {
    lines.push(
      `Meridian could not verify your licence in ${
        stateNames(rejected)
      }, so leads there stay closed to you. Contact us if you think this is wrong.`,
    );
  }
  return lines;
}

/**
 * The PATCH body: what differs from `saved` (text trimmed; "" clears a field). A changed
 * address carries the coordinates of the suggestion picked for it, or none when it was typed.
 */
function patchOf(
  saved: Values,
  values: Values,
  picked: CoveragePoint | null,
): Record<string, unknown> {
  const patch = changedCoverage(saved, values, TEXT_FIELDS);
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
  const radius = radiusError(values.serviceRadiusMiles);
  if (radius) errors.serviceRadiusMiles = radius;
  return errors;
}

/** The "Your coverage" card. */
export default function SurveyorCoverageForm({ profile }: SurveyorCoverageFormProps) {
  const [saved, setSaved] = useState(() => valuesOf(profile));
  const form = useCoverageForm(() => saved);
  const { values, setValues, picked, setPicked } = form;
  const [location, setLocation] = useState(() => pointOf(profile));
  const [licence, setLicence] = useState(() => licenceStatusLines(profile));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isPending, setPending] = useState(false);
  // A new key remounts the address field with the saved address after a save or discard.
  const [addressKey, setAddressKey] = useState(0);

  const patch = patchOf(saved, values, picked);
  const isDirty = Object.keys(patch).length > 0;

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
      const res = await apiJson<
        { message?: string; licenceCheck?: string | null; surveyor?: OwnSurveyorProfile }
      >(
        "PATCH",
        "/api/surveyor/profile",
        patch,
      );
      if (!res?.surveyor) throw new Error("No profile in the answer");
      const next = valuesOf(res.surveyor);
      setSaved(next);
      setValues(next);
      setLocation(pointOf(res.surveyor));
      setLicence(licenceStatusLines(res.surveyor));
      setPicked(null);
      setAddressKey((k) => k + 1);
      toast({
        title: res.message ?? "Coverage saved",
        description: res.licenceCheck
          ? "The rest of your changes apply to survey requests from now on."
          : "Survey requests are matched to you with these details from now on.",
      });
    } catch (err) {
      setErrors(serverFieldErrors(err));
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
  const group = { idPrefix: "coverage", mode: "own", values, errors } as const;
  return (
    <CheckedForm errors={errors} isPending={isPending} onSubmit={submit}>
      <CompanyFields {...group} onText={form.setText} />
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
          onValue={(v) => form.setText("phone", v)}
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
          onValue={(v) => setValues((x) => ({ ...x, website: v }))}
        />
      </div>
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
      <LicensedStatesField {...group} onToggle={form.toggle} />
      {licence.length
        ? (
          <div className="alert alert--info" role="status">
            {licence.map((line) => <p key={line}>{line}</p>)}
          </div>
        )
        : null}
      <SurveyTypesField {...group} onToggle={form.toggle} />
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
