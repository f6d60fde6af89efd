/**
 * The contacts editor of /surveyor-detail/{id}: the ordered list of people at the firm
 * (addressed by index, as the API does), with add, edit, mark primary and remove. Each change
 * answers with the whole record, whose list replaces ours, so what is shown is what is
 * stored even when another admin edited the list meanwhile.
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { CheckedForm, TextField } from "./_fields.tsx";
import { fieldErrors, MAX_CONTACTS, text } from "./_surveyor_shared.ts";
import type { Surveyor, SurveyorContact } from "../lib/surveyor_schema.ts";

interface ContactDraft {
  name: string;
  title: string;
  email: string;
  phone: string;
  isPrimary: boolean;
}

function draftOf(c?: SurveyorContact): ContactDraft {
  return {
    name: text(c?.name),
    title: text(c?.title),
    email: text(c?.email),
    phone: text(c?.phone),
    isPrimary: c?.isPrimary ?? false,
  };
}

/** The fields of a contact form; `prefix` keeps ids unique per form. */
function ContactForm({ prefix, initial, submitLabel, pendingLabel, onSubmit, onCancel }: {
  prefix: string;
  initial: ContactDraft;
  submitLabel: string;
  pendingLabel: string;
  /** Resolves to the server's field errors (empty when it worked). */
  onSubmit(draft: ContactDraft): Promise<Record<string, string>>;
  onCancel(): void;
}) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isPending, setPending] = useState(false);
  const first = useRef<HTMLDivElement>(null);
  useEffect(() => first.current?.querySelector("input")?.focus(), []);

  function set<K extends keyof ContactDraft>(key: K, value: ContactDraft[K]) {
    setDraft((d) => ({ ...d, [key]: value }));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!draft.name.trim()) {
      setErrors({ name: "Enter the contact's name" });
      return;
    }
    setPending(true);
    const found = await onSubmit(draft);
    setPending(false);
    setErrors(found);
  }

  return (
    <CheckedForm
      errors={errors}
      isPending={isPending}
      className="stack surveyor-contact-form"
      onSubmit={submit}
    >
      <div ref={first}>
        <TextField
          id={`${prefix}-name`}
          name="name"
          label="Name"
          autoComplete="off"
          maxLength={120}
          value={draft.name}
          error={errors.name}
          onValue={(v) => set("name", v)}
        />
      </div>
      <TextField
        id={`${prefix}-title`}
        name="title"
        label="Title"
        optional
        maxLength={120}
        value={draft.title}
        error={errors.title}
        onValue={(v) => set("title", v)}
      />
      <div className="surveyor-form__pair">
        <TextField
          id={`${prefix}-email`}
          name="email"
          type="email"
          label="Email"
          optional
          autoComplete="off"
          maxLength={254}
          value={draft.email}
          error={errors.email}
          onValue={(v) => set("email", v)}
        />
        <TextField
          id={`${prefix}-phone`}
          name="phone"
          type="tel"
          label="Phone"
          optional
          autoComplete="off"
          maxLength={40}
          value={draft.phone}
          error={errors.phone}
          onValue={(v) => set("phone", v)}
        />
      </div>
      <label className="surveyor-check" htmlFor={`${prefix}-primary`}>
        <input
          id={`${prefix}-primary`}
          type="checkbox"
          checked={draft.isPrimary}
          onChange={(e) => set("isPrimary", e.currentTarget.checked)}
        />{" "}
        Primary contact
      </label>
      <div className="form-actions">
        <button type="button" className="btn btn--ghost btn--sm" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn--primary btn--sm" disabled={isPending}>
          {isPending ? pendingLabel : submitLabel}
        </button>
      </div>
    </CheckedForm>
  );
}

/** Only the fields that changed (PATCH takes any subset); "" clears a field. */
function changed(before: ContactDraft, after: ContactDraft): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const key of ["name", "title", "email", "phone"] as const) {
    if (after[key].trim() !== before[key].trim()) patch[key] = after[key].trim();
  }
  if (after.isPrimary !== before.isPrimary) patch.isPrimary = after.isPrimary;
  return patch;
}

