/**
 * What the surveyor islands (the directory on /surveyors and the record on
 * /surveyor-detail/{id}) share: labels, the directory's row and filters, and reading a
 * server's field errors. Constants come from lib/surveyor_constants.ts, not
 * lib/surveyor_schema.ts: a value from the schema module would bring zod into the bundles.
 */
import type {
  Surveyor,
  SurveyorCounts,
  SurveyorRow,
  SurveyorStatus,
} from "../lib/surveyor_schema.ts";
import type { SurveyType } from "../lib/survey_types.ts";
import { ApiError } from "./_api.ts";
import {
  CONTACT_CHANNEL_LABELS,
  CONTACT_CHANNELS,
  MAX_CONTACTS,
  MAX_SERVICE_RADIUS_MILES,
  SURVEYOR_STATUS_LABELS,
  SURVEYOR_STATUSES,
} from "../lib/surveyor_constants.ts";
import { formatDate } from "../components/survey/format.ts";

export {
  CONTACT_CHANNEL_LABELS as CHANNEL_LABELS,
  CONTACT_CHANNELS as CHANNELS,
  MAX_CONTACTS,
  MAX_SERVICE_RADIUS_MILES as MAX_RADIUS_MILES,
  SURVEYOR_STATUS_LABELS as STATUS_LABELS,
  SURVEYOR_STATUSES as STATUSES,
};

/** Badge colour per status (base.css `.badge--*`). */
export const STATUS_BADGES: Record<SurveyorStatus, string> = {
  prospect: "neutral",
  invited: "info",
  pending: "warning",
  active: "success",
  paused: "warning",
};

/** Short survey-type names for the directory's narrow "Types" column. */
export const SHORT_TYPE_NAMES: Record<SurveyType, string> = {
  boundary: "Boundary",
  elevation_certificate: "Elevation",
  topographic: "Topographic",
  alta: "ALTA",
  construction: "Construction",
  subdivision: "Subdivision",
};

export type { SurveyorRow } from "../lib/surveyor_schema.ts";

/** The row slice of a surveyor from the API. */
export function toSurveyorRow(s: Surveyor): SurveyorRow {
  const main = s.contacts.find((c) => c.isPrimary) ?? s.contacts[0];
  return {
    id: s.id,
    companyName: s.companyName,
    principalName: s.principalName,
    city: s.city,
    state: s.state,
    status: s.status,
    inNetwork: s.inNetwork,
    surveyTypes: s.surveyTypes,
    serviceRadiusMiles: s.serviceRadiusMiles,
    rating: s.rating,
    reviewCount: s.reviewCount,
    contactCount: s.contacts.length,
    mainContact: main?.name ?? null,
  };
}

/** The directory's filters as query parameters ("" = no filter). */
export interface SurveyorFilters {
  q: string;
  state: string;
  surveyType: string;
  status: string;
  /** "true" for in-network only, else "". */
  inNetworkOnly: string;
}

/** No filter at all. */
export const NO_FILTERS: SurveyorFilters = {
  q: "",
  state: "",
  surveyType: "",
  status: "",
  inNetworkOnly: "",
};

/** One page of the directory, with the counts above it. */
export interface SurveyorPage {
  rows: SurveyorRow[];
  total: number;
  page: number;
  pageSize: number;
  counts: SurveyorCounts;
}

/**
 * Query string of filters and page (`GET /api/surveyors` and the page's own address), without
 * empty values or page 1. `pageSize` only when given.
 */
export function surveyorQuery(filters: SurveyorFilters, page: number, pageSize?: number): string {
  const params = new URLSearchParams();
  for (const key of ["q", "state", "surveyType", "status", "inNetworkOnly"] as const) {
    const value = filters[key].trim();
    if (value) params.set(key, value);
  }
  if (page > 1) params.set("page", String(page));
  if (pageSize) params.set("pageSize", String(pageSize));
  return params.toString();
}

/** "City, ST", either alone, or "—" when neither is known. */
export function placeOf(s: { city: string | null; state: string | null }): string {
  return [s.city, s.state].filter(Boolean).join(", ") || "—";
}

/** "4.8 (23 reviews)", "4.8", or "—" when unrated. */
export function ratingText(rating: number | null, reviewCount: number | null): string {
  if (rating === null) return "—";
  const stars = rating.toFixed(1);
  if (reviewCount === null) return stars;
  return `${stars} (${reviewCount} review${reviewCount === 1 ? "" : "s"})`;
}

/**
 * The server's per-field messages (`400 {message, errors: {field: text}}`) inside an
 * ApiError, or an empty object.
 */
export function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError)) return {};
  try {
    const body = JSON.parse(err.body);
    const errors = body?.errors;
    if (!errors || typeof errors !== "object") return {};
    return Object.fromEntries(
      Object.entries(errors).filter((e): e is [string, string] => typeof e[1] === "string"),
    );
  } catch {
    return {};
  }
}

/** "" for null: form inputs hold strings. */
export function text(value: string | null | undefined): string {
  return value ?? "";
}

/**
 * City, state and ZIP read from a geocoded US address ("12 Elm St, Austin, TX 78704, USA"):
 * whatever of them the text carries; the state only when it is one of `states`.
 */
export function addressParts(
  address: string,
  states: readonly string[],
): { city?: string; state?: string; zip?: string } {
  const parts = address.split(",").map((p) => p.trim()).filter(Boolean);
  if (parts.length && /^(USA|United States)$/i.test(parts[parts.length - 1])) parts.pop();
  const match = parts.length >= 2
    ? parts[parts.length - 1].match(/^([A-Z]{2})(?:\s+(\d{5}(?:-\d{4})?))?$/)
    : null;
  if (!match || !states.includes(match[1])) return {};
  return {
    city: parts[parts.length - 2],
    state: match[1],
    ...(match[2] ? { zip: match[2] } : {}),
  };
}

/** "Nov 21, 2026" for a YYYY-MM-DD date or an ISO timestamp (its UTC day); "—" for null. */
export function formatDay(value: string | null): string {
  return formatDate(value);
}
