/**
 * The client's instant quote behind a lead, as a surveyor may read it before buying: the
 * breakdown lines (the work and its adjustments: base price, acreage, structures, corners,
 * terrain, property type, rush…), the discount and the total. A quote holds no personal data
 * (no name, contact, street or notes), which is why it may be shown on /surveyor/leads/{id};
 * callers check first that the surveyor may see the lead (db/lead_market.ts
 * `getLeadForSurveyor`).
 */
import type { Db } from "./client.ts";
import { isUuid } from "./users.ts";
import type { Quote, QuoteLineItem } from "../lib/pricing.ts";

/** A lead's quote breakdown, without anything that names or reaches the client. */
export interface LeadQuote {
  lineItems: QuoteLineItem[];
  subtotalCents: number;
  /** The discount taken off the subtotal, in cents (positive), or null without one. */
  discountCents: number | null;
  /** Null when the survey type is quoted by hand. */
  totalCents: number | null;
  quoteRequired: boolean;
  turnaround: string;
}

/** The quote of the survey behind lead `leadId`, or undefined for an unknown lead. */
export async function getLeadQuote(
  db: Db,
  { leadId }: { leadId: string },
): Promise<LeadQuote | undefined> {
  if (!isUuid(leadId)) return undefined;
  const [row] = await db<{ quote: Quote }[]>`
    select s.quote from leads l join surveys s on s.id = l.survey_id where l.id = ${leadId}`;
  if (!row) return undefined;
  const q = row.quote;
  return {
    // Only the line fields, whatever else a stored line may carry.
    lineItems: (q.lineItems ?? []).map(({ key, label, detail, amountCents }) => ({
      key,
      label,
      detail,
      amountCents,
    })),
    subtotalCents: q.subtotalCents,
    discountCents: q.discount ? q.discount.amountCents : null,
    totalCents: q.totalCents,
    quoteRequired: q.quoteRequired,
    turnaround: q.turnaround,
  };
}
