/**
 * Sign-in and registration, shared by /auth (AuthForm) and the request flow's contact step,
 * where a visitor signs in without leaving the page. The forms own the spec's texts: labels,
 * pending texts and the 'Login successful' / 'Registration successful' and failure toasts.
 */
import { type FormEvent, type KeyboardEvent, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast, toastAfterNavigation, type ToastInput } from "./_toast.ts";
import {
  CheckedForm,
  isEmail,
  PASSWORD_MIN_LENGTH,
  PASSWORD_TOO_SHORT,
  TextField,
} from "./_fields.tsx";
import { showSignedInHeader } from "./_site_header.ts";

/** The user as POST /api/login and /api/register return it. */
export interface AuthUser {
  id: string;
  fullName: string;
  email: string;
  role: string;
  phone: string | null;
}

/** Which form a tab shows. */
export type AuthTab = "login" | "register";

/** Props of `LoginForm` and `RegisterForm`. */
export interface AuthFormsProps {
  /** Prepended to every element id ("cs-" in the request flow, "" on /auth). */
  idPrefix: string;
  /** Called once the server has signed the user in (the greeting toast is already up). */
  onSignedIn(user: AuthUser): void;
  /**
   * The form sits inside another page the user stays on: the greeting shows at once rather
   * than after a navigation, 'Forgot Password?' opens in a new tab so nothing entered is
   * lost, and the submit button is not full width.
   */
  isInline?: boolean;
}

type Errors = Record<string, string | undefined>;

/** Greets the user (spec section 3) and hands them to the caller. */
function signedIn(
  props: AuthFormsProps,
  user: AuthUser | null,
  greeting: (user: AuthUser) => ToastInput,
) {
  if (!user?.id) throw new Error("Empty response");
  (props.isInline ? toast : toastAfterNavigation)(greeting(user));
  // Inline, the page stays: its header must stop offering 'Login / Register'.
  if (props.isInline) showSignedInHeader();
  props.onSignedIn(user);
}

function submitClass(isInline?: boolean) {
  return isInline ? "btn btn--primary" : "btn btn--primary btn--block";
}

/** 'Email or Username' and 'Password'; POST /api/login. */
export function LoginForm(props: AuthFormsProps) {
  const { idPrefix, isInline } = props;
  const [identifier, setIdentifier] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [isPending, setPending] = useState(false);

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
      signedIn(props, user, (u) => ({
        title: "Login successful",
        description: `Welcome back, ${u.fullName}!`,
      }));
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
    <CheckedForm errors={errors} isPending={isPending} onSubmit={onSubmit}>
      <TextField
        id={`${idPrefix}login-identifier`}
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
        id={`${idPrefix}login-password`}
        label="Password"
        type="password"
        value={password}
        onValue={setPassword}
        error={errors.password}
        autoComplete="current-password"
        maxLength={128}
      />
      <p className="auth-card__links">
        {isInline
          ? <a href="/forgot-password" target="_blank" rel="noopener">Forgot Password?</a>
          : <a href="/forgot-password">Forgot Password?</a>}
      </p>
      <button type="submit" className={submitClass(isInline)} disabled={isPending}>
        {isPending ? "Signing in..." : "Sign in"}
      </button>
    </CheckedForm>
  );
}

/** 'Email', 'Full Name' and 'Password'; POST /api/register with username = email. */
export function RegisterForm(props: AuthFormsProps) {
  const { idPrefix, isInline } = props;
  const [email, setEmail] = useState("");
  const [fullName, setFullName] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [isPending, setPending] = useState(false);

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
      signedIn(props, user, (u) => ({
        title: "Registration successful",
        description: `Welcome, ${u.fullName}!`,
      }));
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
    <CheckedForm errors={errors} isPending={isPending} onSubmit={onSubmit}>
      <TextField
        id={`${idPrefix}register-email`}
        label="Email"
        type="email"
        value={email}
        onValue={setEmail}
        error={errors.email}
        autoComplete="email"
        maxLength={254}
      />
      <TextField
        id={`${idPrefix}register-fullName`}
        label="Full Name"
        value={fullName}
        onValue={setFullName}
        error={errors.fullName}
        autoComplete="name"
        maxLength={100}
      />
      <TextField
        id={`${idPrefix}register-password`}
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
      <button type="submit" className={submitClass(isInline)} disabled={isPending}>
        {isPending ? "Creating account..." : "Create account"}
      </button>
    </CheckedForm>
  );
}

/** Props of `AuthTabs`. */
export interface AuthTabsProps extends AuthFormsProps {
  /** The two tabs in order, with their names. */
  tabs: readonly [{ id: AuthTab; label: string }, { id: AuthTab; label: string }];
  initialTab: AuthTab;
  /** Accessible name of the tab list. */
  label: string;
  className: string;
  panelClassName: string;
}

/**
 * Login and Register as ARIA tabs: arrow keys switch, Home and End go to the first and last;
 * the tabs are `{idPrefix}auth-tab-{login|register}`.
 */
export function AuthTabs(
  { tabs, initialTab, label, className, panelClassName, ...forms }: AuthTabsProps,
) {
  const [tab, setTab] = useState<AuthTab>(initialTab);
  const tabId = (t: AuthTab) => `${forms.idPrefix}auth-tab-${t}`;
  const panelId = (t: AuthTab) => `${forms.idPrefix}auth-panel-${t}`;

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    event.preventDefault();
    const [first, last] = tabs;
    const next = event.key === "Home"
      ? first.id
      : event.key === "End"
      ? last.id
      : tab === first.id
      ? last.id
      : first.id;
    setTab(next);
    document.getElementById(tabId(next))?.focus();
  }

  return (
    <div className={className}>
      <div role="tablist" aria-label={label}>
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={tabId(t.id)}
            aria-selected={tab === t.id}
            aria-controls={panelId(t.id)}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
            onKeyDown={onKeyDown}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={panelId(tab)}
        aria-labelledby={tabId(tab)}
        className={panelClassName}
      >
        {tab === "login" ? <LoginForm {...forms} /> : <RegisterForm {...forms} />}
      </div>
    </div>
  );
}
