/**
 * Buy, Claim and Not interested on a lead's page (/surveyor/leads/{id}). Each asks first in a
 * modal dialog that states what it costs and the balance after it ("Buy this lead for $38.50?
 * Your balance after: $61.50"); a balance too low says so and links to /surveyor/billing
 * instead of offering the action. Then POST /api/leads/{id}/buy | claim | dismiss:
 *
 * - bought or claimed → the purchased lead's page, where the client's details are;
 * - hidden → back to the available leads;
 * - 402 (the balance fell short meanwhile) → the dialog says so, with the billing link;
 * - 409 (sold out, claimed, closed, not eligible) → the dialog shows the server's reason.
 *
 * Exactly once: a buy or claim carries an `Idempotency-Key` made once per intent (the same
 * key until the server gives a definite answer, also when the surveyor presses the button
 * again after an error), and is retried with it when the answer is lost (a network error, a
 * 502 or 503): a purchase that went through answers its 201 again, never a second charge.
 */
import { useEffect, useRef, useState } from "react";
import { ApiError, errorMessage, throwIfNotOk } from "./_api.ts";
import { toast, toastAfterNavigation } from "./_toast.ts";
import { navigate } from "./_nav.ts";
import type { LeadSummary } from "../lib/lead_market_schema.ts";
import { formatLeadPrice } from "../lib/lead_pricing.ts";

/** Props of the actions: the lead as the page rendered it and the surveyor's balance. */
export interface LeadActionsProps {
  lead: LeadSummary;
  balanceCents: number;
}

type Action = "buy" | "claim" | "dismiss";

/** Pauses before each retry of a request whose answer was lost; then it gives up. */
export const RETRY_DELAYS_MS = [300, 1_000] as const;

// An answer that says nothing about whether the request went through.
function isLostAnswer(status: number): boolean {
  return status === 502 || status === 503;
}

/**
 * POSTs `path` (with `key` as its Idempotency-Key), retrying after a network error, 502 or 503
 * as RETRY_DELAYS_MS says; the JSON answer, or null when it is empty. Throws ApiError on any
 * other non-ok answer, and the last failure once the retries are used up.
 */
async function postWithRetry<T>(path: string, key: string | undefined): Promise<T | null> {
  for (let attempt = 0;; attempt++) {
    const canRetry = attempt < RETRY_DELAYS_MS.length;
    let res: Response;
    try {
      res = await fetch(path, {
        method: "POST",
        headers: key ? { "Idempotency-Key": key } : {},
        credentials: "same-origin",
      });
    } catch (err) {
      if (!canRetry || !(err instanceof TypeError)) throw err;
      await new Promise((done) => setTimeout(done, RETRY_DELAYS_MS[attempt]));
      continue;
    }
    if (canRetry && isLostAnswer(res.status)) {
      await res.body?.cancel();
      await new Promise((done) => setTimeout(done, RETRY_DELAYS_MS[attempt]));
      continue;
    }
    await throwIfNotOk(res);
    return await res.json().catch(() => null) as T | null;
  }
}

/** Where a bought or claimed lead is shown in full. */
export function purchasedLeadPath(leadId: string): string {
  return `/surveyor/purchased-leads/${encodeURIComponent(leadId)}`;
}

/** Why claiming is not offered for `lead` (null when it is). */
export function claimUnavailableReason(lead: LeadSummary): string | null {
  if (lead.canClaim) return null;
  if (lead.quotedPriceCents === null) {
    return "Claiming is not offered: this survey is quoted by hand, so there is no client's price to accept. Buy the lead and quote the client yourself.";
  }
  if (lead.buyersCount > 0) {
    return "Claiming is not offered: another surveyor already bought this lead, so it cannot be taken exclusively.";
  }
  return "Claiming is not offered for this lead.";
}

/** What an action costs this surveyor. */
function chargeOf(action: Action, lead: LeadSummary): number {
  return action === "buy" ? lead.priceCents : action === "claim" ? lead.claimFeeCents : 0;
}

