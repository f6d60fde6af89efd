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

/**
 * The most recent completed surveys of `state` within RECENT_SURVEY_MILES of `near`, newest
 * first, at most RECENT_SURVEYS: type, ZIP, lot size, price, days from request to delivery.
 * The address is read only to take its ZIP and never leaves this function.
 */
export async function listRecentSurveysNear(
  db: Db,
  { state, near }: { state: string; near: { lat: number; lng: number } },
): Promise<RecentSurvey[]> {
  const rows = await db<SurveyRow[]>`
    select survey_type, address, formatted_address, lat, lng, acreage, quoted_price_cents,
      created_at, completed_date::text as completed_date
    from surveys
    where status = 'completed' and state = ${state} and completed_date is not null
      and lat is not null
    order by completed_date desc, id
    limit ${RECENT_SCAN}`;
  const found: RecentSurvey[] = [];
  for (const r of rows) {
    const miles = milesBetween({ lat: r.lat!, lng: r.lng! }, near);
    if (miles > RECENT_SURVEY_MILES) continue;
    const requested = Date.UTC(
      r.createdAt.getUTCFullYear(),
      r.createdAt.getUTCMonth(),
      r.createdAt.getUTCDate(),
    );
    const delivered = Date.parse(`${r.completedDate}T00:00:00Z`);
    found.push({
      surveyType: r.surveyType,
      zip: zipFromAddress(r.formattedAddress ?? r.address, state) ??
        zipFromAddress(r.address, state),
      acreage: r.acreage,
      priceCents: r.quotedPriceCents,
      daysToDelivery: Math.max(0, Math.round((delivered - requested) / 86_400_000)),
      miles,
      completedDate: r.completedDate,
    });
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
