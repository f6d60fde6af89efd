/**
 * The directory's "Add surveyor" dialog: the few fields a new record needs (the rest is edited
 * on its page), POST /api/surveyors, then the new record's page. A failure toasts 'Failed to
 * create surveyor' (spec section 8) with the server's message and marks the fields it names.
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast, toastAfterNavigation } from "./_toast.ts";
import { navigate } from "./_nav.ts";
import { CheckedForm, SelectField, TextField } from "./_fields.tsx";
import { fieldErrors, STATUS_LABELS, STATUSES } from "./_surveyor_shared.ts";
import type { Surveyor } from "../lib/surveyor_schema.ts";
import { STATE_CODES, US_STATES } from "../lib/survey_options.ts";

const STATE_CHOICES = STATE_CODES.map((code) => ({ id: code, label: US_STATES[code] }));
const STATUS_CHOICES = STATUSES.map((s) => ({ id: s, label: STATUS_LABELS[s] }));

interface Draft {
  companyName: string;
  principalName: string;
  email: string;
  phone: string;
  city: string;
  state: string;
  status: string;
  inNetwork: boolean;
}

const EMPTY: Draft = {
  companyName: "",
  principalName: "",
  email: "",
  phone: "",
  city: "",
  state: "",
  status: "prospect",
  inNetwork: false,
};

/** The "Add surveyor" button and its dialog. */
export function NewSurveyor() {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isPending, setPending] = useState(false);
  // The dialog is rendered at its first opening, not on the server: closed, it shows nothing,
  // and its form (a select of every state) was a tenth of the directory page's HTML.
  const [isMounted, setMounted] = useState(false);
  useEffect(() => {
    if (isMounted) dialog.current?.showModal();
  }, [isMounted]);

  function set<K extends keyof Draft>(key: K, value: Draft[K]) {
    setDraft((d) => ({ ...d, [key]: value }));
  }

  function open() {
    setErrors({});
    if (dialog.current) dialog.current.showModal();
    else setMounted(true);
  }

  function close() {
    dialog.current?.close();
    opener.current?.focus();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!draft.companyName.trim()) {
      setErrors({ companyName: "Enter the company name" });
      return;
    }
    setPending(true);
    setErrors({});
    try {
      const body = {
        companyName: draft.companyName.trim(),
        principalName: draft.principalName,
        email: draft.email,
        phone: draft.phone,
        city: draft.city,
        state: draft.state,
        status: draft.status,
        inNetwork: draft.inNetwork,
      };
      const res = await apiJson<{ message?: string; surveyor?: Surveyor }>(
        "POST",
        "/api/surveyors",
        body,
      );
      if (!res?.surveyor) throw new Error("No surveyor in the answer");
      toastAfterNavigation({
        title: "Surveyor created",
        description: res.message ?? `${res.surveyor.companyName} was added.`,
      });
      navigate(`/surveyor-detail/${res.surveyor.id}`);
    } catch (err) {
      setErrors(fieldErrors(err));
      toast({
        title: "Failed to create surveyor",
        description: errorMessage(err, "Could not create the surveyor. Please try again."),
        variant: "destructive",
      });
      setPending(false);
    }
  }

  return (
    <>
      <button ref={opener} type="button" className="btn btn--primary" onClick={open}>
        Add surveyor
      </button>
      {isMounted
        ? (
          <dialog
            ref={dialog}
            className="confirm-dialog surveyor-new"
            aria-labelledby="surveyor-new-title"
          >
            <h2 id="surveyor-new-title" className="confirm-dialog__title">Add a surveyor</h2>
            <p className="muted">
              Start with the firm's name; coverage, licences and contacts are edited on its page
              next.
            </p>
            <CheckedForm errors={errors} isPending={isPending} onSubmit={submit}>
              <TextField
                id="new-surveyor-company"
                name="companyName"
                label="Company name"
                autoComplete="organization"
                maxLength={200}
                value={draft.companyName}
                error={errors.companyName}
                onValue={(v) => set("companyName", v)}
              />
              <TextField
                id="new-surveyor-principal"
                name="principalName"
                label="Principal surveyor"
                optional
                maxLength={120}
                value={draft.principalName}
                error={errors.principalName}
                onValue={(v) => set("principalName", v)}
              />
              <div className="surveyor-form__pair">
                <TextField
                  id="new-surveyor-email"
                  name="email"
                  type="email"
                  label="Email"
                  optional
                  maxLength={254}
                  value={draft.email}
                  error={errors.email}
                  onValue={(v) => set("email", v)}
                />
                <TextField
                  id="new-surveyor-phone"
                  name="phone"
                  type="tel"
                  label="Phone"
                  optional
                  maxLength={40}
                  value={draft.phone}
                  error={errors.phone}
                  onValue={(v) => set("phone", v)}
                />
              </div>
              <div className="surveyor-form__pair">
                <TextField
                  id="new-surveyor-city"
                  name="city"
                  label="City"
                  optional
                  maxLength={120}
                  value={draft.city}
                  error={errors.city}
                  onValue={(v) => set("city", v)}
                />
                <SelectField
                  id="new-surveyor-state"
                  name="state"
                  label="State"
                  optional
                  placeholder="Not known"
                  choices={STATE_CHOICES}
                  value={draft.state}
                  error={errors.state}
                  onValue={(v) => set("state", v)}
                />
              </div>
              <SelectField
                id="new-surveyor-status"
                name="status"
                label="Status"
                placeholder={null}
                hint="Active means the licence is verified (recorded as checked by you); choose Licence check to verify it later."
                choices={STATUS_CHOICES}
                value={draft.status}
                error={errors.status}
                onValue={(v) => set("status", v)}
              />
              <label className="surveyor-check" htmlFor="new-surveyor-network">
                <input
                  id="new-surveyor-network"
                  type="checkbox"
                  checked={draft.inNetwork}
                  onChange={(e) => set("inNetwork", e.currentTarget.checked)}
                />{" "}
                In network (receives leads once active)
              </label>
              <div className="form-actions">
                <button type="button" className="btn btn--ghost" onClick={close}>
                  Cancel
                </button>
                <button type="submit" className="btn btn--primary" disabled={isPending}>
                  {isPending ? "Creating..." : "Create surveyor"}
                </button>
              </div>
            </CheckedForm>
          </dialog>
        )
        : null}
    </>
  );
}
