/**
 * Proposals (survey_proposals): what a lead's buyer offers the client, and its status. At most
 * one pending proposal per buyer per survey and one accepted per survey (partial unique
 * indexes). The rules (who may send, accept, decline) live in lib/proposals.ts; these functions
 * read and write rows and take `tx` from the caller's transaction.
 */
import type { Db } from "./client.ts";
import { isUuid } from "./users.ts";
import {
  ASSIGNED_DIRECTLY_REASON,
  ASSIGNED_ELSEWHERE_REASON,
  type ClientProposal,
  type OwnProposal,
  type ProposalStatus,
  RETURNED_REASON,
} from "../lib/proposal_constants.ts";
import { firmProfilePath } from "../lib/firm_slug.ts";
import type { SurveyStatus } from "../lib/survey_schema.ts";
import type { SurveyType } from "../lib/survey_types.ts";
import type { PipelineStatus } from "../lib/lead_market_schema.ts";

interface OwnRow extends Omit<OwnProposal, "sentAt" | "updatedAt" | "decidedAt"> {
  sentAt: Date;
  updatedAt: Date;
  decidedAt: Date | null;
}

function toOwn(row: OwnRow): OwnProposal {
  return {
    id: row.id,
    surveyId: row.surveyId,
    leadId: row.leadId,
    status: row.status,
    priceCents: row.priceCents,
    earliestVisitDate: row.earliestVisitDate,
    turnaroundDays: row.turnaroundDays,
    message: row.message,
    declineReason: row.declineReason,
    sentAt: row.sentAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    decidedAt: row.decidedAt ? row.decidedAt.toISOString() : null,
  };
}

// `p` is survey_proposals, `pu` its purchase.
function ownColumns(db: Db) {
  return db`p.id, p.survey_id, pu.lead_id, p.status, p.price_cents,
    p.earliest_visit_date::text as earliest_visit_date, p.turnaround_days, p.message,
    p.decline_reason, p.created_at as sent_at, p.updated_at, p.decided_at`;
}

/** A buyer's purchase of a lead, with what sending a proposal needs to know. */
export interface BuyerPurchase {
  purchaseId: string;
  leadId: string;
  kind: "buy" | "claim";
  refundedAt: Date | null;
  surveyorId: string;
  surveyorStatus: string;
  companyName: string;
  surveyId: string;
  surveyStatus: SurveyStatus;
  assignedSurveyorId: string | null;
  surveyType: SurveyType;
  address: string;
  state: string;
  clientId: string;
  clientName: string;
  clientEmail: string | null;
}

/**
 * The purchase of lead `leadId` by `surveyorId`, locked until the transaction ends (so one
 * buyer's sends and edits take turns), or undefined when they never bought it.
 */
export async function lockBuyerPurchase(
  db: Db,
  { leadId, surveyorId }: { leadId: string; surveyorId: string },
): Promise<BuyerPurchase | undefined> {
  if (!isUuid(leadId) || !isUuid(surveyorId)) return undefined;
  // The survey first, as accepting a proposal and cancelling a request lock it: whoever comes
  // second waits, and nobody sends to a survey that was just assigned.
  const [survey] = await db<{ id: string }[]>`
    select s.id from leads l join surveys s on s.id = l.survey_id
    where l.id = ${leadId}
    for update of s`;
  if (!survey) return undefined;
  const [row] = await db<BuyerPurchase[]>`
    select pu.id as purchase_id, pu.lead_id, pu.kind, pu.refunded_at, v.id as surveyor_id,
      v.status as surveyor_status, v.company_name, s.id as survey_id, s.status as survey_status,
      s.assigned_surveyor_id, s.survey_type, s.state,
      coalesce(s.formatted_address, s.address) as address, s.client_id,
      u.full_name as client_name, u.email as client_email
    from lead_purchases pu
    join leads l on l.id = pu.lead_id
    join surveys s on s.id = l.survey_id
    join surveyors v on v.id = pu.surveyor_id
    join users u on u.id = s.client_id
    where pu.lead_id = ${leadId} and pu.surveyor_id = ${surveyorId}
    for update of pu`;
  return row;
}

