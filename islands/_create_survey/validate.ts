/**
 * Per-step checks run before "Continue". The texts match the server's (lib/survey_details.ts)
 * where both check the same thing, so a message never changes between browser and server.
 * Written by hand rather than with the zod schema to keep zod out of the browser bundle.
 */
import {
  MAX_ACREAGE,
  PROPERTY_TYPES,
  RUSH_LEVELS,
  STATE_CODES,
  SURVEY_PURPOSES,
  TERRAINS,
  VEGETATIONS,
} from "../../lib/survey_options.ts";
import type { Answers, Errors, IslandUser, QuoteState } from "./types.ts";
import { asks, detailsKey } from "./details.ts";

/** Longest address, name, phone and note the server accepts (lib/survey_schema.ts). */
export const LIMITS = { address: 300, contactName: 120, contactPhone: 40, accessNotes: 2000 };

/** The server's phone pattern: digits and the usual separators, optionally an extension. */
const PHONE = /^[0-9+().\s/-]+((x|ext\.?)\s*\d{1,6})?$/i;

/** Today's date as YYYY-MM-DD in the visitor's time zone (for the needed-by minimum). */
export function todayIso(now = new Date()): string {
  const local = new Date(now.getTime() - now.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 10);
}

function wholeNumber(
  value: string,
  label: string,
  max: number,
): string | undefined {
  const text = value.trim();
  if (text === "") return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) return `${label} must be a number`;
  if (!Number.isInteger(n)) return `${label} must be a whole number`;
  if (n < 0) return `${label} cannot be negative`;
  if (n > max) return `${label} must be ${max} or fewer`;
  return undefined;
}

const has = (list: readonly string[], id: string) => list.includes(id);

/** Errors of the property step. */
function validateProperty(a: Answers): Errors {
  const errors: Errors = {};
  const address = a.address.trim();
  if (!address) errors.address = "Enter the property address";
  else if (address.length < 5) errors.address = "Enter the full property address";
  else if (address.length > LIMITS.address) {
    errors.address = "Address must be 300 characters or fewer";
  }
  if (!a.state) errors.state = "Choose the property's state";
  else if (!has(STATE_CODES, a.state)) errors.state = "Choose a US state";
  return errors;
}

/** Errors of the survey-type step. */
function validateType(a: Answers): Errors {
  return a.surveyType ? {} : { surveyType: "Choose a survey type" };
}

/** Errors of the property-details step: only the questions the survey type asks. */
function validateDetails(a: Answers, today: string): Errors {
  const errors: Errors = {};
  if (!has(PROPERTY_TYPES, a.propertyType)) errors.propertyType = "Choose a property type";
  if (asks(a, "acreage")) {
    const acreage = a.acreage.trim();
    const acres = Number(acreage);
    if (acreage === "") errors.acreage = "Enter the lot size in acres";
    else if (!Number.isFinite(acres)) errors.acreage = "Acreage must be a number";
    else if (acres <= 0) errors.acreage = "Acreage must be greater than 0";
    else if (acres > MAX_ACREAGE) {
      errors.acreage = `Acreage must be ${MAX_ACREAGE.toLocaleString("en-US")} acres or less`;
    }
  }
  if (asks(a, "terrain") && !has(TERRAINS, a.terrain)) errors.terrain = "Choose the terrain";
  if (asks(a, "vegetation") && !has(VEGETATIONS, a.vegetation)) {
    errors.vegetation = "Choose the vegetation";
  }
  const structures = asks(a, "structures")
    ? wholeNumber(a.structures, "Number of structures", 50)
    : undefined;
  if (structures) errors.structures = structures;
  if (asks(a, "cornersKnown") && !a.cornersKnown) {
    errors.cornersKnown = "Tell us whether the corners are marked";
  }
  const corners = asks(a, "cornersToSet")
    ? wholeNumber(a.cornersToSet, "Corners to set", 20)
    : undefined;
  if (corners) errors.cornersToSet = corners;
  if (!has(SURVEY_PURPOSES, a.purpose)) errors.purpose = "Choose what the survey is for";
  if (a.neededBy) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(a.neededBy)) errors.neededBy = "Enter a valid date";
    else if (a.neededBy < today) errors.neededBy = "Needed-by date cannot be in the past";
  }
  if (!has(RUSH_LEVELS, a.rush)) errors.rush = "Choose standard, expedited or rush";
  if (a.accessNotes.length > LIMITS.accessNotes) {
    errors.accessNotes = "Access notes must be 2000 characters or fewer";
  }
  return errors;
}

/** Errors of the quote step: the shown quote must be for the current answers. */
function validateQuote(a: Answers, quote: QuoteState | null): Errors {
  if (!quote || quote.key !== detailsKey(a)) {
    return { quote: "Get your quote before continuing" };
  }
  return {};
}

/** Errors of the contact step, including the account. */
function validateContact(a: Answers, user: IslandUser | null): Errors {
  const errors: Errors = {};
  const name = a.contactName.trim();
  if (!name) errors.contactName = "Enter a contact name";
  else if (name.length > LIMITS.contactName) {
    errors.contactName = "Contact name must be 120 characters or fewer";
  }
  const phone = a.contactPhone.trim();
  if (!phone) errors.contactPhone = "Enter a contact phone number";
  else if (phone.length > LIMITS.contactPhone) {
    errors.contactPhone = "Phone number must be 40 characters or fewer";
  } else if (phone.length < 7 || !PHONE.test(phone)) {
    errors.contactPhone = "Enter a valid phone number";
  }
  if (!user) errors.auth = "Create an account or sign in to submit your request";
  else if (user.role !== "client") {
    errors.auth = "Survey requests are made from a client account. Sign in as a client.";
  }
  return errors;
}

/**
 * The errors that keep `step` from going on, keyed by field; empty when it may continue.
 */
export function validateStep(
  step: number,
  ctx: {
    answers: Answers;
    quote: QuoteState | null;
    user: IslandUser | null;
    today?: string;
  },
): Errors {
  const a = ctx.answers;
  switch (step) {
    case 0:
      return validateProperty(a);
    case 1:
      return validateType(a);
    case 2:
      return validateDetails(a, ctx.today ?? todayIso());
    case 3:
      return validateQuote(a, ctx.quote);
    case 4:
      return validateContact(a, ctx.user);
    default:
      return {};
  }
}
