/**
 * The surveyor-network API contract, shared by the server and the islands: surveyor records,
 * their contacts and contact history, the directory query, place conversion, and what
 * find-surveyors / notify-surveyors return. zod schemas plus their TypeScript types.
 */
import { z } from "zod";
import { SURVEY_TYPES, type SurveyType } from "./survey_types.ts";
import { STATE_CODES, type StateCode } from "./survey_options.ts";
import { multiLine, singleLine } from "./text.ts";

import {
  CONTACT_CHANNEL_LABELS,
  CONTACT_CHANNELS,
  type ContactChannel,
  DEFAULT_SERVICE_RADIUS_MILES,
  MAX_CONTACTS,
  MAX_SERVICE_RADIUS_MILES,
  SURVEYOR_SOURCES,
  SURVEYOR_STATUS_LABELS,
  SURVEYOR_STATUSES,
  type SurveyorSource,
  type SurveyorStatus,
} from "./surveyor_constants.ts";

export {
  CONTACT_CHANNEL_LABELS,
  CONTACT_CHANNELS,
  type ContactChannel,
  DEFAULT_SERVICE_RADIUS_MILES,
  MAX_CONTACTS,
  MAX_SERVICE_RADIUS_MILES,
  SURVEYOR_SOURCES,
  SURVEYOR_STATUS_LABELS,
  SURVEYOR_STATUSES,
  type SurveyorSource,
  type SurveyorStatus,
};

/** One person at a surveyor firm; the list is ordered and addressed by index. */
export interface SurveyorContact {
  name: string;
  title: string | null;
  email: string | null;
  phone: string | null;
  isPrimary: boolean;
}

/** One dated entry of the contact history (append-only, newest first). */
export interface ContactHistoryEntry {
  id: string;
  channel: ContactChannel;
  summary: string;
  outcome: string | null;
  /** YYYY-MM-DD or null. */
  nextFollowUp: string | null;
  /** The admin who wrote it; null when that account no longer exists. */
  authorName: string | null;
  /** ISO timestamp. */
  createdAt: string;
}

/** A surveyor record as the admin API returns it. */
export interface Surveyor {
  id: string;
  companyName: string;
  principalName: string | null;
  /** The licence number Meridian checked (for a firm not verified yet: the one to check). */
  licenseNumber: string | null;
  /**
   * The states that count: verified ones for a firm whose licence is verified, else the ones
   * to check with it (db/migrations/0032_licence_states.sql).
   */
  licenseStates: StateCode[];
  /** States the surveyor asked for that wait for an admin's licence check; they do not count. */
  pendingLicenseStates: StateCode[];
  /** States an admin refused; they do not count. */
  rejectedLicenseStates: StateCode[];
  /** A new licence number the surveyor gave, waiting for an admin's check, or null. */
  pendingLicenseNumber: string | null;
  email: string | null;
  phone: string | null;
  website: string | null;
  address: string | null;
  city: string | null;
  state: StateCode | null;
  zip: string | null;
  lat: number | null;
  lng: number | null;
  serviceRadiusMiles: number;
  surveyTypes: SurveyType[];
  inNetwork: boolean;
  status: SurveyorStatus;
  source: SurveyorSource;
  placeId: string | null;
  rating: number | null;
  reviewCount: number | null;
  /** The linked surveyor account, if any. */
  userId: string | null;
  contacts: SurveyorContact[];
  notes: string | null;
  isDemo: boolean;
  /** ISO timestamp. */
  createdAt: string;
  /** ISO timestamp. */
  updatedAt: string;
}

// Forms send "" for a field left empty; treat it as absent (null on PATCH).
function blankToNull(value: unknown) {
  return typeof value === "string" && value.trim() === "" ? null : value;
}

function nullable<T extends z.ZodType>(schema: T) {
  return z.preprocess(blankToNull, schema.nullable().optional());
}

const email = (label: string) =>
  singleLine(label, { max: 254, messages: { max: "Enter a valid email address" } })
    .pipe(z.email({ error: "Enter a valid email address" }));

const phone = (label: string) =>
  singleLine(label, { min: 7, max: 40, messages: { min: "Enter a valid phone number" } })
    .regex(/^[0-9+().\s/-]+((x|ext\.?)\s*\d{1,6})?$/i, { error: "Enter a valid phone number" });

const website = singleLine("Website", { max: 300 }).refine(
  (v) => /^https?:\/\/[^\s/]+\.[^\s]+$/i.test(v),
  { error: "Enter a website address starting with http:// or https://" },
);

const stateCode = z.enum(STATE_CODES, { error: "Unknown state" });
const surveyType = z.enum(SURVEY_TYPES, { error: "Unknown survey type" });

