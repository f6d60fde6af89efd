/**
 * Lead returns: the purchases a refund touches and the return requests buyers send (decided
 * by an admin). Money moves only through db/ledger.ts `postLedgerEntry`; lib/refunds.ts holds
 * the rules and calls these inside one transaction.
 *
 * Lock order, the same on every path so two of them never deadlock: the survey, the lead row
 * (closing it), then the purchase rows (`for update`, by id), then the purchase's return
 * requests. Deciding a request starts at the purchase.
 */
import type { Db } from "./client.ts";
import { isUuid } from "./users.ts";
import { townFromAddress } from "../lib/address_parts.ts";
import type { SurveyType } from "../lib/survey_types.ts";
import { SURVEY_TYPE_INFO } from "../lib/survey_types.ts";
import { JOB_ASSIGNMENT_STATUSES } from "../lib/refund_constants.ts";
import { PIPELINE_LABELS, type PipelineStatus } from "../lib/lead_market_schema.ts";
import type {
  RefundReason,
  RefundRequestPage,
  RefundRequestStatus,
  RefundRequestSummary,
  RefundRequestView,
} from "../lib/refund_constants.ts";

/** True when `id` is shaped like a uuid (anything else names no purchase or request). */
export function isRefundId(id: string): boolean {
  return isUuid(id);
}

/** "Austin, TX" from a survey's address, or the state code alone when no city is found. */
export function leadPlace(
  { address, formattedAddress, state }: {
    address: string;
    formattedAddress: string | null;
    state: string;
  },
): string {
  const city = townFromAddress(formattedAddress, state) ?? townFromAddress(address, state);
  return city ? `${city}, ${state}` : state;
}

/** A purchase as a refund reads it, locked until the transaction ends. */
export interface LockedPurchase {
  id: string;
  leadId: string;
  surveyorId: string;
  kind: "buy" | "claim";
  chargedCents: number;
  refundedAt: Date | null;
  createdAt: Date;
}

/** The purchase `purchaseId` locked `for update`, or undefined. */
export async function lockPurchase(
  tx: Db,
  { purchaseId }: { purchaseId: string },
): Promise<LockedPurchase | undefined> {
  if (!isRefundId(purchaseId)) return undefined;
  const [row] = await tx<LockedPurchase[]>`
    select id, lead_id, surveyor_id, kind, charged_cents, refunded_at, created_at
    from lead_purchases where id = ${purchaseId}
    for update`;
  return row;
}

/** Marks the purchase refunded now (the caller holds its lock and posted the ledger entry). */
export async function markPurchaseRefunded(
  tx: Db,
  { purchaseId }: { purchaseId: string },
): Promise<Date> {
  const [row] = await tx<{ refundedAt: Date }[]>`
    update lead_purchases set refunded_at = now(), updated_at = now()
    where id = ${purchaseId}
    returning refunded_at`;
  return row.refundedAt;
}

/**
 * Locks the surveys `surveyIds` (id order), so an automatic return takes its locks in the
 * order a status change does (survey, lead, purchases): a delete racing a cancellation then
 * waits instead of deadlocking. A caller already holding a survey's lock keeps it.
 */
export async function lockSurveysForRefund(
  tx: Db,
  { surveyIds }: { surveyIds: string[] },
): Promise<void> {
  const ids = surveyIds.filter(isRefundId);
  if (ids.length === 0) return;
  await tx`
    select id from surveys where id = any(${tx.array(ids)}::uuid[]) order by id for update`;
}

/**
 * Closes the leads of `surveyIds` for `reason` ('cancelled' or 'removed'); a lead already
 * closed keeps its closing time but takes the reason (a sold-out lead whose request was then
 * cancelled reads "cancelled"). Taking the lead rows' locks first makes a buy of the same lead
 * wait for this transaction, and then find the lead closed.
 */
export async function closeLeadsForSurveys(
  tx: Db,
  { surveyIds, reason }: { surveyIds: string[]; reason: "cancelled" | "removed" },
): Promise<number> {
  const ids = surveyIds.filter(isRefundId);
  if (ids.length === 0) return 0;
  const rows = await tx`
    update leads set status = 'closed', closed_reason = ${reason},
      closed_at = coalesce(closed_at, now()), updated_at = now()
    where survey_id = any(${tx.array(ids)}::uuid[])
    returning id`;
  return rows.length;
}