/**
 * The buyer's proposal on purchase `purchaseId`: the pending one if any, else their latest;
 * undefined when they never sent one.
 */
export async function getOwnProposal(
  db: Db,
  { purchaseId }: { purchaseId: string },
): Promise<OwnProposal | undefined> {
  if (!isUuid(purchaseId)) return undefined;
  const [row] = await db<OwnRow[]>`
    select ${ownColumns(db)}
    from survey_proposals p join lead_purchases pu on pu.id = p.lead_purchase_id
    where p.lead_purchase_id = ${purchaseId}
    order by (p.status = 'pending') desc, p.created_at desc, p.id desc
    limit 1`;
  return row && toOwn(row);
}

/** The proposal's fields a buyer writes. */
export interface ProposalFields {
  priceCents: number;
  earliestVisitDate: string;
  turnaroundDays: number;
  message: string;
}

/** Inserts a pending proposal and returns it. Throws the unique violation of a second pending. */
export async function insertProposal(
  db: Db,
  input: ProposalFields & { surveyId: string; purchaseId: string; surveyorId: string },
): Promise<OwnProposal> {
  const [row] = await db<OwnRow[]>`
    with p as (
      insert into survey_proposals (survey_id, lead_purchase_id, surveyor_id, price_cents,
        earliest_visit_date, turnaround_days, message)
      values (${input.surveyId}, ${input.purchaseId}, ${input.surveyorId}, ${input.priceCents},
        ${input.earliestVisitDate}::date, ${input.turnaroundDays}, ${input.message})
      returning *
    )
    select ${ownColumns(db)} from p join lead_purchases pu on pu.id = p.lead_purchase_id`;
  return toOwn(row);
}

/**
 * Changes the given fields of proposal `id` while it is pending (compare-and-set): undefined,
 * changing nothing, when it is no longer pending.
 */
export async function updatePendingProposal(
  db: Db,
  { id, fields }: { id: string; fields: Partial<ProposalFields> },
): Promise<OwnProposal | undefined> {
  const [row] = await db<OwnRow[]>`
    with p as (
      update survey_proposals set
        price_cents = coalesce(${fields.priceCents ?? null}::int, price_cents),
        earliest_visit_date = coalesce(${fields.earliestVisitDate ?? null}::date,
          earliest_visit_date),
        turnaround_days = coalesce(${fields.turnaroundDays ?? null}::int, turnaround_days),
        message = coalesce(${fields.message ?? null}::text, message),
        updated_at = now()
      where id = ${id} and status = 'pending'
      returning *
    )
    select ${ownColumns(db)} from p join lead_purchases pu on pu.id = p.lead_purchase_id`;
  return row && toOwn(row);
}

/**
 * Moves pending proposal `id` to `status` (accepted, declined or withdrawn) with the decline
 * reason (compare-and-set: undefined, changing nothing, when it is no longer pending).
 */
export async function decidePendingProposal(
  db: Db,
  { id, status, reason = null }: {
    id: string;
    status: Exclude<ProposalStatus, "pending">;
    reason?: string | null;
  },
): Promise<OwnProposal | undefined> {
  const [row] = await db<OwnRow[]>`
    with p as (
      update survey_proposals set status = ${status}, decline_reason = ${reason},
        decided_at = now(), updated_at = now()
      where id = ${id} and status = 'pending'
      returning *
    )
    select ${ownColumns(db)} from p join lead_purchases pu on pu.id = p.lead_purchase_id`;
  return row && toOwn(row);
}

/** A proposal of a survey as accepting or declining it needs it. */
export interface SurveyProposalTarget extends OwnProposal {
  surveyorId: string;
  purchaseId: string;
  refundedAt: Date | null;
}

