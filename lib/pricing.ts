/**
 * The pricing engine: pure functions from a pricing configuration and survey details to an
 * itemised quote. No I/O; the active configuration comes from db/pricing.ts.
 *
 * The formula (docs/pricing.md explains it with examples):
 *
 *   work      = base + acreage + structures + corners set + corner research + ALTA items
 *   adjusted  = work + work × (property − 1) + work × (terrain − 1) + work × (vegetation − 1)
 *   regional  = adjusted × (state index − 1)
 *   standard  = max(adjusted + regional, starting price of the type)
 *   subtotal  = standard + standard × (rush − 1)
 *   total     = max(0, subtotal − discount)
 *
 * A type reads only the factors SURVEY_TYPE_FACTORS lists for it (lib/survey_options.ts),
 * the same table the request form asks from; the others count as absent.
 *
 * Every line is rounded to whole dollars once, and each later line is computed from the
 * rounded lines before it, so the lines always add up to the subtotal and every amount is
 * whole dollars. When the floor applies, the breakdown is just the starting price (plus
 * rush): the lines that came to less do not change what the client pays. The floor applies
 * before rush and before the discount: a discount may take the total below the starting price
 * (the business chose to give it), never below zero.
 */
import { z } from "zod";
import { SURVEY_TYPE_INFO, type SurveyType } from "./survey_types.ts";
import { formatCents, QUOTED_TURNAROUND, STARTING_PRICE_NOTE } from "./quote_text.ts";
import { type PriceFactor, usesFactor } from "./survey_options.ts";
import {
  ALTA_ITEM_IDS,
  ALTA_TABLE_A_ITEMS,
  PROPERTY_TYPE_LABELS,
  PROPERTY_TYPES,
  type RushLevel,
  STATE_CODES,
  type SurveyDetails,
  TERRAIN_LABELS,
  TERRAINS,
  US_STATES,
  VEGETATION_LABELS,
  VEGETATIONS,
} from "./survey_details.ts";
import { formatDecimal } from "./numbers.ts";

/** Survey types the engine prices (subdivision is always quoted by hand). */
export const PRICED_SURVEY_TYPES = [
  "boundary",
  "elevation_certificate",
  "topographic",
  "alta",
  "construction",
] as const satisfies readonly SurveyType[];
/** A survey type with an instant price. */
export type PricedSurveyType = typeof PRICED_SURVEY_TYPES[number];

/** Starting price per type in cents (spec section 1): no quote goes below it before discount. */
export const FLOOR_CENTS: Record<PricedSurveyType, number> = {
  boundary: 38_500,
  elevation_certificate: 28_500,
  topographic: 48_500,
  alta: 128_500,
  construction: 68_500,
};

/** Turnaround shown on a quote, by type and rush level. */
export const TURNAROUND: Record<SurveyType, Record<RushLevel, string>> = {
  boundary: {
    standard: "5-10 business days",
    expedited: "3-5 business days",
    rush: "2-3 business days",
  },
  elevation_certificate: {
    standard: "3-5 business days",
    expedited: "2-3 business days",
    rush: "1-2 business days",
  },
  topographic: {
    standard: "5-10 business days",
    expedited: "3-5 business days",
    rush: "2-3 business days",
  },
  alta: {
    standard: "7-14 business days",
    expedited: "5-7 business days",
    rush: "3-5 business days",
  },
  construction: {
    standard: "5-10 business days",
    expedited: "3-5 business days",
    rush: "2-3 business days",
  },
  subdivision: {
    standard: QUOTED_TURNAROUND,
    expedited: QUOTED_TURNAROUND,
    rush: QUOTED_TURNAROUND,
  },
};

const MAX_CENTS = 10_000_000; // $100,000: no single factor is ever worth more

const cents = (label: string) =>
  z.number({ error: `${label} must be a number` })
    .int({ error: `${label} must be whole cents` })
    .min(0, { error: `${label} cannot be negative` })
    .max(MAX_CENTS, { error: `${label} must be $100,000 or less` });

