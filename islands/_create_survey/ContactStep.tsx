/**
 * Step 5: who the surveyor should call, and the account the request belongs to. A signed-out
 * visitor registers or signs in right here, without leaving the page, so nothing entered so
 * far is lost.
 */
import { lazy, Suspense } from "react";
import { FieldError, Spinner, TextField } from "../_fields.tsx";
import { LIMITS } from "./validate.ts";
import { GoogleSignIn } from "../_google_sign_in.tsx";
import type { Answers, Errors, IslandUser } from "./types.ts";

/** Props of the contact fields. */
export interface ContactFieldsProps {
  answers: Answers;
  errors: Errors;
  update(patch: Partial<Answers>): void;
}

/** Contact name and phone (inside the step's form). */
export function ContactFields({ answers, errors, update }: ContactFieldsProps) {
  return (
    <div className="grid-2 cs-grid">
      <TextField
        id="cs-contactName"
        label="Contact name"
        autoComplete="name"
        maxLength={LIMITS.contactName}
        value={answers.contactName}
        onValue={(contactName) => update({ contactName })}
        error={errors.contactName}
        hint="Who the surveyor should ask for."
      />
      <TextField
        id="cs-contactPhone"
        label="Phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        maxLength={LIMITS.contactPhone}
        value={answers.contactPhone}
        onValue={(contactPhone) => update({ contactPhone })}
        error={errors.contactPhone}
        hint="The surveyor calls to confirm details and schedule the visit."
      />
    </div>
  );
}

/** Props of the account panel. */
export interface AccountPanelProps {
  user: IslandUser | null;
  error?: string;
  onSignedIn(user: IslandUser): void;
  /** Offer "Continue with Google" (a link that comes back to the flow) under the forms. */
  hasGoogleSignIn?: boolean;
}

const TABS = [
  { id: "register", label: "Create account" },
  { id: "login", label: "Sign in" },
] as const;

// Only a signed-out visitor on this step needs the sign-in forms: they load then, so the flow's
// first download stays small and signed-in clients never fetch them.
const AuthTabs = lazy(() => import("../_auth_forms.tsx").then((m) => ({ default: m.AuthTabs })));

/**
 * The signed-in user, or Create account / Sign in tabs. The 'auth' error of the step sits
 * here, next to the forms it is about.
 */
export function AccountPanel({ user, error, onSignedIn, hasGoogleSignIn }: AccountPanelProps) {
  return (
    <section className="cs-account" aria-labelledby="cs-account-title">
      <h3 id="cs-account-title" className="cs-account__title">Your account</h3>
      {user
        ? (
          <p>
            Signed in as <strong>{user.fullName || user.email}</strong>{" "}
            <span className="muted">({user.email})</span>
          </p>
        )
        : (
          <p className="cs-account__intro">
            Create a free account (or sign in) to receive your request's updates. Everything you
            have entered stays as it is.
          </p>
        )}
      <FieldError id="cs-auth" error={error} />
      {user ? null : (
        <Suspense fallback={<Spinner label="Loading the sign-in forms" />}>
          <AuthTabs
            idPrefix="cs-"
            tabs={TABS}
            initialTab="register"
            label="Create an account or sign in"
            className="tabs cs-account__tabs"
            panelClassName="cs-account__panel"
            onSignedIn={onSignedIn}
            isInline
          />
        </Suspense>
      )}
      {/* The draft is in sessionStorage: coming back from Google, the flow is where it was. */}
      {user || !hasGoogleSignIn ? null : <GoogleSignIn returnTo="/create-survey" />}
    </section>
  );
}