/**
 * Proposal `proposalId` of survey `surveyId`, locked until the transaction ends, or undefined
 * (unknown, malformed, or another survey's).
 */
export async function lockSurveyProposal(
  db: Db,
  { surveyId, proposalId }: { surveyId: string; proposalId: string },
): Promise<SurveyProposalTarget | undefined> {
  if (!isUuid(surveyId) || !isUuid(proposalId)) return undefined;
  const [row] = await db<(OwnRow & Omit<SurveyProposalTarget, keyof OwnProposal>)[]>`
    select ${ownColumns(db)}, p.surveyor_id, p.lead_purchase_id as purchase_id, pu.refunded_at
    from survey_proposals p join lead_purchases pu on pu.id = p.lead_purchase_id
    where p.id = ${proposalId} and p.survey_id = ${surveyId}
    for update of p`;
  return row &&
    {
      ...toOwn(row),
      surveyorId: row.surveyorId,
      purchaseId: row.purchaseId,
      refundedAt: row.refundedAt,
    };
}

/**
 * Declines every pending proposal of `surveyId` with `reason` (the client accepted another one)
 * and returns them with their surveyor.
 */
export async function declineOtherPendingProposals(
  db: Db,
  { surveyId, reason }: { surveyId: string; reason: string },
): Promise<(OwnProposal & { surveyorId: string; purchaseId: string })[]> {
  const rows = await db<(OwnRow & { surveyorId: string; purchaseId: string })[]>`
    with p as (
      update survey_proposals set status = 'declined', decline_reason = ${reason},
        decided_at = now(), updated_at = now()
      where survey_id = ${surveyId} and status = 'pending'
      returning *
    )
    select ${ownColumns(db)}, p.surveyor_id, p.lead_purchase_id as purchase_id
    from p join lead_purchases pu on pu.id = p.lead_purchase_id
    order by p.created_at, p.id`;
  return rows.map((r) => ({ ...toOwn(r), surveyorId: r.surveyorId, purchaseId: r.purchaseId }));
}

/**
 * Withdraws the pending proposal of purchase `purchaseId`, if any (its lead was returned to the
 * buyer, so the offer no longer stands). Returns how many were withdrawn (0 or 1).
 */
export async function withdrawPendingProposalOfPurchase(
  db: Db,
  { purchaseId }: { purchaseId: string },
): Promise<number> {
  const rows = await db`
    update survey_proposals set status = 'withdrawn', decline_reason = ${RETURNED_REASON},
      decided_at = now(), updated_at = now()
    where lead_purchase_id = ${purchaseId} and status = 'pending'
    returning id`;
  return rows.length;
}

/**
 * Closes the pending proposals of `surveyId` because the survey was assigned without them (a
 * claim of the instant quote, an admin's assignment): `assigneeId`'s own is withdrawn, the
 * others declined, each with its reason. Returns the declined ones with their surveyor.
 */
export async function closePendingProposalsOnAssignment(
  db: Db,
  { surveyId, assigneeId }: { surveyId: string; assigneeId: string },
): Promise<{ surveyorId: string; leadId: string }[]> {
  const rows = await db<{ surveyorId: string; leadId: string }[]>`
    with p as (
      update survey_proposals set
        status = case when surveyor_id = ${assigneeId} then 'withdrawn' else 'declined' end,
        decline_reason = case when surveyor_id = ${assigneeId}
          then ${ASSIGNED_DIRECTLY_REASON} else ${ASSIGNED_ELSEWHERE_REASON} end,
        decided_at = now(), updated_at = now()
      where survey_id = ${surveyId} and status = 'pending'
      returning surveyor_id, lead_purchase_id, status
    )
    select p.surveyor_id, pu.lead_id from p join lead_purchases pu on pu.id = p.lead_purchase_id
    where p.status = 'declined'`;
  return [...rows];
}