/** A purchase the automatic return refunds, with what its buyer is told and where. */
export interface RefundTarget {
  purchaseId: string;
  leadId: string;
  surveyId: string;
  surveyorId: string;
  chargedCents: number;
  surveyType: SurveyType;
  /** "Austin, TX". */
  place: string;
  companyName: string;
  /** The surveyor's linked account (in-app notification), if any. */
  userId: string | null;
  /** Where the email goes: the linked account's address, else the record's; null for none. */
  email: string | null;
  /** Whom the email greets. */
  name: string;
}

/**
 * The unrefunded, charged purchases of the leads of `surveyIds` made within the last
 * `windowDays` days, locked `for update` in id order, with their buyers. One statement however
 * many surveys (the delete-multiple path passes up to 100).
 */
export async function lockRefundablePurchases(
  tx: Db,
  { surveyIds, windowDays }: { surveyIds: string[]; windowDays: number },
): Promise<RefundTarget[]> {
  const ids = surveyIds.filter(isRefundId);
  if (ids.length === 0) return [];
  const rows = await tx<
    (Omit<RefundTarget, "place"> & {
      address: string;
      formattedAddress: string | null;
      state: string;
    })[]
  >`
    select p.id as purchase_id, p.lead_id, l.survey_id, p.surveyor_id, p.charged_cents,
      s.survey_type, s.address, s.formatted_address, s.state, r.company_name,
      u.id as user_id, coalesce(u.email, r.email) as email,
      coalesce(u.full_name, r.principal_name, r.company_name) as name
    from leads l
    join lead_purchases p on p.lead_id = l.id
    join surveys s on s.id = l.survey_id
    join surveyors r on r.id = p.surveyor_id
    left join users u on u.id = r.user_id and u.disabled_at is null
    where l.survey_id = any(${tx.array(ids)}::uuid[])
      and p.refunded_at is null and p.charged_cents > 0
      and p.created_at >= now() - make_interval(days => ${windowDays}::int)
    order by p.id
    for update of p`;
  return rows.map(({ address, formattedAddress, state, ...r }) => ({
    ...r,
    place: leadPlace({ address, formattedAddress, state }),
  }));
}

/**
 * Closes the purchase's pending return request (if any) as approved with `note`: the money
 * came back another way (an automatic return), so the queue no longer shows it. Returns the
 * number of requests closed.
 */
export async function approvePendingRequests(
  tx: Db,
  { purchaseIds, note }: { purchaseIds: string[]; note: string },
): Promise<number> {
  if (purchaseIds.length === 0) return 0;
  const rows = await tx`
    update lead_refund_requests set status = 'approved', decided_at = now(),
      decision_note = ${note}
    where lead_purchase_id = any(${tx.array(purchaseIds)}::uuid[]) and status = 'pending'
    returning id`;
  return rows.length;
}

/** A surveyor's own purchase with its newest return request, for the request rules. */
export interface OwnPurchase {
  id: string;
  leadId: string;
  surveyorId: string;
  chargedCents: number;
  refundedAt: Date | null;
  createdAt: Date;
  /** Days since the purchase, whole (rounded down), by the database clock. */
  ageDays: number;
  latestRequest: RefundRequestSummary | null;
}

type RequestRow = Omit<RefundRequestSummary, "createdAt" | "decidedAt"> & {
  createdAt: Date;
  decidedAt: Date | null;
};

function toSummary(r: RequestRow): RefundRequestSummary {
  return {
    id: r.id,
    reason: r.reason,
    note: r.note,
    status: r.status,
    decisionNote: r.decisionNote,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt ? r.decidedAt.toISOString() : null,
  };
}

/**
 * The purchase of surveyor `surveyorId` named by `id` (the lead's id, as the purchased-lead
 * pages use, or the purchase's own), locked `for update` when `lock` is set (a request being
 * filed), with its newest return request; undefined when this surveyor bought no such lead.
 */
export async function getOwnPurchase(
  db: Db,
  { id, surveyorId, lock = false }: { id: string; surveyorId: string; lock?: boolean },
): Promise<OwnPurchase | undefined> {
  if (!isRefundId(id) || !isRefundId(surveyorId)) return undefined;
  const [purchase] = await db<Omit<OwnPurchase, "latestRequest">[]>`
    select id, lead_id, surveyor_id, charged_cents, refunded_at, created_at,
      floor(extract(epoch from now() - created_at) / 86400)::int as age_days
    from lead_purchases
    where (lead_id = ${id} or id = ${id}) and surveyor_id = ${surveyorId}
    ${lock ? db`for update` : db``}`;
  if (!purchase) return undefined;
  const [request] = await db<RequestRow[]>`
    select id, reason, note, status, decision_note, created_at, decided_at
    from lead_refund_requests where lead_purchase_id = ${purchase.id}
    order by created_at desc limit 1`;
  return { ...purchase, latestRequest: request ? toSummary(request) : null };
}

