/**
 * The lead market: which open leads a surveyor may take, what they see of each before and
 * after paying, and the two ways to take one — buy (shared, up to the lead's maximum buyers)
 * and claim (exclusive, at the client's instant quote) — plus "Not interested" and the
 * buyer's own pipeline.
 *
 * Eligibility (`accountBlock`, `leadBlock`): the surveyor is `active` (which means verified:
 * the database keeps every active record's `verified_at`, lib/surveyor_constants.ts), has an
 * office location, holds a verified licence in the property's state (`license_states`: a
 * state the surveyor added waits for an admin's check outside it, 0032_licence_states.sql),
 * offers its survey type, and the
 * property lies within their service radius of the office.
 *
 * Personal data: `LeadSummary` is built from columns that cannot name or reach the client —
 * the town and ZIP are cut from the formatted address here (never the street), the point is
 * rounded to 0.01° (about 1 km). Only `UnlockedLead`, read through the surveyor's own
 * purchase, carries the client's name, phone, email, address, parcel and notes.
 *
 * Location: before a purchase, nothing a surveyor can read or filter depends on the exact
 * property point more finely than the public one (`publicPoint`) does. The distance shown,
 * the `maxDistance` filter, the service-radius check and its refusal all use the same value:
 * whole miles from the public point to the office (`publicMiles`). Moving the office, or
 * bisecting the filter, then locates the public point at best, never the property.
 *
 * Money: every charge is a `postLedgerEntry` in the transaction that takes the lead, so a
 * refused charge (`InsufficientBalanceError`) or any other failure rolls the whole purchase
 * back: nothing stored, nothing charged.
 *
 * Concurrency: buy and claim lock the lead row first (`for no key update`: it serialises every
 * buyer of the lead like `for update` does, but does not wait on, or block, the key-share
 * locks that inserting a recipient or a purchase takes on the lead, so dispatch notifying the
 * same survey never deadlocks with a buyer). The checks run after the lock, on the row as the
 * previous buyer left it: two surveyors racing for the last place — exactly one gets it.
 */
import type postgres from "postgres";
import type { Db, Sql } from "./client.ts";
import { isUuid, readWithViewer, type Viewer } from "./users.ts";
import {
  currentSnapshot,
  rememberedRead,
  SnapshotCache,
  type SnapshotRead,
  type SnapshotScopes,
} from "./snapshot_cache.ts";
import { InsufficientBalanceError, postLedgerEntry } from "./ledger.ts";
import { notifyAdmins } from "./notifications.ts";
import { isSurveyorId } from "./surveyors.ts";
import type {
  Assignment,
  LeadSummary,
  PipelineStatus,
  RefundReason,
  UnlockedLead,
} from "../lib/lead_market_schema.ts";
import { describeLeadPrice, formatLeadPrice, type LeadPriceInputs } from "../lib/lead_pricing.ts";
import { refundedDetailsNotice } from "../lib/refund_constants.ts";
import { DEFAULT_LEAD_PRICING, type Quote } from "../lib/pricing.ts";
import { METERS_PER_MILE } from "../lib/matching.ts";
import { cellsWithin } from "../lib/geo/cells.ts";
import { formatCents } from "../lib/quote_text.ts";
import { SURVEY_TYPE_INFO, type SurveyType } from "../lib/survey_types.ts";
import { type StateCode, US_STATES } from "../lib/survey_options.ts";
import type { SurveyStatus } from "../lib/survey_status.ts";
import type { SurveyorStatus } from "../lib/surveyor_constants.ts";
import { AssignmentError, assignSurveyorInTx } from "../lib/assignments.ts";
import { noteLowBalance } from "../lib/billing.ts";
import { townAndZip, townFromAddress } from "../lib/address_parts.ts";

/** Leads per page of the available and purchased lists. */
export const LEADS_PAGE_SIZE = 20;

/** Survey statuses in which a lead can still be bought or claimed (and is listed). */
export const MARKET_SURVEY_STATUSES: readonly SurveyStatus[] = ["requested", "surveyors_notified"];

/** What the lead market answers when it cannot act; the statuses are in `LeadMarketError`. */
export const LEAD_MARKET_MESSAGES = {
  notFound: "Lead not found",
  alreadyBought: "You already bought this lead.",
  alreadyClaimed: "You already claimed this lead.",
  soldOut: "This lead is sold out: every place has been bought.",
  claimed: "This lead was claimed by another surveyor, so it is closed.",
  expired: "This lead has expired.",
  closed: "This lead has closed.",
  cancelled: "This request was cancelled, so its lead is closed.",
  taken: "This request already has a surveyor, so its lead is closed.",
  paused: "Your account is paused, so you cannot buy or claim leads. Contact us to reactivate it.",
  unverified:
    "Your licence has not been verified yet. You can buy and claim leads once an admin has checked it.",
  notActive: "Your surveyor profile is not active yet, so you cannot buy or claim leads.",
  noOffice:
    "Add your office location to your coverage first: leads are matched by their distance from it.",
  claimQuoteRequired:
    "Leads for surveys quoted by hand (subdivision) cannot be claimed, because there is no instant quote to accept; buy the lead instead.",
  claimNoQuote:
    "This request has no instant quote to accept, so it cannot be claimed; buy the lead instead.",
  claimAfterBuy: "Someone already bought this lead, so it can no longer be claimed.",
  dismissPurchased: "You took this lead; it stays in your purchased leads.",
  requestKeyReused:
    "This Idempotency-Key was already used for another lead or action; send a new key for a new request.",
} as const;

/**
 * A lead market action that cannot be done: 404 (no such lead, or not one the surveyor may
 * see), 402 (the balance is too low: nothing was charged or stored), 409 (the lead is closed,
 * sold out or already theirs, or the surveyor is not eligible for it, with the reason), 422
 * (the request key already made a purchase of another lead, or by the other action).
 */
export class LeadMarketError extends Error {
  constructor(readonly status: 402 | 404 | 409 | 422, message: string) {
    super(message);
    this.name = "LeadMarketError";
  }
}

function notFound(): never {
  throw new LeadMarketError(404, LEAD_MARKET_MESSAGES.notFound);
}

/** What the lead market needs to know about a surveyor. */
export interface MarketSurveyor {
  id: string;
  userId: string | null;
  companyName: string;
  status: SurveyorStatus;
  verifiedAt: Date | null;
  lat: number | null;
  lng: number | null;
  serviceRadiusMiles: number;
  /** The states that count (verified: db/migrations/0032_licence_states.sql). */
  licenseStates: string[];
  /** States asked for that wait for the admins' licence check: they do not count. */
  pendingLicenseStates: string[];
  surveyTypes: string[];
  welcomeClaimUsedAt: Date | null;
  balanceCents: number;
}

type MarketSurveyorRow = Omit<MarketSurveyor, "balanceCents"> & { balanceCents: string };

function marketSurveyorColumns(db: Db) {
  return db`
    id, user_id, company_name, status, verified_at, lat, lng, service_radius_miles,
    license_states, survey_types, welcome_claim_used_at, balance_cents,
    array(
      select ls.state from surveyor_licence_states ls
      where ls.surveyor_id = surveyors.id and ls.status = 'pending'
    ) as pending_license_states`;
}

function toMarketSurveyor(row: MarketSurveyorRow): MarketSurveyor {
  return { ...row, balanceCents: Number(row.balanceCents) };
}