const multiplier = (label: string, min: number, max: number) =>
  z.number({ error: `${label} must be a number` })
    .min(min, { error: `${label} must be at least ${min}` })
    .max(max, { error: `${label} must be at most ${max}` });

function record<K extends string, S extends z.ZodType>(keys: readonly K[], value: (key: K) => S) {
  const shape = Object.fromEntries(keys.map((k) => [k, value(k)])) as Record<K, S>;
  return z.object(shape).strict();
}

const StructuresSchema = (type: PricedSurveyType) =>
  z.object({
    included: z.number({ error: `Included structures (${type}) must be a number` })
      .int({ error: `Included structures (${type}) must be a whole number` })
      .min(0, { error: `Included structures (${type}) cannot be negative` })
      .max(50, { error: `Included structures (${type}) must be 50 or fewer` }),
    centsEach: cents(`Price per structure (${type})`),
  }).strict();

const AcreageTierSchema = z.object({
  upToAcres: z.number({ error: "Tier limit must be a number" })
    .positive({ error: "Tier limit must be greater than 0" })
    .max(1_000_000, { error: "Tier limit is too large" })
    .nullable(),
  centsPerAcre: cents("Price per acre"),
}).strict();

const percent = (label: string) =>
  z.number({ error: `${label} must be a number` })
    .min(0, { error: `${label} cannot be negative` })
    .max(50, { error: `${label} must be 50% or less` });

/**
 * The lead price section (lib/lead_pricing.ts): what a surveyor pays to buy a survey lead.
 *
 * - `sharePercent`: per priced type, the percentage of the client's quote (0–50, decimals
 *   allowed: 7.5 = 7.5%).
 * - `floorCents` / `capCents`: the share is raised to at least the floor and cut to at most
 *   the cap (floor ≤ cap).
 * - `subdivisionFlatCents`: the flat price of a lead with no quote to take a share of
 *   (subdivision, which is quoted by hand).
 * - `maxBuyers`: how many surveyors may buy one lead (1–10, default 3).
 * - `expiryDays`: days a lead stays open after it is created (1–90).
 * - `claimFeeMultiple`: what claiming a lead exclusively costs, as a multiple of its price
 *   (issue 11; 1–10, default 1.5).
 */
export const LeadPricingConfigSchema = z.object({
  sharePercent: record(PRICED_SURVEY_TYPES, (t) => percent(`Lead share (${t})`)),
  floorCents: cents("Lowest lead price"),
  capCents: cents("Highest lead price"),
  subdivisionFlatCents: cents("Subdivision lead price"),
  maxBuyers: z.number({ error: "Buyers per lead must be a number" })
    .int({ error: "Buyers per lead must be a whole number" })
    .min(1, { error: "Buyers per lead must be at least 1" })
    .max(10, { error: "Buyers per lead must be 10 or fewer" }),
  expiryDays: z.number({ error: "Lead expiry must be a number" })
    .int({ error: "Lead expiry must be a whole number of days" })
    .min(1, { error: "Lead expiry must be at least 1 day" })
    .max(90, { error: "Lead expiry must be 90 days or fewer" }),
  claimFeeMultiple: multiplier("Claim fee multiple", 1, 10),
}).strict().refine((lead) => lead.floorCents <= lead.capCents, {
  error: "The lowest lead price must not be above the highest",
  path: ["floorCents"],
});

/** A validated lead price section. */
export type LeadPricingConfig = z.infer<typeof LeadPricingConfigSchema>;

/**
 * Default lead prices: 10% of a boundary quote ($385 → $38.50), 6% of an ALTA quote
 * ($1,285 → $77.10), never under $15 or over $150; $75 for a subdivision.
 */
export const DEFAULT_LEAD_PRICING: LeadPricingConfig = {
  sharePercent: {
    boundary: 10,
    elevation_certificate: 10,
    topographic: 8,
    alta: 6,
    construction: 8,
  },
  floorCents: 1_500,
  capCents: 15_000,
  subdivisionFlatCents: 7_500,
  maxBuyers: 3,
  expiryDays: 7,
  claimFeeMultiple: 1.5,
};

