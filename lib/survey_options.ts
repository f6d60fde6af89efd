/**
 * The survey request's option lists as plain data: property types, terrains, vegetation,
 * rush levels, states, ALTA Table A items, purposes and their labels. No zod here, so the
 * islands can import it; lib/survey_details.ts and lib/survey_schema.ts build their schemas
 * from these lists (and re-export them).
 */
import type { SurveyType } from "./survey_types.ts";

/** Kinds of property; residential is the price reference. */
export const PROPERTY_TYPES = ["residential", "commercial", "agricultural", "vacant"] as const;
/** A property type id. */
export type PropertyType = typeof PROPERTY_TYPES[number];

/** How the ground lies; flat is the price reference. */
export const TERRAINS = ["flat", "rolling", "hilly", "steep"] as const;
/** A terrain id. */
export type Terrain = typeof TERRAINS[number];

/** How much vegetation the crew must work through; clear is the price reference. */
export const VEGETATIONS = ["clear", "light", "moderate", "heavy"] as const;
/** A vegetation id ("heavy" means heavily wooded). */
export type Vegetation = typeof VEGETATIONS[number];

/** How soon the client needs the survey. */
export const RUSH_LEVELS = ["standard", "expedited", "rush"] as const;
/** A rush level id. */
export type RushLevel = typeof RUSH_LEVELS[number];

/** Labels for the select boxes and the quote breakdown. */
export const PROPERTY_TYPE_LABELS: Record<PropertyType, string> = {
  residential: "Residential",
  commercial: "Commercial",
  agricultural: "Agricultural",
  vacant: "Vacant land",
};

/** Labels for terrain choices. */
export const TERRAIN_LABELS: Record<Terrain, string> = {
  flat: "Flat",
  rolling: "Rolling",
  hilly: "Hilly",
  steep: "Steep",
};

/** Labels for vegetation choices. */
export const VEGETATION_LABELS: Record<Vegetation, string> = {
  clear: "Clear / open",
  light: "Light",
  moderate: "Moderate",
  heavy: "Heavy / wooded",
};

/** Labels for rush levels. */
export const RUSH_LABELS: Record<RushLevel, string> = {
  standard: "Standard",
  expedited: "Expedited",
  rush: "Rush",
};

/** The 50 states and DC, by USPS code. */
export const US_STATES = {
  AL: "Alabama",
  AK: "Alaska",
  AZ: "Arizona",
  AR: "Arkansas",
  CA: "California",
  CO: "Colorado",
  CT: "Connecticut",
  DE: "Delaware",
  DC: "District of Columbia",
  FL: "Florida",
  GA: "Georgia",
  HI: "Hawaii",
  ID: "Idaho",
  IL: "Illinois",
  IN: "Indiana",
  IA: "Iowa",
  KS: "Kansas",
  KY: "Kentucky",
  LA: "Louisiana",
  ME: "Maine",
  MD: "Maryland",
  MA: "Massachusetts",
  MI: "Michigan",
  MN: "Minnesota",
  MS: "Mississippi",
  MO: "Missouri",
  MT: "Montana",
  NE: "Nebraska",
  NV: "Nevada",
  NH: "New Hampshire",
  NJ: "New Jersey",
  NM: "New Mexico",
  NY: "New York",
  NC: "North Carolina",
  ND: "North Dakota",
  OH: "Ohio",
  OK: "Oklahoma",
  OR: "Oregon",
  PA: "Pennsylvania",
  RI: "Rhode Island",
  SC: "South Carolina",
  SD: "South Dakota",
  TN: "Tennessee",
  TX: "Texas",
  UT: "Utah",
  VT: "Vermont",
  VA: "Virginia",
  WA: "Washington",
  WV: "West Virginia",
  WI: "Wisconsin",
  WY: "Wyoming",
} as const;
/** A USPS state code (50 states and DC). */
export type StateCode = keyof typeof US_STATES;
/** Every state code, alphabetical by code. */
export const STATE_CODES = Object.keys(US_STATES).sort() as [StateCode, ...StateCode[]];

/**
 * Optional items of ALTA/NSPS Table A (2021 standards) a client may order with an ALTA
 * survey. Item 19 (professional liability insurance) is left out: it is not a survey task.
 */
