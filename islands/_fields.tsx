/** Form pieces shared by the account islands: a labelled input with its error, and a spinner. */
import type { InputHTMLAttributes, ReactNode } from "react";

/** Props of `TextField`. */
export interface TextFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value"> {
  id: string;
  label: ReactNode;
  value: string;
  onValue(value: string): void;
  error?: string;
  hint?: ReactNode;
}

/**
 * A `.field` with label, input, optional hint and error. The error is tied to the input with
 * `aria-describedby` and `aria-invalid`, so screen readers read it with the field.
 */
export function TextField(
  { id, label, value, onValue, error, hint, ...input }: TextFieldProps,
) {
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""]
    .filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>{label}</label>
      <input
        {...input}
        id={id}
        name={input.name ?? id}
        className="field__input"
        value={value}
        onChange={(e) => onValue(e.currentTarget.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint ? <p className="field__hint" id={`${id}-hint`}>{hint}</p> : null}
      {error ? <p className="field__error" id={`${id}-error`} role="alert">{error}</p> : null}
    </div>
  );
}

/** The shared `.spinner` with an accessible label. */
export function Spinner({ label }: { label?: string }) {
  return <span className="spinner" role={label ? "img" : undefined} aria-label={label} />;
}

/** Loose email shape check, the same one the server applies before looking anything up. */
export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()) && value.trim().length <= 254;
}

/** Spec section 9: the minimum password length. */
export const PASSWORD_MIN_LENGTH = 6;
/** Spec section 5: the message for a password under the minimum. */
export const PASSWORD_TOO_SHORT = "Password must be at least 6 characters";
/** Spec section 5: the message when the confirmation differs. */
export const PASSWORDS_DONT_MATCH = "Passwords don't match";