/**
 * A pricing configuration as admins edit it and Postgres stores it (pricing_configs.config).
 * Multipliers are relative to 1 (1.15 = +15%); money is integer cents. Strict: unknown keys
 * are refused so a typo cannot silently do nothing.
 */
export const PricingConfigSchema = z.object({
  schemaVersion: z.literal(1, { error: "Unsupported pricing configuration format" }),
  basePriceCents: record(PRICED_SURVEY_TYPES, (t) => cents(`Base price (${t})`)),
  includedAcres: z.number({ error: "Included acres must be a number" })
    .min(0, { error: "Included acres cannot be negative" })
    .max(100, { error: "Included acres must be 100 or less" }),
  acreageTiers: z.array(AcreageTierSchema, { error: "Acreage tiers must be a list" })
    .min(1, { error: "Add at least one acreage tier" })
    .max(12, { error: "Use at most 12 acreage tiers" }),
  acreageWeight: record(PRICED_SURVEY_TYPES, (t) => multiplier(`Acreage weight (${t})`, 0, 5)),
  propertyType: record(PROPERTY_TYPES, (p) => multiplier(`Property type factor (${p})`, 0.5, 3)),
  terrain: record(TERRAINS, (p) => multiplier(`Terrain factor (${p})`, 0.5, 3)),
  vegetation: record(VEGETATIONS, (p) => multiplier(`Vegetation factor (${p})`, 0.5, 3)),
  structures: record(PRICED_SURVEY_TYPES, StructuresSchema),
  cornerSetCents: cents("Price per corner set"),
  cornerSearchCents: record(PRICED_SURVEY_TYPES, (t) => cents(`Corner research (${t})`)),
  rush: z.object({
    expedited: multiplier("Expedited factor", 1, 3),
    rush: multiplier("Rush factor", 1, 3),
  }).strict(),
  stateIndex: record(STATE_CODES, (s) => multiplier(`Cost index (${s})`, 0.5, 2)),
  altaItemCents: record(ALTA_ITEM_IDS, (id) => cents(`ALTA item ${id}`)),
  // Versions saved before leads existed have no lead section; they read as the defaults.
  lead: LeadPricingConfigSchema.default(() => structuredClone(DEFAULT_LEAD_PRICING)),
}).strict().superRefine((config, ctx) => {
  const tiers = config.acreageTiers;
  tiers.forEach((tier, i) => {
    const isLast = i === tiers.length - 1;
    if (isLast && tier.upToAcres !== null) {
      ctx.addIssue({
        code: "custom",
        path: ["acreageTiers", i, "upToAcres"],
        message: "The last acreage tier must have no upper limit",
      });
    }
    if (!isLast && tier.upToAcres === null) {
      ctx.addIssue({
        code: "custom",
        path: ["acreageTiers", i, "upToAcres"],
        message: "Only the last acreage tier may have no upper limit",
      });
    }
    const prev = tiers[i - 1];
    if (!prev) {
      if (tier.upToAcres !== null && tier.upToAcres <= config.includedAcres) {
        ctx.addIssue({
          code: "custom",
          path: ["acreageTiers", i, "upToAcres"],
          message: "The first tier must end above the included acres",
        });
      }
      return;
    }
    if (prev.upToAcres !== null && tier.upToAcres !== null && tier.upToAcres <= prev.upToAcres) {
      ctx.addIssue({
        code: "custom",
        path: ["acreageTiers", i, "upToAcres"],
        message: "Acreage tier limits must increase",
      });
    }
    if (tier.centsPerAcre > prev.centsPerAcre) {
      ctx.addIssue({
        code: "custom",
        path: ["acreageTiers", i, "centsPerAcre"],
        message: "The price per acre must not rise with size",
      });
    }
  });
});

/** A validated pricing configuration. */
export type PricingConfig = z.infer<typeof PricingConfigSchema>;