export const ALTA_TABLE_A_ITEMS = {
  "1": "Monuments placed at all major corners",
  "2": "Address(es) of the property",
  "3": "Flood zone classification",
  "4": "Gross land area",
  "5": "Vertical relief (contours)",
  "6a": "Zoning classification from the insurer's report",
  "6b": "Zoning setbacks, height and floor-space restrictions shown",
  "7a": "Exterior dimensions of buildings at ground level",
  "7b1": "Square footage of building footprints",
  "7b2": "Other building areas as specified by the client",
  "7c": "Measured height of buildings",
  "8": "Substantial features observed (parking lots, billboards, etc.)",
  "9": "Parking spaces: striping and counts",
  "10": "Determination of party walls",
  "11a": "Utilities from plans and 811 markings",
  "11b": "Utilities from a private locate",
  "12": "Governmental agency survey requirements",
  "13": "Names of adjoining owners",
  "14": "Distance to the nearest intersecting street",
  "15": "Rectified orthophotography or other remote sensing",
  "16": "Evidence of recent earth moving or construction",
  "17": "Proposed changes in street right of way",
  "18": "Plottable offsite (appurtenant) easements",
} as const;
/** An ALTA Table A item id, e.g. "11b". */
export type AltaItemId = keyof typeof ALTA_TABLE_A_ITEMS;
/** Every Table A item id, in table order. */
export const ALTA_ITEM_IDS = Object.keys(ALTA_TABLE_A_ITEMS) as [AltaItemId, ...AltaItemId[]];

/** Largest parcel a quote is given for; bigger jobs are quoted by hand. */
export const MAX_ACREAGE = 10_000;

/** Why the client needs the survey. */
export const SURVEY_PURPOSES = [
  "selling",
  "buying",
  "fence",
  "building_permit",
  "flood_insurance",
  "lender_title",
  "subdividing",
  "construction",
  "other",
] as const;

/** A purpose id. */
export type SurveyPurpose = typeof SURVEY_PURPOSES[number];

/**
 * Label per purpose and the survey type that usually answers it ("Which survey do I need?").
 * `other` recommends nothing.
 */
export const PURPOSE_INFO: Record<SurveyPurpose, { label: string; recommended?: SurveyType }> = {
  selling: { label: "Selling the property", recommended: "boundary" },
  buying: { label: "Buying the property", recommended: "boundary" },
  fence: { label: "Building a fence", recommended: "boundary" },
  building_permit: { label: "Building permit", recommended: "topographic" },
  flood_insurance: { label: "Flood insurance", recommended: "elevation_certificate" },
  lender_title: { label: "Lender or title company", recommended: "alta" },
  subdividing: { label: "Subdividing land", recommended: "subdivision" },
  construction: { label: "Construction staking", recommended: "construction" },
  other: { label: "Something else" },
};

/**
 * Survey details that matter to some survey types and not to others. Property type, state
 * and rush matter to every type, so they are not listed.
 */
export const PRICE_FACTORS = [
  "acreage",
  "terrain",
  "vegetation",
  "structures",
  "cornersToSet",
  "cornersKnown",
  "altaItems",
] as const;
/** A detail that only some survey types use. */
export type PriceFactor = typeof PRICE_FACTORS[number];

/**
 * The one table of which details each survey type's price depends on (besides property type,
 * state and rush). The request flow asks exactly these, the API keeps only these (any other
 * is ignored), and the pricing engine reads only these, so the form and the price cannot
 * drift apart. Subdivision has no instant price: its list is what the surveyor needs to quote
 * it. docs/pricing.md explains each choice.
 */
export const SURVEY_TYPE_FACTORS: Record<SurveyType, readonly PriceFactor[]> = {
  boundary: ["acreage", "terrain", "vegetation", "cornersToSet", "cornersKnown"],
  // The certificate measures the building: the land's size and cover do not change the work.
  elevation_certificate: ["structures"],
  topographic: ["acreage", "terrain", "vegetation", "structures"],
  alta: [
    "acreage",
    "terrain",
    "vegetation",
    "structures",
    "cornersToSet",
    "cornersKnown",
    "altaItems",
  ],
  construction: ["acreage", "terrain", "vegetation", "structures"],
  subdivision: ["acreage", "terrain", "vegetation"],
};

/** Whether a `type` survey's price (or, for subdivision, its quote) depends on `factor`. */
export function usesFactor(type: SurveyType, factor: PriceFactor): boolean {
  return SURVEY_TYPE_FACTORS[type].includes(factor);
}
