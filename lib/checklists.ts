/**
 * Checklist rules on the server: the default templates and the zod schemas of the checklist
 * and template APIs (islands use lib/checklist_types.ts, which has no zod).
 */
import { z } from "zod";
import type { SurveyType } from "./survey_types.ts";
import {
  CHECKLIST_PHOTOS_MAX,
  CHECKLIST_TEMPLATE_MAX_ITEMS,
  CHECKLIST_TEXT_MAX,
  type ChecklistItemKind,
  type ChecklistTemplateItem,
  type ChecklistValue,
} from "./checklist_types.ts";
import { multiLine, singleLine } from "./text.ts";
import { isUuid } from "../db/users.ts";

function c(key: string, label: string, isRequired = true, help?: string): ChecklistTemplateItem {
  return { key, label, kind: "check", ...(help ? { help } : {}), isRequired };
}

function n(
  key: string,
  label: string,
  unit: string,
  isRequired = true,
  help?: string,
): ChecklistTemplateItem {
  return {
    key,
    label,
    kind: "number",
    ...(unit ? { unit } : {}),
    ...(help ? { help } : {}),
    isRequired,
  };
}

function t(key: string, label: string, isRequired = true, help?: string): ChecklistTemplateItem {
  return { key, label, kind: "text", ...(help ? { help } : {}), isRequired };
}

function p(key: string, label: string, isRequired = true, help?: string): ChecklistTemplateItem {
  return { key, label, kind: "photo", ...(help ? { help } : {}), isRequired };
}

/**
 * Version 1 of every survey type's checklist: what a crew records on site. The migration
 * 0018_checklist_defaults.sql seeds the same items (tests/db/checklists_test.ts compares them);
 * db/checklists.ts inserts them when a type has no template at all (an emptied database).
 * Units: ft (US survey feet), ea (a count), sq in.
 */
