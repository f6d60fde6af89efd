/**
 * The admin's "Assign a surveyor" form on a request's page, beside the dispatch panel: pick a
 * surveyor among the lead's buyers and the matched in-network surveyors, set the agreed price
 * (prefilled with the client's quote) and, when someone is assigned already, say why they are
 * replaced. `POST /api/surveys/{surveyId}/assign/{surveyorId}` `{agreedPrice, reason?}`.
 *
 * Toasts (spec §8): 'Surveyor assigned' (the surveyor is offered the job and accepts or
 * declines) or 'Failed to assign surveyor' with the server's message. The current assignment
 * is shown as it stands: an offer is "waiting for them to accept", never "assigned". The list
 * follows the dispatch panel (islands/_dispatch_store.ts): surveyors matched by a Find or
 * Notify appear without a reload.
 */
import { useEffect, useId, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast } from "./_toast.ts";
import {
  ADMIN_ASSIGNMENT_TEXT,
  ASSIGNMENT_TOASTS,
  type AssignmentStatus,
} from "../lib/assignment_constants.ts";
import { formatCents } from "../lib/quote_text.ts";
import { type AssignCandidate, assignCandidates, type CandidateBuyer } from "./_dispatch.ts";
import { subscribeDispatch } from "./_dispatch_store.ts";
import { NO_SCRIPT_FORM } from "./_fields.tsx";

export type { AssignCandidate } from "./_dispatch.ts";

/** The survey's open assignment as the form shows it. */
export interface CurrentAssignment {
  surveyorId: string;
  companyName: string;
  status: AssignmentStatus;
  agreedPriceCents: number;
  scheduledDate: string | null;
}

/** Props of AssignSurveyor (plain JSON, built by components/DispatchCard.tsx). */
export interface AssignSurveyorProps {
  surveyId: string;
  /** The client's instant quote, the agreed price's starting value; null for a custom quote. */
  quotedPriceCents: number | null;
  candidates: AssignCandidate[];
  /** The lead's buyers, to list again with the matches after Find or Notify. */
  buyers: CandidateBuyer[];
  current: CurrentAssignment | null;
  /** Why nobody can be assigned now (a closed request), or null. */
  blockedReason: string | null;
}

interface AssignAnswer {
  message: string;
  assignment: CurrentAssignment;
}

function dollars(cents: number | null): string {
  return cents === null ? "" : (cents / 100).toFixed(2).replace(/\.00$/, "");
}

/** The assign form (see the file's comment). */
export default function AssignSurveyor(props: AssignSurveyorProps) {
  const [current, setCurrent] = useState(props.current);
  const [surveyorId, setSurveyorId] = useState("");
  const [price, setPrice] = useState(dollars(props.quotedPriceCents));
  const [reason, setReason] = useState("");
  const [isBusy, setBusy] = useState(false);
  const [candidates, setCandidates] = useState(props.candidates);
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // The dispatch panel's Find, Refresh and Notify change who is matched (and its reload the
  // buyers): the list follows at once, not on the next page load.
  useEffect(() => {
    let buyers = props.buyers;
    return subscribeDispatch(props.surveyId, (state) => {
      if (state.buyers) buyers = state.buyers;
      setCandidates(assignCandidates(buyers, state.surveyors));
    });
  }, [props.surveyId, props.buyers]);
  const id = useId();

  const choices = candidates.filter((c) => c.surveyorId !== current?.surveyorId);
  const chosen = choices.find((c) => c.surveyorId === surveyorId);

  async function submit(e: { preventDefault(): void }) {
    e.preventDefault();
    if (!chosen) return;
    setBusy(true);
    try {
      const body: { agreedPrice: number; reason?: string } = { agreedPrice: Number(price) };
      if (current && reason.trim()) body.reason = reason.trim();
      const data = await apiJson<AssignAnswer>(
        "POST",
        `/api/surveys/${encodeURIComponent(props.surveyId)}/assign/${
          encodeURIComponent(chosen.surveyorId)
        }`,
        body,
      );
      if (!data?.assignment) throw new Error("Empty answer");
      setCurrent(data.assignment);
      setSurveyorId("");
      setReason("");
      toast({
        title: ASSIGNMENT_TOASTS.assigned,
        description: `${data.assignment.companyName} at ${
          formatCents(data.assignment.agreedPriceCents)
        }: offered the job, waiting for them to accept.`,
      });
    } catch (err) {
      toast({
        title: ASSIGNMENT_TOASTS.assignFailed,
        description: errorMessage(err, "Could not assign the surveyor. Please try again."),
        variant: "destructive",
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section
      className="stack assign-surveyor"
      aria-labelledby={`${id}-title`}
      data-hydrated={isHydrated || undefined}
    >
      <h3 id={`${id}-title`} className="dispatch__subtitle">Assignment</h3>
      <p className="assign-surveyor__current" role="status" aria-live="polite">
        {current
          ? `${current.companyName} · ${formatCents(current.agreedPriceCents)} · ${
            ADMIN_ASSIGNMENT_TEXT[current.status]
          }${current.scheduledDate ? ` (${current.scheduledDate})` : ""}`
          : "Nobody is assigned yet."}
      </p>
      {props.blockedReason
        ? <p className="muted">{props.blockedReason}</p>
        : choices.length === 0
        ? (
          <p className="muted">
            Nobody to assign yet: surveyors appear here once they buy the lead or are matched in the
            network.
          </p>
        )
        : (
          <form {...NO_SCRIPT_FORM} className="assign-surveyor__form stack" onSubmit={submit}>
            <label className="field__label" htmlFor={`${id}-surveyor`}>
              {current ? "Reassign to" : "Surveyor"}
            </label>
            <select
              id={`${id}-surveyor`}
              className="field__input"
              required
              value={surveyorId}
              onChange={(e) => setSurveyorId(e.currentTarget.value)}
            >
              <option value="">Choose a surveyor</option>
              {choices.map((c) => (
                <option key={c.surveyorId} value={c.surveyorId}>
                  {`${c.companyName} (${c.detail})`}
                </option>
              ))}
            </select>
            <label className="field__label" htmlFor={`${id}-price`}>Agreed price (USD)</label>
            <input
              id={`${id}-price`}
              className="field__input"
              type="number"
              inputMode="decimal"
              min="0.01"
              step="0.01"
              required
              value={price}
              onChange={(e) => setPrice(e.currentTarget.value)}
            />
            {current
              ? (
                <>
                  <label className="field__label" htmlFor={`${id}-reason`}>
                    {`Why ${current.companyName} is replaced (optional)`}
                  </label>
                  <input
                    id={`${id}-reason`}
                    className="field__input"
                    maxLength={500}
                    value={reason}
                    onChange={(e) => setReason(e.currentTarget.value)}
                  />
                </>
              )
              : null}
            <div>
              <button
                type="submit"
                className="btn btn--primary"
                disabled={!isHydrated || isBusy || !chosen}
              >
                {isBusy ? "Assigning..." : current ? "Reassign surveyor" : "Assign surveyor"}
              </button>
            </div>
          </form>
        )}
    </section>
  );
}
