/**
 * Public firm profiles (issue 22): what `/firms/{slug}` shows of an active, verified firm, and
 * the firm's one reply to a review. Nothing here returns a client's surname, email, phone or
 * street: a review names its client by first name and the town of the surveyed property.
 */
import type { Db } from "./client.ts";
import { isUuid } from "./users.ts";
import { firmSlug } from "../lib/firm_slug.ts";
import { townFromAddress } from "../lib/address_parts.ts";

/** Reviews the profile shows per page, newest first. */
export const FIRM_REVIEWS_PAGE_SIZE = 10;

/** The firm as its public page shows it. */
export interface PublicFirm {
  id: string;
  slug: string;
  companyName: string;
  principalName: string | null;
  /** Verified licence states (the firm is verified, so license_states are the verified ones). */
  licenseStates: string[];
  surveyTypes: string[];
  city: string | null;
  state: string | null;
  lat: number | null;
  lng: number | null;
  serviceRadiusMiles: number;
  /** The account that speaks for the firm (answers reviews), or null. */
  userId: string | null;
  /** When Meridian verified the firm's licence (ISO): "member since". */
  memberSince: string;
  /** Average of the Meridian reviews, null without any. */
  rating: number | null;
  reviewCount: number;
  jobsCompleted: number;
  /** Median seconds from a lead's offer to this firm's proposal or claim; null without any. */
  medianResponseSeconds: number | null;
  /** How many offers the median is taken over. */
  responseCount: number;
}

/** A review as the public page shows it. */
export interface PublicReview {
  id: string;
  rating: number;
  /** The client's public text, or null (a rating alone). */
  text: string | null;
  /** The client's first name only. */
  firstName: string;
  /** The town of the surveyed property, or null when the address gives none. */
  town: string | null;
  state: string;
  surveyType: string;
  /** ISO time. */
  createdAt: string;
  reply: string | null;
  /** ISO time, or null. */
  repliedAt: string | null;
}

interface FirmRow {
  id: string;
  companyName: string;
  principalName: string | null;
  licenseStates: string[];
  surveyTypes: string[];
  city: string | null;
  state: string | null;
  lat: number | null;
  lng: number | null;
  serviceRadiusMiles: number;
  userId: string | null;
  verifiedAt: Date;
  ratingSum: number;
  reviewCount: number;
}

/**
 * The active, verified firm whose id starts with the slug's 8-hex `idPrefix` (several only
 * when two ids share the prefix: the one whose slug is `slug` wins, else the oldest), or
 * undefined. Prospects, invited, pending and paused firms are never returned.
 */
export async function getPublicFirm(
  db: Db,
  { idPrefix, slug }: { idPrefix: string; slug: string },
): Promise<PublicFirm | undefined> {
  if (!/^[0-9a-f]{8}$/.test(idPrefix)) return undefined;
  // A range on the primary key: the prefix is the uuid's first eight hex digits.
  const low = `${idPrefix}-0000-0000-0000-000000000000`;
  const high = `${idPrefix}-ffff-ffff-ffff-ffffffffffff`;
  const rows = await db<FirmRow[]>`
    select id, company_name, principal_name, license_states, survey_types, city, state, lat, lng,
      service_radius_miles, user_id, verified_at, meridian_rating_sum as rating_sum,
      meridian_review_count as review_count
    from surveyors
    where id between ${low}::uuid and ${high}::uuid
      and status = 'active' and verified_at is not null
    order by created_at, id`;
  const row = rows.find((r) => firmSlug(r.companyName, r.id) === slug) ?? rows[0];
  if (!row) return undefined;
  const [[jobs], [response]] = await Promise.all([
    db<{ n: number }[]>`
      select count(*)::int as n from survey_assignments
      where surveyor_id = ${row.id} and status = 'completed'`,
    db<{ median: number | null; n: number }[]>`
      select percentile_cont(0.5) within group (order by seconds) as median, count(*)::int as n
      from (
        select extract(epoch from (f.first_at - r.notified_at))::float8 as seconds
        from lead_recipients r
        join leads l on l.id = r.lead_id
        cross join lateral (select least(
          (select min(p.created_at) from survey_proposals p
            where p.survey_id = l.survey_id and p.surveyor_id = r.surveyor_id),
          (select min(lp.created_at) from lead_purchases lp
            where lp.lead_id = r.lead_id and lp.surveyor_id = r.surveyor_id
              and lp.kind = 'claim')
        ) as first_at) f
        where r.surveyor_id = ${row.id} and f.first_at >= r.notified_at
      ) responses`,
  ]);
  return {
    id: row.id,
    slug: firmSlug(row.companyName, row.id),
    companyName: row.companyName,
    principalName: row.principalName,
    licenseStates: [...row.licenseStates].sort(),
    surveyTypes: row.surveyTypes,
    city: row.city,
    state: row.state,
    lat: row.lat,
    lng: row.lng,
    serviceRadiusMiles: row.serviceRadiusMiles,
    userId: row.userId,
    memberSince: row.verifiedAt.toISOString(),
    rating: row.reviewCount > 0 ? Math.round((row.ratingSum / row.reviewCount) * 10) / 10 : null,
    reviewCount: row.reviewCount,
    jobsCompleted: jobs?.n ?? 0,
    medianResponseSeconds: response?.median ?? null,
    responseCount: response?.n ?? 0,
  };
}

