/**
 * What a quote needs to know about a survey request. Shared by /api/calculate-price and the
 * survey submission; the create-survey island checks the same rules by hand
 * (islands/_create_survey/validate.ts) so zod stays out of its bundle.
 */
import { z } from "zod";
import { SURVEY_TYPES } from "./survey_types.ts";
import {
  ALTA_ITEM_IDS,
  MAX_ACREAGE,
  PROPERTY_TYPES,
  RUSH_LEVELS,
  STATE_CODES,
  TERRAINS,
  VEGETATIONS,
} from "./survey_options.ts";

// The lists live in survey_options.ts (zod-free, for the islands); the server keeps importing
// them from here.
export {
  ALTA_ITEM_IDS,
  ALTA_TABLE_A_ITEMS,
  type AltaItemId,
  MAX_ACREAGE,
  PROPERTY_TYPE_LABELS,
  PROPERTY_TYPES,
  type PropertyType,
  RUSH_LABELS,
  RUSH_LEVELS,
  type RushLevel,
  STATE_CODES,
  type StateCode,
  type Terrain,
  TERRAIN_LABELS,
  TERRAINS,
  US_STATES,
  type Vegetation,
  VEGETATION_LABELS,
  VEGETATIONS,
} from "./survey_options.ts";

/**
 * Survey details a quote depends on. Unknown keys are dropped (a price sent by the browser is
 * ignored). `rush` defaults to standard, `structures` and `cornersToSet` to 0; `state` is
 * upper-cased; an empty `discountCode` counts as none; duplicate `altaItems` collapse.
 */
export const SurveyDetailsSchema = z.object({
  surveyType: z.enum(SURVEY_TYPES, { error: "Choose a survey type" }),
  propertyType: z.enum(PROPERTY_TYPES, { error: "Choose a property type" }),
  acreage: z
    .number({ error: "Acreage must be a number" })
    .positive({ error: "Acreage must be greater than 0" })
    .max(MAX_ACREAGE, { error: "Acreage must be 10,000 acres or less" }),
  terrain: z.enum(TERRAINS, { error: "Choose the terrain" }),
  vegetation: z.enum(VEGETATIONS, { error: "Choose the vegetation" }),
  structures: z
    .number({ error: "Number of structures must be a number" })
    .int({ error: "Number of structures must be a whole number" })
    .min(0, { error: "Number of structures cannot be negative" })
    .max(50, { error: "Number of structures must be 50 or fewer" })
    .default(0),
  cornersToSet: z
    .number({ error: "Corners to set must be a number" })
    .int({ error: "Corners to set must be a whole number" })
    .min(0, { error: "Corners to set cannot be negative" })
    .max(20, { error: "Corners to set must be 20 or fewer" })
    .default(0),
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
  discountCode: z
    .string({ error: "Discount code must be text" })
    .trim()
    .max(40, { error: "Discount code must be 40 characters or fewer" })
    .transform((code) => code || undefined)
    .optional(),
});

/** Validated survey details (the schema's output). */
export type SurveyDetails = z.infer<typeof SurveyDetailsSchema>;
/** Survey details as sent by a client, before defaults. */
export type SurveyDetailsInput = z.input<typeof SurveyDetailsSchema>;
