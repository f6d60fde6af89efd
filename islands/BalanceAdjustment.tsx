/**
 * The "Balance" card of /surveyor-detail/{id} (admins): the surveyor's balance, a form to add
 * or remove credit with a required note (a ledger 'adjustment' in the admin's name), and the
 * newest ledger entries with "Show older entries". Every adjustment ends in a toast with the
 * server's message; a removal beyond the balance is refused by the server and says so.
 */
import { type FormEvent, useEffect, useId, useState } from "react";
import { apiJson, errorMessage, getQuery } from "./_api.ts";
import { toast } from "./_toast.ts";
import { CheckedForm, RadioGroup, TextareaField, TextField } from "./_fields.tsx";
import { fieldErrors, formatDay } from "./_surveyor_shared.ts";
import { TableRegion } from "./_table.tsx";
import { dollarsToCents, signedCents } from "./_billing.ts";
import { formatCents } from "../lib/quote_text.ts";

/** A ledger entry as the card shows it (the API's LedgerEntry). */
export interface AdjustmentLedgerEntry {
  id: string;
  kind: string;
  amountCents: number;
  balanceAfterCents: number;
  reference: string | null;
  note: string | null;
  actorName: string | null;
  createdAt: string;
}

/** Props of the balance card. */
export interface BalanceAdjustmentProps {
  surveyorId: string;
  balanceCents: number;
  /** The newest entries, newest first. */
  entries: AdjustmentLedgerEntry[];
  /** `before` for the next page, or null when these are all. */
  nextBefore: string | null;
  /** Label per ledger kind. */
  kindLabels: Record<string, string>;
}

/** Toast title when an adjustment fails. */
export const ADJUSTMENT_FAILED_TITLE = "Could not adjust the balance";

const DIRECTIONS = [
  { id: "credit", label: "Add credit" },
  { id: "debit", label: "Remove credit" },
] as const;

/** The admin's balance card for one surveyor record. */
export default function BalanceAdjustment(
  { surveyorId, balanceCents: initialBalance, entries: initialEntries, nextBefore, kindLabels }:
    BalanceAdjustmentProps,
) {
  const ids = useId();
  const [balance, setBalance] = useState(initialBalance);
  const [entries, setEntries] = useState(initialEntries);
  const [before, setBefore] = useState(nextBefore);
  const [direction, setDirection] = useState<"credit" | "debit">("credit");
  const [amount, setAmount] = useState("");
  const [note, setNote] = useState("");
  const [errors, setErrors] = useState<{ amount?: string; note?: string }>({});
  const [busy, setBusy] = useState<"" | "adjust" | "more">("");
  // Until hydrated, the buttons would submit the form as a plain page request.
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const base = `/api/surveyors/${encodeURIComponent(surveyorId)}`;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const cents = dollarsToCents(amount);
    const found = {
      amount: cents === undefined || cents === 0
        ? "Enter an amount in dollars, more than $0"
        : direction === "debit" && cents > balance
        ? `The balance is ${formatCents(balance)}: remove at most that`
        : undefined,
      note: note.trim() ? undefined : "Add a note saying why",
    };
    setErrors(found);
    if (found.amount || found.note || cents === undefined) return;
    setBusy("adjust");
    try {
      const answer = await apiJson<
        { message?: string; balanceCents?: number; entry?: AdjustmentLedgerEntry }
      >("POST", `${base}/balance-adjustments`, {
        amountCents: direction === "debit" ? -cents : cents,
        note: note.trim(),
      });
      if (typeof answer?.balanceCents === "number") setBalance(answer.balanceCents);
      const entry = answer?.entry;
      if (entry) setEntries((list) => [entry, ...list]);
      toast({ title: answer?.message ?? "Balance adjusted" });
      setAmount("");
      setNote("");
    } catch (err) {
      const server = fieldErrors(err);
      setErrors({ amount: server.amountCents, note: server.note });
      toast({
        title: ADJUSTMENT_FAILED_TITLE,
        description: errorMessage(err, "Please check your connection and try again."),
        variant: "destructive",
      });
    } finally {
      setBusy("");
    }
  }

  async function showOlder() {
    if (!before) return;
    setBusy("more");
    try {
      const page = await getQuery<{ entries: AdjustmentLedgerEntry[]; nextBefore: string | null }>(
        `${base}/ledger?before=${encodeURIComponent(before)}`,
      );
      if (page) {
        setEntries((list) => [...list, ...page.entries]);
        setBefore(page.nextBefore);
      }
    } catch (err) {
      toast({
        title: "Could not load older entries",
        description: errorMessage(err, "Please check your connection and try again."),
        variant: "destructive",
      });
    } finally {
      setBusy("");
    }
  }

  return (
    <div className="stack billing-admin" data-hydrated={isHydrated || undefined}>
      <p className="billing-balance">
        <span className="billing-balance__label">Balance</span>{" "}
        <strong className="billing-balance__value" aria-live="polite">
          {formatCents(balance)}
        </strong>
      </p>
      <CheckedForm errors={errors} isPending={busy === "adjust"} onSubmit={submit}>
        <RadioGroup
          id={`${ids}-direction`}
          label="Adjustment"
          value={direction}
          onValue={(value) => setDirection(value === "debit" ? "debit" : "credit")}
          choices={DIRECTIONS}
        />
        <TextField
          id={`${ids}-amount`}
          label="Amount (US dollars)"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onValue={setAmount}
          error={errors.amount}
        />
        <TextareaField
          id={`${ids}-note`}
          label="Note"
          hint="Why: a payment by check, goodwill credit, a correction. The surveyor sees it."
          maxLength={1000}
          rows={2}
          value={note}
          onValue={setNote}
          error={errors.note}
        />
        <p>
          <button
            type="submit"
            className="btn btn--primary btn--sm"
            disabled={!isHydrated || busy !== ""}
          >
            {busy === "adjust"
              ? "Saving..."
              : direction === "debit"
              ? "Remove credit"
              : "Add credit"}
          </button>
        </p>
      </CheckedForm>
      {entries.length === 0
        ? <p className="muted">No charges or credits yet.</p>
        : (
          <TableRegion label="Balance history">
            <table className="table table--cards billing-history">
              <caption className="visually-hidden">Balance history, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">What</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Balance after</th>
                  <th scope="col">Note</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => (
                  <tr key={e.id}>
                    <td data-label="Date">
                      <time dateTime={e.createdAt}>{formatDay(e.createdAt)}</time>
                    </td>
                    <th scope="row" data-label="What">{kindLabels[e.kind] ?? e.kind}</th>
                    <td data-label="Amount" className="billing-history__num">
                      {signedCents(e.amountCents)}
                    </td>
                    <td data-label="Balance after" className="billing-history__num">
                      {formatCents(e.balanceAfterCents)}
                    </td>
                    <td data-label="Note">
                      {e.note ?? e.reference ?? "—"}
                      {e.actorName
                        ? <span className="billing-history__sub">{`by ${e.actorName}`}</span>
                        : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
      {before
        ? (
          <p>
            <button
              type="button"
              className="btn btn--secondary btn--sm"
              disabled={!isHydrated || busy !== ""}
              onClick={showOlder}
            >
              {busy === "more" ? "Loading..." : "Show older entries"}
            </button>
          </p>
        )
        : null}
    </div>
  );
}
