/**
 * The join form of /surveyor/claim: an invited firm creates its surveyor account. Prefilled
 * from the prospect record (company, principal, licence, office, radius, survey types); the
 * email is the one the invitation went to (editable only when the record has none); a
 * password of at least 6 characters, typed twice. Sends everything with the link's token to
 * POST /api/surveyor/join; on success the session is open and the browser goes to
 * /surveyor-dashboard with a "Welcome to Meridian" toast. The server's field errors are shown
 * by their fields.
 */
import { type FormEvent, useEffect, useState } from "react";
import { forgetUrlToken } from "./_url_token.ts";
import { apiJson, errorMessage } from "./_api.ts";
import { toast, toastAfterNavigation } from "./_toast.ts";
import { navigate } from "./_nav.ts";
import {
  CheckedForm,
  isEmail,
  PASSWORD_MIN_LENGTH,
  PASSWORD_TOO_SHORT,
  PASSWORDS_DONT_MATCH,
  TextField,
} from "./_fields.tsx";
import {
  CompanyFields,
  LicensedStatesField,
  OfficeFields,
  RadiusField,
  SurveyTypesField,
  useCoverageForm,
} from "./_coverage_fields.tsx";
import {
  type CoveragePoint,
  type CoverageRecord,
  type CoverageValues,
  coverageValues,
  orderedStates,
  orderedTypes,
  pointOf,
  radiusError,
  serverFieldErrors,
} from "./_coverage_values.ts";
import { text } from "./_surveyor_shared.ts";

/** Where a new surveyor lands after joining. */
export const AFTER_JOIN_PATH = "/surveyor-dashboard";

/** Props of the join form: the link's token and the prospect record's details. */
export interface SurveyorJoinFormProps {
  token: string;
  /** The invitation's address (the account's email), or null when the record has none. */
  email: string | null;
  /** The prospect record's coverage details. */
  initial: CoverageRecord;
}

interface Values extends CoverageValues {
  email: string;
  password: string;
  confirmPassword: string;
}

function valuesOf(p: SurveyorJoinFormProps): Values {
  return { ...coverageValues(p.initial), email: text(p.email), password: "", confirmPassword: "" };
}

/** The island's own checks, before anything is sent (the server checks again). */
function check(values: Values, isEmailFixed: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!values.companyName.trim()) errors.companyName = "Company name is required";
  if (!values.principalName.trim()) errors.principalName = "Full name is required";
  if (!values.licenseNumber.trim()) errors.licenseNumber = "Licence number is required";
  if (values.licenseStates.length === 0) {
    errors.licenseStates = "Choose the states you are licensed in";
  }
  if (!values.address.trim()) errors.address = "Enter your office address";
  const radius = radiusError(values.serviceRadiusMiles);
  if (radius) errors.serviceRadiusMiles = radius;
  if (values.surveyTypes.length === 0) errors.surveyTypes = "Choose the survey types you offer";
  if (!isEmailFixed) {
    if (!values.email.trim()) errors.email = "Enter your email address";
    else if (!isEmail(values.email)) errors.email = "Enter a valid email address";
  }
  if (values.password.length < PASSWORD_MIN_LENGTH) errors.password = PASSWORD_TOO_SHORT;
  if (values.confirmPassword.length < PASSWORD_MIN_LENGTH) {
    errors.confirmPassword = PASSWORD_TOO_SHORT;
  } else if (values.confirmPassword !== values.password) {
    errors.confirmPassword = PASSWORDS_DONT_MATCH;
  }
  return errors;
}

