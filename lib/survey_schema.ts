/**
 * The survey-request API contract, shared by the server and the islands: what
 * `POST /api/surveys` accepts, what `GET /api/surveys[/{id}]` and `PATCH …/status` return, and
 * the list/status/delete inputs. zod schemas plus their TypeScript types.
 */
import { z } from "zod";
import {
  type AltaItemId,
  type PropertyType,
  requireFactors,
  type RushLevel,
  type StateCode,
  SurveyDetailsFieldsSchema,
  type Terrain,
  type Vegetation,
  withoutUnusedFactors,
} from "./survey_details.ts";
import { PURPOSE_INFO, SURVEY_PURPOSES, type SurveyPurpose } from "./survey_options.ts";
import { SURVEY_TYPES, type SurveyType } from "./survey_types.ts";
import { SURVEY_STATUSES, type SurveyStatus } from "./survey_status.ts";
import type { Quote } from "./pricing.ts";
import { multiLine, singleLine } from "./text.ts";

export { PURPOSE_INFO, SURVEY_PURPOSES, SURVEY_STATUSES, type SurveyPurpose, type SurveyStatus };

/** Longest free-text note (access notes, notes). */
export const MAX_NOTE_LENGTH = 2000;

// Forms send "" for a field left empty; treat it as absent.
function blankToUndefined(value: unknown) {
  return typeof value === "string" && value.trim() === "" ? undefined : value;
}

function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess(blankToUndefined, schema.optional());
}

function fewer(label: string, max: number) {
  return `${label} must be ${max} characters or fewer`;
}

/** A free-text note of at most MAX_NOTE_LENGTH characters: line breaks and tabs allowed. */
function note(label: string) {
  return multiLine(label, {
    max: MAX_NOTE_LENGTH,
    messages: { type: `${label} must be text`, max: fewer(label, MAX_NOTE_LENGTH) },
  });
}

function isoDate(message: string) {
  return z.iso.date({ error: message });
}

/**
 * Today as YYYY-MM-DD, one day behind UTC so a client in US time zones (behind UTC) may pick
 * their own "today" late in the evening.
 */
export function earliestNeededBy(now = new Date()): string {
  return new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/**
 * Every field of a survey request without cross-field checks: the island picks per-step
 * subsets from it (`.pick()` refuses refined schemas). The API uses SurveyRequestSchema.
 */
export const SurveyRequestFieldsSchema = SurveyDetailsFieldsSchema.extend({
  requestId: z.uuid({ error: "requestId must be a UUID" }),
  address: singleLine("Address", {
    min: 5,
    max: 300,
    messages: {
      type: "Enter the property address",
      min: "Enter the full property address",
      max: "Address must be 300 characters or fewer",
    },
  }),
  formattedAddress: optional(
    singleLine("Formatted address", {
      max: 300,
      messages: { type: "Formatted address must be text", max: fewer("Formatted address", 300) },
    }),
  ),
  placeId: optional(
    singleLine("Place id", {
      max: 300,
      messages: { type: "Place id must be text", max: fewer("Place id", 300) },
    }),
  ),
  lat: z
    .number({ error: "Latitude must be a number" })
    .min(-90, { error: "Latitude must be between -90 and 90" })
    .max(90, { error: "Latitude must be between -90 and 90" })
    .optional(),
  lng: z
    .number({ error: "Longitude must be a number" })
    .min(-180, { error: "Longitude must be between -180 and 180" })
    .max(180, { error: "Longitude must be between -180 and 180" })
    .optional(),
  purpose: z.enum(SURVEY_PURPOSES, { error: "Choose what the survey is for" }),
  neededBy: optional(isoDate("Needed-by must be a date (YYYY-MM-DD)")),
  accessNotes: optional(note("Access notes")),
  contactName: singleLine("Contact name", {
    min: 1,
    max: 120,
    messages: {
      type: "Enter a contact name",
      min: "Enter a contact name",
      max: "Contact name must be 120 characters or fewer",
    },
  }),
  contactPhone: singleLine("Phone number", {
    min: 7,
    max: 40,
    messages: {
      type: "Enter a contact phone number",
      min: "Enter a valid phone number",
      max: "Phone number must be 40 characters or fewer",
    },
  })
    .regex(/^[0-9+().\s/-]+((x|ext\.?)\s*\d{1,6})?$/i, { error: "Enter a valid phone number" }),
  contactEmail: optional(
    singleLine("Contact email", {
      max: 254,
      messages: { type: "Enter a valid email address", max: "Enter a valid email address" },
    }).pipe(z.email({ error: "Enter a valid email address" })),
  ),
  notes: optional(note("Notes")),
});

/**
 * `POST /api/surveys` body. Unknown keys (a price, a status, a client id) are dropped: the
 * server prices the request itself. So are the details the survey type does not use, and the
 * ones it does use are required as in SurveyDetailsSchema. lat and lng come together or not
 * at all; neededBy is not in the past (see earliestNeededBy).
 */
export const SurveyRequestSchema = z.preprocess(
  withoutUnusedFactors,
  SurveyRequestFieldsSchema.superRefine(requireFactors, { when: () => true }).superRefine(
    checkRequest,
  ),
);

function checkRequest(value: z.output<typeof SurveyRequestFieldsSchema>, ctx: z.RefinementCtx) {
  if ((value.lat === undefined) !== (value.lng === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: [value.lat === undefined ? "lat" : "lng"],
      message: "Send both latitude and longitude, or neither",
    });
  }
  if (value.neededBy && value.neededBy < earliestNeededBy()) {
    ctx.addIssue({
      code: "custom",
      path: ["neededBy"],
      message: "Needed-by date cannot be in the past",
    });
  }
}