export const DEFAULT_CHECKLIST_TEMPLATES: Record<SurveyType, ChecklistTemplateItem[]> = {
  boundary: [
    c(
      "deed_research",
      "Deed of record and adjoiners' deeds researched",
      true,
      "Vesting deed, prior deeds in the chain and the adjoining owners' deeds.",
    ),
    c(
      "plat_research",
      "Recorded plat and prior surveys reviewed",
      true,
      "Subdivision plat, prior surveys of record and county GIS.",
    ),
    c("control_established", "Control and basis of bearings established", true),
    n(
      "monuments_found",
      "Monuments found",
      "ea",
      true,
      "Count every monument recovered and describe them below.",
    ),
    n("monuments_set", "Monuments set", "ea", true, "Enter 0 if none were set."),
    t(
      "monument_descriptions",
      "Monuments: type, size, cap stamp and condition",
      true,
      "For example: 5/8\" iron rod with cap 'RPLS 1234', found 0.2 ft below grade, good condition.",
    ),
    c("corners_located", "Every property corner located or set", true),
    t(
      "encroachments",
      "Encroachments observed (fences, sheds, driveways, overhangs)",
      true,
      "Write 'None observed' if there are none.",
    ),
    c("occupation_located", "Fence lines and lines of occupation located", false),
    p(
      "corner_photos",
      "Photos of each corner with its monument",
      true,
      "One photo per corner, showing the monument and its surroundings.",
    ),
    t("field_notes", "Field notes for the office", false),
  ],
  elevation_certificate: [
    t(
      "flood_zone",
      "Flood zone and base flood elevation from the FIRM panel",
      true,
      "FIRM panel number, effective date, zone and BFE.",
    ),
    t(
      "benchmark",
      "Benchmark used (designation and vertical datum)",
      true,
      "For example: NGS PID AB1234, NAVD 88.",
    ),
    n("benchmark_elevation", "Benchmark elevation", "ft", true),
    n(
      "building_diagram",
      "Building diagram number (1 to 9)",
      "",
      true,
      "From the FEMA Elevation Certificate instructions.",
    ),
    n(
      "lowest_floor",
      "Lowest floor: top of bottom floor (C2.a)",
      "ft",
      true,
      "Including a basement, crawlspace or enclosure floor.",
    ),
    n("next_higher_floor", "Top of the next higher floor (C2.b)", "ft", false),
    n("lowest_adjacent_grade", "Lowest adjacent grade next to the building (C2.e)", "ft", true),
    n("highest_adjacent_grade", "Highest adjacent grade next to the building (C2.f)", "ft", true),
    n(
      "machinery",
      "Lowest machinery or equipment serving the building (C2.g)",
      "ft",
      true,
      "Furnace, water heater, A/C unit, elevator equipment, electrical panel.",
    ),
    t("machinery_description", "Machinery and equipment observed and where", false),
    n("flood_openings", "Permanent flood openings", "ea", false, "Enter 0 if there are none."),
    n("flood_openings_area", "Net area of the flood openings", "sq in", false),
    p("photo_front", "Building photo: front", true),
    p("photo_rear", "Building photo: rear", true),
    p("photo_left", "Building photo: left side", true),
    p("photo_right", "Building photo: right side", true),
  ],
  topographic: [
    t(
      "control",
      "Control points and benchmark used (with datum)",
      true,
      "For example: two GNSS control points, NAVD 88 via NGS PID AB1234.",
    ),
    c("limits_walked", "Limits of the survey area walked", true),
    n("contour_interval", "Contour interval", "ft", true),
    c("spot_elevations", "Spot elevations collected across the site", true),
    c("breaklines", "Breaklines shot (top and toe of slopes, ditches, curbs, swales)", true),
    c("structures", "Buildings, walls and other structures located", true),
    c("hardscape", "Pavement, sidewalks and driveways located", true),
    c("utilities", "Visible utilities located (manholes, valves, poles, meters)", true),
    t(
      "inverts",
      "Manhole and storm structure inverts measured",
      false,
      "Structure, rim elevation and each pipe's invert, size and direction.",
    ),
    n("trees", "Trees located over the requested size", "ea", false),
    p("site_photos", "Site photos", true),
    t("field_notes", "Field notes for the office", false),
  ],
  alta: [
    c("title_commitment", "Title commitment and Schedule B-II documents reviewed", true),
    c("record_research", "Record descriptions and adjoiners' deeds researched", true),
    c("control_established", "Control and basis of bearings established", true),
    n("monuments_found", "Boundary monuments found", "ea", true),
    c("corners_located", "Every boundary corner located", true),
    c("improvements", "Buildings and other improvements located", true),
    t(
      "access",
      "Access to public roads observed",
      true,
      "Name of the street and how the property reaches it.",
    ),
    t(
      "easement_evidence",
      "Evidence of easements and servitudes observed",
      true,
      "Utility lines, paths, drives crossing the property; 'None observed' if none.",
    ),
    t(
      "encroachments",
      "Encroachments observed, onto and from the property",
      true,
      "Write 'None observed' if there are none.",
    ),
    c("cemeteries", "Evidence of cemeteries or burial grounds checked", true),
    t("water_features", "Springs, ponds, lakes or watercourses observed", false),
    p("site_photos", "Site photos", true),
  ],
  construction: [
    t("plan_set", "Plan set and revision staked from", true, "Sheet numbers, revision and date."),
    c("control_verified", "Control points verified against the plan", true),
    n("offset_distance", "Offset distance of the stakes", "ft", true),
    n("points_staked", "Points staked", "ea", true),
    c("dimensions_checked", "Staked dimensions checked (diagonals and ties)", true),
    c("grade_marked", "Cut/fill or grade marked on the stakes", false),
    c("cut_sheet_delivered", "Cut sheet given to the contractor", false),
    t("contractor_contact", "Contractor on site (name and phone)", false),
    p("stake_photos", "Photos of the staked layout", true),
  ],
  subdivision: [
    c("parent_tract_research", "Parent tract deed and plats researched", true),
    c("control_established", "Control and basis of bearings established", true),
    n("boundary_monuments_found", "Boundary monuments found", "ea", true),
    n("lots_laid_out", "Lots laid out", "ea", true),
    n("lot_corners_set", "Lot corners set", "ea", true),
    c("right_of_way", "Road rights-of-way and centerlines staked", true),
    t("easements", "Utility and drainage easements located", true),
    t("closure", "Field traverse closure (precision)", false, "For example: 1:25,000."),
    p("corner_photos", "Photos of the set corners", true),
    t("field_notes", "Field notes for the office", false),
  ],
};

const KEY_PATTERN = /^[a-z][a-z0-9_]{0,79}$/;
const ISO_OFFSET = /(?:Z|[+-]\d{2}:\d{2})$/i;
/** The earliest device time accepted: a clock before this is broken, not offline. */
const EARLIEST_ANSWER = Date.UTC(2000, 0, 1);
/** Largest magnitude a number answer may have. */
export const CHECKLIST_NUMBER_MAX = 1e9;
/** Most ops one request may carry (a device sends its queue in batches of this size). */
export const CHECKLIST_OPS_MAX = 100;

const answerValue = z.union([
  z.boolean(),
  z.number({ error: "Answer must be a number" }),
  z.string({ error: "Answer must be text" }).max(10 * CHECKLIST_TEXT_MAX, {
    error: `Answer must be at most ${CHECKLIST_TEXT_MAX} characters`,
  }),
  z.array(z.string().max(100), { error: "Photos must be a list of file ids" })
    .max(CHECKLIST_PHOTOS_MAX, { error: `At most ${CHECKLIST_PHOTOS_MAX} photos per item` }),
  z.null(),
], { error: "Answer must be true/false, a number, text, a list of photos or null" });

