/**
 * Dispatch: finding the surveyors for a survey request and offering it to them as a priced
 * lead. The admin's two actions (routes/dispatch.ts) and the automatic dispatch job (B2's
 * worker) both come here.
 *
 * - `findSurveyors`: the scored candidates (lib/matching.ts) plus, from the places provider,
 *   surveying businesses nearby that are not records yet; stored on the survey
 *   (`nearby_surveyors`, `nearby_surveyors_found_at`) and served from there until a refresh.
 * - `notifySurveyors`: in one transaction, the survey's lead (priced by lib/lead_pricing.ts
 *   from the active pricing configuration), an offer to every matched in-network active
 *   record not offered it yet (in-app notification for a linked account, email), one
 *   invitation email to each prospect with an address, and requested → surveyors_notified.
 * - `dispatchSurvey`: find (fresh) then notify; when nobody in the network matches, the
 *   admins are told instead ("No surveyor covers …"), once.
 */
import type { Db, Sql } from "../db/client.ts";
import type { DispatchLead, SurveyDispatchReads } from "../db/survey_dispatch.ts";
import type { SurveyBuyer } from "../db/assignments.ts";
import type { Assignment } from "./lead_market_schema.ts";
import type { Config } from "./config.ts";
import { milesBetween, type PlacesProvider } from "./places/provider.ts";
import {
  type DispatchSurvey,
  getDispatchSurvey,
  getLeadForSurvey,
  insertLead,
  insertLeadRecipients,
  type Lead,
  listKnownPlaceIds,
  listLeadRecipients,
  listRecipientRecords,
  listRecordsByPlaceId,
  listSurveyRecipientIds,
  type NewLeadRecipient,
  type RecipientRecord,
  saveNearbySurveyors,
} from "../db/leads.ts";
import { applySurveyStatusChange } from "../db/surveys.ts";
import {
  hasRecentAdminNotification,
  insertNotifications,
  notifyAdmins,
} from "../db/notifications.ts";
import { getActivePricingConfig } from "../db/pricing.ts";
import { markProspectsInvited } from "../db/surveyors.ts";
import { townFromAddress } from "./address_parts.ts";
import { findCandidateSurveyors, type MatchCandidate, matchScore } from "./matching.ts";
import { describeLeadPrice, formatLeadPrice, leadPriceDollars, priceLead } from "./lead_pricing.ts";
import { formatCents } from "./quote_text.ts";
import { formatDecimal } from "./numbers.ts";
import {
  publicLeadPath,
  queueLeadEmails,
  queueLeadInvitationEmail,
  surveyorClaimPath,
} from "./mail/emails.ts";
import { CLAIM_TOKEN_TTL_DAYS, insertClaimToken } from "../db/claim_tokens.ts";
import { hashToken, randomToken } from "./sessions.ts";
import type { LeadSummaryProps } from "./mail/templates/NewSurveyLead.tsx";
import type { SurveyStatus } from "./survey_schema.ts";
import { SURVEY_TYPE_INFO } from "./survey_types.ts";
import { type StateCode, US_STATES } from "./survey_details.ts";
import {
  DEFAULT_SERVICE_RADIUS_MILES,
  type FindSurveyorsResponse,
  type NearbySurveyorInfo,
  type NotifySurveyorsResponse,
  type Place,
} from "./surveyor_schema.ts";

// Islands: import these from lib/dispatch_text.ts, never from here. This module reaches the
// database and jsx-email, which esbuild cannot bundle for the browser.
export { foundToastText, notifiedToastText } from "./dispatch_text.ts";

/** The part of a places provider dispatch uses. */
export type NearbyPlaces = Pick<PlacesProvider, "nearbySurveyors">;

/** Most businesses from the places provider appended to one survey's matches. */
export const MAX_PLACE_PROSPECTS = 10;

/** Statuses in which a survey may still be offered to surveyors. */
export const NOTIFIABLE_STATUSES: readonly SurveyStatus[] = ["requested", "surveyors_notified"];

/** What the dispatch actions answer when they cannot act (409s). */
export const DISPATCH_MESSAGES = {
  noLocation:
    "This request has no map location yet; surveyors are matched by distance, so it needs the property's coordinates first.",
  cancelled: "This request was cancelled, so it is not offered to surveyors.",
  completed: "This request is completed, so it is not offered to surveyors.",
  taken: "This request already has a surveyor, so it is not offered to others.",
  leadClosed: "The lead for this request has closed, so nobody more can be offered it.",
  nobody:
    "Nobody matched can be offered this request yet: no in-network surveyor with an email address or account, and no prospect with an email address. Add or update surveyors, then refresh the search.",
} as const;

