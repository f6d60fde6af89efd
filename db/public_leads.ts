/**
 * A lead as the public lead page (/lead/{id}, /leads/{id}) shows it to anyone with the link:
 * the job without any personal data. The client's name, phone, email, street address, parcel,
 * notes and access notes are never selected; the town and ZIP are cut out of the formatted
 * address here, so the address itself never leaves this module.
 */
import type { Db } from "./client.ts";
import { townAndZip } from "../lib/address_parts.ts";
import { isUuid } from "./users.ts";
import type { StoredLeadPricing } from "./leads.ts";
import type { SurveyType } from "../lib/survey_types.ts";
import type { StateCode } from "../lib/survey_options.ts";

/** The public summary of a lead. */
export interface PublicLead {
  id: string;
  surveyType: SurveyType;
  /** The town from the formatted address, or null when it cannot be told safely. */
  town: string | null;
  state: StateCode;
  zip: string | null;
  acreage: number;
  propertyType: string;
  /** YYYY-MM-DD or null. */
  neededBy: string | null;
  rush: string;
  /** The client's instant quote; null for a type quoted by hand. */
  quotedPriceCents: number | null;
  priceCents: number;
  pricing: StoredLeadPricing;
  maxBuyers: number;
  buyersCount: number;
  createdAt: Date;
  expiresAt: Date;
  /**
   * Still on offer: open, not expired, not sold out, and its request still waiting for a
   * surveyor (not cancelled, assigned or done).
   */
  isOpen: boolean;
}

/** The lead `id` as the public page shows it, or undefined (also for a malformed id). */
export async function getPublicLead(
  db: Db,
  { id }: { id: string },
): Promise<PublicLead | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db<(Omit<PublicLead, "town" | "zip"> & { formattedAddress: string })[]>`
    select l.id, s.survey_type, coalesce(s.formatted_address, s.address) as formatted_address,
      s.state, s.acreage, s.property_type, s.needed_by::text as needed_by, s.rush,
      s.quoted_price_cents, l.price_cents, l.pricing, l.max_buyers, l.buyers_count,
      l.created_at, l.expires_at,
      (l.status = 'open' and l.expires_at > now() and l.buyers_count < l.max_buyers
        and s.status in ('requested', 'surveyors_notified')) as is_open
    from leads l join surveys s on s.id = l.survey_id
    where l.id = ${id}`;
  if (!row) return undefined;
  const { formattedAddress, ...lead } = row;
  return { ...lead, ...townAndZip(formattedAddress, lead.state) };
}