/** Sets the buyer's pipeline status on purchases `purchaseIds` (won, lost…). */
export async function setPurchasesPipeline(
  db: Db,
  { purchaseIds, status }: { purchaseIds: string[]; status: PipelineStatus },
): Promise<void> {
  if (purchaseIds.length === 0) return;
  await db`
    update lead_purchases set pipeline_status = ${status}, updated_at = now()
    where id = any(${purchaseIds}::uuid[])`;
}

interface ClientRow {
  id: string;
  surveyId: string;
  status: ProposalStatus;
  priceCents: number;
  earliestVisitDate: string;
  turnaroundDays: number;
  message: string;
  sentAt: Date;
  declineReason: string | null;
  surveyorId: string;
  companyName: string;
  placesRating: number | null;
  placesCount: number | null;
  meridianSum: number;
  meridianCount: number;
  licenceVerified: boolean;
  distanceMiles: number | null;
  /** Active and verified: the firm has a public page (routes/firms.tsx). */
  hasPublicPage: boolean;
}

/**
 * The average of every review a client can see counted (the places provider's and Meridian's,
 * one each), one decimal, and how many; null stars without any.
 */
export function combinedRating(
  row: Pick<ClientRow, "placesRating" | "placesCount" | "meridianSum" | "meridianCount">,
): { rating: number | null; reviewCount: number } {
  const places = row.placesRating === null ? 0 : Math.max(0, row.placesCount ?? 0);
  const count = places + Math.max(0, row.meridianCount);
  if (count === 0) return { rating: null, reviewCount: 0 };
  const sum = (row.placesRating ?? 0) * places + row.meridianSum;
  return { rating: Math.round((sum / count) * 10) / 10, reviewCount: count };
}

function toClient(row: ClientRow): ClientProposal {
  return {
    id: row.id,
    status: row.status,
    priceCents: row.priceCents,
    earliestVisitDate: row.earliestVisitDate,
    turnaroundDays: row.turnaroundDays,
    message: row.message,
    sentAt: row.sentAt.toISOString(),
    declineReason: row.declineReason,
    surveyor: {
      id: row.surveyorId,
      companyName: row.companyName,
      ...combinedRating(row),
      licenceVerified: row.licenceVerified,
      distanceMiles: row.distanceMiles === null ? null : Math.round(row.distanceMiles * 10) / 10,
      // Only a firm with a public page gets a link: paused, prospect, invited and unverified
      // firms have none (a link there would be a 404).
      profileUrl: row.hasPublicPage ? firmProfilePath(row.companyName, row.surveyorId) : null,
    },
  };
}

/**
 * A column of the survey row aliased `s`: its proposals as the client sees them, a JSON array
 * oldest first (null with none), read through survey_proposals_survey_idx. The client
 * dashboard folds it into its one statement (db/surveys.ts `listClientSurveysWithEvents`);
 * `proposalsFromJson` reads it back.
 */
export function clientProposalsJsonColumn(db: Db) {
  return db`(select json_agg(pr order by pr.sent_at, pr.id) from (
      select p.id, p.status, p.price_cents,
        p.earliest_visit_date::text as earliest_visit_date, p.turnaround_days, p.message,
        p.created_at as sent_at, p.decline_reason, v.id as surveyor_id, v.company_name,
        v.rating as places_rating, v.review_count as places_count,
        v.meridian_rating_sum as meridian_sum, v.meridian_review_count as meridian_count,
        (v.verified_at is not null and s.state = any(v.license_states)) as licence_verified,
        (v.status = 'active' and v.verified_at is not null) as has_public_page,
        case when s.lat is not null and v.lat is not null
          then geo_distance_m(geo_point(s.lat, s.lng), geo_point(v.lat, v.lng)) / 1609.344
        end as distance_miles
      from survey_proposals p
      join surveyors v on v.id = p.surveyor_id
      where p.survey_id = s.id
    ) pr)`;
}

