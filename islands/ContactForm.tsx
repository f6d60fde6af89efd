import { type FormEvent, useEffect, useRef, useState } from "react";
import {
  CONTACT_LIMITS,
  CONTACT_TOPICS,
  type ContactInput,
  validateContact,
} from "../lib/contact.ts";
import { ErrorIcon, NO_SCRIPT_FORM, SelectField, TextareaField, TextField } from "./_fields.tsx";

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

const TOPIC_CHOICES = CONTACT_TOPICS.map((t) => ({ id: t.value, label: t.label }));

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

  const messageLength = values.message.trim().length;
  return (
    <form
      {...NO_SCRIPT_FORM}
      ref={formRef}
      className="contact-form"
      noValidate
      onSubmit={onSubmit}
    >
      <div className="grid-2 contact-form__row">
        <TextField
          id={fieldId("name")}
          name="name"
          label="Your name"
          autoComplete="name"
          maxLength={CONTACT_LIMITS.name}
          value={values.name}
          onValue={(v) => update("name", v)}
          error={errors.name}
        />
        <TextField
          id={fieldId("email")}
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          maxLength={CONTACT_LIMITS.email}
          value={values.email}
          onValue={(v) => update("email", v)}
          error={errors.email}
        />
      </div>
      <div className="grid-2 contact-form__row">
        <TextField
          id={fieldId("phone")}
          name="phone"
          label="Phone"
          optional
          type="tel"
          autoComplete="tel"
          maxLength={CONTACT_LIMITS.phone}
          value={values.phone}
          onValue={(v) => update("phone", v)}
          error={errors.phone}
        />
        <SelectField
          id={fieldId("topic")}
          name="topic"
          label="Topic"
          placeholder="Choose a topic"
          choices={TOPIC_CHOICES}
          value={values.topic}
          onValue={(v) => update("topic", v)}
          error={errors.topic}
        />
      </div>
      <div className="contact-form__row">
        <TextareaField
          id={fieldId("message")}
          name="message"
          label="Message"
          rows={6}
          maxLength={CONTACT_LIMITS.messageMax}
          value={values.message}
          onValue={(v) => update("message", v)}
          error={errors.message}
          hint={
            <>
              Include the property address or request number if you have one.{" "}
              <span className="contact-form__count">
                {messageLength} / {CONTACT_LIMITS.messageMax}
              </span>
            </>
          }
        />
      </div>
      {formError
        ? (
          <div
            className="alert alert--error contact-form__error"
            role="alert"
            id={`${id}-form-error`}
          >
            <ErrorIcon />
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
