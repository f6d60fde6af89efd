/**
 * The lead price: what a surveyor pays to buy a survey lead. Pure: no I/O; the configuration
 * is the `lead` section of the versioned pricing configuration (lib/pricing.ts
 * LeadPricingConfigSchema, edited on /pricing-algorithm).
 *
 *   share  = quote × share% of the survey type, in cents, rounded to the nearest cent
 *            (halves up, after settling binary noise to a thousandth of a cent)
 *   price  = min(cap, max(floor, share))
 *
 * A survey with no quote to take a share of (subdivision, quoted by hand) costs the flat
 * `subdivisionFlatCents`. Every lead stores the inputs (`LeadPriceInputs`) with the
 * configuration version, and surveyors read the formula in plain words (`describeLeadPrice`):
 * "6% of the $1,285.00 quote, at least $15, at most $150 = $77.10".
 */
// Types only from pricing.ts (it holds zod schemas): islands import this module for the
// editor's preview and the dispatch toasts without pulling those in.
import type { LeadPricingConfig, PricedSurveyType } from "./pricing.ts";
import { SURVEY_TYPE_INFO, type SurveyType } from "./survey_types.ts";
import { formatCents } from "./quote_text.ts";
import { formatDecimal, formatTwoDecimals } from "./numbers.ts";

/** How a lead price came about: a share of the quote, clamped; or a flat price. */
export type LeadPriceInputs =
  | {
    method: "share";
    surveyType: PricedSurveyType;
    quoteCents: number;
    sharePercent: number;
    floorCents: number;
    capCents: number;
    /** The share before the floor and the cap, in whole cents. */
    shareCents: number;
    priceCents: number;
  }
  | {
    method: "flat";
    surveyType: SurveyType;
    /** quote_required: a type quoted by hand (subdivision); no_quote: no quote was stored. */
    reason: "quote_required" | "no_quote";
    flatCents: number;
    priceCents: number;
  };

/** A lead price in cents and the inputs it was computed from (JSON-serialisable). */
export interface LeadPrice {
  priceCents: number;
  inputs: LeadPriceInputs;
}

/** `quoteCents × percent / 100` in whole cents, halves up (binary noise settled first). */
function shareOf(quoteCents: number, percent: number): number {
  const exact = (quoteCents * percent) / 100;
  return Math.round(Math.round(exact * 1000) / 1000);
}

/**
 * The lead price of `survey` under `config` (the pricing configuration's `lead` section):
 * the type's share of the quote, at least the floor and at most the cap; the flat
 * subdivision price for a type quoted by hand or a survey without a quote.
 */
export function priceLead(
  config: LeadPricingConfig,
  survey: { surveyType: SurveyType; quotedPriceCents: number | null },
): LeadPrice {
  const { surveyType, quotedPriceCents } = survey;
  // A type is priced instantly exactly when the configuration has a share for it.
  const isPriced = Object.hasOwn(config.sharePercent, surveyType);
  if (!isPriced || quotedPriceCents === null) {
    const flatCents = config.subdivisionFlatCents;
    return {
      priceCents: flatCents,
      inputs: {
        method: "flat",
        surveyType,
        reason: isPriced ? "no_quote" : "quote_required",
        flatCents,
        priceCents: flatCents,
      },
    };
  }
  const sharePercent = config.sharePercent[surveyType as PricedSurveyType];
  const shareCents = shareOf(quotedPriceCents, sharePercent);
  const priceCents = Math.min(config.capCents, Math.max(config.floorCents, shareCents));
  return {
    priceCents,
    inputs: {
      method: "share",
      surveyType: surveyType as PricedSurveyType,
      quoteCents: quotedPriceCents,
      sharePercent,
      floorCents: config.floorCents,
      capCents: config.capCents,
      shareCents,
      priceCents,
    },
  };
}

/**
 * Cents as dollars with exactly two decimals: "$38.50", "$1,285.00" (lead prices, spec §9),
 * and balances below zero as "−$65.80" (a real minus sign, before the dollar sign).
 */
export function formatLeadPrice(cents: number): string {
  const rounded = Math.round(cents);
  const sign = rounded < 0 ? "\u2212" : "";
  return `${sign}$${formatTwoDecimals(Math.abs(rounded) / 100)}`;
}

/** Cents as the API's `leadPrice`: dollars as a number with at most two decimals (38.5). */
export function leadPriceDollars(cents: number): number {
  return Math.round(cents) / 100;
}

/**
 * The formula in plain words, for surveyors: "6% of the $1,285.00 quote, at least $15, at
 * most $150 = $77.10", or "Flat price for a Subdivision Survey lead (quoted by hand) = $75.00".
 */
export function describeLeadPrice(inputs: LeadPriceInputs): string {
  if (inputs.method === "flat") {
    const what = inputs.reason === "quote_required"
      ? `a ${SURVEY_TYPE_INFO[inputs.surveyType].name} lead (quoted by hand)`
      : "a lead without a quote";
    return `Flat price for ${what} = ${formatLeadPrice(inputs.priceCents)}`;
  }
  return `${formatDecimal(inputs.sharePercent)}% of the ${formatLeadPrice(inputs.quoteCents)} ` +
    `quote, at least ${formatCents(inputs.floorCents)}, at most ${formatCents(inputs.capCents)} = ${
      formatLeadPrice(inputs.priceCents)
    }`;
}
