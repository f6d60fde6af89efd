/**
 * What the local pages (issue 24) read: the public firms, a state's recent completed surveys
 * (type, ZIP, lot size, price, days to delivery — never who, or the street), and the change
 * counters of 0045_local_pages.sql that key their cache.
 */
import type { Db } from "./client.ts";
import { firmSlug } from "../lib/firm_slug.ts";
import { zipFromAddress } from "../lib/address_parts.ts";
import type { LocalFirm, RecentSurvey } from "../lib/local_pages.ts";
import { milesBetween, RECENT_SURVEY_MILES, RECENT_SURVEYS } from "../lib/local_pages.ts";

/** Completed surveys of a state read to find the nearest recent ones to a town. */
const RECENT_SCAN = 300;

/** Every active, verified firm with an office location, by id; `state` narrows to licensees. */
export async function listLocalFirms(db: Db, { state }: { state?: string } = {}): Promise<
  LocalFirm[]
> {
  const rows = await db<Omit<LocalFirm, "slug">[]>`
    select id, company_name, city, state, lat, lng, service_radius_miles, license_states,
      survey_types
    from surveyors
    where status = 'active' and verified_at is not null and lat is not null and lng is not null
      and (${state ?? null}::text is null or ${state ?? null}::text = any(license_states))
    order by id`;
  return rows.map((r) => ({ ...r, slug: firmSlug(r.companyName, r.id) }));
}

interface SurveyRow {
  surveyType: string;
  address: string;
  formattedAddress: string | null;
  lat: number | null;
  lng: number | null;
  acreage: number;
  quotedPriceCents: number | null;
  createdAt: Date;
  completedDate: string;
}

/** A completed survey of a state with where it was (to find those near a town; never shown). */
export interface LocatedSurvey extends Omit<RecentSurvey, "miles"> {
  lat: number;
  lng: number;
}

/**
 * The RECENT_SCAN most recent completed surveys of `state`, newest first: type, ZIP, lot size,
 * price, days from request to delivery, and the point (to measure distances; pages never show
 * it). The address is read only to take its ZIP and never leaves this function.
 */
export async function listRecentCompletedSurveys(
  db: Db,
  { state }: { state: string },
): Promise<LocatedSurvey[]> {
  const rows = await db<SurveyRow[]>`
    select survey_type, address, formatted_address, lat, lng, acreage, quoted_price_cents,
      created_at, completed_date::text as completed_date
    from surveys
    where status = 'completed' and state = ${state} and completed_date is not null
      and lat is not null
    order by completed_date desc, id
    limit ${RECENT_SCAN}`;
  return rows.map((r) => {
    const requested = Date.UTC(
      r.createdAt.getUTCFullYear(),
      r.createdAt.getUTCMonth(),
      r.createdAt.getUTCDate(),
    );
    const delivered = Date.parse(`${r.completedDate}T00:00:00Z`);
    return {
      surveyType: r.surveyType,
      zip: zipFromAddress(r.formattedAddress ?? r.address, state) ??
        zipFromAddress(r.address, state),
      acreage: r.acreage,
      priceCents: r.quotedPriceCents,
      daysToDelivery: Math.max(0, Math.round((delivered - requested) / 86_400_000)),
      completedDate: r.completedDate,
      lat: r.lat!,
      lng: r.lng!,
    };
  });
}

/** Of `surveys` (newest first), the RECENT_SURVEYS within RECENT_SURVEY_MILES of `near`. */
export function recentSurveysNear(
  surveys: readonly LocatedSurvey[],
  near: { lat: number; lng: number },
): RecentSurvey[] {
  const found: RecentSurvey[] = [];
  for (const { lat, lng, ...survey } of surveys) {
    const miles = milesBetween({ lat, lng }, near);
    if (miles > RECENT_SURVEY_MILES) continue;
    found.push({ ...survey, miles });
    if (found.length >= RECENT_SURVEYS) break;
  }
  return found;
}

/** One change counter of the local pages: a state's, or '*' (pricing). */
export interface LocalPageVersion {
  scope: string;
  version: number;
  changedAt: Date;
}

/** Every change counter (at most one per state, plus '*'). */
export async function listLocalPageVersions(db: Db): Promise<LocalPageVersion[]> {
  return await db<LocalPageVersion[]>`
    select scope, version::float8 as version, changed_at from local_page_versions`;
}
