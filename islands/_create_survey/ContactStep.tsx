/**
 * Step 5: who the surveyor should call, and the account the request belongs to. A signed-out
 * visitor registers or signs in right here, without leaving the page, so nothing entered so
 * far is lost.
 */
import { type FormEvent, type KeyboardEvent, useState } from "react";
import {
  FieldError,
  isEmail,
  PASSWORD_MIN_LENGTH,
  PASSWORD_TOO_SHORT,
  TextField,
} from "../_fields.tsx";
import { errorMessage } from "../_api.ts";
import { toast } from "../_toast.ts";
import { login, register } from "./api.ts";
import { LIMITS } from "./validate.ts";
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
}

type Tab = "register" | "login";
type AuthErrors = Record<string, string | undefined>;

/**
 * The signed-in user, or Register / Sign in tabs. The 'auth' error of the step sits here,
 * next to the forms it is about.
 */
export function AccountPanel({ user, error, onSignedIn }: AccountPanelProps) {
  const [tab, setTab] = useState<Tab>("register");
  if (user) {
    return (
      <section className="cs-account" aria-labelledby="cs-account-title">
        <h3 id="cs-account-title" className="cs-account__title">Your account</h3>
        <p>
          Signed in as <strong>{user.fullName || user.email}</strong>{" "}
          <span className="muted">({user.email})</span>
        </p>
        <FieldError id="cs-auth" error={error} />
      </section>
    );
  }
  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    event.preventDefault();
    const next: Tab = event.key === "Home"
      ? "register"
      : event.key === "End"
      ? "login"
      : tab === "register"
      ? "login"
      : "register";
    setTab(next);
    document.getElementById(`cs-auth-tab-${next}`)?.focus();
  }
  return (
    <section className="cs-account" aria-labelledby="cs-account-title">
      <h3 id="cs-account-title" className="cs-account__title">Your account</h3>
      <p className="cs-account__intro">
        Create a free account (or sign in) to receive your request's updates. Everything you have
        entered stays as it is.
      </p>
      <FieldError id="cs-auth" error={error} />
      <div className="tabs cs-account__tabs">
        <div role="tablist" aria-label="Create an account or sign in">
          {(["register", "login"] as const).map((t) => (
            <button
              key={t}
              type="button"
              role="tab"
              id={`cs-auth-tab-${t}`}
              aria-selected={tab === t}
              aria-controls={`cs-auth-panel-${t}`}
              tabIndex={tab === t ? 0 : -1}
              onClick={() => setTab(t)}
              onKeyDown={onKeyDown}
            >
              {t === "register" ? "Create account" : "Sign in"}
            </button>
          ))}
        </div>
        <div
          role="tabpanel"
          id={`cs-auth-panel-${tab}`}
          aria-labelledby={`cs-auth-tab-${tab}`}
          className="cs-account__panel"
        >
          {tab === "register"
            ? <RegisterForm onSignedIn={onSignedIn} />
            : <LoginForm onSignedIn={onSignedIn} />}
        </div>
      </div>
    </section>
  );
}

function RegisterForm({ onSignedIn }: { onSignedIn(user: IslandUser): void }) {
  const [email, setEmail] = useState("");
  const [fullName, setFullName] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<AuthErrors>({});
  const [isPending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: AuthErrors = {
      email: isEmail(email) ? undefined : "Please enter a valid email address",
      fullName: fullName.trim() ? undefined : "Full name is required",
      password: password.length >= PASSWORD_MIN_LENGTH ? undefined : PASSWORD_TOO_SHORT,
    };
    setErrors(next);
    const first = ["email", "fullName", "password"].find((k) => next[k]);
    if (first) {
      document.getElementById(`cs-register-${first}`)?.focus();
      return;
    }
    setPending(true);
    try {
      const user = await register({ email, fullName, password });
      toast({ title: "Registration successful", description: `Welcome, ${user.fullName}!` });
      onSignedIn(user);
    } catch (err) {
      setPending(false);
      toast({
        title: "Registration failed",
        description: errorMessage(err, "Could not create your account. Please try again."),
        variant: "destructive",
      });
    }
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-busy={isPending || undefined}>
      <TextField
        id="cs-register-email"
        label="Email"
        type="email"
        value={email}
        onValue={setEmail}
        error={errors.email}
        autoComplete="email"
        maxLength={254}
      />
      <TextField
        id="cs-register-fullName"
        label="Full Name"
        value={fullName}
        onValue={setFullName}
        error={errors.fullName}
        autoComplete="name"
        maxLength={100}
      />
      <TextField
        id="cs-register-password"
        label="Password"
        type="password"
        value={password}
        onValue={setPassword}
        error={errors.password}
        hint="At least 6 characters."
        autoComplete="new-password"
        minLength={PASSWORD_MIN_LENGTH}
        maxLength={128}
      />
      <button type="submit" className="btn btn--primary" disabled={isPending}>
        {isPending ? "Creating account..." : "Create account"}
      </button>
    </form>
  );
}

function LoginForm({ onSignedIn }: { onSignedIn(user: IslandUser): void }) {
  const [identifier, setIdentifier] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<AuthErrors>({});
  const [isPending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: AuthErrors = {
      identifier: identifier.trim() ? undefined : "Email or username is required",
      password: password ? undefined : "Password is required",
    };
    setErrors(next);
    const first = ["identifier", "password"].find((k) => next[k]);
    if (first) {
      document.getElementById(`cs-login-${first}`)?.focus();
      return;
    }
    setPending(true);
    try {
      const user = await login({ identifier, password });
      toast({ title: "Login successful", description: `Welcome back, ${user.fullName}!` });
      onSignedIn(user);
    } catch (err) {
      setPending(false);
      toast({
        title: "Login failed",
        description: errorMessage(err, "Invalid credentials"),
        variant: "destructive",
      });
    }
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-busy={isPending || undefined}>
      <TextField
        id="cs-login-identifier"
        label="Email or Username"
        value={identifier}
        onValue={setIdentifier}
        error={errors.identifier}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={254}
      />
      <TextField
        id="cs-login-password"
        label="Password"
        type="password"
        value={password}
        onValue={setPassword}
        error={errors.password}
        autoComplete="current-password"
        maxLength={128}
      />
      <p className="cs-account__links">
        <a href="/forgot-password" target="_blank" rel="noopener">Forgot Password?</a>
      </p>
      <button type="submit" className="btn btn--primary" disabled={isPending}>
        {isPending ? "Signing in..." : "Sign in"}
      </button>
    </form>
  );
}
