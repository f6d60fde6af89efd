import { type FormEvent, type KeyboardEvent, useState } from "react";
import { apiJson, errorMessage, invalidateQueries, setQueryData } from "./_api.ts";
import { toast, toastAfterNavigation } from "./_toast.ts";
import { navigate } from "./_nav.ts";
import {
  isEmail,
  PASSWORD_MIN_LENGTH,
  PASSWORD_TOO_SHORT,
  TextField,
  useFocusFirstInvalid,
} from "./_fields.tsx";
import { redirectAfterLogin } from "../lib/return_to.ts";

/** Which tab /auth opens on. */
export type AuthTab = "login" | "register";

/** Props of the sign-in / registration island. */
export interface AuthFormProps {
  /** The page's `returnTo` (already checked on the server), or null. */
  returnTo: string | null;
  initialTab?: AuthTab;
}

interface AuthUser {
  fullName: string;
  role: string;
}

type Errors = Record<string, string | undefined>;

const TABS: { id: AuthTab; label: string }[] = [
  { id: "login", label: "Login" },
  { id: "register", label: "Register" },
];

/**
 * /auth: Login and Register tabs. On success a toast greets the user by name and the browser
 * goes where `redirectAfterLogin` says for their role and `returnTo`; on failure a destructive
 * toast shows the server's message (login falls back to 'Invalid credentials').
 */
export default function AuthForm({ returnTo, initialTab = "login" }: AuthFormProps) {
  const [tab, setTab] = useState<AuthTab>(initialTab);

  function onTabKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    event.preventDefault();
    const next: AuthTab = event.key === "Home"
      ? "login"
      : event.key === "End"
      ? "register"
      : tab === "login"
      ? "register"
      : "login";
    setTab(next);
    document.getElementById(`auth-tab-${next}`)?.focus();
  }

  return (
    <div className="auth-form tabs">
      <div role="tablist" aria-label="Sign in or create an account">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`auth-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`auth-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
            onKeyDown={onTabKeyDown}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`auth-panel-${tab}`}
        aria-labelledby={`auth-tab-${tab}`}
        className="auth-form__panel"
      >
        {tab === "login" ? <LoginForm returnTo={returnTo} /> : <RegisterForm returnTo={returnTo} />}
      </div>
    </div>
  );
}

function signedIn(user: AuthUser, returnTo: string | null, title: string, greeting: string) {
  invalidateQueries();
  setQueryData("/api/user", user);
  toastAfterNavigation({ title, description: greeting });
  navigate(redirectAfterLogin(user.role, returnTo));
}

function LoginForm({ returnTo }: { returnTo: string | null }) {
  const [identifier, setIdentifier] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [isPending, setPending] = useState(false);
  const form = useFocusFirstInvalid(errors);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: Errors = {
      identifier: identifier.trim() ? undefined : "Email or username is required",
      password: password ? undefined : "Password is required",
    };
    setErrors(next);
    if (next.identifier || next.password) return;
    setPending(true);
    try {
      const user = await apiJson<AuthUser>("POST", "/api/login", {
        identifier: identifier.trim(),
        password,
      });
      if (!user) throw new Error("Empty response");
      signedIn(user, returnTo, "Login successful", `Welcome back, ${user.fullName}!`);
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
    <form
      ref={form}
      className="stack"
      onSubmit={onSubmit}
      noValidate
      aria-busy={isPending || undefined}
    >
      <TextField
        id="login-identifier"
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
        id="login-password"
        label="Password"
        type="password"
        value={password}
        onValue={setPassword}
        error={errors.password}
        autoComplete="current-password"
        maxLength={128}
      />
      <p className="auth-card__links">
        <a href="/forgot-password">Forgot Password?</a>
      </p>
      <button type="submit" className="btn btn--primary btn--block" disabled={isPending}>
        {isPending ? "Signing in..." : "Sign in"}
      </button>
    </form>
  );
}

function RegisterForm({ returnTo }: { returnTo: string | null }) {
  const [email, setEmail] = useState("");
  const [fullName, setFullName] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [isPending, setPending] = useState(false);
  const form = useFocusFirstInvalid(errors);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: Errors = {
      email: isEmail(email) ? undefined : "Please enter a valid email address",
      fullName: fullName.trim() ? undefined : "Full name is required",
      password: password.length >= PASSWORD_MIN_LENGTH ? undefined : PASSWORD_TOO_SHORT,
    };
    setErrors(next);
    if (next.email || next.fullName || next.password) return;
    setPending(true);
    const address = email.trim();
    try {
      const user = await apiJson<AuthUser>("POST", "/api/register", {
        email: address,
        password,
        fullName: fullName.trim(),
        username: address,
      });
      if (!user) throw new Error("Empty response");
      signedIn(user, returnTo, "Registration successful", `Welcome, ${user.fullName}!`);
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
    <form
      ref={form}
      className="stack"
      onSubmit={onSubmit}
      noValidate
      aria-busy={isPending || undefined}
    >
      <TextField
        id="register-email"
        label="Email"
        type="email"
        value={email}
        onValue={setEmail}
        error={errors.email}
        autoComplete="email"
        maxLength={254}
      />
      <TextField
        id="register-name"
        label="Full Name"
        value={fullName}
        onValue={setFullName}
        error={errors.fullName}
        autoComplete="name"
        maxLength={100}
      />
      <TextField
        id="register-password"
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
      <button type="submit" className="btn btn--primary btn--block" disabled={isPending}>
        {isPending ? "Creating account..." : "Create account"}
      </button>
    </form>
  );
}
