/**
 * The proposals on a client's request (/survey/{id} and the client dashboard, issue 22): each
 * surveyor's price, earliest visit, turnaround, rating and reviews, licence check, distance and
 * message, beside the instant quote. The owning client accepts one (a confirmation dialog says
 * what happens next; then POST …/accept and the page reloads, the survey now assigned) or
 * declines one with an optional reason (POST …/decline; the card shows it declined).
 */
import { type FormEvent, useRef, useState } from "react";
import { apiJson, errorMessage } from "./_api.ts";
import { toast, toastAfterNavigation } from "./_toast.ts";
import { navigate } from "./_nav.ts";
import {
  type ClientProposal,
  PROPOSAL_DECLINE_REASON_MAX,
  PROPOSAL_MESSAGES,
  PROPOSAL_STATUS_BADGES,
  PROPOSAL_STATUS_LABELS,
  turnaroundText,
} from "../lib/proposal_constants.ts";
import { formatCents } from "../lib/quote_text.ts";
import { NO_SCRIPT_FORM } from "./_fields.tsx";

/** Props of the proposals island, as the server rendered them. */
export interface SurveyProposalsProps {
  surveyId: string;
  /** The survey's status (a cancelled or assigned survey takes no answer). */
  surveyStatus: string;
  /** Whether the survey has a surveyor (by any route). */
  hasSurveyor: boolean;
  /** The viewer is the owning client (admins only look). */
  canAnswer: boolean;
  /** The instant quote, or null when the request needs a custom quote. */
  quotedPriceCents: number | null;
  /** The quote's turnaround line ("Typical turnaround: 5–10 business days"). */
  quoteTurnaround: string;
  proposals: ClientProposal[];
  /** Dashboard: one heading level lower and a link to the request's page. */
  isCompact?: boolean;
  /**
   * ISO time the request's lead stopped being offered to surveyors (its window ran out), or
   * null while it is offered (or unknown, on the dashboard).
   */
  leadExpiredAt?: string | null;
}

/** Where the client writes to Meridian support. */
export const SUPPORT_PATH = "/support/contact";

const DAY = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  weekday: "short",
  month: "short",
  day: "numeric",
  year: "numeric",
});

/** Days already written, by date: a page writes each proposal's visit day twice. */
const dayTexts = new Map<string, string>();

function dayText(date: string): string {
  let text = dayTexts.get(date);
  if (text === undefined) {
    text = DAY.format(new Date(`${date}T00:00:00Z`));
    // Emptied when full; a page holds a handful.
    if (dayTexts.size >= 500) dayTexts.clear();
    dayTexts.set(date, text);
  }
  return text;
}

function ratingText(p: ClientProposal): string {
  const { rating, reviewCount } = p.surveyor;
  if (rating === null || reviewCount === 0) return "No reviews yet";
  return `${rating.toFixed(1)} ★ (${reviewCount} ${reviewCount === 1 ? "review" : "reviews"})`;
}

function versusQuote(priceCents: number, quoteCents: number | null): string | null {
  if (quoteCents === null) return null;
  const diff = priceCents - quoteCents;
  if (diff === 0) return "Same as your instant quote";
  return `${formatCents(Math.abs(diff))} ${diff < 0 ? "less" : "more"} than your instant quote`;
}

