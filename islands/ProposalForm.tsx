/**
 * "Your proposal" on a purchased lead's page (/surveyor/purchased-leads/{id}, issue 22): the
 * buyer sends the client a price in whole dollars, the earliest visit day, a turnaround in
 * business days and a message (POST /api/purchased-leads/{id}/proposal); edits it while the
 * client has not answered (PATCH) or withdraws it (DELETE, after a confirmation). Each state
 * says what is true: waiting, accepted (the job is theirs), declined (with the reason),
 * withdrawn, or why no proposal can be sent (returned lead, cancelled or taken survey); and
 * when the lead's offer window has closed, that no other surveyor can buy it now.
 */
import { type FormEvent, useRef, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import { CheckedForm, TextareaField, TextField } from "./_fields.tsx";
import { fieldErrors } from "./_surveyor_shared.ts";
import {
  type OwnProposal,
  PROPOSAL_MAX_PRICE_CENTS,
  PROPOSAL_MAX_TURNAROUND_DAYS,
  PROPOSAL_MESSAGE_MAX,
  PROPOSAL_MESSAGES,
  PROPOSAL_STATUS_BADGES,
  PROPOSAL_STATUS_LABELS,
  turnaroundText,
} from "../lib/proposal_constants.ts";
import { formatCents } from "../lib/quote_text.ts";

/** Props of the proposal form, as the server rendered them. */
export interface ProposalFormProps {
  /** The lead's id (the API addresses purchased leads by lead id). */
  leadId: string;
  surveyId: string;
  /** The buyer's pending proposal, else their latest; null when they never sent one. */
  proposal: OwnProposal | null;
  /** Why no proposal may be sent or changed now (and what to do instead), or null. */
  closedReason: string | null;
  /**
   * ISO time the lead's offer window closed (no other surveyor can buy it now), or null while
   * it is open. Buyers keep proposing: the window is for buying, not for answering.
   */
  leadExpiredAt?: string | null;
  /** The client's instant quote, for reference; null for a custom quote. */
  quotedPriceCents: number | null;
  /** Earliest and latest visit day the server takes (YYYY-MM-DD). */
  minDate: string;
  maxDate: string;
}

const EXPIRED_DAY = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  month: "short",
  day: "numeric",
  year: "numeric",
});

interface Values {
  price: string;
  earliestVisitDate: string;
  turnaroundDays: string;
  message: string;
}

function valuesOf(p: OwnProposal | null, minDate: string): Values {
  return p
    ? {
      price: String(p.priceCents / 100),
      earliestVisitDate: p.earliestVisitDate < minDate ? minDate : p.earliestVisitDate,
      turnaroundDays: String(p.turnaroundDays),
      message: p.message,
    }
    : { price: "", earliestVisitDate: minDate, turnaroundDays: "", message: "" };
}

function check(v: Values, { minDate, maxDate }: { minDate: string; maxDate: string }) {
  const errors: Record<string, string> = {};
  const price = Number(v.price.replace(/[$,\s]/g, ""));
  if (!v.price.trim() || !Number.isInteger(price) || price <= 0) {
    errors.priceCents = "Enter the price in whole dollars, more than $0";
  } else if (price * 100 > PROPOSAL_MAX_PRICE_CENTS) {
    errors.priceCents = `Price must be at most ${formatCents(PROPOSAL_MAX_PRICE_CENTS)}`;
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v.earliestVisitDate)) {
    errors.earliestVisitDate = "Choose the earliest day you can visit";
  } else if (v.earliestVisitDate < minDate) {
    errors.earliestVisitDate = "Earliest visit date cannot be in the past";
  } else if (v.earliestVisitDate > maxDate) {
    errors.earliestVisitDate = "Earliest visit date must be within a year";
  }
  const days = Number(v.turnaroundDays);
  if (!Number.isInteger(days) || days < 1 || days > PROPOSAL_MAX_TURNAROUND_DAYS) {
    errors.turnaroundDays =
      `Turnaround must be a whole number of business days from 1 to ${PROPOSAL_MAX_TURNAROUND_DAYS}`;
  }
  if (!v.message.trim()) {
    errors.message = "Write the client a message: what is included and what you need from them";
  } else if (v.message.trim().length > PROPOSAL_MESSAGE_MAX) {
    errors.message = `Message must be at most ${PROPOSAL_MESSAGE_MAX} characters`;
  }
  return { errors, body: { priceCents: price * 100, turnaroundDays: days } };
}

const DAY = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  weekday: "long",
  month: "long",
  day: "numeric",
  year: "numeric",
});