/** The surveyor with `id` as the lead market reads it, or undefined. */
export async function getMarketSurveyor(
  db: Db,
  { id }: { id: string },
): Promise<MarketSurveyor | undefined> {
  if (!isSurveyorId(id)) return undefined;
  const [row] = await db<MarketSurveyorRow[]>`
    select ${marketSurveyorColumns(db)} from surveyors where id = ${id}`;
  return row && toMarketSurveyor(row);
}

/** The surveyor record linked to the account `userId` (lead market view), or undefined. */
export async function getSurveyorForUser(
  db: Db,
  { userId }: { userId: string },
): Promise<MarketSurveyor | undefined> {
  if (!isUuid(userId)) return undefined;
  const [row] = await db<MarketSurveyorRow[]>`
    select ${marketSurveyorColumns(db)} from surveyors where user_id = ${userId}`;
  return row && toMarketSurveyor(row);
}

/**
 * `getSurveyorForUser` for a page that reads its viewer in its own statement
 * (routes/_auth.ts `ownViewerPage`): the user `userId` with the bell's count and their surveyor
 * record in one statement (db/users.ts `readWithViewer`).
 */
export async function getSurveyorForUserWithViewer(
  db: Db,
  { userId }: { userId: string },
): Promise<{ viewer: Viewer | undefined; surveyor: MarketSurveyor | undefined }> {
  // No record: no rows, and the viewer still comes back.
  const { viewer, rows } = await readWithViewer<MarketSurveyorRow & { sessionViewer?: unknown }>(
    db,
    userId,
    db`select ${marketSurveyorColumns(db)} from surveyors where user_id = ${userId}`,
  );
  if (!rows[0]) return { viewer, surveyor: undefined };
  const { sessionViewer: _viewer, ...row } = rows[0];
  return { viewer, surveyor: toMarketSurveyor(row) };
}

/**
 * Why the surveyor's account cannot take leads at all (paused, licence check in progress, not
 * active, no office location), or null when it can. Active records are always verified, so
 * the status alone says whether the licence check is done.
 */
export function accountBlock(
  s: Pick<MarketSurveyor, "status" | "lat" | "lng">,
): string | null {
  if (s.status === "paused") return LEAD_MARKET_MESSAGES.paused;
  if (s.status === "pending") return LEAD_MARKET_MESSAGES.unverified;
  if (s.status !== "active") return LEAD_MARKET_MESSAGES.notActive;
  if (s.lat === null || s.lng === null) return LEAD_MARKET_MESSAGES.noOffice;
  return null;
}

function stateName(state: string): string {
  return US_STATES[state as StateCode] ?? state;
}

/**
 * How far (metres) the exact property point can lie from its public point: half the diagonal
 * of a 0.01° cell, at most about 786 m; rounded up.
 */
export const PUBLIC_POINT_MAX_OFFSET_M = 800;

// The lead's public point (the one the map shows, `approxLat`/`approxLng`): the property
// rounded to 0.01°, as `geo_point(round(lat::numeric, 2)::float8, round(lng::numeric, 2)::float8)`,
// stored with the survey (0052_surveys_public_point.sql). Over `surveys s`.
function publicPoint(db: Db) {
  return db`s.public_point`;
}

// Whole miles from the public point to `office` (a geo_point), null without a location.
// geo_distance_m's body written out (0025_geo_functions.sql), the same arithmetic: Postgres
// cannot inline that function (its body names `a` and `b` twice), and an SQL function called
// once per row sets up its own executor each time. The point is the stored one: rounding and
// converting it on every row was most of the available-leads query's cost.
function publicMiles(db: Db, office: postgres.PendingQuery<postgres.Row[]>) {
  // least(chord / 2R, 1) is geo_distance_m's `case when chord > 2R then 1 else chord / 2R end`
  // to the bit (chord / 2R > 1 exactly when chord > 2R), with the chord computed once a row.
  return db`round(2 * 6378168::float8 * asin(least(
      cube_distance(${publicPoint(db)}, ${office}) / (2 * 6378168::float8), 1::float8
    )) / ${METERS_PER_MILE}::float8)::int`;
}

/**
 * Why this eligible-account surveyor cannot take this lead (not licensed in its state, does
 * not offer its type, outside the service radius), or null when they can. `distanceMiles` is
 * the whole miles from the lead's public point to the office (null: the property has no
 * location), the value the surveyor is shown: never the exact distance.
 */
export function leadBlock(
  s: Pick<MarketSurveyor, "licenseStates" | "surveyTypes" | "serviceRadiusMiles"> & {
    pendingLicenseStates?: string[];
  },
  lead: { state: string; surveyType: SurveyType; distanceMiles: number | null },
): string | null {
  if (!s.licenseStates.includes(lead.state)) {
    // Licence states are verified facts: the refusal points to Meridian's check, not to
    // editing one's own coverage (issue 20). Only verified states count.
    const name = stateName(lead.state);
    if (s.pendingLicenseStates?.includes(lead.state)) {
      return `Your ${name} licence is waiting for Meridian's licence check. You can buy and claim leads in ${name} once an admin has verified it.`;
    }
    return `This property is in ${name}, where Meridian has not verified a licence of yours. Contact us to have your ${name} licence checked; leads there open once an admin has verified it.`;
  }
  if (!s.surveyTypes.includes(lead.surveyType)) {
    return `You do not offer ${
      SURVEY_TYPE_INFO[lead.surveyType].name
    }s; add the type to your coverage to take this lead.`;
  }
  if (lead.distanceMiles === null) {
    return "This property has no map location, so it cannot be matched to your service area.";
  }
  if (lead.distanceMiles > s.serviceRadiusMiles) {
    return `This property is outside your service area: about ${lead.distanceMiles} miles from your office, and your radius is ${s.serviceRadiusMiles} miles.`;
  }
  return null;
}

// ------------------------------------------------------------------------------ reading

/** A lead row as the summary is built from it; `place` never leaves this module. */
interface LeadRow {
  id: string;
  surveyId: string;
  surveyType: SurveyType;
  surveyStatus: SurveyStatus;
  state: StateCode;
  place: string | null;
  county: string | null;
  approxLat: number | null;
  approxLng: number | null;
  distanceMiles: number | null;
  acreage: number | null;
  propertyType: string;
  neededBy: string | null;
  rush: string;
  quotedPriceCents: number | null;
  priceCents: number;
  pricing: LeadPriceInputs & { configVersion?: number };
  maxBuyers: number;
  buyersCount: number;
  leadStatus: "open" | "closed";
  closedReason: string | null;
  isOpen: boolean;
  createdAt: Date;
  expiresAt: Date;
  claimFeeMultiple: number;
  purchaseKind: "buy" | "claim" | null;
  dismissed: boolean;
}

// The viewing surveyor's id: a value, or an expression of the query (`me.id`).
type SurveyorIdSql = string | postgres.PendingQuery<postgres.Row[]>;

// The office point, or null for a surveyor without one (then no distance is given).
function officeOf(s: Pick<MarketSurveyor, "lat" | "lng">) {
  return s.lat === null || s.lng === null ? null : { lat: s.lat, lng: s.lng };
}