/**
 * Defaults, calibrated so a ¼-acre flat residential boundary survey in an average-cost state
 * (index 1.00) is exactly the $385 starting price and 40 wooded, rolling acres come to several
 * thousand dollars. Field costs follow regional labour rates, hence the state index.
 */
export const DEFAULT_PRICING_CONFIG: PricingConfig = {
  schemaVersion: 1,
  basePriceCents: {
    boundary: 38_500,
    elevation_certificate: 28_500,
    topographic: 48_500,
    alta: 128_500,
    construction: 68_500,
  },
  includedAcres: 0.5,
  // Marginal rates, like tax brackets: each acre is charged at the rate of the tier it falls
  // in. Perimeter (walking and line-clearing) grows roughly with the square root of the area,
  // so every extra acre costs less than the one before.
  acreageTiers: [
    { upToAcres: 5, centsPerAcre: 12_000 },
    { upToAcres: 20, centsPerAcre: 7_500 },
    { upToAcres: 100, centsPerAcre: 4_500 },
    { upToAcres: 500, centsPerAcre: 2_000 },
    { upToAcres: null, centsPerAcre: 1_000 },
  ],
  acreageWeight: {
    boundary: 1,
    elevation_certificate: 0, // an elevation certificate measures the building, not the land
    topographic: 1.25,
    alta: 1.5,
    construction: 0.5,
  },
  propertyType: { residential: 1, commercial: 1.25, agricultural: 1, vacant: 0.95 },
  terrain: { flat: 1, rolling: 1.15, hilly: 1.3, steep: 1.5 },
  vegetation: { clear: 1, light: 1.05, moderate: 1.15, heavy: 1.35 },
  structures: {
    boundary: { included: 0, centsEach: 0 },
    elevation_certificate: { included: 1, centsEach: 17_500 },
    topographic: { included: 0, centsEach: 4_000 },
    alta: { included: 1, centsEach: 10_000 },
    construction: { included: 1, centsEach: 25_000 },
  },
  cornerSetCents: 7_500,
  cornerSearchCents: {
    boundary: 12_500,
    elevation_certificate: 0,
    topographic: 0,
    alta: 12_500,
    construction: 0,
  },
  rush: { expedited: 1.25, rush: 1.5 },
  stateIndex: {
    AK: 1.35,
    AL: 0.88,
    AR: 0.86,
    AZ: 0.98,
    CA: 1.3,
    CO: 1.1,
    CT: 1.18,
    DC: 1.3,
    DE: 1.05,
    FL: 1,
    GA: 0.95,
    HI: 1.35,
    IA: 0.92,
    ID: 0.95,
    IL: 1.05,
    IN: 0.9,
    KS: 0.9,
    KY: 0.88,
    LA: 0.92,
    MA: 1.25,
    MD: 1.12,
    ME: 1,
    MI: 0.96,
    MN: 1.02,
    MO: 0.9,
    MS: 0.85,
    MT: 0.98,
    NC: 0.95,
    ND: 0.95,
    NE: 0.92,
    NH: 1.08,
    NJ: 1.22,
    NM: 0.92,
    NV: 1.05,
    NY: 1.25,
    OH: 0.93,
    OK: 0.88,
    OR: 1.1,
    PA: 1,
    RI: 1.12,
    SC: 0.92,
    SD: 0.9,
    TN: 0.92,
    TX: 0.95,
    UT: 1,
    VA: 1.05,
    VT: 1.05,
    WA: 1.18,
    WI: 0.96,
    WV: 0.86,
    WY: 0.98,
  },
  altaItemCents: {
    "1": 15_000,
    "2": 2_500,
    "3": 5_000,
    "4": 2_500,
    "5": 45_000,
    "6a": 7_500,
    "6b": 15_000,
    "7a": 10_000,
    "7b1": 7_500,
    "7b2": 10_000,
    "7c": 15_000,
    "8": 10_000,
    "9": 10_000,
    "10": 20_000,
    "11a": 25_000,
    "11b": 60_000,
    "12": 15_000,
    "13": 5_000,
    "14": 5_000,
    "15": 40_000,
    "16": 5_000,
    "17": 7_500,
    "18": 10_000,
  },
  lead: DEFAULT_LEAD_PRICING,
};

