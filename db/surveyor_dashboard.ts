/**
 * Read-only queries of a surveyor's own pages:
 *
 * - the dashboard's figures in one statement: the balance, the surveyor's status, the leads
 *   bought or claimed this month and what they cost, the won and lost purchases (the win
 *   rate) and the jobs in progress (open assignments) with what each needs next;
 * - the purchased-leads list filtered by pipeline status (db/lead_market.ts
 *   `listPurchasedLeads` has no filter), with the columns the list shows;
 * - the request details a purchased lead's page shows beyond `UnlockedLead`.
 *
 * The client's personal data is read only through the surveyor's own purchase (the join on
 * `lead_purchases.surveyor_id`), never for a lead they did not buy or claim.
 */
import type { Db } from "./client.ts";
import { isUuid } from "./users.ts";
import { isSurveyorId } from "./surveyors.ts";
import { contactEmailColumn } from "./lead_market.ts";
import { townFromAddress } from "../lib/address_parts.ts";
import type { SurveyType } from "../lib/survey_types.ts";
import type { AltaItemId, StateCode, Terrain, Vegetation } from "../lib/survey_options.ts";
import type { SurveyorStatus } from "../lib/surveyor_constants.ts";
import type { AssignmentStatus, PipelineStatus } from "../lib/lead_market_schema.ts";
import { refundedDetailsNotice } from "../lib/refund_constants.ts";

/** How many jobs in progress the dashboard lists (newest first); the rest are counted. */
export const DASHBOARD_JOBS_SHOWN = 5;

/** An open assignment of the surveyor, as the dashboard lists it. */
export interface DashboardJob {
  assignmentId: string;
  surveyId: string;
  /** The lead this surveyor bought or claimed for the survey (its page), if they did. */
  leadId: string | null;
  surveyType: SurveyType;
  /** Street address when the surveyor bought or claimed the lead, else null. */
  address: string | null;
  /** "Austin" of "…, Austin, TX 78701, USA", when it can be told. */
  city: string | null;
  state: StateCode;
  status: "offered" | "accepted" | "scheduled";
  agreedPriceCents: number;
  /** YYYY-MM-DD or null. */
  scheduledDate: string | null;
}

/** What the surveyor dashboard shows besides the lists of leads. */
export interface SurveyorDashboardFigures {
  status: SurveyorStatus;
  /** ISO timestamp of the licence check, or null while it has not been done. */
  verifiedAt: string | null;
  balanceCents: number;
  /** Leads bought or claimed since the first of this month (UTC), refunded ones included. */
  leadsThisMonth: number;
  /** What those cost, less what was refunded of them. */
  spentThisMonthCents: number;
  /** Purchases whose pipeline the buyer marked won / lost. */
  won: number;
  lost: number;
  /** All open assignments (offered, accepted, scheduled). */
  openJobs: number;
  /** The newest `DASHBOARD_JOBS_SHOWN` of them. */
  jobs: DashboardJob[];
  /** The firm's technicians, as the crew page counts them (db/technicians.ts `listTechnicians`). */
  crewTotal: number;
}

interface FiguresRow {
  status: SurveyorStatus;
  verifiedAt: Date | null;
  balanceCents: string;
  leadsThisMonth: number;
  spentThisMonthCents: string;
  won: number;
  lost: number;
  openJobs: number;
  jobs: (Omit<DashboardJob, "city"> & { place: string | null })[];
  crewTotal: number;
}

/**
 * The dashboard figures of surveyor `surveyorId` (or of the surveyor record linked to account
 * `userId`, so that the dashboard need not read the record first) in one statement, or
 * undefined for an unknown surveyor. "This month" starts at 00:00 UTC on the first. A job's
 * street address is given only when this surveyor bought or claimed its lead (the client's
 * details are theirs then); otherwise only the town and state.
 */
