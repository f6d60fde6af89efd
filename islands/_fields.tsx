/**
 * Form pieces shared by the islands: labelled inputs, selects, textareas and radio groups
 * with their hint and error wired for screen readers (the error sits next to the field, the
 * field says `aria-invalid`, and `aria-describedby` points at hint and error), a spinner, and
 * the account forms' checks.
 */
import {
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type TextareaHTMLAttributes,
  useEffect,
  useRef,
} from "react";

/** One choice of a select or radio group: the id the API takes and the label people read. */
export interface Choice {
  id: string;
  label: string;
}

/** Ids of the hint and error elements of field `id`. */
export function describedBy(id: string, hint?: ReactNode, error?: string): string | undefined {
  const ids = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

/**
 * The error line of field `id` (nothing when there is no error). Not a live region: after a
 * failed submit the form moves focus to the first invalid field (`CheckedForm`), and
 * the screen reader reads this line with it, instead of one alert per field.
 */
export function FieldError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p className="field__error" id={`${id}-error`}>
      <ErrorIcon />
      <span>{error}</span>
    </p>
  );
}

/** The small decorative "!" in a circle before an error message. */
export function ErrorIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16" className="cs-icon">
      <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M12 7v6m0 4h.01" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/** Where an island form goes when it is submitted without JavaScript (routes/no_script.tsx). */
export const NEEDS_JAVASCRIPT_PATH = "/needs-javascript";

/**
 * The `method` and `action` of every island form that sends what was typed through `fetch`:
 * without JavaScript it posts to `NEEDS_JAVASCRIPT_PATH` (see `CheckedForm`) instead of a GET
 * to the page's own address that would put the typed text in the address bar, the history and
 * the server's logs. Search and filter forms, whose GET is the point, do not use it.
 */
export const NO_SCRIPT_FORM = { method: "post", action: NEEDS_JAVASCRIPT_PATH } as const;

/** Props of `CheckedForm`. */
export interface CheckedFormProps {
  /** The island's own check results, keyed by field; a new object after every submit. */
  errors: object;
  isPending?: boolean;
  className?: string;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  children: ReactNode;
}

/**
 * A `<form>` the island checks itself (`noValidate`), busy while pending. After a failed
 * check it focuses the first field marked `aria-invalid`, once the errors have rendered, so
 * the field is announced with its new error. A press before the island runtime has loaded is
 * held by `_early.ts` and sent once the island has hydrated. Without JavaScript the form
 * submits natively: as a POST (a GET would put what was typed — passwords included — in the
 * address bar, the history and the server's logs) to `NEEDS_JAVASCRIPT_PATH`, whose page says
 * that the form needs JavaScript and links back, rather than to the page's own address,
 * which has no POST and would answer "Page not found".
 */
export function CheckedForm(
  { errors, isPending, className = "stack", onSubmit, children }: CheckedFormProps,
) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);
  return (
    <form
      ref={form}
      {...NO_SCRIPT_FORM}
      className={className}
      onSubmit={onSubmit}
      noValidate
      aria-busy={isPending || undefined}
    >
      {children}
    </form>
  );
}

/** What every field takes besides its control's own attributes. */
interface FieldProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  /** Says "(optional)" after the label; every other field is `required`. */
  optional?: boolean;
}

function Label({ id, label, optional }: Pick<FieldProps, "id" | "label" | "optional">) {
  return (
    <label className="field__label" htmlFor={id}>
      {/* One text node for a string label, so the server HTML reads "Phone (optional)". */}
      {optional && typeof label === "string" ? `${label} ` : label}
      {optional
        ? (
          <>
            {typeof label === "string" ? null : " "}
            <span className="field__optional">(optional)</span>
          </>
        )
        : null}
    </label>
  );
}

function Hint({ id, hint }: { id: string; hint?: ReactNode }) {
  return hint ? <p className="field__hint" id={`${id}-hint`}>{hint}</p> : null;
}

/** Props of `TextField`: the field's, plus any `<input>` attribute. */
export interface TextFieldProps
  extends FieldProps, Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "onChange" | "value"> {
  value: string;
  onValue(value: string): void;
}

/** A `.field` with label, `<input>`, optional hint and error. `name` defaults to `id`. */
export function TextField(
  { id, label, hint, error, optional, value, onValue, ...input }: TextFieldProps,
) {
  return (
    <div className="field">
      <Label id={id} label={label} optional={optional} />
      <input
        {...input}
        id={id}
        name={input.name ?? id}
        className="field__input"
        value={value}
        required={!optional}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        onChange={(e) => onValue(e.currentTarget.value)}
      />
      <Hint id={id} hint={hint} />
      <FieldError id={id} error={error} />
    </div>
  );
}

/** Props of `TextareaField`: the field's, plus any `<textarea>` attribute. */
export interface TextareaFieldProps
  extends
    FieldProps,
    Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "onChange" | "value"> {
  value: string;
  onValue(value: string): void;
}

/** A labelled `<textarea>`; `className` adds to `field__input`. */
export function TextareaField(
  { id, label, hint, error, optional, value, onValue, className, ...textarea }: TextareaFieldProps,
) {
  return (
    <div className="field">
      <Label id={id} label={label} optional={optional} />
      <textarea
        {...textarea}
        id={id}
        name={textarea.name ?? id}
        className={className ? `field__input ${className}` : "field__input"}
        value={value}
        required={!optional}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        onChange={(e) => onValue(e.currentTarget.value)}
      />
      <Hint id={id} hint={hint} />
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A labelled `<select>` with a "Choose…" placeholder option (none when `placeholder` is null). */
export function SelectField(
  { id, label, hint, error, optional, value, onValue, choices, name = id, placeholder = "Choose…" }:
    & FieldProps
    & {
      value: string;
      onValue(value: string): void;
      choices: readonly Choice[];
      name?: string;
      placeholder?: string | null;
    },
) {
  return (
    <div className="field">
      <Label id={id} label={label} optional={optional} />
      <select
        id={id}
        name={name}
        className="field__input"
        value={value}
        required={!optional}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        onChange={(e) => onValue(e.currentTarget.value)}
      >
        {placeholder !== null ? <option value="">{placeholder}</option> : null}
        {choices.map((c) => <option key={c.id} value={c.id}>{c.label}</option>)}
      </select>
      <Hint id={id} hint={hint} />
      <FieldError id={id} error={error} />
    </div>
  );
}

/**
 * A group of radio buttons in a fieldset. The first radio carries `id`, so focusing the
 * field after a failed check lands on the group.
 */
export function RadioGroup(
  { id, label, hint, error, value, onValue, choices, inline = true }: FieldProps & {
    value: string;
    onValue(value: string): void;
    choices: readonly Choice[];
    inline?: boolean;
  },
) {
  return (
    <fieldset
      className="field cs-radios"
      aria-describedby={describedBy(id, hint, error)}
    >
      <legend className="field__label">{label}</legend>
      <Hint id={id} hint={hint} />
      <div
        className={inline ? "cs-radios__options cs-radios__options--inline" : "cs-radios__options"}
      >
        {choices.map((c, i) => (
          <label key={c.id} className="cs-radio">
            <input
              type="radio"
              id={i === 0 ? id : `${id}-${c.id}`}
              name={id}
              value={c.id}
              checked={value === c.id}
              aria-invalid={error ? true : undefined}
              onChange={() => onValue(c.id)}
            />
            <span>{c.label}</span>
          </label>
        ))}
      </div>
      <FieldError id={id} error={error} />
    </fieldset>
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