/**
 * The summary's columns over `leads l join surveys s` (see `leadFrom`). The claim fee
 * multiple is the one of the pricing configuration the lead was priced with (its stored
 * `configVersion`), so what a surveyor is shown is what a claim charges even when an admin
 * edits the configuration in between; a configuration without a lead section used the
 * defaults. It is read from its own column (0053: reading it from `config` decompressed the
 * whole configuration for every lead listed), and so is the parcel's county (0054: the parcel
 * holds the provider's outline, kilobytes stored out of line).
 */
function leadColumns(
  db: Db,
  surveyorId: SurveyorIdSql,
  office: { lat: number; lng: number } | null,
  // The distance expression, when the office comes from the query itself (the listing).
  distanceSql?: postgres.PendingQuery<postgres.Row[]>,
  // The rows are leads the surveyor has neither taken nor dismissed (the available list's
  // condition): no purchase to join (no `p`) and no dismissal to look for.
  isUntaken = false,
) {
  const distance = distanceSql ??
    (office
      ? publicMiles(db, db`geo_point(${office.lat}::float8, ${office.lng}::float8)`)
      : db`null::int`);
  return db`
    l.id, l.survey_id, s.survey_type, s.status as survey_status, s.state,
    coalesce(s.formatted_address, s.address) as place,
    s.parcel_county as county,
    round(s.lat::numeric, 2)::float8 as approx_lat, round(s.lng::numeric, 2)::float8 as approx_lng,
    ${distance} as distance_miles,
    s.acreage, s.property_type, s.needed_by::text as needed_by, s.rush, s.quoted_price_cents,
    l.price_cents, l.pricing, l.max_buyers, l.buyers_count, l.status as lead_status,
    l.closed_reason, (l.status = 'open' and l.expires_at > now()) as is_open,
    l.created_at, l.expires_at,
    coalesce(pc.lead_claim_fee_multiple, ${DEFAULT_LEAD_PRICING.claimFeeMultiple}::float8)
      as claim_fee_multiple,
    ${
    isUntaken ? db`null::text as purchase_kind, false as dismissed` : db`p.kind as purchase_kind,
    exists (
      select 1 from lead_dismissals d where d.surveyor_id = ${surveyorId} and d.lead_id = l.id
    ) as dismissed`
  }`;
}

function leadJoins(db: Db, surveyorId: string) {
  return db`
    ${pricingJoin(db)}
    left join lead_purchases p on p.lead_id = l.id and p.surveyor_id = ${surveyorId}`;
}

// The pricing configuration the lead was priced with (`pc`, for the claim fee multiple).
function pricingJoin(db: Db) {
  return db`left join pricing_configs pc on pc.version = (l.pricing ->> 'configVersion')::int`;
}

function claimFee(row: LeadRow, s: Pick<MarketSurveyor, "welcomeClaimUsedAt">): number {
  if (s.welcomeClaimUsedAt === null) return 0;
  const exact = row.priceCents * row.claimFeeMultiple;
  return Math.round(Math.round(exact * 1000) / 1000);
}

/** Why the lead cannot be claimed by anyone (no instant quote), or null. */
function claimPricingBlock(row: Pick<LeadRow, "pricing" | "quotedPriceCents">): string | null {
  if (row.pricing.method === "flat" && row.pricing.reason === "quote_required") {
    return LEAD_MARKET_MESSAGES.claimQuoteRequired;
  }
  if (row.quotedPriceCents === null || row.pricing.method !== "share") {
    return LEAD_MARKET_MESSAGES.claimNoQuote;
  }
  return null;
}

function toSummary(row: LeadRow, s: Pick<MarketSurveyor, "welcomeClaimUsedAt">): LeadSummary {
  const { configVersion: _version, ...pricing } = row.pricing;
  const isOpen = row.isOpen && MARKET_SURVEY_STATUSES.includes(row.surveyStatus);
  const { town, zip } = townAndZip(row.place, row.state);
  return {
    id: row.id,
    surveyId: row.surveyId,
    surveyType: row.surveyType,
    city: town,
    county: row.county,
    state: row.state,
    zip,
    distanceMiles: row.distanceMiles,
    approxLat: row.approxLat,
    approxLng: row.approxLng,
    acreage: row.acreage,
    propertyType: row.propertyType,
    neededBy: row.neededBy,
    rush: row.rush,
    quotedPriceCents: row.quotedPriceCents,
    priceCents: row.priceCents,
    formula: describeLeadPrice(row.pricing),
    pricing: pricing as LeadPriceInputs,
    maxBuyers: row.maxBuyers,
    buyersCount: row.buyersCount,
    status: isOpen ? "open" : "closed",
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    canClaim: isOpen && row.buyersCount === 0 && row.purchaseKind === null &&
      claimPricingBlock(row) === null,
    claimFeeCents: claimFee(row, s),
    viewer: { purchased: row.purchaseKind, dismissed: row.dismissed },
  };
}

/**
 * One page (newest first) of the open, unexpired leads the surveyor may take — their account
 * active and verified, the property within their service radius of the office (and within
 * `maxDistanceMiles` when given), in a state they are licensed in, of a type they offer
 * (`surveyType` narrows it) — that they have not dismissed, bought or claimed; with how many
 * there are in all. An ineligible or unknown surveyor gets none.
 *
 * The properties are found through the GiST index `surveys_open_location_idx` with an
 * `geo_box` of the radius widened by the public point's largest offset (0013), then the
 * distance from the public point in whole miles, the one shown (`publicMiles`): a surveyor is
 * never compared with the whole market, and neither the filter nor the radius tells them more
 * about where the property is than the public point does.
 */
export async function listAvailableLeads(
  db: Db,
  { surveyorId, ...filters }: {
    surveyorId: string;
    surveyType?: SurveyType;
    maxDistanceMiles?: number;
    page: number;
    pageSize: number;
  },
): Promise<{ leads: LeadSummary[]; total: number }> {
  if (!isSurveyorId(surveyorId)) return { leads: [], total: 0 };
  const { leads, total } = await availableLeads(
    db,
    db`surveyors.id = ${surveyorId}`,
    filters,
    undefined,
    `surveyor ${surveyorId}`,
  );
  return { leads, total };
}

/**
 * The surveyor record linked to the account `userId` (as `getSurveyorForUser` reads it, or
 * undefined) and the page of their available leads that `listAvailableLeads` gives, in one
 * statement: /leads needs both, and reads them in one round trip.
 */
export async function getSurveyorWithAvailableLeads(
  db: Db,
  { userId, withViewer = false, ...filters }: {
    userId: string;
    surveyType?: SurveyType;
    maxDistanceMiles?: number;
    page: number;
    pageSize: number;
    /**
     * Also read the user `userId` and their unread count in the statement (`viewer`,
     * db/users.ts `readWithViewer`): the page reads its viewer (routes/_auth.ts
     * `ownViewerPage`).
     */
    withViewer?: boolean;
  },
): Promise<{
  /** With `withViewer`: the user as `getUserWithUnreadCount` reads them, or undefined. */
  viewer?: Viewer;
  surveyor: MarketSurveyor | undefined;
  leads: LeadSummary[];
  total: number;
}> {
  if (!isUuid(userId)) return { surveyor: undefined, leads: [], total: 0 };
  return await availableLeads(
    db,
    db`surveyors.user_id = ${userId}`,
    filters,
    withViewer ? userId : undefined,
    `user ${userId}`,
  );
}

