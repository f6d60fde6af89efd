import type postgres from "postgres";
import type { Db, Sql } from "./client.ts";
import type { Discount } from "../lib/pricing.ts";

/** A discount code as stored. `value` is a percent (1–100) or cents, per `kind`. */
export interface DiscountCode {
  id: string;
  code: string;
  kind: "percent" | "fixed";
  value: number;
  validFrom: Date | null;
  validUntil: Date | null;
  maxUses: number | null;
  uses: number;
  oncePerClient: boolean;
  active: boolean;
  note: string;
  createdBy: string | null;
  createdAt: Date;
}

/** Why a code cannot be used. */
export type DiscountFailureReason =
  | "unknown"
  | "inactive"
  | "expired"
  | "not_yet_valid"
  | "used_up"
  | "already_used";

/** A code that cannot be used, with a message fit for the client. */
export interface DiscountFailure {
  ok: false;
  reason: DiscountFailureReason;
  message: string;
}

/** The outcome of checking or redeeming a code. */
export type DiscountCheck =
  | { ok: true; discount: Discount & { id: string } }
  | DiscountFailure;

/** What the client is told for each failure. */
export const DISCOUNT_MESSAGES: Record<DiscountFailureReason, string> = {
  unknown: "This discount code doesn't exist. Check the spelling and try again.",
  inactive: "This discount code is no longer active.",
  expired: "This discount code has expired.",
  not_yet_valid: "This discount code is not valid yet.",
  used_up: "This discount code has reached its usage limit.",
  already_used: "You have already used this discount code.",
};

function failure(reason: DiscountFailureReason): DiscountFailure {
  return { ok: false, reason, message: DISCOUNT_MESSAGES[reason] };
}

const columns = [
  "id",
  "code",
  "kind",
  "value",
  "valid_from",
  "valid_until",
  "max_uses",
  "uses",
  "once_per_client",
  "active",
  "note",
  "created_by",
  "created_at",
];

/** Why `row` cannot be used at `now`, or null when it can (ignoring per-client use). */
function unusableReason(row: DiscountCode, now: Date): DiscountFailureReason | null {
  if (!row.active) return "inactive";
  if (row.validFrom && row.validFrom > now) return "not_yet_valid";
  if (row.validUntil && row.validUntil <= now) return "expired";
  if (row.maxUses !== null && row.uses >= row.maxUses) return "used_up";
  return null;
}

function toDiscount(row: DiscountCode) {
  return { id: row.id, code: row.code, kind: row.kind, value: row.value };
}

/** The code matching `code` case-insensitively, or undefined. */
export async function getDiscountCodeByCode(
  db: Db,
  { code }: { code: string },
): Promise<DiscountCode | undefined> {
  const [row] = await db<DiscountCode[]>`
    select ${db(columns)} from discount_codes where lower(code) = lower(${code.trim()})`;
  return row;
}

/**
 * Whether `code` can be used now (by `clientId`, when given: a once-per-client code it has
 * used is refused). Reads only; `redeemDiscountCode` is what counts a use.
 */
export async function checkDiscountCode(
  db: Db,
  { code, clientId, now = new Date() }: { code: string; clientId?: string | null; now?: Date },
): Promise<DiscountCheck> {
  const row = await getDiscountCodeByCode(db, { code });
  if (!row) return failure("unknown");
  const reason = unusableReason(row, now);
  if (reason) return failure(reason);
  if (clientId && row.oncePerClient) {
    const [used] = await db`
      select 1 from discount_code_uses
      where code_id = ${row.id} and client_id = ${clientId} and once_per_client
      limit 1`;
    if (used) return failure("already_used");
  }
  return { ok: true, discount: toDiscount(row) };
}

class Refused extends Error {
  constructor(readonly result: DiscountFailure) {
    super(result.message);
  }
}

/** Runs `fn` in a savepoint when `db` is a transaction, else in a new transaction. */
function atomically<T>(db: Db, fn: (tx: postgres.TransactionSql) => Promise<T>): Promise<T> {
  if ("savepoint" in db) return db.savepoint(fn) as Promise<T>;
  return (db as Sql).begin(fn) as Promise<T>;
}