/** Props of the contacts editor. */
export interface ContactsEditorProps {
  surveyorId: string;
  contacts: SurveyorContact[];
  /** The record the server returned after a change. */
  onChanged(surveyor: Surveyor): void;
}

type Mode = { kind: "list" } | { kind: "add" } | { kind: "edit"; index: number } | {
  kind: "remove";
  index: number;
};

/** The contacts card. */
export function ContactsEditor({ surveyorId, contacts, onChanged }: ContactsEditorProps) {
  const [mode, setMode] = useState<Mode>({ kind: "list" });
  const [busyIndex, setBusyIndex] = useState<number | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const base = `/api/surveyors/${surveyorId}/contacts`;

  // Where focus goes once the list is back: the add button after adding or removing.
  const focusAdd = useRef(false);
  useEffect(() => {
    if (mode.kind === "remove") keep.current?.focus();
    if (mode.kind === "list" && focusAdd.current) {
      focusAdd.current = false;
      addButton.current?.focus();
    }
  }, [mode]);

  function backToList(shouldFocusAdd = false) {
    focusAdd.current = shouldFocusAdd;
    setMode({ kind: "list" });
  }

  async function change(
    method: "POST" | "PATCH" | "DELETE",
    path: string,
    body: unknown,
    messages: { ok: string; failed: string; fallback: string },
  ): Promise<Record<string, string> | null> {
    try {
      const res = await apiJson<{ message?: string; surveyor?: Surveyor }>(method, path, body);
      if (!res?.surveyor) throw new Error("No surveyor in the answer");
      onChanged(res.surveyor);
      toast({ title: messages.ok, description: res.message });
      return null;
    } catch (err) {
      toast({
        title: messages.failed,
        description: errorMessage(err, messages.fallback),
        variant: "destructive",
      });
      return fieldErrors(err);
    }
  }

  async function add(draft: ContactDraft) {
    const errors = await change("POST", base, {
      name: draft.name.trim(),
      title: draft.title.trim(),
      email: draft.email.trim(),
      phone: draft.phone.trim(),
      isPrimary: draft.isPrimary,
    }, {
      ok: "Contact added",
      failed: "Failed to add contact",
      fallback: "Could not add the contact. Please try again.",
    });
    if (errors === null) backToList(true);
    return errors ?? {};
  }

  async function edit(index: number, draft: ContactDraft) {
    const patch = changed(draftOf(contacts[index]), draft);
    if (Object.keys(patch).length === 0) {
      backToList();
      return {};
    }
    const errors = await change("PATCH", `${base}/${index}`, patch, {
      ok: "Contact updated",
      failed: "Failed to update contact",
      fallback: "Could not update the contact. Please try again.",
    });
    if (errors === null) backToList();
    return errors ?? {};
  }

  async function makePrimary(index: number) {
    setBusyIndex(index);
    await change("PATCH", `${base}/${index}`, { isPrimary: true }, {
      ok: "Contact updated",
      failed: "Failed to update contact",
      fallback: "Could not update the contact. Please try again.",
    });
    setBusyIndex(null);
  }

  async function remove(index: number) {
    setBusyIndex(index);
    await change("DELETE", `${base}/${index}`, undefined, {
      ok: "Contact removed",
      failed: "Failed to remove contact",
      fallback: "Could not remove the contact. Please try again.",
    });
    setBusyIndex(null);
    backToList(true);
  }

  const isFull = contacts.length >= MAX_CONTACTS;
  return (
    <section className="card" aria-labelledby="surveyor-contacts-title">
      <div className="card__header">
        <h2 id="surveyor-contacts-title">Contacts</h2>
        <span className="badge badge--neutral">{contacts.length}</span>
      </div>
      <div className="card__body stack">
        {contacts.length === 0
          ? <p className="muted">No contacts yet. Add the people you talk to at this firm.</p>
          : (
            <ol className="surveyor-contacts" aria-label="Contacts, in order">
              {contacts.map((c, i) => (
                <li key={`${i}:${c.name}`} className="surveyor-contact" data-contact-index={i}>
                  {mode.kind === "edit" && mode.index === i
                    ? (
                      <ContactForm
                        prefix={`contact-${i}`}
                        initial={draftOf(c)}
                        submitLabel="Save contact"
                        pendingLabel="Saving..."
                        onSubmit={(draft) => edit(i, draft)}
                        onCancel={() =>
                          backToList()}
                      />
                    )
                    : (
                      <>
                        <div className="surveyor-contact__head">
                          <strong>{c.name}</strong>
                          {c.isPrimary ? <span className="badge badge--info">Primary</span> : null}
                        </div>
                        {c.title ? <p className="surveyor-contact__line">{c.title}</p> : null}
                        {c.email
                          ? (
                            <p className="surveyor-contact__line">
                              <a href={`mailto:${c.email}`}>{c.email}</a>
                            </p>
                          )
                          : null}
                        {c.phone
                          ? (
                            <p className="surveyor-contact__line">
                              <a href={`tel:${c.phone}`}>{c.phone}</a>
                            </p>
                          )
                          : null}
                        {mode.kind === "remove" && mode.index === i
                          ? (
                            <div
                              className="surveyor-contact__confirm"
                              role="group"
                              aria-label="Confirm removal"
                            >
                              <span>{`Remove ${c.name}?`}</span>
                              <button
                                ref={keep}
                                type="button"
                                className="btn btn--ghost btn--sm"
                                disabled={busyIndex === i}
                                onClick={() => backToList()}
                              >
                                Keep
                              </button>
                              <button
                                type="button"
                                className="btn btn--danger btn--sm"
                                disabled={busyIndex === i}
                                onClick={() =>
                                  remove(i)}
                              >
                                {busyIndex === i ? "Removing..." : "Remove"}
                              </button>
                            </div>
                          )
                          : (
                            <div className="surveyor-contact__actions">
                              <button
                                type="button"
                                className="btn btn--secondary btn--sm"
                                disabled={busyIndex !== null}
                                onClick={() => setMode({ kind: "edit", index: i })}
                              >
                                Edit<span className="visually-hidden">{` ${c.name}`}</span>
                              </button>
                              {c.isPrimary ? null : (
                                <button
                                  type="button"
                                  className="btn btn--ghost btn--sm"
                                  disabled={busyIndex !== null}
                                  onClick={() => makePrimary(i)}
                                >
                                  Make primary
                                  <span className="visually-hidden">{` ${c.name}`}</span>
                                </button>
                              )}
                              <button
                                type="button"
                                className="btn btn--ghost btn--sm"
                                disabled={busyIndex !== null}
                                onClick={() =>
                                  setMode({ kind: "remove", index: i })}
                              >
                                Remove<span className="visually-hidden">{` ${c.name}`}</span>
                              </button>
                            </div>
                          )}
                      </>
                    )}
                </li>
              ))}
            </ol>
          )}
        {mode.kind === "add"
          ? (
            <div className="surveyor-contact surveyor-contact--new">
              <h3 className="surveyor-subtitle">New contact</h3>
              <ContactForm
                prefix="contact-new"
                initial={draftOf()}
                submitLabel="Add contact"
                pendingLabel="Adding..."
                onSubmit={add}
                onCancel={() => backToList(true)}
              />
            </div>
          )
          : (
            <p>
              <button
                ref={addButton}
                type="button"
                className="btn btn--secondary btn--sm"
                disabled={isFull}
                aria-describedby={isFull ? "surveyor-contacts-full" : undefined}
                onClick={() => setMode({ kind: "add" })}
              >
                Add a contact
              </button>
              {isFull
                ? (
                  <span id="surveyor-contacts-full" className="field__hint">
                    {` A record keeps at most ${MAX_CONTACTS} contacts.`}
                  </span>
                )
                : null}
            </p>
          )}
      </div>
    </section>
  );
}
