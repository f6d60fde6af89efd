/**
 * The sign-up of /for-surveyors (issue 22): a surveyor first looks for their firm among the
 * directory's prospects (GET /api/surveyors/join/matches?q= by name, licence number or town)
 * and picks it to claim that listing, or goes on without one to add their firm; then gives the
 * company, licence, office, radius, survey types, email and password. Sends everything to
 * POST /api/surveyors/join; on success the session is open and the browser goes where the
 * server says (the dashboard, which says the licence is being checked) with the server's
 * message as a toast. The server's field errors are shown by their fields.
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
  type CoverageValues,
  orderedStates,
  orderedTypes,
  radiusError,
  serverFieldErrors,
} from "./_coverage_values.ts";

/** Props of the sign-up form: none (everything starts empty). */
export type SurveyorSignUpFormProps = Record<string, never>;

/** A prospect as the matches API returns it. */
interface Match {
  id: string;
  companyName: string;
  city: string | null;
  state: string | null;
  licenseStates: string[];
  surveyTypes: string[];
}

interface Values extends CoverageValues {
  email: string;
  password: string;
  confirmPassword: string;
}

const EMPTY: Values = {
  companyName: "",
  principalName: "",
  licenseNumber: "",
  licenseStates: [],
  phone: "",
  address: "",
  city: "",
  state: "",
  zip: "",
  serviceRadiusMiles: "50",
  surveyTypes: [],
  email: "",
  password: "",
  confirmPassword: "",
};

/** The island's own checks, before anything is sent (the server checks again). */
function check(values: Values): Record<string, string> {
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
  if (!values.email.trim()) errors.email = "Enter your email address";
  else if (!isEmail(values.email)) errors.email = "Enter a valid email address";
  if (values.password.length < PASSWORD_MIN_LENGTH) errors.password = PASSWORD_TOO_SHORT;
  if (values.confirmPassword !== values.password) errors.confirmPassword = PASSWORDS_DONT_MATCH;
  return errors;
}

function bodyOf(
  values: Values,
  point: CoveragePoint | null,
  match: Match | null,
): Record<string, unknown> {
  const optional = (v: string) => (v.trim() === "" ? null : v.trim());
  return {
    surveyorId: match?.id ?? null,
    companyName: values.companyName.trim(),
    principalName: values.principalName.trim(),
    email: values.email.trim(),
    password: values.password,
    confirmPassword: values.confirmPassword,
    phone: optional(values.phone),
    licenseNumber: values.licenseNumber.trim(),
    licenseStates: orderedStates(values.licenseStates),
    address: values.address.trim(),
    city: optional(values.city),
    state: optional(values.state),
    zip: optional(values.zip),
    lat: point?.lat ?? null,
    lng: point?.lng ?? null,
    serviceRadiusMiles: Number(values.serviceRadiusMiles.trim()),
    surveyTypes: orderedTypes(values.surveyTypes),
  };
}

function placeOf(m: Match): string {
  return [m.city, m.state].filter(Boolean).join(", ");
}

/** The firm search: matches to pick, or "not listed". */
function FirmSearch(
  { chosen, onChoose }: { chosen: Match | null; onChoose(match: Match | null): void },
) {
  const [q, setQ] = useState("");
  const [matches, setMatches] = useState<Match[] | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [isSearching, setSearching] = useState(false);

  async function search() {
    if (q.trim().length < 2) {
      setError("Type at least 2 characters");
      return;
    }
    setError(undefined);
    setSearching(true);
    try {
      const res = await apiJson<{ matches: Match[] }>(
        "GET",
        `/api/surveyors/join/matches?q=${encodeURIComponent(q.trim())}`,
      );
      setMatches(res?.matches ?? []);
    } catch (err) {
      setError(errorMessage(err, "Could not search. Please try again."));
    } finally {
      setSearching(false);
    }
  }

  if (chosen) {
    return (
      <div className="alert alert--info" role="status">
        <span>
          {`You are claiming the listing of ${chosen.companyName}${
            placeOf(chosen) ? ` (${placeOf(chosen)})` : ""
          }. Check its details below.`}{" "}
          <button type="button" className="btn btn--link" onClick={() => onChoose(null)}>
            Not my firm
          </button>
        </span>
      </div>
    );
  }
  return (
    <fieldset className="stack">
      <legend>Is your firm already listed?</legend>
      <div className="surveyor-form__pair">
        <TextField
          id="signup-search"
          name="q"
          label="Company name, licence number or town"
          maxLength={100}
          value={q}
          error={error}
          onValue={setQ}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              search();
            }
          }}
        />
        <div className="form-actions">
          <button
            type="button"
            className="btn btn--secondary"
            disabled={isSearching}
            onClick={search}
          >
            {isSearching ? "Searching..." : "Find my firm"}
          </button>
        </div>
      </div>
      {matches === null ? null : matches.length === 0
        ? (
          <p className="muted" role="status">
            No listing matches. Fill in the form below to add your firm.
          </p>
        )
        : (
          <ul className="stack" role="list" aria-label="Firms found">
            {matches.map((m) => (
              <li key={m.id}>
                <strong>{m.companyName}</strong>
                {placeOf(m) ? ` — ${placeOf(m)}` : ""}{" "}
                <button
                  type="button"
                  className="btn btn--sm btn--secondary"
                  onClick={() => onChoose(m)}
                >
                  This is my firm
                </button>
              </li>
            ))}
          </ul>
        )}
    </fieldset>
  );
}

/** The sign-up form. */
export default function SurveyorSignUpForm(_props: SurveyorSignUpFormProps) {
  const form = useCoverageForm<Values>(() => EMPTY);
  const { values, picked: point } = form;
  const [match, setMatch] = useState<Match | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isPending, setPending] = useState(false);

  function choose(m: Match | null) {
    setMatch(m);
    if (!m) return;
    form.setValues((v) => ({
      ...v,
      companyName: m.companyName,
      city: m.city ?? v.city,
      state: m.state ?? v.state,
      licenseStates: m.licenseStates.length ? m.licenseStates : v.licenseStates,
      surveyTypes: m.surveyTypes.length ? m.surveyTypes : v.surveyTypes,
    }));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = check(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    setPending(true);
    try {
      const res = await apiJson<{ message: string; next: string }>(
        "POST",
        "/api/surveyors/join",
        bodyOf(values, point, match),
      );
      toastAfterNavigation({ title: res?.message ?? "Welcome to Meridian" });
      navigate(res?.next ?? "/surveyor-dashboard");
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

  const group = { idPrefix: "signup", mode: "join", values, errors } as const;
  const set = (key: "email" | "password" | "confirmPassword", value: string) =>
    form.setValues((v) => ({ ...v, [key]: value }));
  return (
    <div className="stack">
      <FirmSearch chosen={match} onChoose={choose} />
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
            id="signup-phone"
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
          id="signup-email"
          name="email"
          type="email"
          label="Email"
          autoComplete="email"
          maxLength={254}
          hint="You sign in with this address."
          value={values.email}
          error={errors.email}
          onValue={(v) => set("email", v)}
        />
        <div className="surveyor-form__pair">
          <TextField
            id="signup-password"
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
            id="signup-confirm-password"
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
          We check your licence details before you can buy leads. Your first claimed job has no
          claim fee.
        </p>
        <div className="form-actions">
          <button type="submit" className="btn btn--primary" disabled={isPending}>
            {isPending ? "Creating account..." : "Create my surveyor account"}
          </button>
        </div>
      </CheckedForm>
    </div>
  );
}
