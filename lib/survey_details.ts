/**
 * What a quote needs to know about a survey request. Shared by /api/calculate-price and the
 * survey submission; the create-survey island checks the same rules by hand
 * (islands/_create_survey/validate.ts) so zod stays out of its bundle.
 */
import { z } from "zod";
import { SURVEY_TYPES, type SurveyType } from "./survey_types.ts";
import {
  ALTA_ITEM_IDS,
  MAX_ACREAGE,
  PRICE_FACTORS,
  type PriceFactor,
  PROPERTY_TYPES,
  RUSH_LEVELS,
  STATE_CODES,
  SURVEY_TYPE_FACTORS,
  TERRAINS,
  usesFactor,
  VEGETATIONS,
} from "./survey_options.ts";
import { singleLine } from "./text.ts";

// The lists live in survey_options.ts (zod-free, for the islands); the server keeps importing
// them from here.
export {
  ALTA_ITEM_IDS,
  ALTA_TABLE_A_ITEMS,
  type AltaItemId,
  MAX_ACREAGE,
  PRICE_FACTORS,
  type PriceFactor,
  PROPERTY_TYPE_LABELS,
  PROPERTY_TYPES,
  type PropertyType,
  RUSH_LABELS,
  RUSH_LEVELS,
  type RushLevel,
  STATE_CODES,
  type StateCode,
  SURVEY_TYPE_FACTORS,
  type Terrain,
  TERRAIN_LABELS,
  TERRAINS,
  US_STATES,
  usesFactor,
  type Vegetation,
  VEGETATION_LABELS,
  VEGETATIONS,
} from "./survey_options.ts";

/**
 * Every field of a survey's details, with the factors only some types use
 * (SURVEY_TYPE_FACTORS) optional. An object, so the survey request schema can extend it;
 * validate with SurveyDetailsSchema, which adds the per-type rules.
 */
export const SurveyDetailsFieldsSchema = z.object({
  surveyType: z.enum(SURVEY_TYPES, { error: "Choose a survey type" }),
  propertyType: z.enum(PROPERTY_TYPES, { error: "Choose a property type" }),
  acreage: z
    .number({ error: "Acreage must be a number" })
    .positive({ error: "Acreage must be greater than 0" })
    .max(MAX_ACREAGE, { error: "Acreage must be 10,000 acres or less" })
    .optional(),
  terrain: z.enum(TERRAINS, { error: "Choose the terrain" }).optional(),
  vegetation: z.enum(VEGETATIONS, { error: "Choose the vegetation" }).optional(),
  structures: z
    .number({ error: "Number of structures must be a number" })
    .int({ error: "Number of structures must be a whole number" })
    .min(0, { error: "Number of structures cannot be negative" })
    .max(50, { error: "Number of structures must be 50 or fewer" })
    .optional(),
  cornersToSet: z
    .number({ error: "Corners to set must be a number" })
    .int({ error: "Corners to set must be a whole number" })
    .min(0, { error: "Corners to set cannot be negative" })
    .max(20, { error: "Corners to set must be 20 or fewer" })
    .optional(),
  cornersKnown: z.boolean({ error: "Corners known must be true or false" }).optional(),
  rush: z.enum(RUSH_LEVELS, { error: "Choose standard, expedited or rush" }).default("standard"),
  state: z
    .string({ error: "Choose the property's state" })
    .trim()
    .max(2, { error: "Use the two-letter state code" })
    .toUpperCase()
    .pipe(z.enum(STATE_CODES, { error: "Choose a US state" })),
  altaItems: z
    .array(z.enum(ALTA_ITEM_IDS, { error: "Unknown ALTA Table A item" }), {
      error: "ALTA items must be a list",
    })
    .max(ALTA_ITEM_IDS.length, { error: "Too many ALTA items" })
    .transform((items) => [...new Set(items)])
    .optional(),
  discountCode: singleLine("Discount code", {
    max: 40,
    messages: {
      type: "Discount code must be text",
      max: "Discount code must be 40 characters or fewer",
    },
  })
    .transform((code) => code || undefined)
    .optional(),
});

/** What a type requires when it uses it; the other factors are optional (none, 0 or unknown). */
const REQUIRED_FACTORS: Partial<Record<PriceFactor, string>> = {
  acreage: "Enter the lot size in acres",
  terrain: "Choose the terrain",
  vegetation: "Choose the vegetation",
};

function isSurveyType(value: unknown): value is SurveyType {
  return typeof value === "string" && (SURVEY_TYPES as readonly string[]).includes(value);
}

/**
 * `raw` without the factors its survey type does not use, so a value sent for one of them is
 * ignored rather than validated or stored (an elevation certificate's lot size means nothing).
 * Anything that is not an object with a known survey type is returned as it is, for the
 * schema to refuse.
 */
export function withoutUnusedFactors(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const type = (raw as { surveyType?: unknown }).surveyType;
  if (!isSurveyType(type)) return raw;
  const kept: Record<string, unknown> = { ...raw };
  for (const factor of PRICE_FACTORS) if (!usesFactor(type, factor)) delete kept[factor];
  return kept;
}

/**
 * Adds an issue for each factor the survey type needs and `value` lacks. For a superRefine
 * that runs even when other fields failed (`{ when: () => true }`), so a form learns every
 * missing answer at once; it reads nothing but `surveyType` and the factors' presence.
 */
export function requireFactors(value: unknown, ctx: z.RefinementCtx): void {
  if (typeof value !== "object" || value === null) return;
  const details = value as Record<string, unknown>;
  if (!isSurveyType(details.surveyType)) return;
  for (const factor of SURVEY_TYPE_FACTORS[details.surveyType]) {
    const message = REQUIRED_FACTORS[factor];
    if (message && details[factor] === undefined) {
      ctx.addIssue({ code: "custom", path: [factor], message });
    }
  }
}

/**
 * Survey details a quote depends on. Unknown keys are dropped (a price sent by the browser is
 * ignored), and so are the factors the survey type does not use (SURVEY_TYPE_FACTORS); the
 * lot size, terrain and vegetation are required where the type uses them. `rush` defaults to
 * standard; structures and corners to set count as 0 when not given; `state` is upper-cased;
 * an empty `discountCode` counts as none; duplicate `altaItems` collapse.
 */
export const SurveyDetailsSchema = z.preprocess(
  withoutUnusedFactors,
  SurveyDetailsFieldsSchema.superRefine(requireFactors, { when: () => true }),
);

/** Validated survey details (the schema's output). */
export type SurveyDetails = z.infer<typeof SurveyDetailsSchema>;
/** Survey details as sent by a client, before defaults. */
export type SurveyDetailsInput = z.input<typeof SurveyDetailsFieldsSchema>;
