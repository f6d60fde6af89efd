/**
 * The request flow's select and radio choices, built from the plain lists in
 * lib/survey_options.ts (the same lists the server's zod schemas use, so they cannot drift;
 * that module has no zod, so importing it keeps zod out of the island's bundle).
 */
import {
  ALTA_ITEM_IDS,
  ALTA_TABLE_A_ITEMS,
  PROPERTY_TYPE_LABELS,
  PROPERTY_TYPES,
  PURPOSE_INFO,
  RUSH_LABELS,
  RUSH_LEVELS,
  STATE_CODES,
  SURVEY_PURPOSES,
  TERRAIN_LABELS,
  TERRAINS,
  US_STATES,
  VEGETATION_LABELS,
  VEGETATIONS,
} from "../../lib/survey_options.ts";
import type { SurveyType } from "../../lib/survey_types.ts";
import type { Choice } from "../_fields.tsx";

/** A purpose of the "Which survey do I need?" helper and the type it suggests. */
export interface PurposeChoice extends Choice {
  suggests: SurveyType | null;
}

function choices<T extends string>(ids: readonly T[], labels: Record<T, string>): Choice[] {
  return ids.map((id) => ({ id, label: labels[id] }));
}

/** Every option list of the flow, as `{id, label}` choices (states by name). */
export const SURVEY_OPTIONS = {
  propertyTypes: choices(PROPERTY_TYPES, PROPERTY_TYPE_LABELS),
  terrains: choices(TERRAINS, TERRAIN_LABELS),
  vegetations: choices(VEGETATIONS, VEGETATION_LABELS),
  rushLevels: choices(RUSH_LEVELS, RUSH_LABELS),
  states: choices(
    [...STATE_CODES].sort((a, b) => US_STATES[a].localeCompare(US_STATES[b])),
    US_STATES,
  ),
  altaItems: choices(ALTA_ITEM_IDS, ALTA_TABLE_A_ITEMS),
  purposes: SURVEY_PURPOSES.map((id): PurposeChoice => ({
    id,
    label: PURPOSE_INFO[id].label,
    suggests: PURPOSE_INFO[id].recommended ?? null,
  })),
};