/** A validated survey request (the schema's output). */
export type SurveyRequest = z.infer<typeof SurveyRequestSchema>;
/** A survey request as the browser sends it. */
export type SurveyRequestInput = z.input<typeof SurveyRequestFieldsSchema>;

/**
 * The surveyor of the survey's open assignment, as its client and admins see it. While
 * `status` is "offered" the surveyor has not accepted yet: pages say so instead of calling
 * them assigned.
 */
export interface AssignedSurveyor {
  surveyorId: string;
  /** The licensed principal's name, when the record has one. */
  name: string | null;
  companyName: string;
  phone: string | null;
  licenseNumber: string | null;
  /** The licence's state: the survey's when licensed there, else the first. */
  licenseState: string | null;
  agreedPriceCents: number;
  /** "completed" once the job is delivered (the open statuses before). */
  status: "offered" | "accepted" | "scheduled" | "completed";
  /** The booked visit day (YYYY-MM-DD), once scheduled. */
  scheduledDate: string | null;
  /**
   * "claim": the surveyor took the job at the client's quote; "proposal": the client accepted the
   * surveyor's proposal; "admin": Meridian assigned it.
   */
  source: "claim" | "admin" | "proposal";
  /** The places provider's star rating and review count, when known. */
  rating: number | null;
  reviewCount: number | null;
  /** Stars and count of the Meridian clients' reviews of this surveyor. */
  meridianRatingSum: number;
  meridianReviewCount: number;
}

/** A survey request as the API returns it (dates as ISO strings). */
export interface Survey {
  id: string;
  status: SurveyStatus;
  surveyType: SurveyType;
  address: string;
  formattedAddress: string | null;
  lat: number | null;
  lng: number | null;
  propertyType: PropertyType;
  /** Null when the survey type does not use it (lib/survey_options.ts SURVEY_TYPE_FACTORS). */
  acreage: number | null;
  terrain: Terrain | null;
  vegetation: Vegetation | null;
  /** 0 when the survey type does not use it. */
  structures: number;
  cornersToSet: number;
  cornersKnown: boolean | null;
  rush: RushLevel;
  state: StateCode;
  altaItems: AltaItemId[];
  purpose: SurveyPurpose;
  /** YYYY-MM-DD or null. */
  neededBy: string | null;
  accessNotes: string | null;
  contactName: string;
  contactPhone: string;
  contactEmail: string | null;
  notes: string | null;
  /** Null when the type needs a manual quote (subdivision). */
  quotedPriceCents: number | null;
  /** The full breakdown the request was quoted with; never recomputed. */
  quote: Quote;
  pricingConfigVersion: number | null;
  discountCode: string | null;
  discountCents: number;
  /** YYYY-MM-DD or null. */
  surveyedDate: string | null;
  /** YYYY-MM-DD or null. */
  completedDate: string | null;
  /** YYYY-MM-DD or null. */
  scheduledDate: string | null;
  /** ISO timestamp. */
  createdAt: string;
  /** ISO timestamp. */
  updatedAt: string;
  clientId: string;
  clientName: string;
  assignedSurveyor: AssignedSurveyor | null;
}

/**
 * What a request's card on the client dashboard shows of it (components/survey/SurveyCard.tsx),
 * all that db/surveys.ts `listClientSurveysWithEvents` reads.
 */
export type DashboardSurvey = Pick<
  Survey,
  | "id"
  | "status"
  | "surveyType"
  | "address"
  | "formattedAddress"
  | "quotedPriceCents"
  | "quote"
  | "scheduledDate"
  | "createdAt"
  | "assignedSurveyor"
>;

/** The actor a client's timeline names for every change the client did not make. */
export const SUPPORT_ACTOR_NAME = "Meridian support";

/**
 * One status change in a survey's timeline. fromStatus is null for the creation event.
 *
 * As a client receives it: only notes written for the client, and `SUPPORT_ACTOR_NAME` for
 * anyone but the client (db/surveys.ts filters before the data leaves the database).
 */