/** The confirmation dialog's question for `action`. */
export function confirmQuestion(action: Action, lead: LeadSummary): string {
  if (action === "buy") return `Buy this lead for ${formatLeadPrice(lead.priceCents)}?`;
  if (action === "claim") {
    return `Claim this job at the client's quote of ${
      formatLeadPrice(lead.quotedPriceCents ?? 0)
    }?`;
  }
  return "Not interested in this lead?";
}

/** The dialog's cost line: the charge (or that there is none) and the balance after it. */
export function costLine(action: Action, lead: LeadSummary, balanceCents: number): string {
  const after = `Your balance after: ${formatLeadPrice(balanceCents - chargeOf(action, lead))}.`;
  if (action === "buy") return after;
  if (action === "claim") {
    return lead.claimFeeCents === 0
      ? `Your welcome claim is free. ${after}`
      : `Claim fee ${formatLeadPrice(lead.claimFeeCents)}. ${after}`;
  }
  return "It is hidden from your list for good. Nothing is charged.";
}

function LowBalance({ message }: { message: string }) {
  return (
    <div className="alert alert--warning lead-actions__low" role="alert">
      <p>{message}</p>
      <p>
        <a className="btn btn--primary btn--sm" href="/surveyor/billing">Add credit</a>
      </p>
    </div>
  );
}