/** What became of a purchase's lead for its buyer: their pipeline and job on the survey. */
export interface PurchaseWork {
  pipelineStatus: string;
  /** The buyer's newest assignment on the survey that made it their job, if any. */
  assignmentStatus: string | null;
}

/**
 * The buyer's pipeline status on purchase `purchaseId` and their newest assignment on its
 * survey in `JOB_ASSIGNMENT_STATUSES` (lib/refund_constants.ts); undefined for an unknown id.
 */
export async function getPurchaseWork(
  db: Db,
  { purchaseId }: { purchaseId: string },
): Promise<PurchaseWork | undefined> {
  if (!isRefundId(purchaseId)) return undefined;
  const [row] = await db<PurchaseWork[]>`
    select p.pipeline_status, (
      select a.status from survey_assignments a
      where a.survey_id = l.survey_id and a.surveyor_id = p.surveyor_id
        and a.status in ${db([...JOB_ASSIGNMENT_STATUSES])}
      order by a.created_at desc limit 1
    ) as assignment_status
    from lead_purchases p join leads l on l.id = p.lead_id
    where p.id = ${purchaseId}`;
  return row;
}

/**
 * Files a pending return request for the purchase. Returns undefined when one is already
 * pending (the partial unique index decides, so two at once file one).
 */
export async function insertRefundRequest(
  tx: Db,
  input: { purchaseId: string; reason: RefundReason; note: string },
): Promise<RefundRequestSummary | undefined> {
  const [row] = await tx<RequestRow[]>`
    insert into lead_refund_requests (lead_purchase_id, reason, note)
    values (${input.purchaseId}, ${input.reason}, ${input.note})
    on conflict (lead_purchase_id) where status = 'pending' do nothing
    returning id, reason, note, status, decision_note, created_at, decided_at`;
  return row && toSummary(row);
}

/**
 * How many return requests are pending, for the console's tab badge (the partial index counts
 * them): a scalar subquery (an int), read in the statement of a console tab
 * (db/admin_console.ts).
 */
export function pendingRefundRequestsCountColumn(db: Db) {
  return db`(select count(*)::int from lead_refund_requests where status = 'pending')`;
}

/** Largest page of `listRefundRequests`. */
export const REFUND_REQUESTS_MAX_PAGE_SIZE = 100;

type ViewRow =
  & Omit<RefundRequestView, "createdAt" | "decidedAt" | "purchasedAt" | "place" | "pipelineLabel">
  & {
    pipelineStatus: PipelineStatus;
    createdAt: Date;
    decidedAt: Date | null;
    purchasedAt: Date;
    address: string;
    formattedAddress: string | null;
    state: string;
    total?: number;
  };

function toView(
  { address, formattedAddress, state, total: _total, pipelineStatus, ...r }: ViewRow,
) {
  return {
    ...r,
    pipelineLabel: PIPELINE_LABELS[pipelineStatus] ?? pipelineStatus,
    surveyTypeName: SURVEY_TYPE_INFO[r.surveyType as SurveyType]?.name ?? r.surveyType,
    place: leadPlace({ address, formattedAddress, state }),
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt ? r.decidedAt.toISOString() : null,
    purchasedAt: r.purchasedAt.toISOString(),
  } satisfies RefundRequestView;
}

function viewSelect(db: Db) {
  return db`
    select q.id, q.status, q.reason, q.note, q.decision_note, q.created_at, q.decided_at,
      floor(extract(epoch from now() - q.created_at) / 86400)::int as age_days,
      d.full_name as decided_by_name,
      p.id as purchase_id, p.created_at as purchased_at, p.charged_cents as amount_cents,
      p.refunded_at is not null as is_refunded,
      l.id as lead_id, l.survey_id, s.survey_type, s.address, s.formatted_address, s.state,
      r.id as surveyor_id, r.company_name, p.pipeline_status, p.pipeline_note,
      (select count(*)::int from lead_refund_requests q2
        join lead_purchases p2 on p2.id = q2.lead_purchase_id
        where p2.surveyor_id = p.surveyor_id and q2.created_at < q.created_at) as earlier_returns
    from lead_refund_requests q
    join lead_purchases p on p.id = q.lead_purchase_id
    join leads l on l.id = p.lead_id
    join surveys s on s.id = l.survey_id
    join surveyors r on r.id = p.surveyor_id
    left join users d on d.id = q.decided_by`;
}