export interface SurveyEvent {
  id: string;
  fromStatus: SurveyStatus | null;
  toStatus: SurveyStatus;
  note: string | null;
  /** Whether the client sees `note` (false for internal notes and events without one). */
  isNoteVisibleToClient: boolean;
  /** Who made the change; null when the account no longer exists (admins' view only). */
  actorName: string | null;
  /** ISO timestamp. */
  createdAt: string;
}

/** Largest page of `GET /api/surveys`. */
export const MAX_PAGE_SIZE = 100;
/** Page size when none is asked for. */
export const DEFAULT_PAGE_SIZE = 20;

/** `GET /api/surveys` query: filters (admin) and paging (everyone). Dates filter createdAt. */
export const SurveyListQuerySchema = z.object({
  status: optional(z.enum(SURVEY_STATUSES, { error: "Unknown status" })),
  surveyType: optional(z.enum(SURVEY_TYPES, { error: "Unknown survey type" })),
  from: optional(isoDate("from must be a date (YYYY-MM-DD)")),
  to: optional(isoDate("to must be a date (YYYY-MM-DD)")),
  q: optional(
    singleLine("Search", { max: 200, messages: { max: fewer("Search", 200) } }),
  ),
  page: z.coerce
    .number({ error: "page must be a number" })
    .int({ error: "page must be a whole number" })
    .min(1, { error: "page must be 1 or more" })
    .max(100_000, { error: "page is too large" })
    .default(1),
  pageSize: z.coerce
    .number({ error: "pageSize must be a number" })
    .int({ error: "pageSize must be a whole number" })
    .min(1, { error: "pageSize must be 1 or more" })
    .max(MAX_PAGE_SIZE, { error: "pageSize must be 100 or fewer" })
    .default(DEFAULT_PAGE_SIZE),
});

/** Validated list query. */
export type SurveyListQuery = z.infer<typeof SurveyListQuerySchema>;

/** `GET /api/surveys` response. */
export interface SurveyListResponse {
  surveys: Survey[];
  total: number;
  page: number;
  pageSize: number;
}

/** `GET /api/surveys/{id}` response: the survey and its timeline, oldest first. */
export interface SurveyDetailResponse {
  survey: Survey;
  events: SurveyEvent[];
}

/**
 * `PATCH /api/surveys/{id}/status` body. surveyedDate is required when marking surveyed and
 * completedDate when completing (the route checks, since it depends on the target status).
 */
export const SurveyStatusUpdateSchema = z.object({
  status: z.enum(SURVEY_STATUSES, { error: "Unknown status" }),
  surveyedDate: optional(isoDate("Surveyed date must be a date (YYYY-MM-DD)")),
  completedDate: optional(isoDate("Completed date must be a date (YYYY-MM-DD)")),
  scheduledDate: optional(isoDate("Scheduled date must be a date (YYYY-MM-DD)")),
  /** An admin's note is internal unless this is true; a client's own note is always theirs. */
  isNoteVisibleToClient: z.boolean({ error: "Note visibility must be true or false" })
    .optional(),
  note: optional(note("Note")),
});

/** Validated status update. */
export type SurveyStatusUpdate = z.infer<typeof SurveyStatusUpdateSchema>;

/** `POST /api/surveys/delete-multiple` body. */
export const DeleteSurveysSchema = z.object({
  ids: z
    .array(z.uuid({ error: "Each id must be a survey id" }), { error: "ids must be a list" })
    .min(1, { error: "Select at least one survey" })
    .max(MAX_PAGE_SIZE, { error: "Delete at most 100 surveys at a time" }),
});

/** A notification as `GET /api/notifications` returns it. */
export interface Notification {
  id: string;
  kind:
    | "survey_requested"
    | "survey_status_changed"
    | "lead_offered"
    | "dispatch_unmatched"
    | "lead_bought"
    | "lead_claimed"
    | "surveyor_assigned"
    | "assignment_status_changed"
    | "refund_decided"
    | "low_balance"
    | "surveyor_joined"
    | "technician_assigned"
    | "technician_unassigned"
    | "survey_delivered"
    | "surveyor_reviewed"
    | "proposal_received"
    | "proposal_accepted"
    | "proposal_declined"
    | "refund_requested"
    | "lead_won"
    | "message_received"
    | "review_replied";
  title: string;
  body: string;
  /** Site-relative path of the related page, or null. */
  link: string | null;
  isRead: boolean;
  /** ISO timestamp. */
  createdAt: string;
  readAt: string | null;
}

/** `GET /api/notifications` response. */
export interface NotificationListResponse {
  notifications: Notification[];
  unreadCount: number;
  page: number;
  pageSize: number;
  hasMore: boolean;
}