/** The request body: trimmed text, "" as absent, lists in a fixed order. */
function bodyOf(
  token: string,
  values: Values,
  point: CoveragePoint | null,
  isEmailFixed: boolean,
): Record<string, unknown> {
  const optional = (v: string) => (v.trim() === "" ? null : v.trim());
  return {
    token,
    companyName: values.companyName.trim(),
    principalName: values.principalName.trim(),
    licenseNumber: values.licenseNumber.trim(),
    licenseStates: orderedStates(values.licenseStates),
    phone: optional(values.phone),
    address: values.address.trim(),
    city: optional(values.city),
    state: optional(values.state),
    zip: optional(values.zip),
    lat: point?.lat ?? null,
    lng: point?.lng ?? null,
    serviceRadiusMiles: Number(values.serviceRadiusMiles.trim()),
    surveyTypes: orderedTypes(values.surveyTypes),
    ...(isEmailFixed ? {} : { email: values.email.trim() }),
    password: values.password,
    confirmPassword: values.confirmPassword,
  };
}

/** The join form. */
export default function SurveyorJoinForm(props: SurveyorJoinFormProps) {
  const isEmailFixed = props.email !== null;
  const form = useCoverageForm(() => valuesOf(props), pointOf(props.initial));
  const { values, picked: point } = form;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isPending, setPending] = useState(false);
  // The token stays in props (memory); the address bar no longer shows it.
  useEffect(forgetUrlToken, []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = check(values, isEmailFixed);
    setErrors(found);
    if (Object.keys(found).length) return;
    setPending(true);
    try {
      const res = await apiJson<{ message?: string; user?: { fullName: string } }>(
        "POST",
        "/api/surveyor/join",
        bodyOf(props.token, values, point, isEmailFixed),
      );
      toastAfterNavigation({
        title: res?.message ?? "Welcome to Meridian",
        description:
          "Your account is ready. We check your licence details before you can buy leads.",
      });
      navigate(AFTER_JOIN_PATH);
    } catch (err) {
      setErrors(serverFieldErrors(err));
      toast({
        title: "Could not create your account",
        description: errorMessage(err, "Please check your connection and try again."),
        variant: "destructive",
      });
      setPending(false);
    }
  }

  const group = { idPrefix: "join", mode: "join", values, errors } as const;
  const set = (key: "email" | "password" | "confirmPassword", value: string) =>
    form.setValues((v) => ({ ...v, [key]: value }));
  return (
    <CheckedForm errors={errors} isPending={isPending} onSubmit={submit}>
      <CompanyFields {...group} onText={form.setText} />
      <LicensedStatesField {...group} onToggle={form.toggle} />
      <OfficeFields
        {...group}
        onText={form.setText}
        isTyped={false}
        point={point}
        onAddressChange={form.onAddressChange}
        onAddressSelect={form.onAddressSelect}
      />
      <div className="surveyor-form__pair">
        <RadiusField {...group} onText={form.setText} />
        <TextField
          id="join-phone"
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
      </div>
      <SurveyTypesField {...group} onToggle={form.toggle} />
      <TextField
        id="join-email"
        name="email"
        type="email"
        label="Email"
        autoComplete="email"
        maxLength={254}
        readOnly={isEmailFixed}
        hint={isEmailFixed
          ? "The address your invitation was sent to; you sign in with it."
          : "You sign in with this address."}
        value={values.email}
        error={errors.email}
        onValue={(v) => set("email", v)}
      />
      <div className="surveyor-form__pair">
        <TextField
          id="join-password"
          name="password"
          type="password"
          label="Password"
          autoComplete="new-password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          value={values.password}
          error={errors.password}
          onValue={(v) => set("password", v)}
        />
        <TextField
          id="join-confirm-password"
          name="confirmPassword"
          type="password"
          label="Confirm password"
          autoComplete="new-password"
          value={values.confirmPassword}
          error={errors.confirmPassword}
          onValue={(v) => set("confirmPassword", v)}
        />
      </div>
      <p className="muted">
        We check your licence details before you can buy leads. Your first claimed job has no claim
        fee.
      </p>
      <div className="form-actions">
        <button type="submit" className="btn btn--primary" disabled={isPending}>
          {isPending ? "Creating account..." : "Create my surveyor account"}
        </button>
      </div>
    </CheckedForm>
  );
}