/** One edit from a device; the value is checked against the item's kind by parseAnswerValue. */
export const ChecklistOpSchema = z.object({
  opId: z.string({ error: "opId is required" }).regex(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    { error: "opId must be a uuid" },
  ),
  itemKey: z.string().max(80).optional(),
  itemId: z.string().max(100).optional(),
  value: answerValue,
  answeredAt: z.string({ error: "answeredAt must be a date and time" })
    .max(40)
    .refine((s) => ISO_OFFSET.test(s) && !Number.isNaN(Date.parse(s)), {
      error: "answeredAt must be an ISO 8601 date and time with a time zone",
    })
    .refine((s) => Date.parse(s) >= EARLIEST_ANSWER, {
      error: "answeredAt is too far in the past",
    }),
}).refine((op) => (op.itemKey === undefined) !== (op.itemId === undefined), {
  error: "Give either itemKey or itemId",
  path: ["itemKey"],
});

/** `POST /api/surveys/:id/checklist/answers` body. */
export const ChecklistAnswersSchema = z.object({
  ops: z.array(ChecklistOpSchema, { error: "ops must be a list" })
    .min(1, { error: "Send at least one answer" })
    .max(CHECKLIST_OPS_MAX, { error: `Send at most ${CHECKLIST_OPS_MAX} answers at a time` })
    .refine((ops) => new Set(ops.map((op) => op.opId.toLowerCase())).size === ops.length, {
      error: "Each op must have its own opId",
    }),
});

const textAnswer = multiLine("Answer", { max: CHECKLIST_TEXT_MAX });

/**
 * `value` checked against an item of `kind` (labelled `label` in messages): a check takes
 * true/false, a number a finite number, text at most 2000 characters (trimmed; blank clears
 * it), a photo item a list of distinct file ids; null clears any item. Returns the value to
 * store or a message.
 */
export function parseAnswerValue(
  kind: ChecklistItemKind,
  label: string,
  value: ChecklistValue,
): { value: ChecklistValue } | { error: string } {
  if (value === null) return { value: null };
  switch (kind) {
    case "check":
      return typeof value === "boolean" ? { value } : { error: `"${label}" takes true or false` };
    case "number":
      return typeof value === "number" && Number.isFinite(value) &&
          Math.abs(value) <= CHECKLIST_NUMBER_MAX
        ? { value }
        : { error: `"${label}" takes a number` };
    case "text": {
      if (typeof value !== "string") return { error: `"${label}" takes text` };
      const parsed = textAnswer.safeParse(value);
      if (!parsed.success) return { error: `"${label}": ${parsed.error.issues[0].message}` };
      return { value: parsed.data === "" ? null : parsed.data };
    }
    case "photo": {
      if (!Array.isArray(value)) return { error: `"${label}" takes a list of photos` };
      const ids = value.map((id) => id.toLowerCase());
      if (ids.some((id) => !isUuid(id))) return { error: `"${label}": unknown photo` };
      if (new Set(ids).size !== ids.length) return { error: `"${label}": a photo is listed twice` };
      return { value: ids.length === 0 ? null : ids };
    }
  }
}

/** Template item in the editor's save request. */
export const ChecklistTemplateItemSchema = z.object({
  key: z.string({ error: "Each item needs a key" }).regex(KEY_PATTERN, {
    error:
      "Keys are lowercase letters, digits and underscores, starting with a letter (80 at most)",
  }).refine((key) => !key.startsWith("alta_table_a_"), {
    error: "Keys starting with alta_table_a_ are kept for the ALTA Table A items of a request",
  }),
  label: singleLine("Label", { min: 1, max: 200 }),
  kind: z.enum(["check", "number", "text", "photo"], {
    error: "Kind must be check, number, text or photo",
  }),
  unit: singleLine("Unit", { max: 20 }).optional(),
  help: multiLine("Help", { max: 500 }).optional(),
  isRequired: z.boolean({ error: "Required must be true or false" }),
});

/** `POST /api/checklist-templates/:surveyType` body: the whole new version, in order. */
export const ChecklistTemplateSchema = z.object({
  items: z.array(ChecklistTemplateItemSchema, { error: "items must be a list" })
    .min(1, { error: "A checklist needs at least one item" })
    .max(CHECKLIST_TEMPLATE_MAX_ITEMS, {
      error: `A checklist has at most ${CHECKLIST_TEMPLATE_MAX_ITEMS} items`,
    })
    .superRefine((items, ctx) => {
      const seen = new Set<string>();
      items.forEach((item, index) => {
        if (seen.has(item.key)) {
          ctx.addIssue({
            code: "custom",
            message: `Two items have the key ${item.key}`,
            path: [index, "key"],
          });
        }
        seen.add(item.key);
        if (item.unit && item.kind !== "number") {
          ctx.addIssue({
            code: "custom",
            message: "Only number items have a unit",
            path: [index, "unit"],
          });
        }
      });
    }),
});