/** What is true of the proposals as a whole, and what to do next. */
function summary(props: SurveyProposalsProps, proposals: ClientProposal[]): string {
  const accepted = proposals.find((p) => p.status === "accepted");
  const pending = proposals.filter((p) => p.status === "pending").length;
  if (accepted) {
    return `You accepted ${accepted.surveyor.companyName}'s proposal: the survey is assigned to them at ${
      formatCents(accepted.priceCents)
    }. They will call you to confirm the details and book the visit.`;
  }
  if (props.surveyStatus === "cancelled") {
    return "This request was cancelled, so it takes no new proposals and none can be accepted. If you still need a survey, start a new request.";
  }
  if (props.hasSurveyor) {
    return "A surveyor has taken this survey, so the proposals can no longer be accepted.";
  }
  if (props.leadExpiredAt) {
    const day = DAY.format(new Date(props.leadExpiredAt));
    if (pending > 0) {
      return `Your request stopped being offered to new surveyors on ${day}, but ${
        pending === 1
          ? "the proposal below still stands"
          : `the ${pending} proposals below still stand`
      }. ${
        props.canAnswer ? "Accept one to assign the survey, or" : "The client can accept one, or"
      } write to Meridian support to find another surveyor.`;
    }
    return `Your request stopped being offered to new surveyors on ${day}${
      proposals.length === 0 ? " without a proposal" : " and no proposal is waiting for an answer"
    }. Write to Meridian support and we will look for a surveyor for you; your instant quote stands.`;
  }
  if (proposals.length === 0) {
    return "No proposals yet. Surveyors who received your request can send you their own price, earliest visit and turnaround; we email you when one arrives. Meanwhile your instant quote stands: a surveyor can take the job at that price.";
  }
  if (pending === 0) {
    return "No proposal is waiting for your answer. Surveyors may still send new ones, and your instant quote stands.";
  }
  if (!props.canAnswer) {
    return `${pending} ${
      pending === 1 ? "proposal is" : "proposals are"
    } waiting for the client's answer.`;
  }
  return `${pending} ${
    pending === 1 ? "proposal is" : "proposals are"
  } waiting for your answer. Compare ${
    pending === 1 ? "it" : "them"
  } with your instant quote: accepting one assigns the survey to that surveyor at that price.`;
}

