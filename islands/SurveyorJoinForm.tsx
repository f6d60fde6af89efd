/**
 * The join form of /surveyor/claim: an invited firm creates its surveyor account. Prefilled
 * from the prospect record (company, principal, licence, office, radius, survey types); the
 * email is the one the invitation went to (editable only when the record has none); a
 * password of at least 6 characters, typed twice. Sends everything with the link's token to
 * POST /api/surveyor/join; on success the session is open and the browser goes to
 * /surveyor-dashboard with a "Welcome to Meridian" toast. The server's field errors are shown
 * by their fields.
 */
import { type FormEvent, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast, toastAfterNavigation } from "./_toast.ts";
import { navigate } from "./_nav.ts";
import {
  CheckedForm,
  isEmail,
  PASSWORD_MIN_LENGTH,
  PASSWORD_TOO_SHORT,
  PASSWORDS_DONT_MATCH,
  SelectField,
  TextField,
} from "./_fields.tsx";
import AddressAutocomplete, { type AddressSelection } from "./AddressAutocomplete.tsx";
import { addressParts, fieldErrors, MAX_RADIUS_MILES, text } from "./_surveyor_shared.ts";
import { SURVEY_TYPE_INFO, SURVEY_TYPES } from "../lib/survey_types.ts";
import { STATE_CODES, US_STATES } from "../lib/survey_options.ts";

const STATE_CHOICES = STATE_CODES.map((code) => ({ id: code, label: US_STATES[code] }));

/** Where a new surveyor lands after joining. */
export const AFTER_JOIN_PATH = "/surveyor-dashboard";

/** Props of the join form: the link's token and the prospect record's details. */
export interface SurveyorJoinFormProps {
  token: string;
  /** The invitation's address (the account's email), or null when the record has none. */
  email: string | null;
  initial: {
    companyName: string;
    principalName: string | null;
    licenseNumber: string | null;
    licenseStates: string[];
    phone: string | null;
    address: string | null;
    city: string | null;
    state: string | null;
    zip: string | null;
    lat: number | null;
    lng: number | null;
    serviceRadiusMiles: number;
    surveyTypes: string[];
  };
}

interface Values {
  companyName: string;
  principalName: string;
  licenseNumber: string;
  licenseStates: string[];
  phone: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  serviceRadiusMiles: string;
  surveyTypes: string[];
  email: string;
  password: string;
  confirmPassword: string;
}

type Point = { lat: number; lng: number };

function valuesOf(p: SurveyorJoinFormProps): Values {
  const i = p.initial;
  return {
    companyName: i.companyName,
    principalName: text(i.principalName),
    licenseNumber: text(i.licenseNumber),
    licenseStates: [...i.licenseStates],
    phone: text(i.phone),
    address: text(i.address),
    city: text(i.city),
    state: text(i.state),
    zip: text(i.zip),
    serviceRadiusMiles: String(i.serviceRadiusMiles),
    surveyTypes: [...i.surveyTypes],
    email: text(p.email),
    password: "",
    confirmPassword: "",
  };
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
  const radius = values.serviceRadiusMiles.trim();
  if (!/^\d+$/.test(radius) || Number(radius) < 1 || Number(radius) > MAX_RADIUS_MILES) {
    errors.serviceRadiusMiles = `Enter a whole number of miles from 1 to ${MAX_RADIUS_MILES}`;
  }
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
  point: Point | null,
  isEmailFixed: boolean,
): Record<string, unknown> {
  const optional = (v: string) => (v.trim() === "" ? null : v.trim());
  return {
    token,
    companyName: values.companyName.trim(),
    principalName: values.principalName.trim(),
    licenseNumber: values.licenseNumber.trim(),
    licenseStates: STATE_CODES.filter((c) => values.licenseStates.includes(c)),
    phone: optional(values.phone),
    address: values.address.trim(),
    city: optional(values.city),
    state: optional(values.state),
    zip: optional(values.zip),
    lat: point?.lat ?? null,
    lng: point?.lng ?? null,
    serviceRadiusMiles: Number(values.serviceRadiusMiles.trim()),
    surveyTypes: SURVEY_TYPES.filter((t) => values.surveyTypes.includes(t)),
    ...(isEmailFixed ? {} : { email: values.email.trim() }),
    password: values.password,
    confirmPassword: values.confirmPassword,
  };
}

/** The server's `errors` by top-level field ("licenseStates.0" is shown on licenseStates). */
function serverErrors(err: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [key, message] of Object.entries(fieldErrors(err))) {
    errors[key.split(".")[0]] ??= message;
  }
  return errors;
}