/** A dispatch action that cannot be done in the survey's current state (HTTP 409). */
export class DispatchConflictError extends Error {
  /** Which of DISPATCH_MESSAGES it is. */
  readonly reason: keyof typeof DISPATCH_MESSAGES;
  constructor(reason: keyof typeof DISPATCH_MESSAGES) {
    super(DISPATCH_MESSAGES[reason]);
    this.reason = reason;
  }
}

/** Title of the in-app notification a surveyor gets for a new lead. */
export const LEAD_OFFERED_TITLE = "New survey lead near you";

/** Where a surveyor reads a lead offered to them in the app. */
export function surveyorLeadPath(leadId: string): string {
  return `/surveyor/leads/${encodeURIComponent(leadId)}`;
}

function requireOpen(survey: DispatchSurvey, action: "find" | "notify"): void {
  if (survey.status === "cancelled") throw new DispatchConflictError("cancelled");
  if (survey.status === "completed") throw new DispatchConflictError("completed");
  if (action === "notify" && !NOTIFIABLE_STATUSES.includes(survey.status)) {
    throw new DispatchConflictError("taken");
  }
  if (survey.lat === null || survey.lng === null) {
    throw new DispatchConflictError("noLocation");
  }
}

function fromCandidate(c: MatchCandidate): NearbySurveyorInfo {
  return {
    surveyorId: c.surveyorId,
    name: c.companyName,
    distanceMiles: c.distanceMiles,
    score: c.score,
    inNetwork: c.inNetwork,
    source: c.source,
    status: c.status,
    lat: c.lat,
    lng: c.lng,
    place: null,
    notified: false,
  };
}

/**
 * Businesses from the places provider within the default service radius that are not records
 * yet, as prospects. A provider that fails is logged and counts as none.
 */
async function placeProspects(
  db: Db,
  places: NearbyPlaces,
  point: { lat: number; lng: number },
): Promise<NearbySurveyorInfo[]> {
  let found: Place[];
  try {
    found = await places.nearbySurveyors(point, DEFAULT_SERVICE_RADIUS_MILES);
  } catch (err) {
    console.warn(`dispatch: places lookup failed: ${(err as Error).message}`);
    return [];
  }
  const known = await listKnownPlaceIds(db, { placeIds: found.map((p) => p.placeId) });
  const seen = new Set<string>();
  const prospects: NearbySurveyorInfo[] = [];
  for (const place of found) {
    if (known.has(place.placeId) || seen.has(place.placeId)) continue;
    seen.add(place.placeId);
    const miles = Math.round(milesBetween(point, place) * 10) / 10;
    if (miles > DEFAULT_SERVICE_RADIUS_MILES) continue;
    prospects.push({
      surveyorId: null,
      name: place.name,
      distanceMiles: miles,
      score: matchScore({
        distanceMiles: miles,
        rating: place.rating,
        reviewCount: place.reviewCount,
        recentOffers: 0,
        recentResponses: 0,
        openSurveys: 0,
      }),
      inNetwork: false,
      source: "place",
      status: null,
      lat: place.lat,
      lng: place.lng,
      place,
      notified: false,
    });
  }
  prospects.sort((a, b) => b.score - a.score || a.distanceMiles - b.distanceMiles);
  return prospects.slice(0, MAX_PLACE_PROSPECTS);
}

/** Matches the survey now and stores the result on it; `places` adds businesses nearby. */
async function matchAndStore(
  db: Db,
  survey: DispatchSurvey,
  places: NearbyPlaces | undefined,
): Promise<{ surveyors: NearbySurveyorInfo[]; foundAt: Date }> {
  const point = { lat: survey.lat!, lng: survey.lng! };
  // Independent reads side by side (on Postgres each takes its own pooled connection).
  const [candidates, prospects] = await Promise.all([
    findCandidateSurveyors(db, { ...point, state: survey.state, surveyType: survey.surveyType }),
    places ? placeProspects(db, places, point) : [],
  ]);
  const surveyors = [...candidates.map(fromCandidate), ...prospects];
  const foundAt = await saveNearbySurveyors(db, { surveyId: survey.id, surveyors });
  return { surveyors, foundAt };
}

/**
 * Stored matches as they are now: a place converted to a record since it was stored reads as
 * that record (id, name, network, status; no Convert), found by place id in one query.
 */