/** The client's view of the proposals, with Accept and Decline on each pending one. */
export default function SurveyProposals(props: SurveyProposalsProps) {
  const { surveyId, canAnswer, quotedPriceCents, isCompact = false } = props;
  const [proposals, setProposals] = useState(props.proposals);
  const [target, setTarget] = useState<ClientProposal | null>(null);
  const [reason, setReason] = useState("");
  const [isPending, setPending] = useState(false);
  const acceptDialog = useRef<HTMLDialogElement>(null);
  const declineDialog = useRef<HTMLDialogElement>(null);
  const isOpen = props.surveyStatus !== "cancelled" && props.surveyStatus !== "completed" &&
    !props.hasSurveyor && !proposals.some((p) => p.status === "accepted");
  const Heading = isCompact ? "h3" : "h2";
  const idBase = `proposals-${surveyId}`;

  function open(kind: "accept" | "decline", proposal: ClientProposal) {
    setTarget(proposal);
    setReason("");
    (kind === "accept" ? acceptDialog : declineDialog).current?.showModal();
  }

  async function accept() {
    if (!target) return;
    setPending(true);
    try {
      const res = await apiJson<{ message?: string }>(
        "POST",
        `/api/surveys/${surveyId}/proposals/${target.id}/accept`,
      );
      toastAfterNavigation({
        title: res?.message ?? PROPOSAL_MESSAGES.accepted,
        description: `${target.surveyor.companyName} is your surveyor at ${
          formatCents(target.priceCents)
        }.`,
      });
      navigate(`/survey/${surveyId}`);
    } catch (err) {
      setPending(false);
      acceptDialog.current?.close();
      toast({
        title: PROPOSAL_MESSAGES.acceptFailed,
        description: errorMessage(err, "Please check your connection and try again."),
        variant: "destructive",
      });
    }
  }

  async function decline(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!target) return;
    setPending(true);
    try {
      const res = await apiJson<{ message?: string; proposal?: { declineReason: string | null } }>(
        "POST",
        `/api/surveys/${surveyId}/proposals/${target.id}/decline`,
        { reason: reason.trim() || undefined },
      );
      setProposals((list) =>
        list.map((p) =>
          p.id === target.id
            ? { ...p, status: "declined", declineReason: res?.proposal?.declineReason ?? null }
            : p
        )
      );
      declineDialog.current?.close();
      toast({
        title: res?.message ?? PROPOSAL_MESSAGES.declined,
        description: `${target.surveyor.companyName} has been told.`,
      });
    } catch (err) {
      declineDialog.current?.close();
      toast({
        title: PROPOSAL_MESSAGES.declineFailed,
        description: errorMessage(err, "Please check your connection and try again."),
        variant: "destructive",
      });
    } finally {
      setPending(false);
    }
  }

  // Pending first (cheapest first), then the rest as they came.
  const ordered = [...proposals].sort((a, b) =>
    Number(b.status === "pending") - Number(a.status === "pending") ||
    (a.status === "pending" ? a.priceCents - b.priceCents : 0)
  );

  return (
    <div className="proposals">
      <p className="proposals__summary" role="status">{summary(props, proposals)}</p>
      {props.surveyStatus === "cancelled" && canAnswer
        ? (
          <p>
            <a className="btn btn--secondary btn--sm" href="/create-survey">Start a new request</a>
          </p>
        )
        : isOpen && props.leadExpiredAt && canAnswer
        ? (
          <p>
            <a className="btn btn--secondary btn--sm" href={SUPPORT_PATH}>
              Write to Meridian support
            </a>
          </p>
        )
        : null}
      <ul className="proposals__list" aria-label="Your instant quote and the proposals">
        <li className="proposal proposal--quote">
          <Heading className="proposal__firm">Your instant quote</Heading>
          <p className="proposal__price">
            {quotedPriceCents === null ? "Custom quote" : formatCents(quotedPriceCents)}
          </p>
          <p className="muted">{props.quoteTurnaround}</p>
          <p className="muted">Any surveyor who received your request can take it at this price.</p>
        </li>
        {ordered.map((p) => {
          const headingId = `${idBase}-${p.id}`;
          const comparison = versusQuote(p.priceCents, quotedPriceCents);
          return (
            <li
              key={p.id}
              className={`proposal proposal--${p.status}`}
              aria-labelledby={headingId}
              data-proposal-id={p.id}
            >
              <div className="proposal__head">
                <Heading id={headingId} className="proposal__firm">
                  {p.surveyor.profileUrl
                    ? <a href={p.surveyor.profileUrl}>{p.surveyor.companyName}</a>
                    : p.surveyor.companyName}
                </Heading>
                <span className={`badge badge--${PROPOSAL_STATUS_BADGES[p.status]}`}>
                  {PROPOSAL_STATUS_LABELS[p.status]}
                </span>
              </div>
              <p className="proposal__price">{formatCents(p.priceCents)}</p>
              {comparison ? <p className="muted proposal__versus">{comparison}</p> : null}
              <dl className="proposal__facts">
                <div>
                  <dt>Earliest visit</dt>
                  <dd>{dayText(p.earliestVisitDate)}</dd>
                </div>
                <div>
                  <dt>Turnaround</dt>
                  <dd>{`${turnaroundText(p.turnaroundDays)} after the visit`}</dd>
                </div>
                <div>
                  <dt>Rating</dt>
                  <dd>{ratingText(p)}</dd>
                </div>
                <div>
                  <dt>Licence</dt>
                  <dd>
                    {p.surveyor.licenceVerified
                      ? "Verified by Meridian"
                      : "Not verified for this state yet"}
                  </dd>
                </div>
                <div>
                  <dt>Distance</dt>
                  <dd>
                    {p.surveyor.distanceMiles === null
                      ? "Not known"
                      : `${p.surveyor.distanceMiles} miles from the property`}
                  </dd>
                </div>
              </dl>
              <p className="proposal__message">{p.message}</p>
              {p.status === "declined" && p.declineReason
                ? <p className="muted">{`Declined: ${p.declineReason}`}</p>
                : null}
              {p.status === "withdrawn"
                ? (
                  <p className="muted">
                    {p.declineReason
                      ? `Withdrawn: ${p.declineReason}`
                      : "The surveyor withdrew this proposal."}
                  </p>
                )
                : null}
              {canAnswer && isOpen && p.status === "pending"
                ? (
                  <div className="form-actions proposal__actions">
                    <button
                      type="button"
                      className="btn btn--ghost btn--sm"
                      onClick={() => open("decline", p)}
                    >
                      Decline
                      <span className="visually-hidden">{` ${p.surveyor.companyName}`}</span>
                    </button>
                    <button
                      type="button"
                      className="btn btn--primary btn--sm"
                      onClick={() => open("accept", p)}
                    >
                      Accept
                      <span className="visually-hidden">{` ${p.surveyor.companyName}`}</span>
                    </button>
                  </div>
                )
                : null}
            </li>
          );
        })}
      </ul>
      {isCompact && proposals.length > 0
        ? (
          <p>
            <a href={`/survey/${surveyId}#proposals-title`}>Compare the proposals in full</a>
          </p>
        )
        : null}
      <dialog
        ref={acceptDialog}
        className="confirm-dialog"
        aria-labelledby={`${idBase}-accept-title`}
        aria-describedby={`${idBase}-accept-text`}
      >
        <h2 id={`${idBase}-accept-title`} className="confirm-dialog__title">
          {target
            ? `Accept ${target.surveyor.companyName}'s proposal of ${
              formatCents(target.priceCents)
            }?`
            : "Accept this proposal?"}
        </h2>
        <div id={`${idBase}-accept-text`}>
          <p>What happens next:</p>
          <ul>
            <li>
              {target
                ? `Your survey is assigned to ${target.surveyor.companyName} at ${
                  formatCents(target.priceCents)
                }, instead of your instant quote.`
                : "Your survey is assigned to this surveyor at their price."}
            </li>
            <li>
              {target
                ? `They call you to confirm the details and book the visit, no earlier than ${
                  dayText(target.earliestVisitDate)
                }.`
                : "They call you to confirm the details and book the visit."}
            </li>
            <li>The other proposals are declined and their surveyors told.</li>
          </ul>
          <p>This cannot be undone here; to change your mind later, contact Meridian support.</p>
        </div>
        <div className="form-actions">
          <button
            type="button"
            className="btn btn--ghost"
            autoFocus
            disabled={isPending}
            onClick={() => acceptDialog.current?.close()}
          >
            Not yet
          </button>
          <button type="button" className="btn btn--primary" disabled={isPending} onClick={accept}>
            {isPending ? "Accepting..." : "Accept proposal"}
          </button>
        </div>
      </dialog>
      <dialog
        ref={declineDialog}
        className="confirm-dialog"
        aria-labelledby={`${idBase}-decline-title`}
      >
        <form {...NO_SCRIPT_FORM} onSubmit={decline} className="stack">
          <h2 id={`${idBase}-decline-title`} className="confirm-dialog__title">
            {target
              ? `Decline ${target.surveyor.companyName}'s proposal?`
              : "Decline this proposal?"}
          </h2>
          <p>The surveyor is told. Your other proposals and your instant quote stay as they are.</p>
          <div className="field">
            <label className="field__label" htmlFor={`${idBase}-reason`}>
              Reason <span className="field__optional">(optional)</span>
            </label>
            <textarea
              id={`${idBase}-reason`}
              name="reason"
              className="field__input"
              rows={3}
              maxLength={PROPOSAL_DECLINE_REASON_MAX}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
            />
            <p className="field__hint">The surveyor sees it.</p>
          </div>
          <div className="form-actions">
            <button
              type="button"
              className="btn btn--ghost"
              disabled={isPending}
              onClick={() => declineDialog.current?.close()}
            >
              Keep it
            </button>
            <button type="submit" className="btn btn--danger" disabled={isPending}>
              {isPending ? "Declining..." : "Decline proposal"}
            </button>
          </div>
        </form>
      </dialog>
    </div>
  );
}
