/**
 * Leads (one per survey: the job offered to surveyors at a price) and their recipients, plus
 * the survey fields dispatch reads and the find-surveyors cache on the survey row.
 */
import type postgres from "postgres";
import type { Db } from "./client.ts";
import { isSurveyId } from "./surveys.ts";
import type { SurveyStatus } from "../lib/survey_schema.ts";
import type { SurveyType } from "../lib/survey_types.ts";
import type { NearbySurveyorInfo } from "../lib/surveyor_schema.ts";
import type { LeadPriceInputs } from "../lib/lead_pricing.ts";

/** What dispatch needs to know about a survey (never shown to surveyors as is). */
export interface DispatchSurvey {
  id: string;
  status: SurveyStatus;
  clientId: string;
  surveyType: SurveyType;
  address: string;
  formattedAddress: string | null;
  state: string;
  lat: number | null;
  lng: number | null;
  acreage: number | null;
  structures: number;
  /** YYYY-MM-DD or null. */
  neededBy: string | null;
  quotedPriceCents: number | null;
  nearbySurveyors: NearbySurveyorInfo[] | null;
  nearbySurveyorsFoundAt: Date | null;
}

/**
 * The survey with `id` as dispatch reads it, or undefined. With `forUpdate` the row stays
 * locked until the transaction ends, so two notify calls on one survey take turns.
 */
export async function getDispatchSurvey(
  db: Db,
  { id, forUpdate = false }: { id: string; forUpdate?: boolean },
): Promise<DispatchSurvey | undefined> {
  if (!isSurveyId(id)) return undefined;
  const [row] = await db<DispatchSurvey[]>`
    select id, status, client_id, survey_type, address, formatted_address, state, lat, lng,
      acreage, structures, needed_by::text as needed_by, quoted_price_cents, nearby_surveyors,
      nearby_surveyors_found_at
    from surveys where id = ${id}
    ${forUpdate ? db`for update` : db``}`;
  return row;
}

/** Stores the find-surveyors result on the survey; returns the time it was stored. */
export async function saveNearbySurveyors(
  db: Db,
  { surveyId, surveyors }: { surveyId: string; surveyors: NearbySurveyorInfo[] },
): Promise<Date> {
  const [row] = await db<{ nearbySurveyorsFoundAt: Date }[]>`
    update surveys set nearby_surveyors = ${db.json(surveyors as unknown as postgres.JSONValue)},
      nearby_surveyors_found_at = now()
    where id = ${surveyId}
    returning nearby_surveyors_found_at`;
  return row.nearbySurveyorsFoundAt;
}

/** What `leads.pricing` holds: the formula's inputs and the configuration version. */
export type StoredLeadPricing = LeadPriceInputs & { configVersion: number };

/** A survey's lead. */
export interface Lead {
  id: string;
  surveyId: string;
  priceCents: number;
  pricing: StoredLeadPricing;
  maxBuyers: number;
  status: "open" | "closed";
  expiresAt: Date;
  createdAt: Date;
}

const leadColumns = [
  "id",
  "survey_id",
  "price_cents",
  "pricing",
  "max_buyers",
  "status",
  "expires_at",
  "created_at",
];

/** The survey's lead, or undefined when it has none yet. */
export async function getLeadForSurvey(
  db: Db,
  { surveyId }: { surveyId: string },
): Promise<Lead | undefined> {
  if (!isSurveyId(surveyId)) return undefined;
  const [row] = await db<Lead[]>`
    select ${db(leadColumns)} from leads where survey_id = ${surveyId}`;
  return row;
}

/**
 * Creates the survey's lead unless it has one (the unique survey_id decides, so two callers
 * at once end up with the same lead) and returns the lead either way.
 */
export async function insertLead(
  db: Db,
  input: {
    surveyId: string;
    priceCents: number;
    pricing: StoredLeadPricing;
    maxBuyers: number;
    expiryDays: number;
  },
): Promise<Lead> {
  const [row] = await db<Lead[]>`
    insert into leads (survey_id, price_cents, pricing, max_buyers, expires_at)
    values (${input.surveyId}, ${input.priceCents},
      ${db.json(input.pricing as unknown as postgres.JSONValue)}, ${input.maxBuyers},
      now() + make_interval(days => ${input.expiryDays}::int))
    on conflict (survey_id) do nothing
    returning ${db(leadColumns)}`;
  if (row) return row;
  const existing = await getLeadForSurvey(db, { surveyId: input.surveyId });
  if (!existing) throw new Error(`lead for survey ${input.surveyId} vanished`);
  return existing;
}

// Leads closed per statement by `closeExpiredLeads`, so a long backlog never makes one huge
// transaction.
const EXPIRE_BATCH = 500;

/**
 * Closes every open lead past its `expires_at` (status 'closed', closed_reason 'expired',
 * closed_at now) and marks its offers still 'sent' as 'expired', each batch in one statement;
 * returns how many leads it closed. Idempotent: a closed lead is never touched again. A lead
 * a buyer or dispatch holds locked at that moment is skipped (`skip locked`) and closed by the
 * next sweep — a buy checks the expiry itself, so nothing is sold past it meanwhile. Safe
 * beside other instances sweeping at the same time. Throws when the database fails.
 */
