/**
 * What /for-surveyors tells a surveyor about lead prices (issue 22), from the active pricing
 * configuration: its lead section, and an example lead priced by the same code as real ones
 * (lib/pricing.ts `priceSurvey` for the client's quote, lib/lead_pricing.ts `priceLead` for the
 * lead). Pure: the caller reads the configuration and passes the moment.
 */
import { type LeadPricingConfig, priceSurvey, type PricingConfig } from "./pricing.ts";
import { describeLeadPrice, priceLead } from "./lead_pricing.ts";
import type { LeadSummary } from "./lead_market_schema.ts";
import type { SurveyDetails } from "./survey_details.ts";

/** The page's figures: the lead prices and an example lead. */
export interface ForSurveyorsFacts {
  lead: LeadPricingConfig;
  example: LeadSummary;
  /** ISO moment the example's age and expiry are told from. */
  now: string;
}

/** The example request: a half-acre residential boundary survey near Austin. */
export const EXAMPLE_SURVEY: SurveyDetails = {
  surveyType: "boundary",
  propertyType: "residential",
  acreage: 0.5,
  terrain: "flat",
  vegetation: "light",
  cornersToSet: 0,
  rush: "standard",
  state: "TX",
} as SurveyDetails;

const HOUR = 3_600_000;

/** The page's figures under `config` at `now`. */
export function forSurveyorsFacts(config: PricingConfig, now: Date): ForSurveyorsFacts {
  const quote = priceSurvey(config, EXAMPLE_SURVEY);
  const lead = priceLead(config.lead, {
    surveyType: EXAMPLE_SURVEY.surveyType,
    quotedPriceCents: quote.totalCents,
  });
  const createdAt = new Date(now.getTime() - 2 * HOUR);
  const example: LeadSummary = {
    id: "example",
    surveyId: "example",
    surveyType: EXAMPLE_SURVEY.surveyType,
    city: "Round Rock",
    county: "Williamson",
    state: "TX",
    zip: "78664",
    distanceMiles: 12,
    approxLat: null,
    approxLng: null,
    acreage: EXAMPLE_SURVEY.acreage ?? null,
    propertyType: EXAMPLE_SURVEY.propertyType,
    neededBy: null,
    rush: EXAMPLE_SURVEY.rush,
    quotedPriceCents: quote.totalCents,
    priceCents: lead.priceCents,
    formula: describeLeadPrice(lead.inputs),
    pricing: lead.inputs,
    maxBuyers: config.lead.maxBuyers,
    buyersCount: 1,
    status: "open",
    createdAt: createdAt.toISOString(),
    expiresAt: new Date(createdAt.getTime() + config.lead.expiryDays * 24 * HOUR).toISOString(),
    canClaim: false,
    claimFeeCents: 0,
    viewer: { purchased: null, dismissed: false },
  };
  return { lead: config.lead, example, now: now.toISOString() };
}
