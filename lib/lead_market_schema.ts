/**
 * The lead-market API contract, shared by the server and the islands: what a surveyor sees of
 * a lead before and after buying it, purchases and their pipeline, assignments and their
 * lifecycle, returns, and the billing history. Types plus the zod inputs.
 *
 * Personal data rule: before a surveyor has bought or claimed a lead, nothing that names or
 * reaches the client (name, phone, email, street address, parcel owner, notes) leaves the
 * server — `LeadSummary` has no field that could hold it. `UnlockedLead` adds them.
 */
import { z } from "zod";
import type { SurveyType } from "./survey_types.ts";
import type { StateCode } from "./survey_options.ts";
import type { Quote } from "./pricing.ts";
import type { LeadPriceInputs } from "./lead_pricing.ts";
import type { SurveyStatus } from "./survey_status.ts";
import { multiLine, singleLine } from "./text.ts";
import { REFUND_REASONS, type RefundReason } from "./refund_constants.ts";
import { ASSIGNMENT_STATUSES, type AssignmentStatus } from "./assignment_constants.ts";

/** A buyer's own pipeline for a purchased lead. */
export const PIPELINE_STATUSES = ["new", "contacted", "quoted", "won", "lost"] as const;
/** A purchase's pipeline status. */
export type PipelineStatus = typeof PIPELINE_STATUSES[number];
/** Label per pipeline status. */
export const PIPELINE_LABELS: Record<PipelineStatus, string> = {
  new: "New",
  contacted: "Contacted",
  quoted: "Quoted",
  won: "Won",
  lost: "Lost",
};

// Zod-free, so islands can import them (lib/assignment_constants.ts).
export {
  ASSIGNMENT_LABELS,
  ASSIGNMENT_STATUSES,
  type AssignmentStatus,
  OPEN_ASSIGNMENT_STATUSES,
} from "./assignment_constants.ts";

// Zod-free, so islands can import them (lib/refund_constants.ts).
export {
  REFUND_REASON_LABELS,
  REFUND_REASONS,
  REFUND_REQUEST_DAYS,
  type RefundReason,
} from "./refund_constants.ts";

/** A lead as any eligible surveyor sees it before buying: no personal data at all. */
export interface LeadSummary {
  id: string;
  surveyId: string;
  surveyType: SurveyType;
  /** Town or county (from the formatted address), state and ZIP; never the street. */
  city: string | null;
  county: string | null;
  state: StateCode;
  zip: string | null;
  /**
   * Whole miles from the viewing surveyor's office to the lead's public point (`approxLat`,
   * `approxLng`), when both are located: never measured from the exact property point.
   */
  distanceMiles: number | null;
  /** Rounded to 0.01° (about 1 km) for the map (never the exact parcel point). */
  approxLat: number | null;
  approxLng: number | null;
  acreage: number | null;
  propertyType: string;
  /** YYYY-MM-DD or null. */
  neededBy: string | null;
  rush: string;
  /** The client's instant quote; null for a type quoted by hand (subdivision). */
  quotedPriceCents: number | null;
  priceCents: number;
  /** The lead price's formula in plain words. */
  formula: string;
  pricing: LeadPriceInputs;
  maxBuyers: number;
  buyersCount: number;
  status: "open" | "closed";
  /** ISO timestamps. */
  createdAt: string;
  expiresAt: string;
  /** Claiming is offered: a priced type and nobody bought it yet. */
  canClaim: boolean;
  /** What a claim would cost this surveyor (0 for a welcome claim). */
  claimFeeCents: number;
  /** The viewer's own relation to it. */
  viewer: { purchased: "buy" | "claim" | null; dismissed: boolean };
}

/** A lead the surveyor bought or claimed: everything unlocked. */
export interface UnlockedLead extends LeadSummary {
  purchaseId: string;
  kind: "buy" | "claim";
  chargedCents: number;
  pipelineStatus: PipelineStatus;
  pipelineNote: string | null;
  /** ISO timestamp of the purchase. */
  purchasedAt: string;
  refundedAt: string | null;
  /**
   * Why the client's details are withheld, or null while the purchase unlocks them: a refunded
   * purchase unlocks nothing (lib/refund_constants.ts `refundedDetailsNotice`), and then
   * `client`, `address`, `formattedAddress`, `lat`, `lng`, `parcel`, `accessNotes` and `notes`
   * are null.
   */
  detailsHidden: string | null;
  client: { name: string; phone: string; email: string | null } | null;
  address: string | null;
  formattedAddress: string | null;
  lat: number | null;
  lng: number | null;
  parcel: unknown;
  accessNotes: string | null;
  notes: string | null;
  purpose: string;
  quote: Quote;
  surveyStatus: SurveyStatus;
  /** The open or last assignment of this surveyor on the survey, if any. */
  assignment: Assignment | null;
  /** A pending return request, if any. */
  refundRequest:
    | { id: string; reason: RefundReason; status: "pending" | "approved" | "denied" }
    | null;
}

/** A surveyor assigned to a survey. */
export interface Assignment {
  id: string;
  surveyId: string;
  surveyorId: string;
  companyName: string;
  agreedPriceCents: number;
  status: AssignmentStatus;
  /** "proposal": the client accepted the surveyor's proposal (lib/proposals.ts). */
  source: "claim" | "admin" | "proposal";
  /** YYYY-MM-DD or null. */
  scheduledDate: string | null;
  endedReason: string | null;
  /** ISO timestamps. */
  createdAt: string;
  updatedAt: string;
}

/** `POST /api/surveys/{surveyId}/assign/{surveyorId}` body: dollars, as the spec names it. */
export const AssignSurveyorSchema = z.object({
  agreedPrice: z.number({ error: "Agreed price must be a number" })
    .positive({ error: "Agreed price must be more than $0" })
    .max(1_000_000, { error: "Agreed price must be at most $1,000,000" })
    .refine(
      (v) =>
        Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-6,
      {
        error: "Agreed price must be in dollars and cents",
      },
    ),
  reason: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    singleLine("Reason", { max: 500 }).optional(),
  ),
}).strict();

/** `PATCH /api/surveys/{surveyId}/assignment/{surveyorId}/status` body. */
export const AssignmentStatusSchema = z.object({
  status: z.enum(ASSIGNMENT_STATUSES, { error: "Unknown assignment status" }),
  /** Required when scheduling: the field visit's day, YYYY-MM-DD. */
  scheduledDate: z.iso.date({ error: "Scheduled date must be a date (YYYY-MM-DD)" }).optional(),
  reason: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    singleLine("Reason", { max: 500 }).optional(),
  ),
}).strict();

/** `PATCH /api/purchased-leads/{id}`: the buyer's pipeline. */
export const PipelineUpdateSchema = z.object({
  pipelineStatus: z.enum(PIPELINE_STATUSES, { error: "Unknown pipeline status" }).optional(),
  pipelineNote: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : v),
    multiLine("Note", { max: 2000 }).nullable().optional(),
  ),
}).strict().refine((v) => Object.keys(v).length > 0, { error: "Nothing to update" });

/** `POST /api/purchased-leads/{id}/refund-request`. */
export const RefundRequestSchema = z.object({
  reason: z.enum(REFUND_REASONS, { error: "Choose a reason" }),
  note: multiLine("Note", { min: 1, max: 2000 }),
}).strict();
