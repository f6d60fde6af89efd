/**
 * Pure helpers of the surveyor coverage forms (the join form, a surveyor's own coverage card
 * and the admin's profile card): form values from a record, list toggles in a fixed order,
 * what changed for a PATCH, the radius check and the server's field errors by field. No
 * React, no zod: constants come from lib/surveyor_constants.ts and lib/survey_options.ts.
 */
import { fieldErrors, text } from "./_surveyor_shared.ts";
import { MAX_SERVICE_RADIUS_MILES } from "../lib/surveyor_constants.ts";
import { SURVEY_TYPES } from "../lib/survey_types.ts";
import { STATE_CODES } from "../lib/survey_options.ts";

/** An office's coordinates. */
export type CoveragePoint = { lat: number; lng: number };

/** The coverage fields every form has, as the inputs hold them. */
export interface CoverageValues {
  companyName: string;
  principalName: string;
  licenseNumber: string;
  licenseStates: string[];
  phone: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  serviceRadiusMiles: string;
  surveyTypes: string[];
}

/** The coverage part of a surveyor record (or of a prospect's prefill). */
export interface CoverageRecord {
  companyName: string;
  principalName: string | null;
  licenseNumber: string | null;
  licenseStates: readonly string[];
  phone: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  lat: number | null;
  lng: number | null;
  serviceRadiusMiles: number;
  surveyTypes: readonly string[];
}

/** The form values of record `r` (null text as ""). */
export function coverageValues(r: CoverageRecord): CoverageValues {
  return {
    companyName: r.companyName,
    principalName: text(r.principalName),
    licenseNumber: text(r.licenseNumber),
    licenseStates: [...r.licenseStates],
    phone: text(r.phone),
    address: text(r.address),
    city: text(r.city),
    state: text(r.state),
    zip: text(r.zip),
    serviceRadiusMiles: String(r.serviceRadiusMiles),
    surveyTypes: [...r.surveyTypes],
  };
}

/** The office's coordinates of `r`, or null when it is not placed. */
export function pointOf(r: { lat: number | null; lng: number | null }): CoveragePoint | null {
  return r.lat !== null && r.lng !== null ? { lat: r.lat, lng: r.lng } : null;
}

/** `list` with `id` added (at the end) or removed. */
export function toggled(list: readonly string[], id: string, isOn: boolean): string[] {
  const rest = list.filter((x) => x !== id);
  return isOn ? [...rest, id] : rest;
}

/** The chosen state codes in the fixed (alphabetical) order the API stores. */
export function orderedStates(chosen: readonly string[]): string[] {
  return STATE_CODES.filter((c) => chosen.includes(c));
}

/** The chosen survey types in the fixed order the API stores. */
export function orderedTypes(chosen: readonly string[]): string[] {
  return SURVEY_TYPES.filter((t) => chosen.includes(t));
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v) => b.includes(v));
}

/**
 * What differs between `saved` and `values` among the text fields `keys` (trimmed; "" clears
 * a field) and the two lists (in their fixed order). Radius and coordinates are left to the
 * caller: each form sends them by its own rule.
 */
export function changedCoverage<V extends CoverageValues>(
  saved: V,
  values: V,
  keys: readonly { [K in keyof V]: V[K] extends string ? K : never }[keyof V][],
): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const key of keys) {
    const now = (values[key] as string).trim();
    if (now !== (saved[key] as string).trim()) patch[key as string] = now;
  }
  if (!sameSet(values.licenseStates, saved.licenseStates)) {
    patch.licenseStates = orderedStates(values.licenseStates);
  }
  if (!sameSet(values.surveyTypes, saved.surveyTypes)) {
    patch.surveyTypes = orderedTypes(values.surveyTypes);
  }
  return patch;
}

/** The radius check's message, or undefined for a whole number of miles in range. */
export function radiusError(raw: string): string | undefined {
  const radius = raw.trim();
  return /^\d+$/.test(radius) && Number(radius) >= 1 && Number(radius) <= MAX_SERVICE_RADIUS_MILES
    ? undefined
    : `Enter a whole number of miles from 1 to ${MAX_SERVICE_RADIUS_MILES}`;
}

/** The server's `errors` by top-level field ("licenseStates.0" is shown on licenseStates). */
export function serverFieldErrors(err: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [key, message] of Object.entries(fieldErrors(err))) {
    errors[key.split(".")[0]] ??= message;
  }
  return errors;
}

/**
 * Where the placed office is, as a person names it: "Office located in Austin, TX 78704."
 * (town, state and ZIP as the form holds them), never raw coordinates; "Office located on the
 * map." when the form has none of them.
 */
export function locatedAt(place: Pick<CoverageValues, "city" | "state" | "zip">): string {
  const stateZip = [place.state.trim(), place.zip.trim()].filter(Boolean).join(" ");
  const where = [place.city.trim(), stateZip].filter(Boolean).join(", ");
  return where ? `Office located in ${where}.` : "Office located on the map.";
}