async function withConvertedPlaces(
  db: Db,
  surveyors: NearbySurveyorInfo[],
): Promise<NearbySurveyorInfo[]> {
  const placeIds = surveyors.flatMap((s) =>
    s.surveyorId === null && s.place ? [s.place.placeId] : []
  );
  if (placeIds.length === 0) return surveyors;
  const records = await listRecordsByPlaceId(db, { placeIds });
  return surveyors.map((s) => {
    const record = s.surveyorId === null && s.place ? records.get(s.place.placeId) : undefined;
    if (!record) return s;
    return {
      ...s,
      surveyorId: record.id,
      name: record.companyName,
      inNetwork: record.inNetwork,
      status: record.status,
      place: null,
    };
  });
}

/**
 * `surveyors` with converted places read as their records and `notified` set from the
 * survey's lead recipients (one query each).
 */
async function withNotified(
  db: Db,
  surveyId: string,
  stored: NearbySurveyorInfo[],
): Promise<NearbySurveyorInfo[]> {
  const [surveyors, offered] = await Promise.all([
    withConvertedPlaces(db, stored),
    listSurveyRecipientIds(db, { surveyId }),
  ]);
  return markNotified(surveyors, offered);
}

/** `surveyors` with `notified` set for the record ids in `offered`. */
function markNotified(
  surveyors: NearbySurveyorInfo[],
  offered: Set<string>,
): NearbySurveyorInfo[] {
  return surveyors.map((s) => ({
    ...s,
    notified: s.surveyorId !== null && offered.has(s.surveyorId),
  }));
}

/**
 * find-surveyors: the survey's matches, from the stored result (`fromCache: true`) unless
 * there is none or `refresh`; a fresh search is stored on the survey. Undefined for an unknown
 * survey. Throws DispatchConflictError for a cancelled or completed survey or one without a
 * location. A failing places provider only leaves its prospects out.
 */
export async function findSurveyors(
  deps: { sql: Sql; places?: NearbyPlaces },
  { surveyId, refresh = false }: { surveyId: string; refresh?: boolean },
): Promise<FindSurveyorsResponse | undefined> {
  const survey = await getDispatchSurvey(deps.sql, { id: surveyId });
  if (!survey) return undefined;
  requireOpen(survey, "find");
  const fromCache = !refresh && survey.nearbySurveyors !== null &&
    survey.nearbySurveyorsFoundAt !== null;
  let list: NearbySurveyorInfo[];
  let foundAt: Date;
  if (fromCache) {
    list = await withNotified(deps.sql, survey.id, survey.nearbySurveyors!);
    foundAt = survey.nearbySurveyorsFoundAt!;
  } else {
    // Who was offered the lead does not depend on the search: read it alongside (another
    // pooled connection on Postgres), not after. A fresh match already left out the places
    // that are records (placeProspects), so it needs no withConvertedPlaces.
    const [fresh, offered] = await Promise.all([
      matchAndStore(deps.sql, survey, deps.places),
      listSurveyRecipientIds(deps.sql, { surveyId: survey.id }),
    ]);
    list = markNotified(fresh.surveyors, offered);
    foundAt = fresh.foundAt;
  }
  return {
    surveyors: list,
    survey: {
      id: survey.id,
      nearbySurveyorsInfo: list,
      nearbySurveyorsFoundAt: foundAt.toISOString(),
    },
    fromCache,
  };
}

const DATE = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/** "Austin, TX", or the state's name when the address does not tell the city. */
function surveyLocation(survey: DispatchSurvey): string {
  const city = townFromAddress(survey.formattedAddress ?? survey.address, survey.state);
  if (city) return `${city}, ${survey.state}`;
  return US_STATES[survey.state as StateCode] ?? survey.state;
}

function surveySize(survey: DispatchSurvey): string | null {
  if (survey.acreage !== null) {
    return `${formatDecimal(survey.acreage)} ${survey.acreage === 1 ? "acre" : "acres"}`;
  }
  if (survey.structures > 0) {
    return `${survey.structures} ${survey.structures === 1 ? "structure" : "structures"}`;
  }
  return null;
}