/** Fields of a surveyor record an admin may set (POST; PATCH takes any subset). */
export const SurveyorFieldsSchema = z.object({
  companyName: singleLine("Company name", { min: 1, max: 200 }),
  principalName: nullable(singleLine("Principal name", { max: 120 })),
  licenseNumber: nullable(singleLine("License number", { max: 60 })),
  licenseStates: z.array(stateCode, { error: "License states must be a list of states" })
    .max(60, { error: "Too many license states" }).optional(),
  email: nullable(email("Email")),
  phone: nullable(phone("Phone")),
  website: nullable(website),
  address: nullable(singleLine("Address", { max: 300 })),
  city: nullable(singleLine("City", { max: 120 })),
  state: nullable(stateCode),
  zip: nullable(
    singleLine("ZIP code", { max: 10 }).regex(/^\d{5}(-\d{4})?$/, {
      error: "Enter a 5-digit ZIP code",
    }),
  ),
  lat: nullable(z.number({ error: "Latitude must be a number" }).min(-90).max(90)),
  lng: nullable(z.number({ error: "Longitude must be a number" }).min(-180).max(180)),
  serviceRadiusMiles: z.number({ error: "Service radius must be a number" })
    .int({ error: "Service radius must be a whole number of miles" })
    .min(1, { error: "Service radius must be at least 1 mile" })
    .max(MAX_SERVICE_RADIUS_MILES, {
      error: `Service radius must be at most ${MAX_SERVICE_RADIUS_MILES} miles`,
    }).optional(),
  surveyTypes: z.array(surveyType, { error: "Survey types must be a list" })
    .max(SURVEY_TYPES.length).optional(),
  inNetwork: z.boolean({ error: "In-network must be true or false" }).optional(),
  status: z.enum(SURVEYOR_STATUSES, { error: "Unknown status" }).optional(),
  rating: nullable(z.number({ error: "Rating must be a number" }).min(0).max(5)),
  reviewCount: nullable(z.number({ error: "Review count must be a number" }).int().min(0)),
  notes: nullable(multiLine("Notes", { max: 4000 })),
}).strict();

/** `POST /api/surveyors`. */
export const NewSurveyorSchema = SurveyorFieldsSchema.refine(
  (v) => (v.lat == null) === (v.lng == null),
  { error: "Give both latitude and longitude, or neither", path: ["lat"] },
);
/** A validated new surveyor. */
export type NewSurveyorInput = z.infer<typeof NewSurveyorSchema>;

/** `PATCH /api/surveyors/{id}`: any subset of the fields, at least one. */
export const SurveyorUpdateSchema = SurveyorFieldsSchema.partial().refine(
  (v) => Object.keys(v).length > 0,
  { error: "Nothing to update" },
).refine(
  (v) => (v.lat === undefined) === (v.lng === undefined) && (v.lat === null) === (v.lng === null),
  { error: "Give both latitude and longitude, or neither", path: ["lat"] },
);
/** A validated surveyor update. */
export type SurveyorUpdate = z.infer<typeof SurveyorUpdateSchema>;

/** `POST /api/surveyors/{id}/contacts` (and the whole contact for PATCH after merging). */
export const ContactSchema = z.object({
  name: singleLine("Name", { min: 1, max: 120 }),
  title: nullable(singleLine("Title", { max: 120 })),
  email: nullable(email("Email")),
  phone: nullable(phone("Phone")),
  isPrimary: z.boolean({ error: "Primary must be true or false" }).optional(),
}).strict();
/** A validated contact. */
export type ContactInput = z.infer<typeof ContactSchema>;

/** `PATCH /api/surveyors/{id}/contacts/{index}`: any subset, at least one field. */
export const ContactUpdateSchema = ContactSchema.partial().refine(
  (v) => Object.keys(v).length > 0,
  { error: "Nothing to update" },
);

/** `POST /api/surveyors/{id}/contact-history`. */
export const ContactHistorySchema = z.object({
  channel: z.enum(CONTACT_CHANNELS, { error: "Choose how you were in contact" }),
  summary: multiLine("Summary", { min: 1, max: 2000 }),
  outcome: nullable(singleLine("Outcome", { max: 500 })),
  nextFollowUp: nullable(z.iso.date({ error: "Next follow-up must be a date (YYYY-MM-DD)" })),
}).strict();
/** A validated contact-history entry. */
export type ContactHistoryInput = z.infer<typeof ContactHistorySchema>;

/** Largest page of `GET /api/surveyors`. */
export const MAX_SURVEYOR_PAGE_SIZE = 100;
/** Page size of `GET /api/surveyors` when none is asked for. */
export const DEFAULT_SURVEYOR_PAGE_SIZE = 25;

