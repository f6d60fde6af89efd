/**
 * The returns queue on the admin console (/admin?tab=returns): return requests by status
 * (pending oldest first), each with the surveyor's company, the lead (type and place), the
 * amount, the reason, the buyer's note and its age; Approve / Deny open a dialog with a note
 * (required to deny), then POST /api/admin/refund-requests/{id}/decision. The server's answer
 * is the toast ("Return approved — $38.50 credited", "Return denied"); the row leaves the
 * pending list only when the decision was recorded.
 */
import { useEffect, useRef, useState } from "react";
import { apiJson, errorMessage, getQuery } from "./_api.ts";
import { toast } from "./_toast.ts";
import { TableRegion } from "./_table.tsx";
import { Pager } from "./_pager.tsx";
import { formatLeadPrice } from "../lib/lead_pricing.ts";
import {
  REFUND_NOTE_MAX,
  REFUND_REASON_LABELS,
  REFUND_REQUEST_STATUS_LABELS,
  REFUND_REQUEST_STATUSES,
  type RefundRequestPage,
  type RefundRequestStatus,
  type RefundRequestView,
} from "../lib/refund_constants.ts";
import { NO_SCRIPT_FORM } from "./_fields.tsx";

/** Props of the queue: the first page of pending requests, rendered by the server. */
export interface RefundQueueProps {
  initial: RefundRequestPage;
}

/** Toast title when a decision fails. */
export const DECISION_FAILED = "Failed to decide the return";

const EMPTY: Record<RefundRequestStatus, string> = {
  pending: "No return requests are waiting for a decision.",
  approved: "No approved returns yet.",
  denied: "No denied returns yet.",
};

// Fixed time zone so the server's HTML and the hydrated table print the same day.
const DAY = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

function age(days: number): string {
  if (days <= 0) return "Today";
  return days === 1 ? "1 day" : `${days} days`;
}

