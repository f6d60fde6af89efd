/**
 * The calls the request flow makes, each returning plain data or throwing `ApiError`
 * (islands/_api.ts) so the caller picks the toast.
 */
import { ApiError, apiJson, errorMessage, getQuery } from "../_api.ts";
import type { Quote } from "../../lib/pricing.ts";
import type { Answers } from "./types.ts";
import { asPrecision, type GeocodePrecision } from "../../lib/geo/provider.ts";
import { type DetailsBody, toDetails } from "./details.ts";

/** A geocoded address and how exactly it is located (lib/geo/provider.ts). */
export interface Geocoded {
  formattedAddress: string;
  lat: number;
  lng: number;
  precision: GeocodePrecision;
}

/** Geocodes typed text; null when nothing matches or the call fails (spec: silent). */
export async function geocode(address: string): Promise<Geocoded | null> {
  try {
    const data = await getQuery<Geocoded>(`/api/geocode?address=${encodeURIComponent(address)}`);
    if (!data || typeof data.formattedAddress !== "string" || typeof data.lat !== "number") {
      return null;
    }
    // An answer without a precision claims no more than the town.
    return { ...data, precision: asPrecision(data.precision) ?? "city" };
  } catch {
    return null;
  }
}

/** What the parcel lookup gives the form: acreage and parcel number, when known. */
export interface ParcelHint {
  acreage: number | null;
  parcelNumber: string | null;
}

/**
 * Parcel data at a point, or null when no provider is configured, nothing is there or the
 * lookup fails: the acreage is a convenience, so a failure only means typing it in.
 */
export async function lookupParcel(lat: number, lng: number): Promise<ParcelHint | null> {
  try {
    const data = await getQuery<{ parcel: ParcelHint | null }>(
      `/api/parcels/lookup?lat=${lat}&lng=${lng}`,
    );
    const parcel = data?.parcel;
    if (!parcel || typeof parcel.acreage !== "number" || !(parcel.acreage > 0)) return null;
    return { acreage: parcel.acreage, parcelNumber: parcel.parcelNumber ?? null };
  } catch {
    return null;
  }
}

/** The pricing API's answer, checked. */
export interface PriceAnswer {
  success: true;
  message: string;
  price: number | null;
  calculation: Quote;
}

/** Thrown when the pricing API answers 2xx with a body that is not a quote. */
export class UnexpectedPricingResponse extends Error {
  constructor() {
    super("Unexpected response format from pricing API");
    this.name = "UnexpectedPricingResponse";
  }
}

function isPriceAnswer(data: unknown): data is PriceAnswer {
  const d = data as PriceAnswer | null;
  return !!d && typeof d === "object" && d.success === true &&
    (typeof d.price === "number" || (d.price === null && d.calculation?.quoteRequired)) &&
    !!d.calculation && typeof d.calculation === "object" &&
    Array.isArray(d.calculation.lineItems);
}

/**
 * POST /api/calculate-price. Throws ApiError for a refusal (an invalid discount code among
 * them) and UnexpectedPricingResponse for a 2xx that is not a quote.
 */
export async function calculatePrice(
  details: DetailsBody,
  discountCode: string,
): Promise<PriceAnswer> {
  const body = discountCode ? { ...details, discountCode } : details;
  const data = await apiJson("POST", "/api/calculate-price", body);
  if (!isPriceAnswer(data)) throw new UnexpectedPricingResponse();
  return data;
}

/**
 * The reason the server gave for refusing a discount code (expired, used up, unknown…): the
 * `discountCode` field error or the refusal's message. Null when the failure is not about
 * the code.
 */
export function discountCodeReason(err: unknown): string | null {
  if (!(err instanceof ApiError) || err.status >= 500) return null;
  try {
    const body = JSON.parse(err.body);
    const field = body?.errors?.discountCode;
    if (typeof field === "string" && field) return field;
    // The pricing API refuses a code with 400 {success: false, message, reason}.
    if (body?.success === false && typeof body.reason === "string" && body.message) {
      return String(body.message);
    }
  } catch {
    // Not JSON: not a code refusal.
  }
  return null;
}

/** The body of POST /api/surveys for `a`. */
export function surveyBody(a: Answers, requestId: string, discountCode: string) {
  const trimmed = (s: string) => s.trim() || undefined;
  return {
    ...toDetails(a),
    discountCode: discountCode || undefined,
    requestId,
    address: a.address.trim(),
    formattedAddress: trimmed(a.formattedAddress),
    placeId: trimmed(a.placeId),
    ...(a.lat !== null && a.lng !== null ? { lat: a.lat, lng: a.lng } : {}),
    purpose: a.purpose,
    neededBy: a.neededBy || undefined,
    accessNotes: trimmed(a.accessNotes),
    contactName: a.contactName.trim(),
    contactPhone: a.contactPhone.trim(),
  };
}

/** The spec's text for a submission refused with 401. */
export const SUBMIT_401_MESSAGE =
  "Authentication required. Please complete the registration process before submitting.";

/** The description of the 'Error submitting survey' toast for `err`. */
export function submitErrorMessage(err: unknown): string {
  if (err instanceof ApiError && err.status === 401) return SUBMIT_401_MESSAGE;
  return errorMessage(err, "Error submitting survey request");
}

/** POST /api/surveys; returns the created (or, on a retry, the earlier) survey's id. */
export async function submitSurvey(body: ReturnType<typeof surveyBody>): Promise<string | null> {
  const data = await apiJson<{ survey?: { id?: string }; id?: string }>(
    "POST",
    "/api/surveys",
    body,
  );
  return data?.survey?.id ?? data?.id ?? null;
}