/**
 * Counts one use of `code` by `clientId` for `surveyId`, atomically: the use counter moves
 * only while the code is active, in its window and under `max_uses` (one conditional update,
 * so two requests racing for the last use cannot both win), and a once-per-client code gets
 * one use row per client (a partial unique index). On failure nothing is changed (the work
 * runs in a savepoint) and the reason is returned; the caller should then roll back its own
 * transaction too.
 */
export async function redeemDiscountCode(
  db: Db,
  { code, clientId, surveyId = null, now = new Date() }: {
    code: string;
    clientId: string;
    surveyId?: string | null;
    now?: Date;
  },
): Promise<DiscountCheck> {
  try {
    return await atomically(db, async (tx) => {
      const [row] = await tx<DiscountCode[]>`
        update discount_codes set uses = uses + 1
        where lower(code) = lower(${code.trim()})
          and active
          and (valid_from is null or valid_from <= ${now})
          and (valid_until is null or valid_until > ${now})
          and (max_uses is null or uses < max_uses)
        returning ${tx(columns)}`;
      if (!row) {
        const current = await getDiscountCodeByCode(tx, { code });
        const reason = current ? unusableReason(current, now) : "unknown";
        // A code that looks usable now lost a race that has since been undone; report it
        // as used up rather than pretend it worked.
        throw new Refused(failure(reason ?? "used_up"));
      }
      const [use] = await tx`
        insert into discount_code_uses (code_id, client_id, survey_id, once_per_client)
        values (${row.id}, ${clientId}, ${surveyId}, ${row.oncePerClient})
        on conflict (code_id, client_id) where once_per_client do nothing
        returning id`;
      if (!use) throw new Refused(failure("already_used"));
      return { ok: true as const, discount: toDiscount(row) };
    });
  } catch (err) {
    if (err instanceof Refused) return err.result;
    throw err;
  }
}

/** Input for a new discount code. */
export interface NewDiscountCode {
  code: string;
  kind: "percent" | "fixed";
  value: number;
  validFrom?: Date | null;
  validUntil?: Date | null;
  maxUses?: number | null;
  oncePerClient?: boolean;
  note?: string;
  createdBy: string | null;
}

/**
 * Inserts a code. Returns undefined when a code with the same letters (any case) exists;
 * throws on values the table's checks refuse.
 */
export async function insertDiscountCode(
  db: Db,
  input: NewDiscountCode,
): Promise<DiscountCode | undefined> {
  const [row] = await db<DiscountCode[]>`
    insert into discount_codes
      (code, kind, value, valid_from, valid_until, max_uses, once_per_client, note, created_by)
    values (
      ${input.code.trim()}, ${input.kind}, ${input.value}, ${input.validFrom ?? null},
      ${input.validUntil ?? null}, ${input.maxUses ?? null}, ${input.oncePerClient ?? true},
      ${input.note ?? ""}, ${input.createdBy}
    )
    on conflict (lower(code)) do nothing
    returning ${db(columns)}`;
  return row;
}

/** A page of codes, newest first. */
export async function listDiscountCodes(
  db: Db,
  { page = 1, pageSize = 50 }: { page?: number; pageSize?: number } = {},
): Promise<{ codes: DiscountCode[]; page: number; pageSize: number; total: number }> {
  const current = Math.max(1, page);
  // One statement: the page is a lateral join on the count (db/pricing.ts `listPricingConfigs`).
  const rows = await db<(Partial<DiscountCode> & { total: number })[]>`
    select c.total, r.*
    from (select count(*)::int as total from discount_codes) c
    left join lateral (
      select ${db(columns)} from discount_codes
      order by created_at desc, id
      limit ${pageSize} offset ${(current - 1) * pageSize}
    ) r on true
    order by r.created_at desc, r.id`;
  const codes = rows.filter((r) => r.id != null).map(({ total: _, ...code }) =>
    code as DiscountCode
  );
  return { codes, page: current, pageSize, total: rows[0]?.total ?? 0 };
}

/** Turns a code on or off; returns the updated code, or undefined for an unknown id. */
export async function setDiscountCodeActive(
  db: Db,
  { id, active }: { id: string; active: boolean },
): Promise<DiscountCode | undefined> {
  const [row] = await db<DiscountCode[]>`
    update discount_codes set active = ${active} where id = ${id}
    returning ${db(columns)}`;
  return row;
}