export async function closeExpiredLeads(db: Db): Promise<number> {
  let total = 0;
  while (true) {
    const [row] = await db<{ closed: number }[]>`
      with due as (
        select id from leads
        where status = 'open' and expires_at <= now()
        order by expires_at
        limit ${EXPIRE_BATCH}
        for no key update skip locked
      ), closed as (
        update leads l set status = 'closed', closed_reason = 'expired', closed_at = now(),
          updated_at = now()
        from due where l.id = due.id
        returning l.id
      ), offers as (
        update lead_recipients r set outcome = 'expired', updated_at = now()
        from closed where r.lead_id = closed.id and r.outcome = 'sent'
        returning r.lead_id
      )
      select count(*)::int as closed from closed`;
    total += row.closed;
    if (row.closed < EXPIRE_BATCH) return total;
  }
}

/** One offer of a lead to a surveyor. */
export interface NewLeadRecipient {
  surveyorId: string;
  kind: "notified" | "invited";
  distanceMiles: number | null;
}

/**
 * Offers the lead to `recipients` in one statement; those who already had it are skipped
 * (the primary key decides, so concurrent calls never offer it twice). Returns the surveyor
 * ids newly added.
 */
export async function insertLeadRecipients(
  db: Db,
  { leadId, recipients }: { leadId: string; recipients: NewLeadRecipient[] },
): Promise<string[]> {
  if (recipients.length === 0) return [];
  const rows = await db<{ surveyorId: string }[]>`
    insert into lead_recipients (lead_id, surveyor_id, kind, distance_miles)
    select ${leadId}, r.surveyor_id, r.kind, r.distance_miles
    from unnest(
      ${db.array(recipients.map((r) => r.surveyorId))}::uuid[],
      ${db.array(recipients.map((r) => r.kind))}::text[],
      ${db.array(recipients.map((r) => r.distanceMiles))}::float8[]
    ) as r (surveyor_id, kind, distance_miles)
    on conflict (lead_id, surveyor_id) do nothing
    returning surveyor_id`;
  return rows.map((r) => r.surveyorId);
}

/** A lead's recipients: who was offered it and how. */
export async function listLeadRecipients(
  db: Db,
  { leadId }: { leadId: string },
): Promise<{ surveyorId: string; kind: "notified" | "invited" }[]> {
  return await db<{ surveyorId: string; kind: "notified" | "invited" }[]>`
    select surveyor_id, kind from lead_recipients where lead_id = ${leadId}`;
}

/** The current state of the records a lead may go to: what notify decides on. */
export interface RecipientRecord {
  id: string;
  companyName: string;
  inNetwork: boolean;
  status: "prospect" | "invited" | "active" | "paused";
  /** The linked account when it exists and is not disabled. */
  userId: string | null;
  /** The record's email, else its account's. */
  email: string | null;
}

/** The records with these ids, as they are now (one query). */
export async function listRecipientRecords(
  db: Db,
  { ids }: { ids: string[] },
): Promise<RecipientRecord[]> {
  if (ids.length === 0) return [];
  return await db<RecipientRecord[]>`
    select s.id, s.company_name, s.in_network, s.status, u.id as user_id,
      coalesce(s.email, u.email) as email
    from surveyors s left join users u on u.id = s.user_id and u.disabled_at is null
    where s.id = any(${db.array(ids)}::uuid[])`;
}

/** The surveyor ids the survey's lead was offered to (notified or invited); one query. */
export async function listSurveyRecipientIds(
  db: Db,
  { surveyId }: { surveyId: string },
): Promise<Set<string>> {
  if (!isSurveyId(surveyId)) return new Set();
  const rows = await db<{ surveyorId: string }[]>`
    select lr.surveyor_id from leads l join lead_recipients lr on lr.lead_id = l.id
    where l.survey_id = ${surveyId}`;
  return new Set(rows.map((r) => r.surveyorId));
}

/** Which of these place ids already belong to a surveyor record (one query). */
export async function listKnownPlaceIds(
  db: Db,
  { placeIds }: { placeIds: string[] },
): Promise<Set<string>> {
  if (placeIds.length === 0) return new Set();
  const rows = await db<{ placeId: string }[]>`
    select place_id from surveyors where place_id = any(${db.array(placeIds)}::text[])`;
  return new Set(rows.map((r) => r.placeId));
}

/** The record made from a place (convert-place-to-surveyor), as the dispatch panel shows it. */
export interface PlaceRecord {
  id: string;
  companyName: string;
  inNetwork: boolean;
  status: "prospect" | "invited" | "active" | "paused";
}

/** The surveyor records made from these place ids, by place id (one query). */
export async function listRecordsByPlaceId(
  db: Db,
  { placeIds }: { placeIds: string[] },
): Promise<Map<string, PlaceRecord>> {
  if (placeIds.length === 0) return new Map();
  const rows = await db<(PlaceRecord & { placeId: string })[]>`
    select place_id, id, company_name, in_network, status from surveyors
    where place_id = any(${db.array(placeIds)}::text[])`;
  return new Map(rows.map(({ placeId, ...record }) => [placeId, record]));
}
