/**
 * The "Which survey do I need?" helper. The purposes, their labels and the type each one
 * suggests come from lib/survey_options.ts (see options.ts); this module adds the one-line
 * reason the helper shows under a suggestion.
 */

/** Why the suggested type fits each purpose. */
export const PURPOSE_WHY: Record<string, string> = {
  selling: "Buyers and their title companies want current, marked property lines.",
  buying: "Confirms what you are buying and reveals encroachments before closing.",
  fence: "Marks the corners so the fence goes on your side of the line.",
  building_permit: "Permit offices and designers need existing grades, structures and setbacks.",
  flood_insurance: "Insurers rate flood policies from a FEMA Elevation Certificate.",
  lender_title: "Commercial lenders and title insurers ask for an ALTA/NSPS survey.",
  subdividing: "Your county needs a subdivision plat to approve and record new lots.",
  construction: "Stakes out foundations, grades and utilities before you build.",
  other: "Pick the closest type; the surveyor will confirm the scope with you.",
};