export async function getSurveyorDashboardFigures(
  db: Db,
  which: { surveyorId: string } | { userId: string },
): Promise<SurveyorDashboardFigures | undefined> {
  if ("surveyorId" in which ? !isSurveyorId(which.surveyorId) : !isUuid(which.userId)) {
    return undefined;
  }
  const record = "surveyorId" in which
    ? db`sv.id = ${which.surveyorId}`
    : db`sv.user_id = ${which.userId}`;
  const [row] = await db<FiguresRow[]>`
    with me as (
      select sv.id from surveyors sv where ${record}
    ),
    month as (
      select date_trunc('month', now() at time zone 'UTC') at time zone 'UTC' as starts
    ),
    purchases as (
      select
        count(*) filter (where p.created_at >= month.starts)::int as leads_this_month,
        coalesce(sum(p.charged_cents)
          filter (where p.created_at >= month.starts and p.refunded_at is null), 0)::bigint
          as spent_this_month_cents,
        count(*) filter (where p.pipeline_status = 'won')::int as won,
        count(*) filter (where p.pipeline_status = 'lost')::int as lost
      from lead_purchases p cross join month
      where p.surveyor_id = (select id from me)
    ),
    open_jobs as (
      select a.id, a.survey_id, a.status, a.agreed_price_cents, a.created_at,
        a.scheduled_date::text as scheduled_date
      from survey_assignments a
      where a.surveyor_id = (select id from me)
        and a.status in ('offered', 'accepted', 'scheduled')
    ),
    shown as (
      select j.*, s.survey_type, s.state, coalesce(s.formatted_address, s.address) as place,
        lp.lead_id
      from open_jobs j
      join surveys s on s.id = j.survey_id
      left join leads l on l.survey_id = j.survey_id
      left join lead_purchases lp on lp.lead_id = l.id and lp.surveyor_id = (select id from me)
      order by j.created_at desc, j.id desc
      limit ${DASHBOARD_JOBS_SHOWN}
    )
    select sv.status, sv.verified_at, sv.balance_cents,
      purchases.leads_this_month, purchases.spent_this_month_cents, purchases.won,
      purchases.lost,
      (select count(*)::int from open_jobs) as open_jobs,
      coalesce((
        select json_agg(json_build_object(
          'assignmentId', shown.id, 'surveyId', shown.survey_id, 'leadId', shown.lead_id,
          'surveyType', shown.survey_type, 'state', shown.state, 'place', shown.place,
          'status', shown.status, 'agreedPriceCents', shown.agreed_price_cents,
          'scheduledDate', shown.scheduled_date
        ) order by shown.created_at desc, shown.id desc)
        from shown
      ), '[]'::json) as jobs,
      (select count(*)::int from technicians t
        join users u on u.id = t.user_id and u.role = 'technician'
        where t.surveyor_id = sv.id) as crew_total
    from surveyors sv cross join purchases
    where sv.id = (select id from me)`;
  if (!row) return undefined;
  return {
    status: row.status,
    verifiedAt: row.verifiedAt ? row.verifiedAt.toISOString() : null,
    balanceCents: Number(row.balanceCents),
    leadsThisMonth: row.leadsThisMonth,
    spentThisMonthCents: Number(row.spentThisMonthCents),
    won: row.won,
    lost: row.lost,
    openJobs: row.openJobs,
    crewTotal: row.crewTotal,
    jobs: row.jobs.map(({ place, ...job }) => ({
      ...job,
      address: job.leadId ? place : null,
      city: townFromAddress(place, job.state),
    })),
  };
}

/** A purchased lead as the list shows it: the client's details and the purchase. */
export interface PurchasedLeadItem {
  /** The lead's id (its page is /surveyor/purchased-leads/{id}). */
  id: string;
  surveyId: string;
  surveyType: SurveyType;
  state: StateCode;
  kind: "buy" | "claim";
  chargedCents: number;
  pipelineStatus: PipelineStatus;
  /** ISO timestamps. */
  purchasedAt: string;
  refundedAt: string | null;
  /** Why the client's details are withheld (a refunded purchase), else null. */
  detailsHidden: string | null;
  /** Null once the purchase is refunded (lib/refund_constants.ts has the rule). */
  client: { name: string; phone: string; email: string | null } | null;
  address: string | null;
  formattedAddress: string | null;
  quotedPriceCents: number | null;
  /** This surveyor's open (else latest) assignment on the survey, if any. */
  assignment: { status: AssignmentStatus; scheduledDate: string | null } | null;
}

interface PurchasedRow extends
  Omit<
    PurchasedLeadItem,
    "purchasedAt" | "refundedAt" | "detailsHidden" | "client" | "address" | "assignment"
  > {
  address: string;
  purchasedAt: Date;
  refundedAt: Date | null;
  contactName: string;
  contactPhone: string;
  contactEmail: string | null;
  assignmentStatus: AssignmentStatus | null;
  scheduledDate: string | null;
  total: number;
}

