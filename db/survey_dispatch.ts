/**
 * The admin's dispatch card on a request's page reads, with the survey, what five statements
 * returned before (`getDispatchSurvey`'s stored matches, `getLeadForSurvey`,
 * `listSurveyRecipientIds`, `listSurveyBuyers`, `getOpenAssignment`): each statement costs
 * the driver and Postgres parsing, planning and a result of its own, even pipelined.
 */
import type { Db } from "./client.ts";
import type { StoredLeadPricing } from "./leads.ts";
import type { SurveyBuyer } from "./assignments.ts";
import type { Assignment } from "../lib/lead_market_schema.ts";
import type { NearbySurveyorInfo } from "../lib/surveyor_schema.ts";

/** The survey's lead as the dispatch card reads it; `expiresAt` a Date, or a string in JSON. */
export interface DispatchLead<Time = Date> {
  id: string;
  priceCents: number;
  pricing: StoredLeadPricing;
  maxBuyers: number;
  status: "open" | "closed";
  expiresAt: Time;
}

/** What the dispatch card needs of a survey, its lead, buyers and open assignment. */
export interface SurveyDispatchReads {
  /** The stored find-surveyors result, or null before the first search. */
  nearbySurveyors: NearbySurveyorInfo[] | null;
  nearbySurveyorsFoundAt: Date | null;
  lead: DispatchLead | undefined;
  /** The surveyor ids the lead was offered to (notified or invited). */
  offered: Set<string>;
  /** As `listSurveyBuyers`: first buyer first. */
  buyers: SurveyBuyer[];
  /** As `getOpenAssignment`. */
  assignment: Assignment | undefined;
}

/** The row `dispatchColumns` adds (its JSON written as `toSurveyDispatchReads` reads it). */
export interface SurveyDispatchColumns {
  dispatchNearbySurveyors: NearbySurveyorInfo[] | null;
  dispatchFoundAt: Date | null;
  /** The lead with its expiry as the JSON writes it. */
  dispatchLead: DispatchLead<string> | null;
  dispatchOffered: string[] | null;
  dispatchBuyers: SurveyBuyer[] | null;
  dispatchAssignment: Assignment | null;
}

/**
 * The dispatch reads as columns of a statement over `surveys s`, so a request's page reads
 * them with the survey (db/surveys.ts getSurveyPageData). Times in the JSON are written as
 * `Date.prototype.toISOString` writes them (both drop microseconds).
 */
export function dispatchColumns(db: Db) {
  return db`s.nearby_surveyors as dispatch_nearby_surveyors,
    s.nearby_surveyors_found_at as dispatch_found_at,
    (select json_build_object(
        'id', l.id, 'priceCents', l.price_cents, 'pricing', l.pricing,
        'maxBuyers', l.max_buyers, 'status', l.status,
        'expiresAt', to_char(l.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      from leads l where l.survey_id = s.id) as dispatch_lead,
    (select json_agg(lr.surveyor_id)
      from leads l join lead_recipients lr on lr.lead_id = l.id
      where l.survey_id = s.id) as dispatch_offered,
    (select json_agg(json_build_object(
        'surveyorId', p.surveyor_id, 'companyName', v.company_name,
        'principalName', v.principal_name, 'kind', p.kind,
        'purchasedAt', to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'isRefunded', p.refunded_at is not null) order by p.created_at, p.id)
      from leads l
      join lead_purchases p on p.lead_id = l.id
      join surveyors v on v.id = p.surveyor_id
      where l.survey_id = s.id) as dispatch_buyers,
    (select json_build_object(
        'id', a.id, 'surveyId', a.survey_id, 'surveyorId', a.surveyor_id,
        'companyName', v.company_name, 'agreedPriceCents', a.agreed_price_cents,
        'status', a.status, 'source', a.source, 'scheduledDate', a.scheduled_date::text,
        'endedReason', a.ended_reason,
        'createdAt', to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'updatedAt', to_char(a.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      from survey_assignments a join surveyors v on v.id = a.surveyor_id
      where a.survey_id = s.id and a.status in ('offered', 'accepted', 'scheduled')
      limit 1) as dispatch_assignment`;
}

/** The reads out of a row with `dispatchColumns`. */
export function toSurveyDispatchReads(row: SurveyDispatchColumns): SurveyDispatchReads {
  const lead = row.dispatchLead;
  return {
    nearbySurveyors: row.dispatchNearbySurveyors,
    nearbySurveyorsFoundAt: row.dispatchFoundAt,
    lead: lead ? { ...lead, expiresAt: new Date(lead.expiresAt) } : undefined,
    offered: new Set(row.dispatchOffered ?? []),
    buyers: row.dispatchBuyers ?? [],
    assignment: row.dispatchAssignment ?? undefined,
  };
}
