/**
 * "Request a return" on a purchased lead (/surveyor/purchased-leads/{id}): the buyer picks a
 * reason (invalid contact details, duplicate request, out of scope), says what happened and
 * sends POST /api/purchased-leads/{leadId}/refund-request. It shows where the lead stands
 * instead when there is nothing to ask: returned already, a request waiting or decided, a
 * free welcome claim, or past the 14 days.
 *
 * Props (`RefundRequestFormProps`, all plain JSON), from the page's `UnlockedLead`:
 * - `leadId`: the lead's id (the purchase's id works too).
 * - `chargedCents`: what the purchase charged; 0 for a free welcome claim.
 * - `purchasedAt`, `refundedAt`: ISO timestamps (`refundedAt` null until returned).
 * - `request`: the newest return request (`UnlockedLead.refundRequest`, or the fuller
 *   `RefundRequestSummary` with the notes), or null.
 * - `now`: the server's ISO time when it rendered, so the server's HTML and the hydrated form
 *   judge the 14 days on one clock.
 * - `blocked`: why no return may be asked for on account of the work done (the lead became
 *   the buyer's won or assigned job: lib/refund_constants.ts `returnBlock`), else null.
 */
import { useEffect, useId, useState } from "react";
import { ApiError, apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { formatLeadPrice } from "../lib/lead_pricing.ts";
import {
  REFUND_NOTE_MAX,
  REFUND_REASON_LABELS,
  REFUND_REASONS,
  REFUND_REQUEST_DAYS,
  type RefundReason,
  type RefundRequestSummary,
} from "../lib/refund_constants.ts";
import { NO_SCRIPT_FORM } from "./_fields.tsx";

/** Props of the return form (see the module comment). */
export interface RefundRequestFormProps {
  leadId: string;
  chargedCents: number;
  purchasedAt: string;
  refundedAt: string | null;
  request:
    | (Pick<RefundRequestSummary, "id" | "reason" | "status"> & Partial<RefundRequestSummary>)
    | null;
  now: string;
  blocked?: string | null;
}

/** Toast title when the request is refused or fails. */
export const REQUEST_FAILED = "Failed to request a return";

const DAY_MS = 24 * 60 * 60 * 1000;

const DAY = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/** The return form, or where the lead's return stands. */
export default function RefundRequestForm(props: RefundRequestFormProps) {
  const [request, setRequest] = useState(props.request);
  const [isOpen, setOpen] = useState(false);
  const [reason, setReason] = useState<RefundReason | "">("");
  const [note, setNote] = useState("");
  const [errors, setErrors] = useState<{ reason?: string; note?: string }>({});
  const [isPending, setPending] = useState(false);
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const id = useId();
  const amount = formatLeadPrice(props.chargedCents);
  const deadline = new Date(Date.parse(props.purchasedAt) + REFUND_REQUEST_DAYS * DAY_MS);
  const isLate = Date.parse(props.now) >= deadline.getTime();

  async function submit() {
    const found: typeof errors = {};
    if (!reason) found.reason = "Choose a reason";
    if (!note.trim()) found.note = "Say what happened";
    setErrors(found);
    if (found.reason || found.note) return;
    setPending(true);
    try {
      const res = await apiJson<{ message?: string; request?: RefundRequestSummary }>(
        "POST",
        `/api/purchased-leads/${encodeURIComponent(props.leadId)}/refund-request`,
        { reason, note: note.trim() },
      );
      toast({
        title: res?.message ?? "Return requested",
        description: "An admin will review it; you will be notified of the decision.",
      });
      setRequest(
        res?.request ?? { id: "", reason: reason as RefundReason, status: "pending", note },
      );
      setOpen(false);
    } catch (err) {
      const fields = err instanceof ApiError ? fieldErrors(err.body) : {};
      setErrors(fields);
      toast({
        title: REQUEST_FAILED,
        description: errorMessage(err, "Please try again."),
        variant: "destructive",
      });
    } finally {
      setPending(false);
    }
  }

  let status: string | null = null;
  if (props.refundedAt) {
    status = `Returned: ${amount} went back to your balance on ${
      DAY.format(new Date(props.refundedAt))
    }.`;
  } else if (props.chargedCents <= 0) {
    status = "This lead was a free welcome claim, so there is nothing to return.";
  } else if (props.blocked && request?.status !== "pending") {
    status = props.blocked;
  } else if (request?.status === "pending") {
    status = `Return requested (${
      REFUND_REASON_LABELS[request.reason]
    }). An admin will decide; you will be notified either way.`;
  } else if (request?.status === "approved") {
    status = `Your return was approved: ${amount} went back to your balance.`;
  } else if (request?.status === "denied") {
    status = `Your return request was denied.${
      request.decisionNote ? ` ${request.decisionNote}` : ""
    }`;
  } else if (isLate) {
    status =
      `Returns can be requested within ${REFUND_REQUEST_DAYS} days of buying a lead; the last day for this one was ${
        DAY.format(deadline)
      }.`;
  }

  return (
    <section
      className="refund-request"
      aria-labelledby={`${id}-title`}
      data-hydrated={isHydrated || undefined}
    >
      <h2 id={`${id}-title`} className="refund-request__title">Return this lead</h2>
      {status ? <p className="refund-request__status" role="status">{status}</p> : !isOpen
        ? (
          <>
            <p className="refund-request__intro">
              Invalid contact details, a duplicate or an out-of-scope request? Ask for your {amount}
              {" "}
              back until {DAY.format(deadline)}.
            </p>
            <button
              type="button"
              className="btn btn--secondary"
              onClick={() => setOpen(true)}
            >
              Request a return
            </button>
          </>
        )
        : (
          <form
            {...NO_SCRIPT_FORM}
            className="refund-request__form"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
          >
            <fieldset
              className="refund-request__reasons"
              aria-describedby={errors.reason ? `${id}-reason-error` : undefined}
            >
              <legend className="field__label">Why should it be returned?</legend>
              {REFUND_REASONS.map((r) => (
                <label key={r} className="field--check refund-request__reason">
                  <input
                    type="radio"
                    name={`${id}-reason`}
                    value={r}
                    checked={reason === r}
                    aria-invalid={errors.reason ? true : undefined}
                    onChange={() => {
                      setReason(r);
                      setErrors((e) => ({ ...e, reason: undefined }));
                    }}
                  />
                  {REFUND_REASON_LABELS[r]}
                </label>
              ))}
              {errors.reason
                ? (
                  <p id={`${id}-reason-error`} className="field__error" role="alert">
                    {errors.reason}
                  </p>
                )
                : null}
            </fieldset>
            <div className="field">
              <label className="field__label" htmlFor={`${id}-note`}>What happened?</label>
              <textarea
                id={`${id}-note`}
                className="field__input"
                rows={4}
                maxLength={REFUND_NOTE_MAX}
                value={note}
                aria-invalid={errors.note ? true : undefined}
                aria-describedby={errors.note ? `${id}-note-error` : `${id}-note-hint`}
                onChange={(e) => {
                  setNote(e.currentTarget.value);
                  setErrors((x) => ({ ...x, note: undefined }));
                }}
              />
              {errors.note
                ? (
                  <p id={`${id}-note-error`} className="field__error" role="alert">
                    {errors.note}
                  </p>
                )
                : (
                  <p id={`${id}-note-hint`} className="field__hint">
                    For example: the phone number is disconnected and the email bounced.
                  </p>
                )}
            </div>
            <div className="form-actions">
              <button
                type="button"
                className="btn btn--ghost"
                onClick={() => setOpen(false)}
                disabled={isPending}
              >
                Cancel
              </button>
              <button type="submit" className="btn btn--primary" disabled={isPending}>
                {isPending ? "Sending…" : "Request a return"}
              </button>
            </div>
          </form>
        )}
    </section>
  );
}

function fieldErrors(body: string): { reason?: string; note?: string } {
  try {
    const parsed = JSON.parse(body);
    const errors = parsed?.errors ?? {};
    return {
      reason: typeof errors.reason === "string" ? errors.reason : undefined,
      note: typeof errors.note === "string" ? errors.note : undefined,
    };
  } catch {
    return {};
  }
}