// The surveyor as one JSON value in the available-leads statement (over its `me`), in
// MarketSurveyorRow's names: postgres.js leaves JSON keys as they are.
interface MarketSurveyorJson extends Omit<MarketSurveyorRow, "verifiedAt" | "welcomeClaimUsedAt"> {
  verifiedAt: string | null;
  welcomeClaimUsedAt: string | null;
}

function fromSurveyorJson(json: MarketSurveyorJson): MarketSurveyor {
  return {
    ...json,
    verifiedAt: json.verifiedAt === null ? null : new Date(json.verifiedAt),
    welcomeClaimUsedAt: json.welcomeClaimUsedAt === null ? null : new Date(json.welcomeClaimUsedAt),
    balanceCents: Number(json.balanceCents),
  };
}

// One page of available leads for the surveyor record `which` selects (a condition over
// `surveyors`), with the total and that record itself.
//
// Read through a pool, the page is remembered with the snapshot its statement read it in, by
// `whichKey` (what `which` selects, in words) and the filters (db/snapshot_cache.ts). The next
// view runs the statement again only if one of its tables was written since, or once the
// first of the matched leads has expired (`l.expires_at > now()` is all the statement reads
// from the clock, and an expiry only ever removes a lead: anything else that changes the list
// is a write).
// Otherwise that view reads the viewer and the check alone, and shows the remembered page.
async function availableLeads(
  db: Db,
  which: postgres.PendingQuery<postgres.Row[]>,
  filters: AvailableLeadFilters,
  viewerId: string | undefined,
  whichKey: string,
): Promise<AvailableLeads & { viewer?: Viewer }> {
  const { surveyType, maxDistanceMiles, page, pageSize } = filters;
  const key = `${whichKey} ${surveyType ?? ""} ${maxDistanceMiles ?? ""} ${page} ${pageSize}`;
  const { viewer, value } = await rememberedRead(
    db,
    availableLeadsRead,
    key,
    viewerId,
    availableLeadsStatement(db, which, filters),
    availableLeadsFrom,
  );
  return { ...(viewer && { viewer }), ...(value ?? { surveyor: undefined, leads: [], total: 0 }) };
}

interface AvailableLeadFilters {
  surveyType?: SurveyType;
  maxDistanceMiles?: number;
  page: number;
  pageSize: number;
}

interface AvailableLeads {
  surveyor: MarketSurveyor | undefined;
  leads: LeadSummary[];
  total: number;
}

// The available leads' statement (see `availableLeads`), remembered under `key`. One statement
// (one round trip): the surveyor, if they may take leads (accountBlock's conditions), gives the
// box; the office point and radius reach the GiST index as the parameters of a nested loop. The
// count covers every match; the page's rows are read in full only for the page. The record
// rides on the first row only, as JSON.
function availableLeadsStatement(
  db: Db,
  which: postgres.PendingQuery<postgres.Row[]>,
  { surveyType, maxDistanceMiles, page, pageSize }: AvailableLeadFilters,
): postgres.PendingQuery<postgres.Row[]> {
  const offset = (Math.max(1, page) - 1) * pageSize;
  const maxMiles = maxDistanceMiles ?? null;
  return db`
    with me as (
      select ${marketSurveyorColumns(db)},
        least(service_radius_miles::float8, coalesce(${maxMiles}::float8, service_radius_miles))
          as radius_miles,
        (status = 'active' and verified_at is not null and lat is not null and lng is not null)
          as can_take,
        -- The office as a point once, not once per candidate property and distance.
        geo_point(lat, lng) as office
      from surveyors
      where ${which}
    ), matched as materialized (
      select l.id, l.created_at, l.expires_at
      from me
      cross join surveys s
      join leads l on l.survey_id = s.id
      where me.can_take and s.lat is not null and s.status in ('requested', 'surveyors_notified')
        and geo_box(me.office, (me.radius_miles + 0.5) * ${METERS_PER_MILE}::float8
          + ${PUBLIC_POINT_MAX_OFFSET_M}::float8) @> geo_point(s.lat, s.lng)
        and ${publicMiles(db, db`me.office`)} <= me.radius_miles
        and s.state = any(me.license_states)
        and s.survey_type = any(me.survey_types)
        ${surveyType ? db`and s.survey_type = ${surveyType}` : db``}
        and l.status = 'open' and l.expires_at > now()
        and not exists (
          select 1 from lead_dismissals d where d.surveyor_id = me.id and d.lead_id = l.id
        )
        and not exists (
          select 1 from lead_purchases bought
          where bought.lead_id = l.id and bought.surveyor_id = me.id
        )
    ), page as (
      select id from matched order by created_at desc, id desc
      limit ${pageSize} offset ${offset}
    )
    select c.total, c.valid_until, c.snapshot, r.*,
      case when row_number() over (order by r.created_at desc, r.id desc) = 1 then (
        select json_build_object(
          'id', me.id, 'userId', me.user_id, 'companyName', me.company_name,
          'status', me.status, 'verifiedAt', me.verified_at, 'lat', me.lat, 'lng', me.lng,
          'serviceRadiusMiles', me.service_radius_miles, 'licenseStates', me.license_states,
          'surveyTypes', me.survey_types, 'welcomeClaimUsedAt', me.welcome_claim_used_at,
          'balanceCents', me.balance_cents::text,
          'pendingLicenseStates', me.pending_license_states)
        from me
      ) end as surveyor
    from (
      select count(*)::int as total, min(expires_at)::text as valid_until,
        ${currentSnapshot(db)} as snapshot
      from matched
    ) c
    left join lateral (
      select ${
    leadColumns(
      db,
      db`me.id`,
      null,
      publicMiles(db, db`me.office`),
      true,
    )
  }, me.welcome_claim_used_at
      from page
      join leads l on l.id = page.id
      join surveys s on s.id = l.survey_id
      cross join me
      ${pricingJoin(db)}
    ) r on true
    order by r.created_at desc, r.id desc`;
}

type AvailableLeadRow = LeadRow & {
  total: number;
  snapshot: string;
  validUntil: string | null;
  welcomeClaimUsedAt: Date | null;
  surveyor: MarketSurveyorJson | null;
};

// The page from the statement's rows: it always returns the count's row, so none is nothing to
// show (no user with the viewer's id).
function availableLeadsFrom(rows: AvailableLeadRow[]): SnapshotRead<AvailableLeads> | undefined {
  if (rows.length === 0) return undefined;
  const json = rows[0].surveyor;
  const surveyor = json ? fromSurveyorJson(json) : undefined;
  return {
    value: {
      surveyor,
      leads: rows.filter((r) => r.id !== null).map((r) => toSummary(r, r)),
      total: rows[0].total,
    },
    snapshot: rows[0].snapshot,
    validUntil: rows[0].validUntil,
    ...(surveyor && { scopes: availableLeadsScopes(surveyor) }),
  };
}

/**
 * What a surveyor's available leads depend on (db/snapshot_cache.ts `SnapshotRead.scopes`):
 * their own record, licences and dismissals, and the requests, leads and purchases in the areas
 * their radius reaches in the states they are licensed in (`leadAreas`), or, where areas cannot
 * say it, in those states. A new lead in another state, or in Texas beyond the cells around
 * their office, another surveyor's dismissal, leaves their page remembered. (With no surveyor
 * record, every write reads it again: a record for the account may come.)
 */
