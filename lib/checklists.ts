/**
 * Checklist rules on the server: the default templates and the zod schemas of the checklist
 * and template APIs (islands use lib/checklist_types.ts, which has no zod).
 */
import type { SurveyType } from "./survey_types.ts";
import type { ChecklistTemplateItem } from "./checklist_types.ts";

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