interface ReviewRow {
  id: string;
  rating: number;
  text: string | null;
  fullName: string;
  address: string;
  formattedAddress: string | null;
  state: string;
  surveyType: string;
  createdAt: Date;
  reply: string | null;
  repliedAt: Date | null;
}

/** The first word of a full name ("Dana" for "Dana Q. Client"); "A client" when empty. */
export function firstNameOf(fullName: string): string {
  return fullName.trim().split(/\s+/)[0] || "A client";
}

/** One page of `surveyorId`'s reviews, newest first, as the public page shows them. */
export async function listPublicReviews(
  db: Db,
  { surveyorId, page = 1, pageSize = FIRM_REVIEWS_PAGE_SIZE }: {
    surveyorId: string;
    page?: number;
    pageSize?: number;
  },
): Promise<PublicReview[]> {
  if (!isUuid(surveyorId)) return [];
  const rows = await db<ReviewRow[]>`
    select r.id, r.rating, r.public_text as text, u.full_name, s.address, s.formatted_address,
      s.state, s.survey_type, r.created_at, r.reply, r.replied_at
    from surveyor_reviews r
    join users u on u.id = r.client_id
    join surveys s on s.id = r.survey_id
    where r.surveyor_id = ${surveyorId}
    order by r.created_at desc, r.id desc
    limit ${pageSize} offset ${(page - 1) * pageSize}`;
  return rows.map((r) => ({
    id: r.id,
    rating: r.rating,
    text: r.text,
    firstName: firstNameOf(r.fullName),
    town: townFromAddress(r.formattedAddress ?? r.address, r.state),
    state: r.state,
    surveyType: r.surveyType,
    createdAt: r.createdAt.toISOString(),
    reply: r.reply,
    repliedAt: r.repliedAt?.toISOString() ?? null,
  }));
}

/** Every active, verified firm's public path and last change, for the sitemap (A to Z). */
export async function listPublicFirmPaths(
  db: Db,
  { limit = 45_000 }: { limit?: number } = {},
): Promise<{ path: string; updatedAt: string }[]> {
  const rows = await db<{ id: string; companyName: string; updatedAt: Date }[]>`
    select id, company_name, updated_at from surveyors
    where status = 'active' and verified_at is not null
    order by lower(company_name), id
    limit ${limit}`;
  return rows.map((r) => ({
    path: `/firms/${firmSlug(r.companyName, r.id)}`,
    updatedAt: r.updatedAt.toISOString(),
  }));
}

/** Outcome of `replyToReview`. */
export type ReplyOutcome =
  | {
    kind: "replied";
    reply: string;
    repliedAt: string;
    /** Who wrote the review and about what: the client is told of the reply. */
    clientId: string;
    surveyType: string;
    firmId: string;
    companyName: string;
  }
  | { kind: "not_found" }
  | { kind: "already_replied" };

/**
 * Stores the firm's one reply to review `reviewId`, when the review is of the firm whose
 * account is `userId`: "not_found" for anyone else's review (or none), "already_replied" when
 * it has a reply (one statement decides, so two replies at once store one).
 */
export async function replyToReview(
  db: Db,
  { reviewId, userId, body }: { reviewId: string; userId: string; body: string },
): Promise<ReplyOutcome> {
  if (!isUuid(reviewId)) return { kind: "not_found" };
  const [row] = await db<
    {
      reply: string;
      repliedAt: Date;
      clientId: string;
      surveyType: string;
      firmId: string;
      companyName: string;
    }[]
  >`
    update surveyor_reviews r set reply = ${body}, replied_at = now(), replied_by = ${userId}
    from surveyors v, surveys s
    where r.id = ${reviewId} and v.id = r.surveyor_id and v.user_id = ${userId}
      and s.id = r.survey_id and r.reply is null
    returning r.reply, r.replied_at, r.client_id, s.survey_type, v.id as firm_id,
      v.company_name`;
  if (row) {
    return { kind: "replied", ...row, repliedAt: row.repliedAt.toISOString() };
  }
  const [mine] = await db`
    select 1 from surveyor_reviews r join surveyors v on v.id = r.surveyor_id
    where r.id = ${reviewId} and v.user_id = ${userId}`;
  return mine ? { kind: "already_replied" } : { kind: "not_found" };
}