function availableLeadsScopes(surveyor: MarketSurveyor): SnapshotScopes {
  const own = [`surveyor:${surveyor.id}`];
  const market = leadAreas(surveyor) ??
    surveyor.licenseStates.map((state) => `state:${state}`);
  return {
    lead_dismissals: own,
    surveyor_licence_states: own,
    surveyors: own,
    leads: market,
    lead_purchases: market,
    surveys: market,
  };
}

/**
 * At most this many areas (states × cells) a page depends on per table: each is a probe of the
 * check on every reload; past it (several states and a wide radius) the page depends on states.
 */
const MAX_LEAD_AREAS = 48;

/**
 * The areas (migration 0057: `area:<state>:<lat>:<lng>`) that can hold a lead the surveyor is
 * shown, or undefined: no office (they are shown none, and their own record says when that
 * changes), too many areas, or a radius reaching a pole or the 180th meridian. The statement
 * lists a lead when its public point, in whole miles, is within the radius of the office
 * (`availableLeadsStatement`; a filter only narrows it): its property is then within the radius,
 * half a mile of rounding and the public point's offset.
 */
function leadAreas(
  s: Pick<MarketSurveyor, "lat" | "lng" | "serviceRadiusMiles" | "licenseStates">,
): string[] | undefined {
  if (s.lat === null || s.lng === null) return undefined;
  const reach = (s.serviceRadiusMiles + 0.5) * METERS_PER_MILE + PUBLIC_POINT_MAX_OFFSET_M;
  const cells = cellsWithin(s.lat, s.lng, reach);
  if (!cells || cells.length * s.licenseStates.length > MAX_LEAD_AREAS) return undefined;
  return s.licenseStates.flatMap((state) => cells.map((c) => `area:${state}:${c.lat}:${c.lng}`));
}

/**
 * The available-leads pages last read, by snapshot (see `availableLeads`): about 25 KB each with
 * twenty leads, 5 MB at most.
 */
const availableLeadsRead = new SnapshotCache<AvailableLeads>(200, [
  "lead_dismissals",
  "lead_purchases",
  "leads",
  "pricing_configs",
  "surveyor_licence_states",
  "surveyors",
  "surveys",
]);

async function readLead(
  db: Db,
  { leadId, surveyor, lock = false }: { leadId: string; surveyor: MarketSurveyor; lock?: boolean },
): Promise<(LeadRow & { isRecipient: boolean }) | undefined> {
  if (!isUuid(leadId)) return undefined;
  // Lock first, on the lead alone, then read it joined: the row is the one the lock saw.
  if (lock) {
    const [locked] = await db`select id from leads where id = ${leadId} for no key update`;
    if (!locked) return undefined;
  }
  const [row] = await db<(LeadRow & { isRecipient: boolean })[]>`
    select ${leadColumns(db, surveyor.id, officeOf(surveyor))},
      exists (
        select 1 from lead_recipients r where r.lead_id = l.id and r.surveyor_id = ${surveyor.id}
      ) as is_recipient
    from leads l join surveys s on s.id = l.survey_id
    ${leadJoins(db, surveyor.id)}
    where l.id = ${leadId}`;
  return row;
}

function isEligible(s: MarketSurveyor, row: LeadRow): boolean {
  return accountBlock(s) === null && leadBlock(s, row) === null;
}

/**
 * The lead as the surveyor may see it (no personal data), or undefined: visible when it is
 * open and they are eligible for it, when it was offered to them, or when they bought or
 * claimed it (a closed lead they took stays visible).
 */
export async function getLeadForSurveyor(
  db: Db,
  which: { leadId: string } & ({ surveyorId: string } | { surveyor: MarketSurveyor }),
): Promise<LeadSummary | undefined> {
  const { leadId } = which;
  // A record the caller has just read (as `getSurveyorForUser` reads it) is not read again.
  const surveyor = "surveyor" in which
    ? which.surveyor
    : await getMarketSurveyor(db, { id: which.surveyorId });
  if (!surveyor) return undefined;
  const row = await readLead(db, { leadId, surveyor });
  if (!row) return undefined;
  const summary = toSummary(row, surveyor);
  const visible = row.purchaseKind !== null || row.isRecipient ||
    (summary.status === "open" && isEligible(surveyor, row));
  return visible ? summary : undefined;
}

// -------------------------------------------------------------------------- buy / claim

// Why the lead cannot be taken now, in the order a surveyor would want to hear it.
function closedBlock(row: LeadRow): string | null {
  if (row.surveyStatus === "cancelled") return LEAD_MARKET_MESSAGES.cancelled;
  if (row.closedReason === "claimed") return LEAD_MARKET_MESSAGES.claimed;
  if (!MARKET_SURVEY_STATUSES.includes(row.surveyStatus)) return LEAD_MARKET_MESSAGES.taken;
  if (row.leadStatus === "closed" || row.buyersCount >= row.maxBuyers) {
    if (row.closedReason === "sold_out" || row.buyersCount >= row.maxBuyers) {
      return LEAD_MARKET_MESSAGES.soldOut;
    }
    if (row.closedReason === "expired") return LEAD_MARKET_MESSAGES.expired;
    if (row.closedReason === "cancelled") return LEAD_MARKET_MESSAGES.cancelled;
    return LEAD_MARKET_MESSAGES.closed;
  }
  if (!row.isOpen) return LEAD_MARKET_MESSAGES.expired;
  return null;
}

// Reads and locks the lead and the surveyor, and throws unless the surveyor may take it now.
async function lockForTaking(
  tx: Db,
  { leadId, surveyorId }: { leadId: string; surveyorId: string },
): Promise<{ row: LeadRow; surveyor: MarketSurveyor }> {
  if (!isUuid(leadId)) notFound();
  const surveyor = await getMarketSurveyor(tx, { id: surveyorId });
  if (!surveyor) notFound();
  const row = await readLead(tx, { leadId, surveyor, lock: true });
  if (!row) notFound();
  if (row.purchaseKind === "buy") {
    throw new LeadMarketError(409, LEAD_MARKET_MESSAGES.alreadyBought);
  }
  if (row.purchaseKind === "claim") {
    throw new LeadMarketError(409, LEAD_MARKET_MESSAGES.alreadyClaimed);
  }
  const closed = closedBlock(row);
  if (closed) throw new LeadMarketError(409, closed);
  const blocked = accountBlock(surveyor) ?? leadBlock(surveyor, row);
  if (blocked) throw new LeadMarketError(409, blocked);
  return { row, surveyor };
}

function balanceMessage(balanceCents: number, costCents: number, verb: "buy" | "claim"): string {
  const what = verb === "buy" ? "this lead costs" : "claiming this lead costs";
  return `Your balance is ${formatLeadPrice(balanceCents)}; ${what} ${
    formatLeadPrice(costCents)
  }. Add credit to ${verb} it.`;
}

