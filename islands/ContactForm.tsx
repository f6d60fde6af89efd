import { type FormEvent, useEffect, useRef, useState } from "react";
import {
  CONTACT_LIMITS,
  CONTACT_TOPICS,
  type ContactInput,
  validateContact,
} from "../lib/contact.ts";

/** Props of the contact form. */
export interface ContactFormProps {
  /** Prefix for element ids, unique per page. */
  id?: string;
}

type Field = keyof ContactInput;
type Errors = Partial<Record<Field, string>>;
const FIELDS: Field[] = ["name", "email", "phone", "topic", "message"];
const EMPTY: ContactInput = { name: "", email: "", phone: "", topic: "", message: "" };
const NETWORK_ERROR = "We couldn't send your message. Check your connection and try again.";
const FALLBACK_ERROR = "Something went wrong sending your message. Please try again.";

function AlertIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="9" />
      <path d="M12 8v4m0 4h.01" />
    </svg>
  );
}

/**
 * The support contact form. Checks fields before sending (messages next to each field),
 * POSTs JSON to /api/contact, shows the server's field errors or message inline, and a
 * success state once the message is stored.
 */
export default function ContactForm({ id = "contact" }: ContactFormProps) {
  const [values, setValues] = useState<ContactInput>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [isSubmitted, setIsSubmitted] = useState(false);
  const [status, setStatus] = useState<"idle" | "sending" | "sent">("idle");
  const [formError, setFormError] = useState<string | null>(null);
  const [sentMessage, setSentMessage] = useState("");
  // Until hydrated, the button stays disabled: the form only works through fetch.
  const [isReady, setIsReady] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const successRef = useRef<HTMLDivElement>(null);

  useEffect(() => setIsReady(true), []);
  useEffect(() => {
    if (status === "sent") successRef.current?.focus();
  }, [status]);

  const fieldId = (f: Field) => `${id}-${f}`;

  function focusFirstError(errs: Errors) {
    const first = FIELDS.find((f) => errs[f]);
    if (first) formRef.current?.querySelector<HTMLElement>(`#${fieldId(first)}`)?.focus();
  }

  function update(field: Field, value: string) {
    const next = { ...values, [field]: value };
    setValues(next);
    // After a first submit, keep errors in step with what is typed so fixes show at once.
    if (isSubmitted) setErrors(validateContact(next));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status === "sending") return;
    setIsSubmitted(true);
    setFormError(null);
    const errs = validateContact(values);
    setErrors(errs);
    if (Object.keys(errs).length > 0) {
      focusFirstError(errs);
      return;
    }
    setStatus("sending");
    const phone = values.phone.trim();
    let res: Response;
    try {
      res = await fetch("/api/contact", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          name: values.name.trim(),
          email: values.email.trim(),
          ...(phone ? { phone } : {}),
          topic: values.topic,
          message: values.message.trim(),
        }),
      });
    } catch {
      setStatus("idle");
      setFormError(NETWORK_ERROR);
      return;
    }
    let body: { message?: string; errors?: Record<string, string> } | null = null;
    try {
      body = await res.json();
    } catch {
      body = null;
    }
    if (res.ok) {
      setSentMessage(body?.message ?? "Thanks — we'll reply within one business day.");
      setStatus("sent");
      return;
    }
    setStatus("idle");
    const serverErrors: Errors = {};
    for (const f of FIELDS) {
      const text = body?.errors?.[f];
      if (typeof text === "string") serverErrors[f] = text;
    }
    setErrors(serverErrors);
    setFormError(body?.message ?? FALLBACK_ERROR);
    focusFirstError(serverErrors);
  }

  function reset() {
    setValues(EMPTY);
    setErrors({});
    setIsSubmitted(false);
    setFormError(null);
    setStatus("idle");
  }

  if (status === "sent") {
    return (
      <div
        ref={successRef}
        className="alert alert--success contact-form__success"
        role="status"
        tabIndex={-1}
      >
        <div className="stack">
          <h2 className="contact-form__success-title">Message sent</h2>
          <p>{sentMessage}</p>
          <p>
            <button type="button" className="btn btn--secondary btn--sm" onClick={reset}>
              Send another message
            </button>
          </p>
        </div>
      </div>
    );
  }

  function describedBy(f: Field, hint?: string) {
    const ids = [hint, errors[f] ? `${fieldId(f)}-error` : undefined].filter(Boolean);
    return ids.length ? ids.join(" ") : undefined;
  }

  function errorText(f: Field) {
    return errors[f]
      ? (
        <p className="field__error" id={`${fieldId(f)}-error`}>
          <AlertIcon />
          {errors[f]}
        </p>
      )
      : null;
  }

  const messageLength = values.message.trim().length;
  return (
    <form
      ref={formRef}
      className="contact-form"
      noValidate
      onSubmit={onSubmit}
    >
      <div className="grid-2 contact-form__row">
        <div className="field">
          <label className="field__label" htmlFor={fieldId("name")}>Your name</label>
          <input
            id={fieldId("name")}
            className="field__input"
            name="name"
            autoComplete="name"
            maxLength={CONTACT_LIMITS.name}
            value={values.name}
            onChange={(e) => update("name", e.currentTarget.value)}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describedBy("name")}
            required
          />
          {errorText("name")}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={fieldId("email")}>Email</label>
          <input
            id={fieldId("email")}
            className="field__input"
            name="email"
            type="email"
            autoComplete="email"
            maxLength={CONTACT_LIMITS.email}
            value={values.email}
            onChange={(e) => update("email", e.currentTarget.value)}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={describedBy("email")}
            required
          />
          {errorText("email")}
        </div>
      </div>
      <div className="grid-2 contact-form__row">
        <div className="field">
          <label className="field__label" htmlFor={fieldId("phone")}>
            Phone <span className="field__optional">(optional)</span>
          </label>
          <input
            id={fieldId("phone")}
            className="field__input"
            name="phone"
            type="tel"
            autoComplete="tel"
            maxLength={CONTACT_LIMITS.phone}
            value={values.phone}
            onChange={(e) => update("phone", e.currentTarget.value)}
            aria-invalid={errors.phone ? true : undefined}
            aria-describedby={describedBy("phone")}
          />
          {errorText("phone")}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={fieldId("topic")}>Topic</label>
          <select
            id={fieldId("topic")}
            className="field__input"
            name="topic"
            value={values.topic}
            onChange={(e) => update("topic", e.currentTarget.value)}
            aria-invalid={errors.topic ? true : undefined}
            aria-describedby={describedBy("topic")}
            required
          >
            <option value="">Choose a topic</option>
            {CONTACT_TOPICS.map((t) => <option key={t.value} value={t.value}>{t.label}</option>)}
          </select>
          {errorText("topic")}
        </div>
      </div>
      <div className="field contact-form__row">
        <label className="field__label" htmlFor={fieldId("message")}>Message</label>
        <textarea
          id={fieldId("message")}
          className="field__input"
          name="message"
          rows={6}
          maxLength={CONTACT_LIMITS.messageMax}
          value={values.message}
          onChange={(e) => update("message", e.currentTarget.value)}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={describedBy("message", `${fieldId("message")}-hint`)}
          required
        />
        <p className="field__hint" id={`${fieldId("message")}-hint`}>
          Include the property address or request number if you have one.{" "}
          <span className="contact-form__count">
            {messageLength} / {CONTACT_LIMITS.messageMax}
          </span>
        </p>
        {errorText("message")}
      </div>
      {formError
        ? (
          <div
            className="alert alert--error contact-form__error"
            role="alert"
            id={`${id}-form-error`}
          >
            <AlertIcon />
            <span>{formError}</span>
          </div>
        )
        : null}
      <div className="form-actions">
        <button
          type="submit"
          className="btn btn--primary"
          disabled={!isReady || status === "sending"}
        >
          {status === "sending" ? "Sending..." : "Send message"}
        </button>
        <p className="muted contact-form__promise">We reply within one business day.</p>
      </div>
    </form>
  );
}