/** A discount the quote applies: percent (1–100) or a fixed amount in cents. */
export interface Discount {
  code: string;
  kind: "percent" | "fixed";
  value: number;
}

/** One line of a quote's breakdown. */
export interface QuoteLineItem {
  /** Stable id: base, acreage, structures, corners_set, corner_search, alta_<id>,
   * property_type, terrain, vegetation, regional, starting_price, rush. Quotes stored before
   * whole-dollar rounding may also hold `minimum` (the floor's top-up). */
  key: string;
  label: string;
  detail: string;
  amountCents: number;
}

/** An itemised quote. Lines add up to `subtotalCents`; every amount is whole dollars (quotes
 * stored before that may hold cents); `totalCents` is null when a quote is required
 * (subdivision). */
export interface Quote {
  surveyType: SurveyType;
  quoteRequired: boolean;
  currency: "USD";
  baseCents: number;
  lineItems: QuoteLineItem[];
  subtotalCents: number;
  discount: (Discount & { amountCents: number }) | null;
  totalCents: number | null;
  /** Whether the starting-price floor raised the price (then the breakdown starts with a
   * `starting_price` line instead of the itemised work). */
  minimumApplied: boolean;
  turnaround: string;
  /** The pricing_configs version the quote came from, when priced from a stored one. */
  configVersion?: number;
}

export { formatCents };

/**
 * `cents` rounded to whole dollars (in cents), halves away from zero so a discount line and
 * a surcharge of the same size round alike; never −0.
 */
export function toWholeDollars(cents: number): number {
  // Factors such as 1.15 are not exact in binary (15% of $2,950 comes out as $442.4999…):
  // settle to a thousandth of a cent first, so a half dollar rounds as the breakdown reads.
  const settled = Math.round(Math.abs(cents) * 1000) / 1000;
  const rounded = Math.sign(cents) * Math.round(settled / 100) * 100;
  return rounded === 0 ? 0 : rounded;
}

function formatAcres(acres: number): string {
  return formatDecimal(acres);
}

function percentOf(factor: number): string {
  const pct = Math.round((factor - 1) * 1000) / 10;
  return `${pct >= 0 ? "+" : "−"}${Math.abs(pct)}%`;
}

/**
 * The acreage charge before the type's weight, in fractional cents: acres beyond
 * `includedAcres`, each charged at the rate of the tier it falls in. Also returns a
 * human-readable account of the tiers used.
 */
export function acreageCharge(
  config: Pick<PricingConfig, "includedAcres" | "acreageTiers">,
  acres: number,
): { cents: number; parts: string[] } {
  let from = config.includedAcres;
  let total = 0;
  const parts: string[] = [];
  for (const tier of config.acreageTiers) {
    if (acres <= from) break;
    const to = tier.upToAcres === null ? acres : Math.min(acres, tier.upToAcres);
    if (to > from) {
      total += (to - from) * tier.centsPerAcre;
      parts.push(`${formatAcres(to - from)} ac × ${formatCents(tier.centsPerAcre)}`);
    }
    if (tier.upToAcres !== null) from = Math.max(from, tier.upToAcres);
  }
  return { cents: total, parts };
}

function isPriced(type: SurveyType): type is PricedSurveyType {
  return (PRICED_SURVEY_TYPES as readonly string[]).includes(type);
}

/**
 * Prices `details` under `config`, applying `discount` when given (the caller has checked the
 * code is usable). Subdivision gives `quoteRequired: true` and `totalCents: null`. Reads only
 * the factors the survey type uses (SURVEY_TYPE_FACTORS); absent counts and flags count as
 * none. Assumes `config` passed PricingConfigSchema and `details` SurveyDetailsSchema.
 */