// The ledger debit; a balance too low becomes the 402 (the caller's transaction then rolls
// back, so the purchase inserted before it goes too). A debit that takes the balance below the
// low-balance threshold tells the surveyor in the same transaction (lib/billing.ts).
async function charge(
  tx: Db,
  input: {
    surveyorId: string;
    kind: "lead_purchase" | "claim_fee";
    cents: number;
    purchaseId: string;
    actorId: string | null;
    verb: "buy" | "claim";
    publicUrl: string;
  },
): Promise<number> {
  let balanceAfterCents: number;
  try {
    const entry = await postLedgerEntry(tx, {
      surveyorId: input.surveyorId,
      kind: input.kind,
      amountCents: -input.cents,
      leadPurchaseId: input.purchaseId,
      actorId: input.actorId,
    });
    if (!entry) notFound();
    balanceAfterCents = entry.balanceAfterCents;
  } catch (err) {
    if (err instanceof InsufficientBalanceError) {
      throw new LeadMarketError(402, balanceMessage(err.balanceCents, input.cents, input.verb));
    }
    throw err;
  }
  await noteLowBalance(tx, {
    surveyorId: input.surveyorId,
    balanceAfterCents,
    publicUrl: input.publicUrl,
  });
  return balanceAfterCents;
}

async function insertPurchase(
  tx: Db,
  input: {
    leadId: string;
    surveyorId: string;
    kind: "buy" | "claim";
    chargedCents: number;
    requestId: string | undefined;
  },
): Promise<string> {
  const [row] = await tx<{ id: string }[]>`
    insert into lead_purchases (lead_id, surveyor_id, kind, charged_cents, client_request_id)
    values (${input.leadId}, ${input.surveyorId}, ${input.kind}, ${input.chargedCents},
      ${input.requestId ?? null})
    returning id`;
  return row.id;
}

// Key space of the per-request-key lock (two-int advisory locks never collide with the
// single-bigint lock db/migrate.ts takes; db/surveys.ts uses space 5).
const TAKE_REQUEST_LOCK_SPACE = 6;

/**
 * The answer of the purchase that request key `requestId` already made, read in `tx` after
 * waiting for any other request with the same key to finish (so two at once charge once); or
 * undefined when the key is new. Throws 422 when the key bought another lead or took this one
 * by the other action.
 */
async function replayOf(
  tx: Db,
  input: { leadId: string; surveyorId: string; kind: "buy" | "claim"; requestId: string },
): Promise<TakeLeadResult | undefined> {
  await tx`select pg_advisory_xact_lock(${TAKE_REQUEST_LOCK_SPACE},
    hashtext(${input.surveyorId + ":" + input.requestId}))`;
  const [done] = await tx<
    { id: string; leadId: string; kind: string; chargedCents: number; balanceCents: number }[]
  >`
    select p.id, p.lead_id, p.kind, p.charged_cents,
      coalesce(
        (select e.balance_after_cents from surveyor_ledger e
          where e.lead_purchase_id = p.id and e.kind in ('lead_purchase', 'claim_fee')
          order by e.id limit 1),
        (select s.balance_cents from surveyors s where s.id = p.surveyor_id)
      )::int as balance_cents
    from lead_purchases p
    where p.surveyor_id = ${input.surveyorId} and p.client_request_id = ${input.requestId}`;
  if (!done) return undefined;
  if (done.leadId !== input.leadId || done.kind !== input.kind) {
    throw new LeadMarketError(422, LEAD_MARKET_MESSAGES.requestKeyReused);
  }
  return {
    purchase: { id: done.id, chargedCents: done.chargedCents },
    balanceAfterCents: done.balanceCents,
    lead: await unlockedInTx(tx, input),
    isReplay: true,
  };
}

// The purchased lead as its buyer now sees it, read in the transaction that took it: the
// answer is built before the commit, so nothing after the commit can fail the request.
async function unlockedInTx(
  tx: Db,
  { leadId, surveyorId }: { leadId: string; surveyorId: string },
): Promise<UnlockedLead> {
  const lead = await getPurchasedLead(tx, { leadId, surveyorId });
  if (!lead) throw new Error(`purchase of lead ${leadId} by ${surveyorId} is not readable`);
  return lead;
}

function whereText(row: LeadRow): string {
  const town = townFromAddress(row.place, row.state);
  return town ? `${town}, ${row.state}` : stateName(row.state);
}

/** What `buyLead` and `claimLead` return. */
export interface TakeLeadResult {
  purchase: { id: string; chargedCents: number };
  /** The balance right after the charge (for a replay: after the first request's charge). */
  balanceAfterCents: number;
  /** The lead as its buyer now sees it, read before the commit. */
  lead: UnlockedLead;
  /** True when `requestId` had already taken the lead: nothing new was stored or charged. */
  isReplay: boolean;
}

/**
 * Buys a place on the lead for the surveyor, in ONE transaction: locks the lead; checks it is
 * open, unexpired and not sold out, not already theirs, and that they are eligible; stores the
 * purchase; debits the lead price from their balance (ledger 'lead_purchase', with the
 * low-balance notice of lib/billing.ts `noteLowBalance` when it crosses the threshold);
 * counts the buyer and closes the lead ('sold_out') on its last place; marks their offer
 * 'purchased'; and tells the admins ('lead_bought'). Throws `LeadMarketError`: 404 unknown
 * lead, 409 closed / sold out / already bought / not eligible (with the reason), 402 balance
 * too low — then nothing is stored and nothing charged.
 */
export async function buyLead(
  sql: Sql,
  { leadId, surveyorId, actorId, publicUrl, requestId }: {
    leadId: string;
    surveyorId: string;
    actorId: string | null;
    /** The client's idempotency key: a retry with it answers the first request's purchase. */
    requestId?: string;
    /** The site's origin (config PUBLIC_URL), for the link in the low-balance email. */
    publicUrl: string;
  },
): Promise<TakeLeadResult> {
  return await sql.begin(async (tx) => {
    if (requestId) {
      const replay = await replayOf(tx, { leadId, surveyorId, kind: "buy", requestId });
      if (replay) return replay;
    }
    const { row, surveyor } = await lockForTaking(tx, { leadId, surveyorId });
    const purchaseId = await insertPurchase(tx, {
      leadId,
      surveyorId,
      kind: "buy",
      chargedCents: row.priceCents,
      requestId,
    });
    const balanceAfterCents = row.priceCents === 0 ? surveyor.balanceCents : await charge(tx, {
      surveyorId,
      kind: "lead_purchase",
      cents: row.priceCents,
      purchaseId,
      actorId,
      verb: "buy",
      publicUrl,
    });
    const [lead] = await tx<{ buyersCount: number; maxBuyers: number }[]>`
      update leads set buyers_count = buyers_count + 1, updated_at = now(),
        status = case when buyers_count + 1 >= max_buyers then 'closed' else status end,
        closed_reason = case when buyers_count + 1 >= max_buyers then 'sold_out'
          else closed_reason end,
        closed_at = case when buyers_count + 1 >= max_buyers then now() else closed_at end
      where id = ${leadId}
      returning buyers_count, max_buyers`;
    await tx`
      update lead_recipients set outcome = 'purchased', updated_at = now()
      where lead_id = ${leadId} and surveyor_id = ${surveyorId}`;
    const typeName = SURVEY_TYPE_INFO[row.surveyType].name;
    await notifyAdmins(tx, {
      kind: "lead_bought",
      title: "Lead bought",
      body: `${surveyor.companyName} bought the ${typeName} lead in ${whereText(row)} for ${
        formatLeadPrice(row.priceCents)
      } (${lead.buyersCount} of ${lead.maxBuyers} places sold).`,
      link: `/survey/${row.surveyId}`,
    });
    return {
      purchase: { id: purchaseId, chargedCents: row.priceCents },
      balanceAfterCents,
      lead: await unlockedInTx(tx, { leadId, surveyorId }),
      isReplay: false,
    };
  }) as TakeLeadResult;
}

