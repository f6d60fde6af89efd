/**
 * Form fields with their label, hint and error wired for screen readers: the error sits next
 * to the field, the field says `aria-invalid`, and `aria-describedby` points at hint and error.
 */
import type { ReactNode } from "react";
import type { Choice } from "./types.ts";

/** Ids of the hint and error elements of field `id`. */
export function describedBy(id: string, hint?: ReactNode, error?: string): string | undefined {
  const ids = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

/** The error line of field `id` (nothing when there is no error). */
export function FieldError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p className="field__error" id={`${id}-error`}>
      <svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16" className="cs-icon">
        <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M12 7v6m0 4h.01" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <span>{error}</span>
    </p>
  );
}

interface BaseProps {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  optional?: boolean;
}

function Label({ id, label, optional }: Pick<BaseProps, "id" | "label" | "optional">) {
  return (
    <label className="field__label" htmlFor={id}>
      {label}
      {optional
        ? (
          <>
            {" "}
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

/** A labelled `<input>`. */
export function TextField(
  { id, label, hint, error, optional, value, onChange, type = "text", ...rest }: BaseProps & {
    value: string;
    onChange(value: string): void;
    type?: string;
    inputMode?: "text" | "decimal" | "numeric" | "tel" | "email";
    autoComplete?: string;
    min?: string | number;
    max?: string | number;
    step?: string | number;
    maxLength?: number;
    placeholder?: string;
  },
) {
  return (
    <div className="field">
      <Label id={id} label={label} optional={optional} />
      <input
        {...rest}
        id={id}
        name={id}
        type={type}
        className="field__input"
        value={value}
        required={!optional}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
      <Hint id={id} hint={hint} />
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A labelled `<textarea>`. */
export function TextareaField(
  { id, label, hint, error, optional, value, onChange, maxLength, placeholder }: BaseProps & {
    value: string;
    onChange(value: string): void;
    maxLength?: number;
    placeholder?: string;
  },
) {
  return (
    <div className="field">
      <Label id={id} label={label} optional={optional} />
      <textarea
        id={id}
        name={id}
        className="field__input cs-textarea"
        value={value}
        rows={3}
        maxLength={maxLength}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
      <Hint id={id} hint={hint} />
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A labelled `<select>` with a "Choose…" placeholder option. */
export function SelectField(
  { id, label, hint, error, optional, value, onChange, choices, placeholder = "Choose…" }:
    & BaseProps
    & {
      value: string;
      onChange(value: string): void;
      choices: readonly Choice[];
      placeholder?: string | null;
    },
) {
  return (
    <div className="field">
      <Label id={id} label={label} optional={optional} />
      <select
        id={id}
        name={id}
        className="field__input"
        value={value}
        required={!optional}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        onChange={(e) => onChange(e.currentTarget.value)}
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
  { id, label, hint, error, value, onChange, choices, inline = true }: BaseProps & {
    value: string;
    onChange(value: string): void;
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
              onChange={() => onChange(c.id)}
            />
            <span>{c.label}</span>
          </label>
        ))}
      </div>
      <FieldError id={id} error={error} />
    </fieldset>
  );
}
