/**
 * Shapes shared by the create-survey island's modules. Everything here is plain data so the
 * whole draft can live in sessionStorage and survive a reload.
 */
import type { SurveyType } from "../../lib/survey_types.ts";
import type { Quote } from "../../lib/pricing.ts";
import type { AuthUser } from "../_auth_forms.tsx";
import type { GeocodePrecision } from "../../lib/geo/provider.ts";

/** The signed-in user as the island needs it (a subset of the session user). */
export type IslandUser = AuthUser;

/**
 * Every answer of the flow, as typed. Numbers stay strings until they are sent, so a half
 * typed "1." survives a reload and validation can say what is wrong with it.
 */
export interface Answers {
  /** What the visitor typed or picked in the address box. */
  address: string;
  /** The geocoded address the visitor confirmed; empty until geocoded. */
  formattedAddress: string;
  placeId: string;
  lat: number | null;
  lng: number | null;
  /**
   * How exactly lat/lng locate the property: "" until geocoded; "zip" or "city" when only the
   * town is known, so the page does not claim to have found the property.
   */
  precision: GeocodePrecision | "";
  /** USPS state code; prefilled from the geocoded address, editable. */
  state: string;
  surveyType: SurveyType | "";
  /** A purpose id (lib/survey_options.ts SURVEY_PURPOSES). */
  purpose: string;
  propertyType: string;
  acreage: string;
  /** Set when the acreage came from parcel records (and the visitor has not changed it). */
  acreageSource: "parcel" | "";
  parcelNumber: string;
  terrain: string;
  vegetation: string;
  structures: string;
  /** "yes" when the corner markers can be found, "no" when they need research. */
  cornersKnown: "yes" | "no" | "";
  cornersToSet: string;
  altaItems: string[];
  neededBy: string;
  rush: string;
  accessNotes: string;
  discountCode: string;
  contactName: string;
  contactPhone: string;
}

/** A quote as the pricing API returned it, with what it was computed for. */
export interface QuoteState {
  /** `detailsKey()` of the answers the quote was computed from. */
  key: string;
  price: number | null;
  message: string;
  calculation: Quote;
  /** The discount code the quote includes, as the server accepted it. */
  appliedCode: string;
}

/** The whole persisted draft. */
export interface Draft {
  version: 1;
  step: number;
  /** Highest step reached, so the step indicator can link back to visited steps only. */
  furthest: number;
  answers: Answers;
  quote: QuoteState | null;
  /** Idempotency key for POST /api/surveys: a retried submit returns the same survey. */
  requestId: string;
  /** The `?address=` this draft was started from; another one starts a new draft. */
  seedAddress: string;
}

/** Field name → message for the current step. */
export type Errors = Partial<Record<keyof Answers | "auth" | "quote", string>>;

/** The empty answers a new draft starts from. */
export function emptyAnswers(): Answers {
  return {
    address: "",
    formattedAddress: "",
    placeId: "",
    lat: null,
    lng: null,
    precision: "",
    state: "",
    surveyType: "",
    purpose: "",
    propertyType: "",
    acreage: "",
    acreageSource: "",
    parcelNumber: "",
    terrain: "",
    vegetation: "",
    structures: "0",
    cornersKnown: "",
    cornersToSet: "0",
    altaItems: [],
    neededBy: "",
    rush: "standard",
    accessNotes: "",
    discountCode: "",
    contactName: "",
    contactPhone: "",
  };
}

/** The steps in order; the index is the step number. */
export const STEPS = [
  { id: "property", title: "Property" },
  { id: "type", title: "Survey type" },
  { id: "details", title: "Property details" },
  { id: "quote", title: "Your quote" },
  { id: "contact", title: "Contact" },
  { id: "review", title: "Review & submit" },
] as const;

/** A step id. */
export type StepId = typeof STEPS[number]["id"];