/** `GET /api/surveyors` query: the directory's search, filters and paging. */
export const SurveyorListQuerySchema = z.object({
  inNetworkOnly: z.enum(["true", "false"], { error: "inNetworkOnly must be true or false" })
    .optional().transform((v) => v === "true"),
  q: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    singleLine("Search", { max: 200 }).optional(),
  ),
  state: z.preprocess((v) => v === "" ? undefined : v, stateCode.optional()),
  surveyType: z.preprocess((v) => v === "" ? undefined : v, surveyType.optional()),
  status: z.preprocess(
    (v) => v === "" ? undefined : v,
    z.enum(SURVEYOR_STATUSES, { error: "Unknown status" }).optional(),
  ),
  page: z.coerce.number({ error: "page must be a number" }).int({
    error: "page must be a whole number",
  })
    .min(1, { error: "page must be at least 1" }).max(100_000, { error: "page is too large" })
    .default(1),
  pageSize: z.coerce.number({ error: "pageSize must be a number" }).int()
    .min(1, { error: "pageSize must be at least 1" })
    .max(MAX_SURVEYOR_PAGE_SIZE, { error: `pageSize must be at most ${MAX_SURVEYOR_PAGE_SIZE}` })
    .default(DEFAULT_SURVEYOR_PAGE_SIZE),
}).strict();
/** A validated directory query. */
export type SurveyorListQuery = z.infer<typeof SurveyorListQuerySchema>;

/** What the directory table shows of a surveyor (a slice, to keep the page's props light). */
export interface SurveyorRow {
  id: string;
  companyName: string;
  principalName: string | null;
  city: string | null;
  state: string | null;
  status: SurveyorStatus;
  inNetwork: boolean;
  surveyTypes: SurveyType[];
  serviceRadiusMiles: number;
  rating: number | null;
  reviewCount: number | null;
  contactCount: number;
  /** The primary contact's name, else the first contact's, else null. */
  mainContact: string | null;
}

/** Directory counts shown above the list (for the current filters but status/in-network). */
export interface SurveyorCounts {
  total: number;
  inNetwork: number;
  byStatus: Record<SurveyorStatus, number>;
}

/** `GET /api/surveyors` response. */
export interface SurveyorListResponse {
  surveyors: Surveyor[];
  total: number;
  page: number;
  pageSize: number;
  counts: SurveyorCounts;
}

/** A surveying business from the places provider (lib/places/). */
export interface Place {
  placeId: string;
  name: string;
  address: string | null;
  city: string | null;
  state: StateCode | null;
  zip: string | null;
  lat: number;
  lng: number;
  phone: string | null;
  website: string | null;
  rating: number | null;
  reviewCount: number | null;
}

/** `POST /api/convert-place-to-surveyor`: the place as the places provider returned it. */
export const PlaceSchema = z.object({
  placeId: singleLine("Place id", { min: 1, max: 300 }),
  name: singleLine("Name", { min: 1, max: 200 }),
  address: nullable(singleLine("Address", { max: 300 })),
  city: nullable(singleLine("City", { max: 120 })),
  state: nullable(stateCode),
  zip: nullable(singleLine("ZIP code", { max: 10 })),
  lat: z.number({ error: "Latitude must be a number" }).min(-90).max(90),
  lng: z.number({ error: "Longitude must be a number" }).min(-180).max(180),
  phone: nullable(singleLine("Phone", { max: 40 })),
  website: nullable(singleLine("Website", { max: 300 })),
  rating: nullable(z.number({ error: "Rating must be a number" }).min(0).max(5)),
  reviewCount: nullable(z.number({ error: "Review count must be a number" }).int().min(0)),
}).strict();

/** `POST /api/convert-place-to-surveyor` response (201 new, 200 already converted). */
export interface ConvertPlaceResponse {
  message: string;
  surveyor: Surveyor;
}

/**
 * One matched surveyor as stored on the survey (`nearbySurveyorsInfo`): an in-network or
 * out-of-network record (`surveyorId` set), or a business from the places provider that is
 * not a record yet (`surveyorId` null, `place` set, source "place").
 */
export interface NearbySurveyorInfo {
  surveyorId: string | null;
  name: string;
  distanceMiles: number;
  /** 0–100, higher is better (lib/matching.ts explains the formula). */
  score: number;
  inNetwork: boolean;
  source: SurveyorSource;
  status: SurveyorStatus | null;
  /** Coordinates for the dispatch map. */
  lat: number;
  lng: number;
  /** Set for places not yet converted. */
  place: Place | null;
  /** Whether the survey's lead has been offered to this surveyor (notify-surveyors). */
  notified: boolean;
}

/** `POST /api/surveys/{id}/find-surveyors` response (spec §7). */
export interface FindSurveyorsResponse {
  surveyors: NearbySurveyorInfo[];
  survey: { id: string; nearbySurveyorsInfo: NearbySurveyorInfo[]; nearbySurveyorsFoundAt: string };
  fromCache: boolean;
}

/** `POST /api/surveys/{id}/notify-surveyors` response (spec §7). leadPrice in dollars. */
export interface NotifySurveyorsResponse {
  notified: number;
  totalSurveyors: number;
  /** Dollars, two decimals (e.g. 38.5 for $38.50). */
  leadPrice: number;
  leadId: string;
  /** Prospects invited by email this time (not counted in `notified`). */
  invited: number;
}