/** The three actions and their dialog (see the file's comment). */
export default function LeadActions({ lead, balanceCents: initialBalance }: LeadActionsProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [action, setAction] = useState<Action | null>(null);
  const [balanceCents, setBalance] = useState(initialBalance);
  const [isPending, setPending] = useState(false);
  const [failure, setFailure] = useState<{ kind: "balance" | "closed"; message: string } | null>(
    null,
  );
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // The Idempotency-Key of the buy or claim the surveyor means, until it is answered for sure.
  const intentKeys = useRef<Partial<Record<Action, string>>>({});

  const claimReason = claimUnavailableReason(lead);
  const charge = action ? chargeOf(action, lead) : 0;
  const isShort = action !== null && action !== "dismiss" && charge > balanceCents;
  const shortMessage = `Your balance is ${formatLeadPrice(balanceCents)}, ${
    formatLeadPrice(charge - balanceCents)
  } short of the ${formatLeadPrice(charge)} this costs. Add credit, then come back to this lead.`;

  function open(next: Action) {
    setAction(next);
    setFailure(null);
    dialog.current?.showModal();
  }

  async function confirm() {
    if (!action) return;
    setPending(true);
    const path = `/api/leads/${encodeURIComponent(lead.id)}/${action}`;
    const key = action === "dismiss"
      ? undefined
      : (intentKeys.current[action] ??= crypto.randomUUID());
    try {
      const data = await postWithRetry<{ message?: string; lead?: { id: string } }>(path, key);
      delete intentKeys.current[action];
      if (action === "dismiss") {
        toastAfterNavigation({
          title: data?.message || "Lead hidden",
          description: "It will not show in your list again.",
        });
        navigate("/leads");
        return;
      }
      toastAfterNavigation({
        title: data?.message || (action === "buy" ? "Lead purchased" : "Lead claimed"),
        description: action === "buy"
          ? "The client's details are below. Clients expect a call within 48 hours."
          : "You are assigned at the client's quote. Call the client to schedule the visit.",
      });
      navigate(purchasedLeadPath(data?.lead?.id ?? lead.id));
    } catch (err) {
      setPending(false);
      // A definite refusal ends the intent; after a lost answer the next press reuses the key.
      if (err instanceof ApiError && err.status < 500) delete intentKeys.current[action];
      if (err instanceof ApiError && err.status === 402) {
        const balance = balanceFrom(err.body);
        if (balance !== undefined) setBalance(balance);
        setFailure({
          kind: "balance",
          message: errorMessage(err, "Your balance is too low for this."),
        });
      } else if (err instanceof ApiError && (err.status === 409 || err.status === 404)) {
        setFailure({
          kind: "closed",
          message: errorMessage(err, "This lead is no longer available."),
        });
      } else {
        dialog.current?.close();
        toast({
          title: "Error",
          description: errorMessage(
            err,
            "We could not reach the server. Try again: what went through is never charged twice.",
          ),
          variant: "destructive",
        });
      }
    }
  }

  const titleId = `lead-action-${lead.id}-title`;
  return (
    <div className="lead-actions" data-hydrated={isHydrated || undefined}>
      <p className="lead-actions__balance">
        Your balance: <strong>{formatLeadPrice(balanceCents)}</strong>{" "}
        <a href="/surveyor/billing">Add credit</a>
      </p>
      <div className="lead-actions__buttons">
        <button
          type="button"
          className="btn btn--primary"
          disabled={!isHydrated}
          onClick={() => open("buy")}
        >
          {`Buy lead · ${formatLeadPrice(lead.priceCents)}`}
        </button>
        {lead.canClaim
          ? (
            <button
              type="button"
              className="btn btn--accent"
              disabled={!isHydrated}
              onClick={() => open("claim")}
            >
              {lead.claimFeeCents === 0
                ? "Claim job · free welcome claim"
                : `Claim job · ${formatLeadPrice(lead.claimFeeCents)} fee`}
            </button>
          )
          : null}
        <button
          type="button"
          className="btn btn--ghost"
          disabled={!isHydrated}
          onClick={() => open("dismiss")}
        >
          Not interested
        </button>
      </div>
      <ul className="lead-actions__explain">
        <li>
          <strong>Buy</strong> (shared with up to {lead.maxBuyers}{" "}
          surveyors): pay the lead price, get the client's details and propose your own price.
        </li>
        <li>
          {claimReason ?? (
            <>
              <strong>Claim</strong>{" "}
              (exclusive): accept the job at the client's quote; you are assigned at once and the
              lead closes for everyone else.
            </>
          )}
        </li>
      </ul>

      <dialog
        ref={dialog}
        className="confirm-dialog lead-actions__dialog"
        aria-labelledby={titleId}
        aria-describedby={`${titleId}-text`}
        onClose={() => {
          setAction(null);
          setFailure(null);
        }}
      >
        <h2 id={titleId} className="confirm-dialog__title">
          {action ? confirmQuestion(action, lead) : ""}
        </h2>
        <p id={`${titleId}-text`}>{action ? costLine(action, lead, balanceCents) : ""}</p>
        {action === "buy" || action === "claim"
          ? (
            <p className="muted">
              {action === "buy"
                ? "You get the client's name, phone, email, exact address, parcel data and the full request."
                : "You get the client's details and are assigned to the survey at that price; the lead closes for everyone else."}
            </p>
          )
          : null}
        {failure?.kind === "balance"
          ? <LowBalance message={failure.message} />
          : isShort
          ? <LowBalance message={shortMessage} />
          : null}
        {failure?.kind === "closed"
          ? (
            <div className="alert alert--error" role="alert">
              <p>{failure.message}</p>
              <p>
                <a href="/leads">Back to available leads</a>
              </p>
            </div>
          )
          : null}
        <div className="form-actions">
          <button
            type="button"
            className="btn btn--ghost"
            autoFocus
            disabled={isPending}
            onClick={() => dialog.current?.close()}
          >
            {failure || isShort ? "Close" : "Cancel"}
          </button>
          {action && !failure && !isShort
            ? (
              <button
                type="button"
                className={action === "dismiss" ? "btn btn--secondary" : "btn btn--primary"}
                disabled={isPending}
                onClick={confirm}
              >
                {isPending ? PENDING_LABELS[action] : CONFIRM_LABELS[action]}
              </button>
            )
            : null}
        </div>
      </dialog>
    </div>
  );
}

const CONFIRM_LABELS: Record<Action, string> = {
  buy: "Buy lead",
  claim: "Claim job",
  dismiss: "Hide lead",
};

const PENDING_LABELS: Record<Action, string> = {
  buy: "Buying...",
  claim: "Claiming...",
  dismiss: "Hiding...",
};

function balanceFrom(body: string): number | undefined {
  try {
    const parsed = JSON.parse(body);
    return typeof parsed?.balanceCents === "number" ? parsed.balanceCents : undefined;
  } catch {
    return undefined;
  }
}
