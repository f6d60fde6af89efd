/**
 * Turning the typed answers into what the API takes, and small parsing helpers. Pure, so the
 * tests can call them directly.
 */
import type { Answers } from "./types.ts";

/** The survey details body of POST /api/calculate-price (without the discount code). */
export interface DetailsBody {
  surveyType: string;
  propertyType: string;
  acreage: number;
  terrain: string;
  vegetation: string;
  structures: number;
  cornersToSet: number;
  cornersKnown: boolean;
  rush: string;
  state: string;
  altaItems?: string[];
}

const int = (text: string) => (text.trim() === "" ? 0 : Number(text));

/** The pricing inputs of `a`, typed for the API. ALTA items go only with an ALTA survey. */
export function toDetails(a: Answers): DetailsBody {
  const body: DetailsBody = {
    surveyType: a.surveyType,
    propertyType: a.propertyType,
    acreage: Number(a.acreage),
    terrain: a.terrain,
    vegetation: a.vegetation,
    structures: int(a.structures),
    cornersToSet: int(a.cornersToSet),
    cornersKnown: a.cornersKnown === "yes",
    rush: a.rush,
    state: a.state,
  };
  if (a.surveyType === "alta") body.altaItems = [...a.altaItems].sort();
  return body;
}

/**
 * A string that changes exactly when the price inputs change: a quote computed for one key
 * is stale for any other.
 */
export function detailsKey(a: Answers): string {
  return JSON.stringify(toDetails(a));
}

/**
 * The USPS state code in a US formatted address ("…, Austin, TX 78701, USA" → "TX"), or ""
 * when there is none.
 */
export function stateFromAddress(address: string, known: readonly string[]): string {
  const match = address.match(
    /,\s*([A-Z]{2})(?:\s+\d{5}(?:-\d{4})?)?\s*(?:,\s*(?:USA|United States))?\s*$/,
  );
  const code = match?.[1] ?? "";
  return known.includes(code) ? code : "";
}

/** Cents as "$1,234.50", or "$1,234" for whole dollars. */
export function formatMoney(cents: number): string {
  const sign = cents < 0 ? "−" : "";
  const abs = Math.abs(Math.round(cents));
  const whole = Math.floor(abs / 100).toLocaleString("en-US");
  const rest = abs % 100;
  return `${sign}$${whole}${rest ? "." + String(rest).padStart(2, "0") : ""}`;
}
