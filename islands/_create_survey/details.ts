/**
 * Turning the typed answers into what the API takes, and small parsing helpers. Pure, so the
 * tests can call them directly.
 */
import { type PriceFactor, usesFactor } from "../../lib/survey_options.ts";
import { formatCents } from "../../lib/quote_text.ts";
import type { Answers } from "./types.ts";

/**
 * The survey details body of POST /api/calculate-price (without the discount code). The
 * optional fields go only with a survey type that uses them (SURVEY_TYPE_FACTORS).
 */
export interface DetailsBody {
  surveyType: string;
  propertyType: string;
  acreage?: number;
  terrain?: string;
  vegetation?: string;
  structures?: number;
  cornersToSet?: number;
  cornersKnown?: boolean;
  rush: string;
  state: string;
  altaItems?: string[];
}

const int = (text: string) => (text.trim() === "" ? 0 : Number(text));

/**
 * Whether the details step asks for `factor` for the chosen survey type: the same table the
 * server prices by, so the form never asks what the price ignores.
 */
export function asks(a: Pick<Answers, "surveyType">, factor: PriceFactor): boolean {
  return a.surveyType !== "" && usesFactor(a.surveyType, factor);
}

/**
 * The pricing inputs of `a`, typed for the API: only the factors its survey type uses, so an
 * answer left from another type (a lot size typed before switching to an elevation
 * certificate) neither travels nor changes the quote.
 */
export function toDetails(a: Answers): DetailsBody {
  const body: DetailsBody = {
    surveyType: a.surveyType,
    propertyType: a.propertyType,
    rush: a.rush,
    state: a.state,
  };
  if (asks(a, "acreage")) body.acreage = Number(a.acreage);
  if (asks(a, "terrain")) body.terrain = a.terrain;
  if (asks(a, "vegetation")) body.vegetation = a.vegetation;
  if (asks(a, "structures")) body.structures = int(a.structures);
  if (asks(a, "cornersToSet")) body.cornersToSet = int(a.cornersToSet);
  if (asks(a, "cornersKnown")) body.cornersKnown = a.cornersKnown === "yes";
  if (asks(a, "altaItems")) body.altaItems = [...a.altaItems].sort();
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

/** Cents as "$1,234" (whole dollars) or "$1,234.50" (a quote stored with cents). */
export const formatMoney = formatCents;
