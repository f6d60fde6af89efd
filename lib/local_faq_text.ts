/**
 * What the local pages' FAQs say about each instant-quote survey type (issue 24): what it is for
 * and when it is needed. True in every state, so nothing local is invented; the state is named
 * only where its licensing law decides who may do the work.
 */
import type { PricedSurveyType } from "./pricing.ts";
import { SURVEY_TYPE_INFO } from "./survey_types.ts";

/** A type's name in running text: "boundary survey", "ALTA/NSPS survey" (acronyms kept). */
export function typeNoun(type: PricedSurveyType): string {
  return SURVEY_TYPE_INFO[type].name.replace(/\b([A-Z])(?=[a-z])/g, (c) => c.toLowerCase());
}

/** `noun` with "a" or "an" before it, by its first letter ("an elevation certificate"). */
export function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`;
}

/** The question a type's town page asks about that type. */
export function typeQuestion(type: PricedSurveyType, stateName: string): string {
  const name = withArticle(typeNoun(type));
  return `What is ${name} for, and when is one needed in ${stateName}?`;
}

/**
 * What each priced type is for. True everywhere, so nothing local is invented; the state is
 * named only where its licensing law is what decides (property lines are surveyed by licensed
 * land surveyors in every state).
 */
export function typeAnswer(type: PricedSurveyType, stateName: string): string {
  // stateName is a noun phrase here ("Texas", "the District of Columbia").
  switch (type) {
    case "boundary":
      return `A boundary survey finds and marks your property's corners and lines from the deed, the recorded plats and the monuments on the ground, and shows fences, buildings or driveways that cross them. People order one before buying or selling, before building a fence, addition or pool near a line, and to settle a disagreement with a neighbour. Locating property lines is the practice of land surveying, so only a land surveyor licensed in ${stateName} may do it.`;
    case "elevation_certificate":
      return `An elevation certificate is FEMA's form that records a building's flood zone and the elevation of its lowest floor and other parts against the base flood elevation. It can be used to rate a National Flood Insurance Program policy, and is used to show a floodplain manager that a new or substantially improved building in a Special Flood Hazard Area meets the elevation rules, and to support a Letter of Map Amendment. It is needed where a lender, insurer or floodplain manager asks for it, which mostly means buildings in those zones. FEMA accepts one certified by a land surveyor, engineer or architect authorized by state or local law to certify elevations; Meridian sends the job to licensed land surveyors.`;
    case "topographic":
      return `A topographic survey maps the ground's elevations and contours and what stands on it (buildings, trees, utilities, drainage), so an architect or engineer can design a building, driveway, grading or drainage on real data. It is usually needed when a designer, or the planning or building department reviewing a site plan, asks for existing conditions; ask them what they need. The firms listed here are land surveyors whose licences in ${stateName} Meridian checked.`;
    case "alta":
      return `An ALTA/NSPS Land Title Survey is drawn to the minimum standards of the American Land Title Association and the National Society of Professional Surveyors. Lenders and title insurers ask for one on commercial property, typically when it is bought, sold or financed and the title policy is to cover matters a survey would show; the client picks optional Table A items such as the flood zone classification or zoning. It locates the property's boundaries, so it must be made by a land surveyor licensed in ${stateName}.`;
    case "construction":
      return `A construction survey stakes out where a new building, its foundation, grades and utilities go before work starts, and can check what was built afterwards (an as-built survey). Your builder, building department or lender may ask for a foundation location or as-built survey; ask them what they need. Placing a building relative to the property lines depends on where those lines are, which in ${stateName} only a licensed land surveyor may determine.`;
  }
}