function dayText(date: string): string {
  return DAY.format(new Date(`${date}T00:00:00Z`));
}

/** The proposal as sent: price, dates, message and its status. */
function Summary({ proposal }: { proposal: OwnProposal }) {
  return (
    <dl className="purchased-facts proposal-summary">
      <div>
        <dt>Status</dt>
        <dd>
          <span className={`badge badge--${PROPOSAL_STATUS_BADGES[proposal.status]}`}>
            {PROPOSAL_STATUS_LABELS[proposal.status]}
          </span>
        </dd>
      </div>
      <div>
        <dt>Price</dt>
        <dd>{formatCents(proposal.priceCents)}</dd>
      </div>
      <div>
        <dt>Earliest visit</dt>
        <dd>{dayText(proposal.earliestVisitDate)}</dd>
      </div>
      <div>
        <dt>Turnaround</dt>
        <dd>{`${turnaroundText(proposal.turnaroundDays)} after the visit`}</dd>
      </div>
      <div>
        <dt>Message</dt>
        <dd className="proposal__message">{proposal.message}</dd>
      </div>
    </dl>
  );
}

/** The buyer's proposal card. */
export default function ProposalForm(props: ProposalFormProps) {
  const { leadId, surveyId, closedReason, minDate, maxDate, quotedPriceCents } = props;
  const [proposal, setProposal] = useState(props.proposal);
  const [isEditing, setEditing] = useState(false);
  const [values, setValues] = useState(() => valuesOf(props.proposal, minDate));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isPending, setPending] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const path = `/api/purchased-leads/${leadId}/proposal`;
  const status = proposal?.status ?? null;
  const isPendingProposal = status === "pending";

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { errors: found, body } = check(values, { minDate, maxDate });
    setErrors(found);
    if (Object.keys(found).length) return;
    setPending(true);
    try {
      const res = await apiJson<{ message?: string; proposal?: OwnProposal }>(
        isPendingProposal ? "PATCH" : "POST",
        path,
        {
          ...body,
          earliestVisitDate: values.earliestVisitDate,
          message: values.message.trim(),
        },
      );
      if (!res?.proposal) throw new Error("No proposal in the answer");
      setProposal(res.proposal);
      setValues(valuesOf(res.proposal, minDate));
      setEditing(false);
      toast({
        title: res.message ?? PROPOSAL_MESSAGES.sent,
        description: "The client sees it on their request and can accept it.",
      });
    } catch (err) {
      setErrors(fieldErrors(err));
      toast({
        title: PROPOSAL_MESSAGES.sendFailed,
        description: errorMessage(err, "Please check your connection and try again."),
        variant: "destructive",
      });
    } finally {
      setPending(false);
    }
  }

  async function withdraw() {
    setPending(true);
    try {
      const res = await apiJson<{ message?: string; proposal?: OwnProposal }>("DELETE", path);
      if (res?.proposal) setProposal(res.proposal);
      dialog.current?.close();
      setEditing(false);
      toast({
        title: res?.message ?? PROPOSAL_MESSAGES.withdrawn,
        description: "The client no longer sees it as an offer.",
      });
    } catch (err) {
      dialog.current?.close();
      toast({
        title: "Could not withdraw the proposal",
        description: errorMessage(err, "Please check your connection and try again."),
        variant: "destructive",
      });
    } finally {
      setPending(false);
    }
  }

  if (status === "accepted" && proposal) {
    return (
      <div className="stack">
        <p className="alert alert--success" role="status">
          {`The client accepted your proposal: the survey is assigned to you at ${
            formatCents(proposal.priceCents)
          }. Call the client to confirm the details, then book the visit.`}
        </p>
        <Summary proposal={proposal} />
        <p>
          <a className="btn btn--primary" href={`/surveyor/jobs/${surveyId}`}>Open the job</a>
        </p>
      </div>
    );
  }

  const intro = status === "declined"
    ? `The client declined your proposal${
      proposal?.declineReason ? `: “${proposal.declineReason}”` : "."
    }`
    : status === "withdrawn"
    ? (proposal?.declineReason
      ? `Your proposal was withdrawn: ${proposal.declineReason}`
      : "You withdrew your proposal; the client no longer sees it as an offer.")
    : isPendingProposal
    ? "The client has your proposal and can accept it on their request's page. You can change it or withdraw it until they answer."
    : "Send the client your price, the earliest day you can visit and your turnaround. They see it beside their instant quote and can accept it: the survey is then assigned to you at your price.";

  const showForm = !closedReason && (!isPendingProposal || isEditing);
  return (
    <div className="stack proposal-form">
      <p role="status">{intro}</p>
      {props.leadExpiredAt && !closedReason
        ? (
          <p className="alert alert--info" data-testid="lead-expired">
            {`This lead's offer window closed on ${
              EXPIRED_DAY.format(new Date(props.leadExpiredAt))
            }: no other surveyor can buy it now. ${
              isPendingProposal
                ? "Your proposal still stands until the client answers it."
                : "You bought it, so you can still send the client a proposal."
            }`}
          </p>
        )
        : null}
      {proposal && !isEditing ? <Summary proposal={proposal} /> : null}
      {closedReason ? <p className="alert alert--info">{closedReason}</p> : null}
      {!closedReason && isPendingProposal && !isEditing
        ? (
          <div className="form-actions">
            <button
              type="button"
              className="btn btn--ghost"
              disabled={isPending}
              onClick={() => dialog.current?.showModal()}
            >
              Withdraw
            </button>
            <button
              type="button"
              className="btn btn--secondary"
              disabled={isPending}
              onClick={() => {
                setValues(valuesOf(proposal, minDate));
                setErrors({});
                setEditing(true);
              }}
            >
              Edit proposal
            </button>
          </div>
        )
        : null}
      {showForm
        ? (
          <CheckedForm errors={errors} isPending={isPending} className="stack" onSubmit={submit}>
            {status === "declined" || status === "withdrawn"
              ? <h3 className="proposal-form__title">Send a new proposal</h3>
              : null}
            <TextField
              id={`proposal-price-${leadId}`}
              name="priceCents"
              label="Price (whole dollars)"
              inputMode="numeric"
              autoComplete="off"
              hint={quotedPriceCents === null
                ? "The client asked for a custom quote."
                : `The client's instant quote is ${formatCents(quotedPriceCents)}.`}
              value={values.price}
              error={errors.priceCents}
              onValue={(v) => setValues((s) => ({ ...s, price: v }))}
            />
            <TextField
              id={`proposal-date-${leadId}`}
              name="earliestVisitDate"
              label="Earliest visit"
              type="date"
              min={minDate}
              max={maxDate}
              value={values.earliestVisitDate}
              error={errors.earliestVisitDate}
              onValue={(v) => setValues((s) => ({ ...s, earliestVisitDate: v }))}
            />
            <TextField
              id={`proposal-turnaround-${leadId}`}
              name="turnaroundDays"
              label="Turnaround (business days after the visit)"
              inputMode="numeric"
              autoComplete="off"
              value={values.turnaroundDays}
              error={errors.turnaroundDays}
              onValue={(v) => setValues((s) => ({ ...s, turnaroundDays: v }))}
            />
            <TextareaField
              id={`proposal-message-${leadId}`}
              name="message"
              label="Message to the client"
              rows={6}
              maxLength={PROPOSAL_MESSAGE_MAX}
              hint={`What is included, and what you need from the client. ${values.message.trim().length} of ${PROPOSAL_MESSAGE_MAX} characters.`}
              value={values.message}
              error={errors.message}
              onValue={(v) => setValues((s) => ({ ...s, message: v }))}
            />
            <div className="form-actions">
              {isEditing
                ? (
                  <button
                    type="button"
                    className="btn btn--ghost"
                    disabled={isPending}
                    onClick={() => {
                      setEditing(false);
                      setErrors({});
                    }}
                  >
                    Cancel
                  </button>
                )
                : null}
              <button type="submit" className="btn btn--primary" disabled={isPending}>
                {isPending ? "Sending..." : isEditing ? "Save changes" : "Send proposal"}
              </button>
            </div>
          </CheckedForm>
        )
        : null}
      <dialog
        ref={dialog}
        className="confirm-dialog"
        aria-labelledby={`withdraw-${leadId}-title`}
        aria-describedby={`withdraw-${leadId}-text`}
      >
        <h2 id={`withdraw-${leadId}-title`} className="confirm-dialog__title">
          Withdraw your proposal?
        </h2>
        <p id={`withdraw-${leadId}-text`}>
          The client can no longer accept it. You can send a new one while the survey has no
          surveyor.
        </p>
        <div className="form-actions">
          <button
            type="button"
            className="btn btn--ghost"
            autoFocus
            disabled={isPending}
            onClick={() => dialog.current?.close()}
          >
            Keep it
          </button>
          <button type="button" className="btn btn--danger" disabled={isPending} onClick={withdraw}>
            {isPending ? "Withdrawing..." : "Withdraw proposal"}
          </button>
        </div>
      </dialog>
    </div>
  );
}