function Choices({ name, legend, hint, error, choices, values, onToggle }: {
  name: string;
  legend: string;
  hint?: string;
  error?: string;
  choices: readonly { id: string; label: string; title?: string }[];
  values: readonly string[];
  onToggle(id: string, isOn: boolean): void;
}) {
  const described = [hint ? `join-${name}-hint` : "", error ? `join-${name}-error` : ""]
    .filter(Boolean);
  return (
    <fieldset
      className="field surveyor-choices"
      aria-describedby={described.length ? described.join(" ") : undefined}
    >
      <legend className="field__label">{legend}</legend>
      {hint ? <p className="field__hint" id={`join-${name}-hint`}>{hint}</p> : null}
      <div className={`surveyor-choices__grid surveyor-choices__grid--${name}`}>
        {choices.map((c, i) => (
          <label key={c.id} className="surveyor-check" title={c.title}>
            <input
              type="checkbox"
              id={i === 0 ? `join-${name}` : undefined}
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
      {error ? <p className="field__error" id={`join-${name}-error`}>{error}</p> : null}
    </fieldset>
  );
}

/** The join form. */
export default function SurveyorJoinForm(props: SurveyorJoinFormProps) {
  const isEmailFixed = props.email !== null;
  const [values, setValues] = useState(() => valuesOf(props));
  const [point, setPoint] = useState<Point | null>(() =>
    props.initial.lat !== null && props.initial.lng !== null
      ? { lat: props.initial.lat, lng: props.initial.lng }
      : null
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isPending, setPending] = useState(false);

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
      setPoint(null);
      set("address", formatted);
      return;
    }
    setPoint({ lat: selection.lat, lng: selection.lng });
    setValues((v) => ({ ...v, address: formatted, ...addressParts(formatted, STATE_CODES) }));
  }

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
      setErrors(serverErrors(err));
      toast({
        title: "Could not create your account",
        description: errorMessage(err, "Please check your connection and try again."),
        variant: "destructive",
      });
      setPending(false);
    }
  }

  const addressError = errors.address ?? errors.lat ?? errors.lng;
  return (
    <CheckedForm errors={errors} isPending={isPending} onSubmit={submit}>
      <TextField
        id="join-company"
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
          id="join-principal"
          name="principalName"
          label="Your full name"
          autoComplete="name"
          maxLength={100}
          hint="The licensed surveyor in charge."
          value={values.principalName}
          error={errors.principalName}
          onValue={(v) => set("principalName", v)}
        />
        <TextField
          id="join-license"
          name="licenseNumber"
          label="Licence number"
          maxLength={60}
          value={values.licenseNumber}
          error={errors.licenseNumber}
          onValue={(v) => set("licenseNumber", v)}
        />
      </div>
      <Choices
        name="licenseStates"
        legend="Licensed in"
        hint="We check the licence in these states; you are offered jobs only where you are licensed."
        error={errors.licenseStates}
        choices={STATE_CODES.map((c) => ({ id: c, label: c, title: US_STATES[c] }))}
        values={values.licenseStates}
        onToggle={(id, isOn) => toggle("licenseStates", id, isOn)}
      />
      <div>
        <AddressAutocomplete
          id="join-address"
          name="address"
          label="Office address"
          placeholder="Start typing your office address"
          required
          defaultValue={values.address}
          invalid={Boolean(addressError)}
          describedBy={addressError ? "join-address-hint join-address-error" : "join-address-hint"}
          onChange={(v) => {
            setPoint(null);
            set("address", v);
          }}
          onSelect={onAddressSelect}
        />
        <p className="field__hint" id="join-address-hint">
          {point
            ? `Office located at ${point.lat.toFixed(4)}, ${point.lng.toFixed(4)}.`
            : "Pick a suggestion to place your office on the map: jobs are offered by distance from it."}
        </p>
        {addressError
          ? <p className="field__error" id="join-address-error">{addressError}</p>
          : null}
      </div>
      <div className="surveyor-form__triple">
        <TextField
          id="join-city"
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
          id="join-state"
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
          id="join-zip"
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
      <div className="surveyor-form__pair">
        <TextField
          id="join-radius"
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
          onValue={(v) => set("phone", v)}
        />
      </div>
      <Choices
        name="surveyTypes"
        legend="Survey types you offer"
        error={errors.surveyTypes}
        choices={SURVEY_TYPES.map((t) => ({ id: t, label: SURVEY_TYPE_INFO[t].name }))}
        values={values.surveyTypes}
        onToggle={(id, isOn) => toggle("surveyTypes", id, isOn)}
      />
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