/**
 * One page of return requests in `status` with the surveyor's company, the lead (type,
 * place), the amount, reason, note and age, and the total. Pending ones oldest first (the
 * queue's order: whoever waited longest), decided ones newest first; both walk
 * lead_refund_requests_status_idx.
 *
 * One statement, not the page and a count pipelined: each statement costs CPU here and in its
 * Postgres backend (issue 23: three small ones ~275 µs against ~160 µs as one). The page is a
 * lateral join on the count (db/lead_market.ts `availableLeads`), so the total still comes
 * back past the last page.
 */
export async function listRefundRequests(
  db: Db,
  { status, page, pageSize }: { status: RefundRequestStatus; page: number; pageSize: number },
): Promise<RefundRequestPage> {
  const limit = Math.min(Math.max(1, pageSize), REFUND_REQUESTS_MAX_PAGE_SIZE);
  const direction = status === "pending" ? db`` : db`desc`;
  const rows = await db<(Partial<ViewRow> & { total: number })[]>`
    select c.total, v.*
    from (select count(*)::int as total from lead_refund_requests where status = ${status}) c
    left join lateral (
      ${viewSelect(db)}
      where q.status = ${status}
      order by q.created_at ${direction}, q.id ${direction}
      limit ${limit} offset ${(Math.max(1, page) - 1) * limit}
    ) v on true
    order by v.created_at ${direction}, v.id ${direction}`;
  return {
    requests: rows.filter((r) => r.id != null).map((r) => toView(r as ViewRow)),
    total: rows[0].total,
    page,
    pageSize: limit,
    status,
  };
}

/** One return request as the queue shows it, or undefined. */
export async function getRefundRequestView(
  db: Db,
  { id }: { id: string },
): Promise<RefundRequestView | undefined> {
  if (!isRefundId(id)) return undefined;
  const [row] = await db<ViewRow[]>`${viewSelect(db)} where q.id = ${id}`;
  return row && toView(row);
}

/** What deciding a request needs to know, read without a lock (to take locks in order). */
export interface RequestTarget {
  id: string;
  purchaseId: string;
  status: RefundRequestStatus;
}

/** The request `id` and its purchase, or undefined. */
export async function getRefundRequestTarget(
  db: Db,
  { id, lock = false }: { id: string; lock?: boolean },
): Promise<RequestTarget | undefined> {
  if (!isRefundId(id)) return undefined;
  const [row] = await db<RequestTarget[]>`
    select id, lead_purchase_id as purchase_id, status from lead_refund_requests
    where id = ${id}
    ${lock ? db`for update` : db``}`;
  return row;
}

/**
 * Records the admin's decision on a pending request. Returns false, changing nothing, when the
 * request is no longer pending (decided meanwhile).
 */
export async function decideRefundRequest(
  tx: Db,
  input: { id: string; status: "approved" | "denied"; decidedBy: string; note: string | null },
): Promise<boolean> {
  const rows = await tx`
    update lead_refund_requests set status = ${input.status}, decided_by = ${input.decidedBy},
      decided_at = now(), decision_note = ${input.note}
    where id = ${input.id} and status = 'pending'
    returning id`;
  return rows.length === 1;
}

/** Who is told about a purchase's refund or request, and about which lead. */
export interface PurchaseParties {
  purchaseId: string;
  leadId: string;
  surveyType: SurveyType;
  place: string;
  chargedCents: number;
  companyName: string;
  userId: string | null;
  email: string | null;
  name: string;
}

/** The buyer and lead of purchase `purchaseId`, for a decision's notice; or undefined. */
export async function getPurchaseParties(
  db: Db,
  { purchaseId }: { purchaseId: string },
): Promise<PurchaseParties | undefined> {
  if (!isRefundId(purchaseId)) return undefined;
  const [row] = await db<
    (Omit<PurchaseParties, "place"> & {
      address: string;
      formattedAddress: string | null;
      state: string;
    })[]
  >`
    select p.id as purchase_id, p.lead_id, p.charged_cents, s.survey_type, s.address,
      s.formatted_address, s.state, r.company_name, u.id as user_id,
      coalesce(u.email, r.email) as email,
      coalesce(u.full_name, r.principal_name, r.company_name) as name
    from lead_purchases p
    join leads l on l.id = p.lead_id
    join surveys s on s.id = l.survey_id
    join surveyors r on r.id = p.surveyor_id
    left join users u on u.id = r.user_id and u.disabled_at is null
    where p.id = ${purchaseId}`;
  if (!row) return undefined;
  const { address, formattedAddress, state, ...rest } = row;
  return { ...rest, place: leadPlace({ address, formattedAddress, state }) };
}