/**
 * One page of the leads surveyor `surveyorId` bought or claimed, newest purchase first,
 * optionally only those with `pipelineStatus`; with how many match in all. The page's
 * purchases come from the (surveyor_id, created_at desc, id) index; the count rides along.
 */
export async function listOwnPurchasedLeads(
  db: Db,
  { surveyorId, pipelineStatus, page, pageSize }: {
    surveyorId: string;
    pipelineStatus?: PipelineStatus;
    page: number;
    pageSize: number;
  },
): Promise<{ leads: PurchasedLeadItem[]; total: number }> {
  if (!isSurveyorId(surveyorId)) return { leads: [], total: 0 };
  const filter = pipelineStatus ? db`and pipeline_status = ${pipelineStatus}` : db``;
  const offset = (Math.max(1, page) - 1) * pageSize;
  const rows = await db<PurchasedRow[]>`
    with page as (
      select id, count(*) over ()::int as total
      from lead_purchases
      where surveyor_id = ${surveyorId} ${filter}
      order by created_at desc, id desc
      limit ${pageSize} offset ${offset}
    )
    select l.id, l.survey_id, s.survey_type, s.state, p.kind, p.charged_cents,
      p.pipeline_status, p.created_at as purchased_at, p.refunded_at,
      s.contact_name, s.contact_phone, ${contactEmailColumn(db)} as contact_email, s.address,
      s.formatted_address,
      s.quoted_price_cents, a.status as assignment_status, a.scheduled_date, page.total
    from page
    join lead_purchases p on p.id = page.id
    join leads l on l.id = p.lead_id
    join surveys s on s.id = l.survey_id
    left join lateral (
      select sa.status, sa.scheduled_date::text as scheduled_date
      from survey_assignments sa
      where sa.surveyor_id = ${surveyorId} and sa.survey_id = s.id
      order by (sa.status in ('offered', 'accepted', 'scheduled')) desc, sa.created_at desc
      limit 1
    ) a on true
    order by p.created_at desc, p.id desc`;
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && offset > 0) {
    const [row] = await db<{ total: number }[]>`
      select count(*)::int as total from lead_purchases
      where surveyor_id = ${surveyorId} ${filter}`;
    total = row.total;
  }
  return {
    total,
    leads: rows.map((r) => ({
      id: r.id,
      surveyId: r.surveyId,
      surveyType: r.surveyType,
      state: r.state,
      kind: r.kind,
      chargedCents: r.chargedCents,
      pipelineStatus: r.pipelineStatus,
      purchasedAt: r.purchasedAt.toISOString(),
      refundedAt: r.refundedAt ? r.refundedAt.toISOString() : null,
      // A refunded purchase unlocks nothing (lib/refund_constants.ts).
      detailsHidden: r.refundedAt ? refundedDetailsNotice(r.refundedAt) : null,
      client: r.refundedAt
        ? null
        : { name: r.contactName, phone: r.contactPhone, email: r.contactEmail },
      address: r.refundedAt ? null : r.address,
      formattedAddress: r.refundedAt ? null : r.formattedAddress,
      quotedPriceCents: r.quotedPriceCents,
      assignment: r.assignmentStatus
        ? { status: r.assignmentStatus, scheduledDate: r.scheduledDate }
        : null,
    })),
  };
}

/** What the client told us about the property beyond `UnlockedLead`'s fields. */
export interface PurchasedRequestDetails {
  terrain: Terrain | null;
  vegetation: Vegetation | null;
  structures: number;
  cornersKnown: boolean | null;
  cornersToSet: number;
  altaItems: AltaItemId[];
}

/**
 * The request details of lead `leadId` if surveyor `surveyorId` bought or claimed it, else
 * undefined.
 */
export async function getPurchasedRequestDetails(
  db: Db,
  { leadId, surveyorId }: { leadId: string; surveyorId: string },
): Promise<PurchasedRequestDetails | undefined> {
  if (!isUuid(leadId) || !isSurveyorId(surveyorId)) return undefined;
  const [row] = await db<PurchasedRequestDetails[]>`
    select s.terrain, s.vegetation, s.structures, s.corners_known, s.corners_to_set,
      s.alta_items
    from lead_purchases p
    join leads l on l.id = p.lead_id
    join surveys s on s.id = l.survey_id
    where p.lead_id = ${leadId} and p.surveyor_id = ${surveyorId}`;
  return row;
}