export function priceSurvey(
  config: PricingConfig,
  details: SurveyDetails,
  discount?: Discount | null,
): Quote {
  const type = details.surveyType;
  const turnaround = TURNAROUND[type][details.rush];
  if (!isPriced(type)) {
    return {
      surveyType: type,
      quoteRequired: true,
      currency: "USD",
      baseCents: 0,
      lineItems: [],
      subtotalCents: 0,
      discount: null,
      totalCents: null,
      minimumApplied: false,
      turnaround,
    };
  }
  const uses = (factor: PriceFactor) => usesFactor(type, factor);
  const info = SURVEY_TYPE_INFO[type];
  const items: QuoteLineItem[] = [];
  const add = (key: string, label: string, detail: string, amount: number) => {
    const amountCents = toWholeDollars(amount);
    if (amountCents !== 0 || key === "base") items.push({ key, label, detail, amountCents });
    return amountCents;
  };

  const weight = uses("acreage") ? config.acreageWeight[type] : 0;
  const baseCents = toWholeDollars(config.basePriceCents[type]);
  let work = add(
    "base",
    `${info.name} base price`,
    weight > 0
      ? `Includes up to ${formatAcres(config.includedAcres)} acres`
      : "Flat fee for the property",
    baseCents,
  );

  const acreage = details.acreage ?? 0;
  if (weight > 0 && acreage > config.includedAcres) {
    const { cents: acreCents, parts } = acreageCharge(config, acreage);
    const weighted = weight === 1 ? "" : ` (× ${weight} for this survey type)`;
    work += add(
      "acreage",
      "Acreage",
      `${formatAcres(acreage)} acres: ${parts.join(" + ")}${weighted}`,
      acreCents * weight,
    );
  }

  const structures = config.structures[type];
  const count = uses("structures") ? details.structures ?? 0 : 0;
  const extraStructures = Math.max(0, count - structures.included);
  if (extraStructures > 0 && structures.centsEach > 0) {
    work += add(
      "structures",
      "Structures",
      `${count} ${
        count === 1 ? "structure" : "structures"
      }, ${structures.included} included: ${extraStructures} × ${
        formatCents(structures.centsEach)
      }`,
      extraStructures * structures.centsEach,
    );
  }

  const cornersToSet = uses("cornersToSet") ? details.cornersToSet ?? 0 : 0;
  if (cornersToSet > 0) {
    work += add(
      "corners_set",
      "Corner monuments",
      `${cornersToSet} ${cornersToSet === 1 ? "corner" : "corners"} set × ${
        formatCents(config.cornerSetCents)
      }`,
      cornersToSet * config.cornerSetCents,
    );
  }

  if (uses("cornersKnown") && details.cornersKnown === false) {
    work += add(
      "corner_search",
      "Corner research",
      "Corners not known: records research and field search",
      config.cornerSearchCents[type],
    );
  }

  if (uses("altaItems")) {
    for (const id of details.altaItems ?? []) {
      work += add(
        `alta_${id}`,
        `ALTA Table A item ${id}`,
        ALTA_TABLE_A_ITEMS[id],
        config.altaItemCents[id],
      );
    }
  }

  // Property, terrain and vegetation each scale the work on their own (added, not
  // compounded), so each line reads as "its percentage of the work".
  let adjusted = work;
  const property = config.propertyType[details.propertyType];
  adjusted += add(
    "property_type",
    "Property type",
    `${PROPERTY_TYPE_LABELS[details.propertyType]} (${percentOf(property)})`,
    work * (property - 1),
  );
  if (uses("terrain") && details.terrain) {
    const terrain = config.terrain[details.terrain];
    adjusted += add(
      "terrain",
      "Terrain",
      `${TERRAIN_LABELS[details.terrain]} (${percentOf(terrain)})`,
      work * (terrain - 1),
    );
  }
  if (uses("vegetation") && details.vegetation) {
    const vegetation = config.vegetation[details.vegetation];
    adjusted += add(
      "vegetation",
      "Vegetation",
      `${VEGETATION_LABELS[details.vegetation]} (${percentOf(vegetation)})`,
      work * (vegetation - 1),
    );
  }

  const index = config.stateIndex[details.state];
  adjusted += add(
    "regional",
    "Regional cost",
    `${US_STATES[details.state]} cost index ${index.toFixed(2)} (${percentOf(index)})`,
    adjusted * (index - 1),
  );

  const floor = FLOOR_CENTS[type];
  const minimumApplied = adjusted < floor;
  if (minimumApplied) {
    // The itemised lines came to less than the client pays; listing them above a top-up line
    // ("Minimum price +$0.96") explains nothing, so the starting price is the breakdown.
    items.length = 0;
    adjusted = add(
      "starting_price",
      `${info.name} starting price`,
      STARTING_PRICE_NOTE,
      floor,
    );
  }

  let subtotal = adjusted;
  if (details.rush !== "standard") {
    const factor = config.rush[details.rush];
    subtotal += add(
      "rush",
      details.rush === "rush" ? "Rush turnaround" : "Expedited turnaround",
      `${turnaround} (${percentOf(factor)})`,
      adjusted * (factor - 1),
    );
  }

  let applied: Quote["discount"] = null;
  let total = subtotal;
  if (discount) {
    const raw = discount.kind === "percent"
      ? (subtotal * Math.min(100, Math.max(0, discount.value))) / 100
      : Math.max(0, discount.value);
    const amountCents = Math.min(toWholeDollars(raw), subtotal);
    applied = { code: discount.code, kind: discount.kind, value: discount.value, amountCents };
    total = subtotal - amountCents;
  }

  return {
    surveyType: type,
    quoteRequired: false,
    currency: "USD",
    baseCents,
    lineItems: items,
    subtotalCents: subtotal,
    discount: applied,
    totalCents: total,
    minimumApplied,
    turnaround,
  };
}