/** The job as lead emails show it: no client name, phone, email or street address. */
function leadSummary(survey: DispatchSurvey, lead: Lead, publicUrl: string): LeadSummaryProps {
  return {
    surveyTypeName: SURVEY_TYPE_INFO[survey.surveyType].name,
    location: surveyLocation(survey),
    size: surveySize(survey),
    neededBy: survey.neededBy ? DATE.format(new Date(`${survey.neededBy}T00:00:00Z`)) : null,
    quotedPrice: survey.quotedPriceCents === null
      ? "Custom quote"
      : formatCents(survey.quotedPriceCents),
    leadPrice: formatLeadPrice(lead.priceCents),
    formula: describeLeadPrice(lead.pricing),
    maxBuyers: lead.maxBuyers,
    expiresOn: DATE.format(lead.expiresAt),
    leadUrl: new URL(publicLeadPath(lead.id), publicUrl).href,
  };
}

/**
 * One lead invitation per prospect with an email. A firm without an account also gets its own
 * join link (`/surveyor/claim?token=…`, a claim token stored as its SHA-256, valid
 * CLAIM_TOKEN_TTL_DAYS), and its lead page link carries the same token so the page can offer
 * the way in.
 */
async function queueInvitations(
  db: Db,
  { invited, leadId, summary, publicUrl }: {
    invited: RecipientRecord[];
    leadId: string;
    summary: LeadSummaryProps;
    publicUrl: string;
  },
): Promise<void> {
  for (const r of invited) {
    if (!r.email) continue;
    if (r.userId) {
      await queueLeadInvitationEmail(db, { to: r.email, ...summary });
      continue;
    }
    const token = randomToken(32);
    await insertClaimToken(db, { surveyorId: r.id, leadId, tokenHash: await hashToken(token) });
    const leadUrl = new URL(summary.leadUrl);
    leadUrl.searchParams.set("token", token);
    const claimUrl = new URL(surveyorClaimPath(token), publicUrl);
    await queueLeadInvitationEmail(db, {
      to: r.email,
      ...summary,
      leadUrl: leadUrl.href,
      claimUrl: claimUrl.href,
      claimValidDays: CLAIM_TOKEN_TTL_DAYS,
    });
  }
}

/** requested → surveyors_notified with its event and the client's notification. */
async function markSurveyorsNotified(
  db: Db,
  survey: DispatchSurvey,
  actorId: string | null,
): Promise<void> {
  await applySurveyStatusChange(db, { survey, to: "surveyors_notified", actorId });
}

/**
 * notify-surveyors, in one transaction: matches the survey first if it never was; creates its
 * lead when it has none (priced from the active pricing configuration, inputs and version
 * stored); offers it to every matched record not offered it yet — in-network active records
 * that can be reached (an email, or a linked account for the in-app notification) are
 * notified, records outside the network with an email are invited by email only (a prospect
 * among them becomes 'invited'); and moves a requested survey to surveyors_notified (event,
 * client notification) once anyone was notified. Concurrent calls take turns on the survey row, and the recipients' primary key
 * keeps anyone from being offered the lead twice.
 *
 * Undefined for an unknown survey; throws DispatchConflictError for a survey that is closed,
 * already has a surveyor or has no location, whose lead has closed, or (no lead yet) when
 * nobody matched can be offered it: then nothing is stored, not even the lead.
 */
