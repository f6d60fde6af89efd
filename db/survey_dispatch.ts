/**
 * The admin's dispatch card on a request's page reads, in one statement, what five reads
 * returned before (`getDispatchSurvey`'s stored matches, `getLeadForSurvey`,
 * `listSurveyRecipientIds`, `listSurveyBuyers`, `getOpenAssignment`): each statement costs
 * the driver and Postgres parsing, planning and a result of its own, even pipelined.
 */
import type { Db } from "./client.ts";
import { isSurveyId } from "./surveys.ts";
import type { StoredLeadPricing } from "./leads.ts";
import type { SurveyBuyer } from "./assignments.ts";
import type { Assignment } from "../lib/lead_market_schema.ts";
import type { NearbySurveyorInfo } from "../lib/surveyor_schema.ts";

/** What the dispatch card needs of a survey, its lead, buyers and open assignment. */
export interface SurveyDispatchReads {
  /** The stored find-surveyors result, or null before the first search. */
  nearbySurveyors: NearbySurveyorInfo[] | null;
  nearbySurveyorsFoundAt: Date | null;
  lead:
    | {
      id: string;
      priceCents: number;
      pricing: StoredLeadPricing;
      maxBuyers: number;
      status: "open" | "closed";
      expiresAt: Date;
    }
    | undefined;
  /** The surveyor ids the lead was offered to (notified or invited). */
  offered: Set<string>;
  /** As `listSurveyBuyers`: first buyer first. */
  buyers: SurveyBuyer[];
  /** As `getOpenAssignment`. */
  assignment: Assignment | undefined;
}

/**
 * The dispatch reads of survey `surveyId` (see the file's comment), or undefined for an
 * unknown or malformed id. Callers check who may see the survey first.
 */
export async function getSurveyDispatchReads(
  db: Db,
  { surveyId }: { surveyId: string },
): Promise<SurveyDispatchReads | undefined> {
  if (!isSurveyId(surveyId)) return undefined;
  // Times in the JSON as Date.prototype.toISOString writes them (both drop microseconds).
  const [row] = await db<{
    nearbySurveyors: NearbySurveyorInfo[] | null;
    nearbySurveyorsFoundAt: Date | null;
    leadId: string | null;
    leadPriceCents: number;
    leadPricing: StoredLeadPricing;
    leadMaxBuyers: number;
    leadStatus: "open" | "closed";
    leadExpiresAt: Date;
    offered: string[];
    buyers: SurveyBuyer[];
    assignment: Assignment | null;
  }[]>`
    select s.nearby_surveyors, s.nearby_surveyors_found_at,
      l.id as lead_id, l.price_cents as lead_price_cents, l.pricing as lead_pricing,
      l.max_buyers as lead_max_buyers, l.status as lead_status, l.expires_at as lead_expires_at,
      coalesce((select json_agg(lr.surveyor_id) from lead_recipients lr where lr.lead_id = l.id),
        '[]') as offered,
      coalesce((
        select json_agg(json_build_object(
          'surveyorId', p.surveyor_id, 'companyName', v.company_name,
          'principalName', v.principal_name, 'kind', p.kind,
          'purchasedAt', to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'isRefunded', p.refunded_at is not null) order by p.created_at, p.id)
        from lead_purchases p join surveyors v on v.id = p.surveyor_id
        where p.lead_id = l.id), '[]') as buyers,
      (select json_build_object(
          'id', a.id, 'surveyId', a.survey_id, 'surveyorId', a.surveyor_id,
          'companyName', v.company_name, 'agreedPriceCents', a.agreed_price_cents,
          'status', a.status, 'source', a.source, 'scheduledDate', a.scheduled_date::text,
          'endedReason', a.ended_reason,
          'createdAt', to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'updatedAt', to_char(a.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
        from survey_assignments a join surveyors v on v.id = a.surveyor_id
        where a.survey_id = s.id and a.status in ('offered', 'accepted', 'scheduled')
        limit 1) as assignment
    from surveys s left join leads l on l.survey_id = s.id
    where s.id = ${surveyId}`;
  if (!row) return undefined;
  return {
    nearbySurveyors: row.nearbySurveyors,
    nearbySurveyorsFoundAt: row.nearbySurveyorsFoundAt,
    lead: row.leadId
      ? {
        id: row.leadId,
        priceCents: row.leadPriceCents,
        pricing: row.leadPricing,
        maxBuyers: row.leadMaxBuyers,
        status: row.leadStatus,
        expiresAt: row.leadExpiresAt,
      }
      : undefined,
    offered: new Set(row.offered),
    buyers: row.buyers,
    assignment: row.assignment ?? undefined,
  };
}