/**
 * Claims the lead for the surveyor (exclusive), in ONE transaction: the checks of `buyLead`,
 * and the type must have an instant quote (not subdivision) and nobody may have bought the
 * lead yet. The fee is the lead price × the claim fee multiple of the pricing configuration
 * the lead was priced with (round to the cent), or nothing for the surveyor's first claim (the
 * welcome claim, then used up); a fee is debited (ledger 'claim_fee', with the low-balance
 * notice like a purchase; no entry for a free claim). The lead closes ('claimed',
 * `claimed_by`), the purchase is stored (kind 'claim'), the offer marked 'claimed', the
 * surveyor assigned to the survey at the quote (lib/assignments.ts `assignSurveyorInTx`,
 * which tells the client), and the admins told ('lead_claimed'). Throws `LeadMarketError` like
 * `buyLead`.
 */
export async function claimLead(
  sql: Sql,
  { leadId, surveyorId, actorId, publicUrl, requestId }: {
    leadId: string;
    surveyorId: string;
    actorId: string | null;
    /** The client's idempotency key: a retry with it answers the first request's purchase. */
    requestId?: string;
    /** The site's origin (config PUBLIC_URL), for the links in the assignment emails. */
    publicUrl: string;
  },
): Promise<TakeLeadResult> {
  return await sql.begin(async (tx) => {
    if (requestId) {
      const replay = await replayOf(tx, { leadId, surveyorId, kind: "claim", requestId });
      if (replay) return replay;
    }
    const { row, surveyor } = await lockForTaking(tx, { leadId, surveyorId });
    const pricingBlock = claimPricingBlock(row);
    if (pricingBlock) throw new LeadMarketError(409, pricingBlock);
    if (row.buyersCount > 0) throw new LeadMarketError(409, LEAD_MARKET_MESSAGES.claimAfterBuy);
    // The welcome claim is taken by a conditional update: of two claims at once by the same
    // surveyor, the second waits on the row and finds it used.
    const [welcome] = await tx`
      update surveyors set welcome_claim_used_at = now()
      where id = ${surveyorId} and welcome_claim_used_at is null
      returning id`;
    const feeCents = welcome ? 0 : claimFee(row, { welcomeClaimUsedAt: new Date() });
    const purchaseId = await insertPurchase(tx, {
      leadId,
      surveyorId,
      kind: "claim",
      chargedCents: feeCents,
      requestId,
    });
    const balanceAfterCents = feeCents === 0 ? surveyor.balanceCents : await charge(tx, {
      surveyorId,
      kind: "claim_fee",
      cents: feeCents,
      purchaseId,
      actorId,
      verb: "claim",
      publicUrl,
    });
    await tx`
      update leads set buyers_count = buyers_count + 1, status = 'closed',
        closed_reason = 'claimed', claimed_by = ${surveyorId}, closed_at = now(),
        updated_at = now()
      where id = ${leadId}`;
    await tx`
      update lead_recipients set outcome = 'claimed', updated_at = now()
      where lead_id = ${leadId} and surveyor_id = ${surveyorId}`;
    try {
      await assignSurveyorInTx(tx, {
        surveyId: row.surveyId,
        surveyorId,
        agreedPriceCents: row.quotedPriceCents!,
        source: "claim",
        actorId,
        publicUrl,
      });
    } catch (err) {
      // Refused (e.g. the request changed meanwhile): the claim as a whole is refused and the
      // transaction rolls back, fee and all.
      if (err instanceof AssignmentError) throw new LeadMarketError(409, err.message);
      throw err;
    }
    const typeName = SURVEY_TYPE_INFO[row.surveyType].name;
    await notifyAdmins(tx, {
      kind: "lead_claimed",
      title: "Lead claimed",
      body: `${surveyor.companyName} claimed the ${typeName} request in ${whereText(row)} at the ${
        formatCents(row.quotedPriceCents!)
      } quote and is assigned to it (${
        welcome ? "welcome claim, no fee" : `claim fee ${formatLeadPrice(feeCents)}`
      }).`,
      link: `/survey/${row.surveyId}`,
    });
    return {
      purchase: { id: purchaseId, chargedCents: feeCents },
      balanceAfterCents,
      lead: await unlockedInTx(tx, { leadId, surveyorId }),
      isReplay: false,
    };
  }) as TakeLeadResult;
}

/**
 * "Not interested": hides the lead from the surveyor's available list and marks their offer
 * 'declined'. Idempotent; costs nothing. Throws `LeadMarketError` 404 for a lead they may not
 * see, 409 for one they bought or claimed.
 */
export async function dismissLead(
  db: Db,
  { leadId, surveyorId }: { leadId: string; surveyorId: string },
): Promise<void> {
  const surveyor = await getMarketSurveyor(db, { id: surveyorId });
  if (!surveyor) notFound();
  const row = await readLead(db, { leadId, surveyor });
  if (!row) notFound();
  if (row.purchaseKind !== null) {
    throw new LeadMarketError(409, LEAD_MARKET_MESSAGES.dismissPurchased);
  }
  const isOpen = row.isOpen && MARKET_SURVEY_STATUSES.includes(row.surveyStatus);
  if (!row.isRecipient && !(isOpen && isEligible(surveyor, row))) notFound();
  await db`
    with hidden as (
      insert into lead_dismissals (lead_id, surveyor_id) values (${leadId}, ${surveyorId})
      on conflict do nothing
    )
    update lead_recipients set outcome = 'declined', updated_at = now()
    where lead_id = ${leadId} and surveyor_id = ${surveyorId} and outcome in ('sent', 'viewed')`;
}

// -------------------------------------------------------------------- purchased leads

interface UnlockedRow extends LeadRow {
  purchaseId: string;
  chargedCents: number;
  pipelineStatus: PipelineStatus;
  pipelineNote: string | null;
  purchasedAt: Date;
  refundedAt: Date | null;
  contactName: string;
  contactPhone: string;
  contactEmail: string | null;
  address: string;
  formattedAddress: string | null;
  lat: number | null;
  lng: number | null;
  parcel: unknown;
  accessNotes: string | null;
  notes: string | null;
  purpose: string;
  quote: Quote;
  assignment:
    | (Omit<Assignment, "createdAt" | "updatedAt"> & {
      createdAt: string;
      updatedAt: string;
    })
    | null;
  refundRequest:
    | { id: string; reason: RefundReason; status: "pending" | "approved" | "denied" }
    | null;
}

// The unlocked columns, read through the surveyor's own purchase `p` (see `unlockedFrom`).
function unlockedColumns(db: Db, surveyor: MarketSurveyor) {
  return db`
    ${leadColumns(db, surveyor.id, officeOf(surveyor))},
    p.id as purchase_id, p.charged_cents, p.pipeline_status, p.pipeline_note,
    p.created_at as purchased_at, p.refunded_at,
    s.contact_name, s.contact_phone,
    ${contactEmailColumn(db)} as contact_email,
    s.address, s.formatted_address, s.lat, s.lng, s.parcel, s.access_notes, s.notes, s.purpose, s.quote,
    (
      select json_build_object(
        'id', a.id, 'surveyId', a.survey_id, 'surveyorId', a.surveyor_id,
        'companyName', ${surveyor.companyName}::text, 'agreedPriceCents', a.agreed_price_cents,
        'status', a.status, 'source', a.source, 'scheduledDate', a.scheduled_date::text,
        'endedReason', a.ended_reason,
        'createdAt', to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'updatedAt', to_char(a.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      from survey_assignments a
      where a.surveyor_id = ${surveyor.id} and a.survey_id = s.id
      order by (a.status in ('offered', 'accepted', 'scheduled')) desc, a.created_at desc
      limit 1
    ) as assignment,
    (
      select json_build_object('id', rr.id, 'reason', rr.reason, 'status', rr.status)
      from lead_refund_requests rr
      where rr.lead_purchase_id = p.id
      order by rr.created_at desc
      limit 1
    ) as refund_request`;
}