/** `clientProposalsJsonColumn`'s value (snake_case keys, times as JSON text) as proposals. */
export function proposalsFromJson(rows: Record<string, unknown>[] | null): ClientProposal[] {
  return (rows ?? []).map((r) =>
    toClient({
      id: r.id as string,
      surveyId: "",
      status: r.status as ProposalStatus,
      priceCents: Number(r.price_cents),
      earliestVisitDate: r.earliest_visit_date as string,
      turnaroundDays: Number(r.turnaround_days),
      message: r.message as string,
      sentAt: new Date(r.sent_at as string),
      declineReason: (r.decline_reason as string | null) ?? null,
      surveyorId: r.surveyor_id as string,
      companyName: r.company_name as string,
      placesRating: r.places_rating === null ? null : Number(r.places_rating),
      placesCount: r.places_count === null ? null : Number(r.places_count),
      meridianSum: Number(r.meridian_sum),
      meridianCount: Number(r.meridian_count),
      licenceVerified: Boolean(r.licence_verified),
      distanceMiles: r.distance_miles === null ? null : Number(r.distance_miles),
      hasPublicPage: Boolean(r.has_public_page),
    })
  );
}

/**
 * The proposals of the surveys `surveyIds` as their client sees them (oldest first per survey),
 * with each firm's rating, licence check and distance to the property: one query for a whole
 * page of surveys (through survey_proposals_survey_idx).
 */
export async function listProposalsForSurveys(
  db: Db,
  { surveyIds }: { surveyIds: string[] },
): Promise<Map<string, ClientProposal[]>> {
  const ids = surveyIds.filter(isUuid);
  const bySurvey = new Map<string, ClientProposal[]>();
  if (ids.length === 0) return bySurvey;
  const rows = await db<ClientRow[]>`
    select p.id, p.survey_id, p.status, p.price_cents,
      p.earliest_visit_date::text as earliest_visit_date, p.turnaround_days, p.message,
      p.created_at as sent_at, p.decline_reason, v.id as surveyor_id, v.company_name,
      v.rating as places_rating, v.review_count as places_count,
      v.meridian_rating_sum as meridian_sum, v.meridian_review_count as meridian_count,
      (v.verified_at is not null and s.state = any(v.license_states)) as licence_verified,
      (v.status = 'active' and v.verified_at is not null) as has_public_page,
      case when s.lat is not null and v.lat is not null
        then geo_distance_m(geo_point(s.lat, s.lng), geo_point(v.lat, v.lng)) / 1609.344
      end as distance_miles
    from survey_proposals p
    join surveys s on s.id = p.survey_id
    join surveyors v on v.id = p.surveyor_id
    where p.survey_id = any(${ids}::uuid[])
    order by p.survey_id, p.created_at, p.id`;
  for (const row of rows) {
    const list = bySurvey.get(row.surveyId) ?? [];
    list.push(toClient(row));
    bySurvey.set(row.surveyId, list);
  }
  return bySurvey;
}

/** The proposals of one survey as its client sees them, oldest first. */
export async function listSurveyProposals(
  db: Db,
  { surveyId }: { surveyId: string },
): Promise<ClientProposal[]> {
  return (await listProposalsForSurveys(db, { surveyIds: [surveyId] })).get(surveyId) ?? [];
}

/**
 * SQL for when the lead of the survey aliased `s` stopped being offered to surveyors because
 * its window ran out (timestamptz), else null: for a column of a survey query. A survey has one
 * lead at most (`leads.survey_id` is unique since 0008), so the lookup is by that key alone: an
 * `order by … limit 1` here had Postgres set up a sort and a limit on every page and sort for
 * every card of a dashboard, for a single row.
 */
export function leadExpiredAtColumn(db: Db) {
  return db`(select case
      when l.expires_at <= now() and (l.status = 'open' or l.closed_reason = 'expired')
      then l.expires_at end
    from leads l where l.survey_id = s.id)`;
}
