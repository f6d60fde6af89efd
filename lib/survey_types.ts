import { formatInteger } from "./numbers.ts";
/** The six survey types, as stored in the database and sent by the API. */
export const SURVEY_TYPES = [
  "boundary",
  "elevation_certificate",
  "topographic",
  "alta",
  "construction",
  "subdivision",
] as const;

/** A survey type id. */
export type SurveyType = typeof SURVEY_TYPES[number];

/** What the marketing pages and quote flow say about a survey type. */
export interface SurveyTypeInfo {
  id: SurveyType;
  name: string;
  /** Starting price in whole dollars; null when a quote is required. */
  startingPrice: number | null;
  turnaround: string;
  /** Service page path. */
  path: string;
  summary: string;
}

/** Spec section 1: starting prices and turnaround. */
export const SURVEY_TYPE_INFO: Record<SurveyType, SurveyTypeInfo> = {
  boundary: {
    id: "boundary",
    name: "Boundary Survey",
    startingPrice: 385,
    turnaround: "5-10 business days",
    path: "/services/boundary-surveys",
    summary:
      "Locates and marks your property lines and corners, and shows fences, sheds or driveways that cross them.",
  },
  elevation_certificate: {
    id: "elevation_certificate",
    name: "Elevation Certificate",
    startingPrice: 285,
    turnaround: "3-5 business days",
    path: "/services/elevation-certificates",
    summary:
      "The FEMA form that records your building's elevation against the flood zone, used to rate flood insurance.",
  },
  topographic: {
    id: "topographic",
    name: "Topographic Survey",
    startingPrice: 485,
    turnaround: "5-10 business days",
    path: "/services/topographic-surveys",
    summary:
      "Maps the ground's contours, trees, utilities and structures so architects and engineers can design on real data.",
  },
  alta: {
    id: "alta",
    name: "ALTA/NSPS Survey",
    startingPrice: 1285,
    turnaround: "7-14 business days",
    path: "/services/alta-surveys",
    summary:
      "The detailed commercial survey lenders and title insurers require, drawn to the ALTA/NSPS 2021 standards.",
  },
  construction: {
    id: "construction",
    name: "Construction Survey",
    startingPrice: 685,
    turnaround: "5-10 business days",
    path: "/services/construction-surveys",
    summary:
      "Stakes out foundations, grades and utilities before you build, and checks as-built positions afterwards.",
  },
  subdivision: {
    id: "subdivision",
    name: "Subdivision Survey",
    startingPrice: null,
    turnaround: "Quoted per project",
    path: "/services/subdivision-surveys",
    summary:
      "Divides a parcel into new lots and prepares the plat your county needs to approve and record the split.",
  },
};

/** Formats whole dollars as "$1,285" (and "−$20" below zero: minus sign before the $). */
export function formatDollars(amount: number): string {
  return (amount < 0 ? "\u2212$" : "$") + formatInteger(Math.abs(amount));
}