/**
 * The client's email as an unlocked lead shows it: the request's own, else the client's
 * account email (the buy dialog and the lead email promise one, and every account has one).
 * `s` is the survey.
 */
export function contactEmailColumn(db: Db) {
  return db`coalesce(nullif(s.contact_email, ''),
    (select cu.email from users cu where cu.id = s.client_id))`;
}

// A refunded purchase unlocks nothing (lib/refund_constants.ts has the rule): the client's
// details are dropped here, so no reader of a purchase can hand them out.
function toUnlocked(row: UnlockedRow, surveyor: MarketSurveyor): UnlockedLead {
  const lead = toUnlockedRow(row, surveyor);
  if (!row.refundedAt) return lead;
  return {
    ...lead,
    detailsHidden: refundedDetailsNotice(row.refundedAt),
    client: null,
    address: null,
    formattedAddress: null,
    lat: null,
    lng: null,
    parcel: null,
    accessNotes: null,
    notes: null,
  };
}

function toUnlockedRow(row: UnlockedRow, surveyor: MarketSurveyor): UnlockedLead {
  return {
    ...toSummary(row, surveyor),
    purchaseId: row.purchaseId,
    kind: row.purchaseKind!,
    chargedCents: row.chargedCents,
    pipelineStatus: row.pipelineStatus,
    pipelineNote: row.pipelineNote,
    purchasedAt: row.purchasedAt.toISOString(),
    refundedAt: row.refundedAt ? row.refundedAt.toISOString() : null,
    detailsHidden: null,
    client: { name: row.contactName, phone: row.contactPhone, email: row.contactEmail },
    address: row.address,
    formattedAddress: row.formattedAddress,
    lat: row.lat,
    lng: row.lng,
    parcel: row.parcel,
    accessNotes: row.accessNotes,
    notes: row.notes,
    purpose: row.purpose,
    quote: row.quote,
    surveyStatus: row.surveyStatus,
    assignment: row.assignment as Assignment | null,
    refundRequest: row.refundRequest,
  };
}

/**
 * One page of the leads the surveyor bought or claimed (newest purchase first), everything
 * unlocked, with how many there are in all. Unknown surveyor: none.
 */
export async function listPurchasedLeads(
  db: Db,
  { surveyorId, page, pageSize }: { surveyorId: string; page: number; pageSize: number },
): Promise<{ leads: UnlockedLead[]; total: number }> {
  const surveyor = await getMarketSurveyor(db, { id: surveyorId });
  if (!surveyor) return { leads: [], total: 0 };
  const offset = (Math.max(1, page) - 1) * pageSize;
  const [rows, [{ total }]] = [
    await db<UnlockedRow[]>`
      with page as (
        select id from lead_purchases where surveyor_id = ${surveyorId}
        order by created_at desc, id desc
        limit ${pageSize} offset ${offset}
      )
      select ${unlockedColumns(db, surveyor)}
      from page join lead_purchases p on p.id = page.id
      join leads l on l.id = p.lead_id
      join surveys s on s.id = l.survey_id
      left join pricing_configs pc on pc.version = (l.pricing ->> 'configVersion')::int
      order by p.created_at desc, p.id desc`,
    await db<{ total: number }[]>`
      select count(*)::int as total from lead_purchases where surveyor_id = ${surveyorId}`,
  ];
  return { leads: rows.map((r) => toUnlocked(r, surveyor)), total };
}

/**
 * The lead `leadId` (a lead id, as in /surveyor/purchased-leads/{leadId}) unlocked, if this
 * surveyor bought or claimed it; else undefined.
 */
export async function getPurchasedLead(
  db: Db,
  { leadId, surveyorId }: { leadId: string; surveyorId: string },
): Promise<UnlockedLead | undefined> {
  if (!isUuid(leadId)) return undefined;
  const surveyor = await getMarketSurveyor(db, { id: surveyorId });
  if (!surveyor) return undefined;
  const [row] = await db<UnlockedRow[]>`
    select ${unlockedColumns(db, surveyor)}
    from lead_purchases p
    join leads l on l.id = p.lead_id
    join surveys s on s.id = l.survey_id
    left join pricing_configs pc on pc.version = (l.pricing ->> 'configVersion')::int
    where p.lead_id = ${leadId} and p.surveyor_id = ${surveyorId}`;
  return row && toUnlocked(row, surveyor);
}

/** What the buyer may change of their pipeline (PipelineUpdateSchema's output). */
export interface PipelineUpdate {
  pipelineStatus?: PipelineStatus;
  pipelineNote?: string | null;
}

/**
 * Sets the buyer's pipeline status and/or note on their purchase of `leadId` and returns the
 * lead unlocked; undefined when they did not buy or claim it (nothing changed).
 */
export async function updatePipeline(
  db: Db,
  { leadId, surveyorId, update }: { leadId: string; surveyorId: string; update: PipelineUpdate },
): Promise<UnlockedLead | undefined> {
  if (!isUuid(leadId) || !isSurveyorId(surveyorId)) return undefined;
  const sets: postgres.PendingQuery<postgres.Row[]>[] = [];
  if (update.pipelineStatus !== undefined) {
    sets.push(db`pipeline_status = ${update.pipelineStatus}`);
  }
  if (update.pipelineNote !== undefined) sets.push(db`pipeline_note = ${update.pipelineNote}`);
  const assignments = sets.reduce((acc, part) => db`${acc}, ${part}`, db`updated_at = now()`);
  const [row] = await db<{ id: string; previousStatus: PipelineStatus }[]>`
    with old as (
      select id, pipeline_status from lead_purchases
      where lead_id = ${leadId} and surveyor_id = ${surveyorId}
      for update
    )
    update lead_purchases p set ${assignments}
    from old where p.id = old.id
    returning p.id, old.pipeline_status as previous_status`;
  if (!row) return undefined;
  const lead = await getPurchasedLead(db, { leadId, surveyorId });
  // Admins hear when a lead becomes a surveyor's job (once, on the move to "won").
  if (lead && update.pipelineStatus === "won" && row.previousStatus !== "won") {
    const [v] = await db<{ companyName: string }[]>`
      select company_name from surveyors where id = ${surveyorId}`;
    const town = lead.city ?? lead.county;
    await notifyAdmins(db, {
      kind: "lead_won",
      title: "Lead won",
      body: `${v?.companyName ?? "A surveyor"} marked the ${
        SURVEY_TYPE_INFO[lead.surveyType].name
      } lead in ${town ? `${town}, ${lead.state}` : stateName(lead.state)} as won.`,
      link: `/survey/${lead.surveyId}`,
    });
  }
  return lead;
}
