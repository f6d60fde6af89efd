/**
 * Surveyor balances and their ledger. Every movement of money is one `surveyor_ledger` row
 * written in the same transaction as the balance it changes (`surveyors.balance_cents`), so
 * the balance is always the sum of the ledger; the row lock taken by the balance update
 * serialises concurrent spending and the `balance_cents >= 0` check refuses an overdraft.
 * Amounts are integer cents, signed: credits > 0, debits < 0.
 */
import type { Db } from "./client.ts";
import { isUuid } from "./users.ts";

/** Kinds of ledger entries. */
export const LEDGER_KINDS = [
  "top_up",
  "lead_purchase",
  "claim_fee",
  "refund",
  "adjustment",
] as const;
/** A ledger entry's kind. */
export type LedgerKind = typeof LEDGER_KINDS[number];

/** Label per kind, for the billing history. */
export const LEDGER_KIND_LABELS: Record<LedgerKind, string> = {
  top_up: "Top-up",
  lead_purchase: "Lead purchase",
  claim_fee: "Claim fee",
  refund: "Refund",
  adjustment: "Adjustment",
};

/** One ledger entry as pages and the API show it. */
export interface LedgerEntry {
  id: string;
  kind: LedgerKind;
  /** Signed cents: credits > 0, debits < 0. */
  amountCents: number;
  balanceAfterCents: number;
  leadPurchaseId: string | null;
  /** The lead of `leadPurchaseId` (a purchase, claim fee or refund), for a link to it. */
  leadId: string | null;
  /** Internal (a payment id, `refund_request:…`, a refund cause): admins' eyes only. */
  reference: string | null;
  note: string | null;
  /** Who made it (an admin's adjustment, the surveyor's purchase); null for Stripe/system. */
  actorName: string | null;
  /** ISO timestamp. */
  createdAt: string;
}

/** Thrown when a debit would take the balance below zero; nothing was written. */
export class InsufficientBalanceError extends Error {
  constructor(readonly balanceCents: number, readonly neededCents: number) {
    super("Your balance is too low for this.");
    this.name = "InsufficientBalanceError";
  }
}

/** What `postLedgerEntry` writes. */
export interface NewLedgerEntry {
  surveyorId: string;
  kind: LedgerKind;
  /** Signed, never 0. */
  amountCents: number;
  leadPurchaseId?: string | null;
  reference?: string | null;
  note?: string | null;
  actorId?: string | null;
}

/**
 * Moves `amountCents` into (or, negative, out of) the surveyor's balance and records it, in
 * the caller's transaction (pass a `tx`: the two statements must commit together). Returns the
 * new entry's id and the balance after it; undefined when the surveyor does not exist. Throws
 * `InsufficientBalanceError` when a debit exceeds the balance (the transaction stays usable:
 * the balance update matched no row, nothing was written), and Postgres' unique violation
 * (23505) for a second refund of one purchase or a second credit of one Stripe reference.
 */
export async function postLedgerEntry(
  tx: Db,
  entry: NewLedgerEntry,
): Promise<{ id: string; balanceAfterCents: number } | undefined> {
  if (!Number.isSafeInteger(entry.amountCents) || entry.amountCents === 0) {
    throw new RangeError(`Ledger amounts are whole, non-zero cents (got ${entry.amountCents})`);
  }
  const [updated] = await tx<{ balanceCents: string }[]>`
    update surveyors set balance_cents = balance_cents + ${entry.amountCents}
    where id = ${entry.surveyorId} and balance_cents + ${entry.amountCents} >= 0
    returning balance_cents`;
  if (!updated) {
    const [row] = await tx<{ balanceCents: string }[]>`
      select balance_cents from surveyors where id = ${entry.surveyorId}`;
    if (!row) return undefined;
    throw new InsufficientBalanceError(Number(row.balanceCents), -entry.amountCents);
  }
  const balanceAfterCents = Number(updated.balanceCents);
  const [row] = await tx<{ id: string }[]>`
    insert into surveyor_ledger (
      surveyor_id, kind, amount_cents, balance_after_cents, lead_purchase_id, reference, note,
      actor_id
    ) values (
      ${entry.surveyorId}, ${entry.kind}, ${entry.amountCents}, ${balanceAfterCents},
      ${entry.leadPurchaseId ?? null}, ${entry.reference ?? null}, ${entry.note ?? null},
      ${entry.actorId ?? null}
    )
    returning id::text as id`;
  return { id: row.id, balanceAfterCents };
}

/** The surveyor's balance in cents, or undefined for an unknown surveyor. */
export async function getBalance(
  db: Db,
  { surveyorId }: { surveyorId: string },
): Promise<number | undefined> {
  const [row] = await db<{ balanceCents: string }[]>`
    select balance_cents from surveyors where id = ${surveyorId}`;
  return row ? Number(row.balanceCents) : undefined;
}

/** Largest page of `listLedgerEntries`. */
export const LEDGER_PAGE_SIZE = 50;

/**
 * The surveyor's ledger, newest first, `LEDGER_PAGE_SIZE` at a time; `before` is the id of the
 * last entry already shown (keyset paging).
 */
export async function listLedgerEntries(
  db: Db,
  { surveyorId, before, limit = LEDGER_PAGE_SIZE }: {
    surveyorId: string;
    before?: string;
    limit?: number;
  },
): Promise<LedgerEntry[]> {
  if (!isUuid(surveyorId)) return [];
  const [row] = await db<{ entries: LedgerEntryJson[] }[]>`
    select ${ledgerEntriesJsonColumn(db, { before, limit })} as entries
    from surveyors where id = ${surveyorId}`;
  return ledgerEntriesFromJson(row?.entries ?? []);
}

/** An entry as `ledgerEntriesJsonColumn` gives it: its time as JSON writes it. */
export type LedgerEntryJson = Omit<LedgerEntry, "createdAt"> & { createdAt: string };

/**
 * SQL for the ledger of the `surveyors` row in scope as a JSON array, `listLedgerEntries`'
 * page (newest first, at most `limit`, older than entry `before`): a column of a page's
 * statement (db/surveyor_record.ts) or `listLedgerEntries`'. The cents are JSON numbers
 * (exact below 2^53; a balance is far below), the id a string as everywhere.
 */
export function ledgerEntriesJsonColumn(
  db: Db,
  { before, limit = LEDGER_PAGE_SIZE }: { before?: string; limit?: number },
) {
  return db`coalesce((select json_agg(json_build_object('id', l.id::text, 'kind', l.kind,
        'amountCents', l.amount_cents, 'balanceAfterCents', l.balance_after_cents,
        'leadPurchaseId', l.lead_purchase_id, 'leadId', p.lead_id, 'reference', l.reference,
        'note', l.note, 'actorName', u.full_name, 'createdAt', l.created_at) order by l.id desc)
      from (
        select * from surveyor_ledger l
        where l.surveyor_id = surveyors.id
          ${before && /^\d{1,18}$/.test(before) ? db`and l.id < ${before}` : db``}
        order by l.id desc
        limit ${Math.min(Math.max(1, limit), LEDGER_PAGE_SIZE)}
      ) l left join users u on u.id = l.actor_id
        left join lead_purchases p on p.id = l.lead_purchase_id), '[]'::json)`;
}

/** `ledgerEntriesJsonColumn`'s JSON as the entries. */
export function ledgerEntriesFromJson(rows: LedgerEntryJson[]): LedgerEntry[] {
  return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() }));
}
