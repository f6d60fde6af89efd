import { type FormEvent, useState } from "react";
import { ApiError, apiRequest, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { CheckedForm, isEmail, TextField } from "./_fields.tsx";

/** Props of the forgot-password island (none). */
export type ForgotPasswordFormProps = Record<string, never>;

/** Spec section 8: the one answer, whether or not the account exists. */
export const CHECK_EMAIL_TEXT =
  "If an account with this email exists, you'll receive instructions to reset your password.";

/**
 * /forgot-password: asks for the email, then always shows 'Check your email' (spec section 7:
 * the outcome is always shown as success) so nobody can probe which accounts exist. The one
 * exception is a 429: the user must know to wait, and it says nothing about the account.
 */
export default function ForgotPasswordForm(_props: ForgotPasswordFormProps) {
  const [email, setEmail] = useState("");
  const [errors, setErrors] = useState<{ email?: string }>({});
  const [isPending, setPending] = useState(false);
  const [isSent, setSent] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!isEmail(email)) {
      setErrors({ email: "Please enter a valid email address" });
      return;
    }
    setErrors({});
    setPending(true);
    try {
      await apiRequest("POST", "/api/forgot-password", { email: email.trim() });
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) {
        setPending(false);
        toast({
          title: "Error",
          description: errorMessage(err, "Too many requests. Please try again later."),
          variant: "destructive",
        });
        return;
      }
    }
    setPending(false);
    setSent(true);
  }

  if (isSent) {
    return (
      <div className="auth-card__center" role="status">
        <span className="auth-card__icon auth-card__icon--success" aria-hidden="true">
          <svg width="24" height="24" viewBox="0 0 24 24">
            <path
              d="M4 5h16a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1Zm0 1 8 7 8-7"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinejoin="round"
            />
          </svg>
        </span>
        <h2>Check your email</h2>
        <p>{CHECK_EMAIL_TEXT}</p>
        <p className="muted">The link works once and expires in 1 hour.</p>
        <a className="btn btn--secondary" href="/auth">Back to login</a>
      </div>
    );
  }

  return (
    <CheckedForm errors={errors} isPending={isPending} onSubmit={onSubmit}>
      <TextField
        id="forgot-email"
        label="Email"
        type="email"
        value={email}
        onValue={setEmail}
        error={errors.email}
        autoComplete="email"
        maxLength={254}
      />
      <button type="submit" className="btn btn--primary btn--block" disabled={isPending}>
        {isPending ? "Sending reset link..." : "Send reset link"}
      </button>
      <p className="auth-card__links">
        <a href="/auth">Back to login</a>
      </p>
    </CheckedForm>
  );
}