export async function notifySurveyors(
  deps: { sql: Sql; config: Pick<Config, "PUBLIC_URL"> },
  { surveyId, actorId }: { surveyId: string; actorId: string | null },
): Promise<NotifySurveyorsResponse | undefined> {
  return await deps.sql.begin(async (tx) => {
    const survey = await getDispatchSurvey(tx, { id: surveyId, forUpdate: true });
    if (!survey) return undefined;
    requireOpen(survey, "notify");
    const surveyors = survey.nearbySurveyors
      ? await withConvertedPlaces(tx, survey.nearbySurveyors)
      : (await matchAndStore(tx, survey, undefined)).surveyors;

    // Decided on the records as they are now, not as they were when matched.
    const distance = new Map(
      surveyors.filter((s) => s.surveyorId).map((s) => [s.surveyorId!, s.distanceMiles]),
    );
    const records = await listRecipientRecords(tx, { ids: [...distance.keys()] });
    const wanted: NewLeadRecipient[] = [];
    for (const r of records) {
      const kind = r.inNetwork && r.status === "active" && (r.userId || r.email)
        ? "notified"
        : !r.inNetwork && r.status !== "paused" && r.email
        ? "invited"
        : null;
      if (kind) wanted.push({ surveyorId: r.id, kind, distanceMiles: distance.get(r.id)! });
    }

    let lead = await getLeadForSurvey(tx, { surveyId: survey.id });
    if (!lead) {
      // A lead nobody is offered would only start its expiry clock for nothing.
      if (wanted.length === 0) throw new DispatchConflictError("nobody");
      const { version, config } = await getActivePricingConfig(tx);
      const price = priceLead(config.lead, survey);
      lead = await insertLead(tx, {
        surveyId: survey.id,
        priceCents: price.priceCents,
        pricing: { ...price.inputs, configVersion: version },
        maxBuyers: config.lead.maxBuyers,
        expiryDays: config.lead.expiryDays,
      });
    }
    if (lead.status !== "open" || lead.expiresAt.getTime() <= Date.now()) {
      throw new DispatchConflictError("leadClosed");
    }
    const added = new Set(await insertLeadRecipients(tx, { leadId: lead.id, recipients: wanted }));
    const kindOf = new Map(wanted.map((w) => [w.surveyorId, w.kind]));
    const notified = records.filter((r) => added.has(r.id) && kindOf.get(r.id) === "notified");
    const invited = records.filter((r) => added.has(r.id) && kindOf.get(r.id) === "invited");

    const summary = leadSummary(survey, lead, deps.config.PUBLIC_URL);
    await insertNotifications(tx, {
      userIds: notified.flatMap((r) => r.userId ? [r.userId] : []),
      kind: "lead_offered",
      title: LEAD_OFFERED_TITLE,
      body: `${summary.surveyTypeName} in ${summary.location} · lead price ${summary.leadPrice}`,
      link: surveyorLeadPath(lead.id),
    });
    await queueLeadEmails(tx, {
      template: "new_survey_lead",
      to: notified.flatMap((r) => r.email ? [r.email] : []),
      ...summary,
    });
    await queueInvitations(tx, {
      invited,
      leadId: lead.id,
      summary,
      publicUrl: deps.config.PUBLIC_URL,
    });
    // An invited prospect is now 'invited' in the funnel (recorded with the email it was sent).
    await markProspectsInvited(tx, {
      ids: invited.filter((r) => r.email && r.status === "prospect").map((r) => r.id),
    });

    const recipients = await listLeadRecipients(tx, { leadId: lead.id });
    if (survey.status === "requested" && recipients.some((r) => r.kind === "notified")) {
      await markSurveyorsNotified(tx, survey, actorId);
    }
    return {
      notified: notified.length,
      totalSurveyors: recipients.length,
      leadPrice: leadPriceDollars(lead.priceCents),
      leadId: lead.id,
      invited: invited.length,
    };
  });
}

/** How long a "No surveyor covers …" notice stops a retried dispatch from repeating it. */
const UNMATCHED_NOTICE_HOURS = 24;

/** Tells every admin, once, that nobody in the network covers the survey. */
async function noticeUnmatched(sql: Sql, survey: DispatchSurvey): Promise<void> {
  const link = `/survey/${survey.id}`;
  const typeName = SURVEY_TYPE_INFO[survey.surveyType].name;
  const where = townFromAddress(survey.formattedAddress ?? survey.address, survey.state)
    ? surveyLocation(survey)
    : survey.formattedAddress ?? survey.address;
  const body = survey.lat === null
    ? `The ${typeName} request has no map location, so it could not be matched by distance.`
    : `Nobody in the network is active, licensed in ${survey.state} and offers ${typeName} within reach of this property. Add or activate a surveyor, then find surveyors again.`;
  await sql.begin(async (tx) => {
    // The survey row lock serialises two dispatches of the same survey.
    await getDispatchSurvey(tx, { id: survey.id, forUpdate: true });
    const kind = "dispatch_unmatched";
    if (await hasRecentAdminNotification(tx, { kind, link, withinHours: UNMATCHED_NOTICE_HOURS })) {
      return;
    }
    await notifyAdmins(tx, { kind, title: `No surveyor covers ${where}`, body, link });
  });
}

/**
 * Automatic dispatch of a new request: a fresh find, then notify. When no in-network active
 * record matches, none of the matches can be reached, or the request has no location, the
 * admins get a "No surveyor covers …"
 * notification instead (once a day at most per request) and the status stays. A survey that
 * is gone, closed or already taken is left alone. Safe to retry: nobody is notified twice.
 * Returns how many in-network records matched and how many were notified this time.
 */
