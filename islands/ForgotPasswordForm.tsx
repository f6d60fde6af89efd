import { type FormEvent, useEffect, useRef, useState } from "react";
import { ApiError, apiRequest } from "./_api.ts";
import { CheckedForm, isEmail, TextField } from "./_fields.tsx";

/** Props of the forgot-password island (none). */
export type ForgotPasswordFormProps = Record<string, never>;

/** Shown when the request never reached the server or found it unavailable: nothing was sent. */
export const NOT_SENT_TEXT =
  "We could not send your request: check your connection and try again in a moment.";

/** Spec section 8: the one answer, whether or not the account exists. */
export const CHECK_EMAIL_TEXT =
  "If an account with this email exists, you'll receive instructions to reset your password.";

/**
 * /forgot-password: the card's heading, intro and email field, then only a 'Check your email'
 * confirmation with 'Back to login' (spec section 7: the outcome is always shown as success),
 * so nobody can probe which accounts exist. That includes a 429: the spec's "always success"
 * leaves no exception, and a rate limit says nothing about the account either. What is not an
 * outcome is a request that never got one: no connection, or the server unavailable (503, for
 * any address alike). Then nothing was sent, and the form says so and stays, to try again.
 */
export default function ForgotPasswordForm(_props: ForgotPasswordFormProps) {
  const [email, setEmail] = useState("");
  const [errors, setErrors] = useState<{ email?: string }>({});
  const [isPending, setPending] = useState(false);
  const [isSent, setSent] = useState(false);
  const [notSent, setNotSent] = useState(false);
  const sentHeading = useRef<HTMLHeadingElement>(null);

  // The form that had focus is gone: the confirmation's heading takes it.
  useEffect(() => {
    if (isSent) sentHeading.current?.focus();
  }, [isSent]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!isEmail(email)) {
      setErrors({ email: "Please enter a valid email address" });
      return;
    }
    setErrors({});
    setNotSent(false);
    setPending(true);
    // Whatever the server answered, the visitor sees the same confirmation; but a request that
    // got no answer, or found the server unavailable, sent nothing.
    let isAnswered = true;
    try {
      await apiRequest("POST", "/api/forgot-password", { email: email.trim() });
    } catch (err) {
      isAnswered = err instanceof ApiError && err.status !== 503;
    }
    setPending(false);
    if (isAnswered) setSent(true);
    else setNotSent(true);
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
        <h1 ref={sentHeading} tabIndex={-1}>Check your email</h1>
        <p>{CHECK_EMAIL_TEXT}</p>
        <p className="muted">The link works once and expires in 1 hour.</p>
        <a className="btn btn--secondary" href="/auth">Back to login</a>
      </div>
    );
  }

  return (
    <>
      <h1>Forgot your password?</h1>
      <p className="auth-card__intro">
        Enter the email address of your account and we will send you a link to choose a new
        password.
      </p>
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
        {notSent ? <div className="alert alert--error" role="alert">{NOT_SENT_TEXT}</div> : null}
        <button type="submit" className="btn btn--primary btn--block" disabled={isPending}>
          {isPending ? "Sending reset link..." : "Send reset link"}
        </button>
        <p className="auth-card__links">
          <a href="/auth">Back to login</a>
        </p>
      </CheckedForm>
    </>
  );
}
