import { type FormEvent, useEffect, useState } from "react";
import { forgetUrlToken } from "./_url_token.ts";
import { ApiError, apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { navigate } from "./_nav.ts";
import { dashboardPath } from "../lib/return_to.ts";
import {
  CheckedForm,
  PASSWORD_MIN_LENGTH,
  PASSWORD_TOO_SHORT,
  PASSWORDS_DONT_MATCH,
  Spinner,
  TextField,
} from "./_fields.tsx";

/** What the link is for (db/password_resets.ts `PasswordTokenPurpose`). */
export type SetPasswordPurpose = "reset" | "invitation";

/** The page title of /reset-password for each kind of link. */
export const SET_PASSWORD_TITLES: Record<SetPasswordPurpose, string> = {
  reset: "Reset your password",
  invitation: "Choose your password",
};

/** Props of the reset-password island. */
export interface ResetPasswordFormProps {
  /** The `token` query parameter, or null when the link had none. */
  token: string | null;
  /**
   * `invitation` for a technician's or surveyor's invitation link: the form asks them to
   * choose their password, and on success they are signed in and sent to their dashboard.
   * `reset` (the default) is the spec's forgot-password reset.
   */
  purpose?: SetPasswordPurpose;
}

/** What /api/reset-password answers for an invitation: the person is signed in. */
interface SignedInAnswer {
  message?: string;
  user?: { fullName?: string; role?: string };
  redirectTo?: string;
}

/** Spec section 4: the link check goes unknown → valid | invalid; the form idle → success. */
export type ResetState = "verifying" | "invalid" | "form" | "success";

type Errors = { password?: string; confirmPassword?: string };

/**
 * /reset-password: verifies the token (spinner), then shows the invalid-link panel, the
 * new-password form (with the account's email when the server gave one) or, after a reset,
 * the success panel with 'Go to Login'. No token means an invalid link. An invitation link
 * reads "Welcome" / "Choose your password" and, once set, goes to the person's dashboard
 * (the server signed them in).
 */
export default function ResetPasswordForm(
  { token, purpose = "reset" }: ResetPasswordFormProps,
) {
  const isInvitation = purpose === "invitation";
  const [state, setState] = useState<ResetState>(token ? "verifying" : "invalid");
  const [email, setEmail] = useState<string | null>(null);
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [isPending, setPending] = useState(false);

  // The token stays in props (memory); the address bar no longer shows it.
  useEffect(forgetUrlToken, []);

  useEffect(() => {
    if (!token) return;
    let isCurrent = true;
    apiJson<{ success?: boolean; email?: string }>(
      "GET",
      `/api/reset-password/verify?token=${encodeURIComponent(token)}`,
    ).then((result) => {
      if (!isCurrent) return;
      if (result?.success) {
        setEmail(typeof result.email === "string" && result.email ? result.email : null);
        setState("form");
      } else {
        setState("invalid");
      }
    }).catch(() => isCurrent && setState("invalid"));
    return () => {
      isCurrent = false;
    };
  }, [token]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: Errors = {
      password: password.length >= PASSWORD_MIN_LENGTH ? undefined : PASSWORD_TOO_SHORT,
      confirmPassword: confirmPassword.length < PASSWORD_MIN_LENGTH
        ? PASSWORD_TOO_SHORT
        : confirmPassword !== password
        ? PASSWORDS_DONT_MATCH
        : undefined,
    };
    setErrors(next);
    if (next.password || next.confirmPassword) return;
    setPending(true);
    try {
      const result = await apiJson<SignedInAnswer>("POST", "/api/reset-password", {
        token,
        password,
        confirmPassword,
      });
      if (result?.user) {
        setState("success");
        toast({
          title: "Password set",
          description: result.user.fullName ? `Welcome, ${result.user.fullName}!` : "Welcome!",
        });
        navigate(result.redirectTo ?? dashboardPath(result.user.role ?? ""));
        return;
      }
      toast({
        title: "Password reset successful",
        description: result?.message ?? "You can now sign in with your new password.",
      });
      setState("success");
    } catch (err) {
      toast({
        title: isInvitation ? "Password not set" : "Password reset failed",
        description: err instanceof ApiError
          ? errorMessage(err, "Failed to reset password. Please try again.")
          : "An error occurred. Please try again later.",
        variant: "destructive",
      });
    } finally {
      setPending(false);
    }
  }

  if (state === "verifying") {
    return (
      <div className="auth-card__center" role="status" aria-live="polite">
        <h1 className="visually-hidden">{SET_PASSWORD_TITLES[purpose]}</h1>
        <Spinner />
        <p>{isInvitation ? "Verifying your invitation link..." : "Verifying your reset link..."}</p>
      </div>
    );
  }

  if (state === "invalid") {
    return (
      <div className="auth-card__center">
        <span className="auth-card__icon auth-card__icon--danger" aria-hidden="true">
          <svg width="24" height="24" viewBox="0 0 24 24">
            <path
              d="M12 8v5m0 3h.01M10.3 3.9 2.4 17.5A2 2 0 0 0 4.1 20.5h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        </span>
        <h1>Invalid or Expired Link</h1>
        <p>This password reset link is invalid or has expired.</p>
        <p className="muted">Please request a new password reset link.</p>
        <div className="cluster">
          <a className="btn btn--primary" href="/forgot-password">Request New Link</a>
          <a className="btn btn--secondary" href="/auth">Back to Login</a>
        </div>
      </div>
    );
  }

  if (state === "success" && isInvitation) {
    return (
      <div className="auth-card__center" role="status">
        <h1>Welcome to Meridian</h1>
        <Spinner />
        <p>Your password is set. Taking you to your dashboard...</p>
      </div>
    );
  }

  if (state === "success") {
    return (
      <div className="auth-card__center" role="status">
        <span className="auth-card__icon auth-card__icon--success" aria-hidden="true">
          <svg width="24" height="24" viewBox="0 0 24 24">
            <path
              d="M20 6 9 17l-5-5"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        </span>
        <h1>Password reset successful</h1>
        <p>Your password has been changed. Sign in with your new password.</p>
        <a className="btn btn--primary" href="/auth">Go to Login</a>
      </div>
    );
  }

  return (
    <CheckedForm errors={errors} isPending={isPending} onSubmit={onSubmit}>
      <h1>{isInvitation ? "Welcome to Meridian" : "Reset your password"}</h1>
      <p className="auth-card__intro">
        {isInvitation
          ? (
            <>
              Choose your password{email
                ? (
                  <>
                    {" "}for <strong>{email}</strong>
                  </>
                )
                : null} to finish setting up your account.
            </>
          )
          : email
          ? (
            <>
              Choose a new password for <strong>{email}</strong>.
            </>
          )
          : "Enter your new password below"}
      </p>
      {email
        ? (
          <input
            type="email"
            name="username"
            autoComplete="username"
            value={email}
            readOnly
            hidden
          />
        )
        : null}
      <TextField
        id="reset-password"
        label={isInvitation ? "Password" : "New Password"}
        type="password"
        value={password}
        onValue={setPassword}
        error={errors.password}
        hint="At least 6 characters."
        autoComplete="new-password"
        maxLength={128}
      />
      <TextField
        id="reset-confirm-password"
        label={isInvitation ? "Confirm Password" : "Confirm New Password"}
        type="password"
        value={confirmPassword}
        onValue={setConfirmPassword}
        error={errors.confirmPassword}
        autoComplete="new-password"
        maxLength={128}
      />
      <button type="submit" className="btn btn--primary btn--block" disabled={isPending}>
        {isInvitation
          ? (isPending ? "Signing you in..." : "Set password and sign in")
          : isPending
          ? "Resetting password..."
          : "Reset Password"}
      </button>
    </CheckedForm>
  );
}