export async function dispatchSurvey(
  deps: { sql: Sql; config: Pick<Config, "PUBLIC_URL">; places?: NearbyPlaces },
  { surveyId }: { surveyId: string },
): Promise<{ matched: number; notified: number }> {
  const none = { matched: 0, notified: 0 };
  const survey = await getDispatchSurvey(deps.sql, { id: surveyId });
  if (!survey || !NOTIFIABLE_STATUSES.includes(survey.status)) return none;
  if (survey.lat === null || survey.lng === null) {
    await noticeUnmatched(deps.sql, survey);
    return none;
  }
  try {
    const found = await findSurveyors(deps, { surveyId, refresh: true });
    if (!found) return none;
    const matched = found.surveyors.filter((s) =>
      s.surveyorId !== null && s.inNetwork && s.status === "active"
    ).length;
    if (matched === 0) {
      await noticeUnmatched(deps.sql, survey);
      return none;
    }
    const result = await notifySurveyors(deps, { surveyId, actorId: null });
    const after = await getDispatchSurvey(deps.sql, { id: surveyId });
    // Matched, but none of them could be reached (prospects may have been invited).
    if (after?.status === "requested") await noticeUnmatched(deps.sql, survey);
    return { matched, notified: result?.notified ?? 0 };
  } catch (err) {
    if (!(err instanceof DispatchConflictError)) throw err;
    // Matched, but none of them can be reached: the admins must step in all the same.
    if (err.reason === "nobody") await noticeUnmatched(deps.sql, survey);
    // Otherwise cancelled or taken meanwhile: nothing left to dispatch.
    return none;
  }
}

/** The survey's lead as the dispatch panel shows it. */
export interface DispatchLeadInfo {
  id: string;
  priceCents: number;
  status: "open" | "closed";
  maxBuyers: number;
  /** ISO timestamp. */
  expiresAt: string;
  /** The price's formula in plain words. */
  formula: string;
}

/** `GET /api/surveys/{id}/surveyors`. */
export interface SurveyDispatchState {
  surveyors: NearbySurveyorInfo[];
  lead: DispatchLeadInfo | null;
  /** ISO timestamp of the stored matches, or null when nobody searched yet. */
  foundAt: string | null;
}

/** What a request's page shows an admin in its dispatch card. */
export interface SurveyDispatchCard {
  /** As `getSurveyDispatch` returns it. */
  state: SurveyDispatchState;
  buyers: SurveyBuyer[];
  assignment: Assignment | undefined;
}

/**
 * The dispatch card's data from its reads (db/survey_dispatch.ts, read with the survey by
 * getSurveyPageData for admins): `getSurveyDispatch`'s state, the lead's buyers and the open
 * assignment. Only converted places (rare) take a query. The caller checks the viewer is an
 * admin.
 */
export async function surveyDispatchCard(
  deps: { sql: Sql },
  reads: SurveyDispatchReads,
): Promise<SurveyDispatchCard> {
  const { lead } = reads;
  return {
    state: {
      surveyors: markNotified(
        await withConvertedPlaces(deps.sql, reads.nearbySurveyors ?? []),
        reads.offered,
      ),
      lead: lead ? dispatchLead(lead) : null,
      foundAt: reads.nearbySurveyorsFoundAt?.toISOString() ?? null,
    },
    buyers: reads.buyers,
    assignment: reads.assignment,
  };
}

/** The lead as the dispatch panel shows it: its price, state, expiry and price formula. */
function dispatchLead(lead: DispatchLead): NonNullable<SurveyDispatchState["lead"]> {
  return {
    id: lead.id,
    priceCents: lead.priceCents,
    status: lead.status,
    maxBuyers: lead.maxBuyers,
    expiresAt: lead.expiresAt.toISOString(),
    formula: describeLeadPrice(lead.pricing),
  };
}

/**
 * The survey's stored matches (with who was offered the lead), its lead and when the matches
 * were found, without searching; undefined for an unknown survey. Works in any status.
 */
export async function getSurveyDispatch(
  deps: { sql: Sql },
  { surveyId }: { surveyId: string },
): Promise<SurveyDispatchState | undefined> {
  // The lead and its recipients need only the id: read with the survey, at once (postgres.js
  // pipelines them), not after it. Only converted places (rare) take a second round trip.
  const [survey, lead, offered] = await Promise.all([
    getDispatchSurvey(deps.sql, { id: surveyId }),
    getLeadForSurvey(deps.sql, { surveyId }),
    listSurveyRecipientIds(deps.sql, { surveyId }),
  ]);
  if (!survey) return undefined;
  const surveyors = markNotified(
    await withConvertedPlaces(deps.sql, survey.nearbySurveyors ?? []),
    offered,
  );
  return {
    surveyors,
    lead: lead ? dispatchLead(lead) : null,
    foundAt: survey.nearbySurveyorsFoundAt?.toISOString() ?? null,
  };
}