/** A named property the admin preview prices under the current and the edited config. */
export interface PricingSample {
  label: string;
  details: SurveyDetails;
}

/** The preview's default sample properties: one per priced type plus the calibration cases. */
export const PRICING_SAMPLES: PricingSample[] = [
  {
    label: "¼-acre suburban lot, boundary (PA)",
    details: {
      surveyType: "boundary",
      propertyType: "residential",
      acreage: 0.25,
      terrain: "flat",
      vegetation: "clear",
      cornersToSet: 0,
      rush: "standard",
      state: "PA",
    },
  },
  {
    label: "40 wooded, rolling acres, boundary (NC)",
    details: {
      surveyType: "boundary",
      propertyType: "vacant",
      acreage: 40,
      terrain: "rolling",
      vegetation: "heavy",
      cornersToSet: 4,
      cornersKnown: false,
      rush: "standard",
      state: "NC",
    },
  },
  {
    label: "Home in a flood zone, elevation certificate (FL)",
    details: {
      surveyType: "elevation_certificate",
      propertyType: "residential",
      structures: 1,
      rush: "standard",
      state: "FL",
    },
  },
  {
    label: "2-acre hillside build site, topographic (CO)",
    details: {
      surveyType: "topographic",
      propertyType: "residential",
      acreage: 2,
      terrain: "hilly",
      vegetation: "moderate",
      structures: 2,
      rush: "standard",
      state: "CO",
    },
  },
  {
    label: "5-acre retail site, ALTA with items 4, 8, 11a (TX)",
    details: {
      surveyType: "alta",
      propertyType: "commercial",
      acreage: 5,
      terrain: "flat",
      vegetation: "clear",
      structures: 2,
      cornersToSet: 0,
      rush: "expedited",
      state: "TX",
      altaItems: ["4", "8", "11a"],
    },
  },
  {
    label: "New house stake-out, construction (OH)",
    details: {
      surveyType: "construction",
      propertyType: "residential",
      acreage: 0.5,
      terrain: "flat",
      vegetation: "clear",
      structures: 1,
      rush: "rush",
      state: "OH",
    },
  },
];