/** The returns queue. */
export default function RefundQueue({ initial }: RefundQueueProps) {
  const [data, setData] = useState<RefundRequestPage>(initial);
  const [isLoading, setLoading] = useState(false);
  const [deciding, setDeciding] = useState<
    { request: RefundRequestView; decision: "approve" | "deny" } | null
  >(null);
  const [note, setNote] = useState("");
  const [noteError, setNoteError] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const request = useRef(0);
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  async function load(status: RefundRequestStatus, page: number) {
    const n = ++request.current;
    setLoading(true);
    try {
      const params = new URLSearchParams({
        status,
        page: String(page),
        pageSize: String(data.pageSize),
      });
      const res = await getQuery<RefundRequestPage>(`/api/admin/refund-requests?${params}`);
      if (n !== request.current) return;
      if (!res || !Array.isArray(res.requests)) throw new Error("No request list");
      setData(res);
    } catch (err) {
      if (n !== request.current) return;
      toast({
        title: "Error",
        description: errorMessage(err, "Failed to load return requests"),
        variant: "destructive",
      });
    } finally {
      if (n === request.current) setLoading(false);
    }
  }

  function open(r: RefundRequestView, decision: "approve" | "deny", button: HTMLButtonElement) {
    opener.current = button;
    setDeciding({ request: r, decision });
    setNote("");
    setNoteError(null);
    dialog.current?.showModal();
  }

  function close() {
    dialog.current?.close();
  }

  async function confirm() {
    if (!deciding) return;
    const trimmed = note.trim();
    if (deciding.decision === "deny" && !trimmed) {
      setNoteError("Say why the return is denied");
      return;
    }
    setPending(true);
    try {
      const res = await apiJson<{ message?: string; request?: RefundRequestView }>(
        "POST",
        `/api/admin/refund-requests/${deciding.request.id}/decision`,
        { decision: deciding.decision, note: trimmed },
      );
      toast({
        title: res?.message ??
          (deciding.decision === "approve" ? "Return approved" : "Return denied"),
        description:
          `${deciding.request.companyName} · ${deciding.request.surveyTypeName}, ${deciding.request.place}`,
      });
      const id = deciding.request.id;
      setData((d) => ({
        ...d,
        requests: d.requests.filter((r) => r.id !== id),
        total: Math.max(0, d.total - 1),
      }));
      opener.current = null;
      close();
    } catch (err) {
      toast({
        title: DECISION_FAILED,
        description: errorMessage(err, "Please try again."),
        variant: "destructive",
      });
      // Decided elsewhere meanwhile: the list is stale, so read it again.
      if ((err as { status?: number }).status === 409) {
        close();
        load(data.status, data.page);
      }
    } finally {
      setPending(false);
    }
  }

  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  const isPendingList = data.status === "pending";
  const titleId = "refund-decision-title";
  const amount = deciding ? formatLeadPrice(deciding.request.amountCents) : "";

  return (
    <div className="refund-queue" data-hydrated={isHydrated || undefined}>
      <div className="refund-queue__bar">
        <div className="field refund-queue__filter">
          <label className="field__label" htmlFor="refund-status">Show</label>
          <select
            id="refund-status"
            className="field__input"
            value={data.status}
            disabled={isLoading}
            onChange={(e) => load(e.currentTarget.value as RefundRequestStatus, 1)}
          >
            {REFUND_REQUEST_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s === "pending" ? "Waiting for a decision" : REFUND_REQUEST_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <p className="refund-queue__count" role="status" aria-live="polite">
          {isLoading ? "Loading…" : `${data.total} ${data.total === 1 ? "request" : "requests"}`}
        </p>
      </div>

      {data.requests.length === 0
        ? <p className="empty-state refund-queue__empty">{EMPTY[data.status]}</p>
        : (
          <TableRegion label="Return requests">
            <table
              className="table table--cards refund-queue__table"
              aria-busy={isLoading || undefined}
            >
              <caption className="visually-hidden">
                {isPendingList
                  ? "Return requests waiting for a decision, oldest first"
                  : `${REFUND_REQUEST_STATUS_LABELS[data.status]} return requests, newest first`}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Surveyor</th>
                  <th scope="col">Lead</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Note</th>
                  <th scope="col">{isPendingList ? "Waiting" : "Decided"}</th>
                  {isPendingList
                    ? (
                      <th scope="col" className="table__actions-cell">
                        <span className="visually-hidden">Decision</span>
                      </th>
                    )
                    : null}
                </tr>
              </thead>
              <tbody>
                {data.requests.map((r) => (
                  <tr key={r.id} data-request-id={r.id}>
                    <td data-label="Surveyor">
                      <a href={`/surveyor-detail/${r.surveyorId}`}>{r.companyName}</a>
                      <span className="refund-queue__muted" data-testid="earlier-returns">
                        {r.earlierReturns === 0
                          ? "First return request"
                          : `${r.earlierReturns} earlier return request${
                            r.earlierReturns === 1 ? "" : "s"
                          }`}
                      </span>
                    </td>
                    <td data-label="Lead">
                      <a href={`/survey/${r.surveyId}`}>{r.surveyTypeName}</a>
                      <span className="refund-queue__muted">{r.place}</span>
                      <span className="refund-queue__muted">
                        {`Bought ${DAY.format(new Date(r.purchasedAt))}`}
                      </span>
                    </td>
                    <td data-label="Amount">{formatLeadPrice(r.amountCents)}</td>
                    <td data-label="Reason">{REFUND_REASON_LABELS[r.reason]}</td>
                    <td data-label="Note" className="refund-queue__note">
                      {r.note}
                      <span className="refund-queue__muted" data-testid="pipeline">
                        {`Their pipeline: ${r.pipelineLabel}${
                          r.pipelineNote ? ` — “${r.pipelineNote}”` : ""
                        }`}
                      </span>
                      {r.decisionNote
                        ? <span className="refund-queue__muted">Decision: {r.decisionNote}</span>
                        : null}
                    </td>
                    <td data-label={isPendingList ? "Waiting" : "Decided"}>
                      {isPendingList ? age(r.ageDays) : r.decidedAt
                        ? (
                          <>
                            {DAY.format(new Date(r.decidedAt))}
                            {r.decidedByName
                              ? <span className="refund-queue__muted">{r.decidedByName}</span>
                              : null}
                          </>
                        )
                        : "—"}
                    </td>
                    {isPendingList
                      ? (
                        <td className="table__actions-cell refund-queue__actions">
                          <button
                            type="button"
                            className="btn btn--primary btn--sm"
                            aria-label={`Approve the return of ${
                              formatLeadPrice(r.amountCents)
                            } to ${r.companyName}`}
                            onClick={(e) => open(r, "approve", e.currentTarget)}
                          >
                            Approve
                          </button>
                          <button
                            type="button"
                            className="btn btn--secondary btn--sm"
                            aria-label={`Deny the return to ${r.companyName}`}
                            onClick={(e) => open(r, "deny", e.currentTarget)}
                          >
                            Deny
                          </button>
                        </td>
                      )
                      : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}

      {pages > 1
        ? (
          <Pager
            label="Return request pages"
            page={data.page}
            pages={pages}
            isLoading={isLoading}
            onPage={(p) => load(data.status, p)}
          />
        )
        : null}

      <dialog
        ref={dialog}
        className="confirm-dialog"
        aria-labelledby={titleId}
        onClose={() => {
          setDeciding(null);
          opener.current?.focus();
        }}
      >
        {deciding
          ? (
            <form
              {...NO_SCRIPT_FORM}
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                confirm();
              }}
            >
              <h2 id={titleId} className="confirm-dialog__title">
                {deciding.decision === "approve"
                  ? `Return ${amount} to ${deciding.request.companyName}?`
                  : `Deny ${deciding.request.companyName}'s return?`}
              </h2>
              <p>
                {deciding.decision === "approve"
                  ? `${amount} goes back to their balance as a refund, and they are told.`
                  : "Nothing is refunded. They are told, with your note."}
              </p>
              <div className="field">
                <label className="field__label" htmlFor="refund-decision-note">
                  {deciding.decision === "approve" ? "Note (optional)" : "Why is it denied?"}
                </label>
                <textarea
                  id="refund-decision-note"
                  className="field__input"
                  rows={3}
                  maxLength={REFUND_NOTE_MAX}
                  value={note}
                  required={deciding.decision === "deny"}
                  aria-invalid={noteError ? true : undefined}
                  aria-describedby={noteError ? "refund-decision-note-error" : undefined}
                  onChange={(e) => {
                    setNote(e.currentTarget.value);
                    setNoteError(null);
                  }}
                />
                {noteError
                  ? (
                    <p id="refund-decision-note-error" className="field__error" role="alert">
                      {noteError}
                    </p>
                  )
                  : null}
              </div>
              <div className="form-actions">
                <button
                  type="button"
                  className="btn btn--ghost"
                  onClick={close}
                  disabled={isPending}
                >
                  Keep waiting
                </button>
                <button
                  type="submit"
                  className={deciding.decision === "approve"
                    ? "btn btn--primary"
                    : "btn btn--danger"}
                  disabled={isPending}
                >
                  {isPending
                    ? "Saving…"
                    : deciding.decision === "approve"
                    ? `Approve and credit ${amount}`
                    : "Deny the return"}
                </button>
              </div>
            </form>
          )
          : null}
      </dialog>
    </div>
  );
}
