/**
 * Bodies of the proposal API (routes/proposals.ts): a price in whole dollars, the earliest
 * visit day (today or later, within a year), the turnaround in business days and a message.
 */
import { z } from "zod";
import { multiLine } from "./text.ts";
import {
  PROPOSAL_DECLINE_REASON_MAX,
  PROPOSAL_MAX_DAYS_AHEAD,
  PROPOSAL_MAX_PRICE_CENTS,
  PROPOSAL_MAX_TURNAROUND_DAYS,
  PROPOSAL_MESSAGE_MAX,
} from "./proposal_constants.ts";
import { formatCents } from "./quote_text.ts";
import { todayInHawaii } from "./us_days.ts";

const PRICE_WHOLE = "Price must be a whole number of dollars (priceCents a multiple of 100)";
const TURNAROUND =
  `Turnaround must be a whole number of business days from 1 to ${PROPOSAL_MAX_TURNAROUND_DAYS}`;
const DATE = "Earliest visit date must be a date (YYYY-MM-DD)";

/**
 * Today's date (YYYY-MM-DD) in Hawaii, the last US time zone to start a day: a visit day before
 * it is in the past everywhere a survey can be (the same rule as a scheduled visit).
 */
export function todayInUs(now = new Date()): string {
  return todayInHawaii(now);
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const priceCents = z.number({ error: "Price is required (priceCents, in cents)" })
  .int({ error: PRICE_WHOLE })
  .positive({ error: "Price must be more than $0" })
  .max(PROPOSAL_MAX_PRICE_CENTS, {
    error: `Price must be at most ${formatCents(PROPOSAL_MAX_PRICE_CENTS)}`,
  })
  .refine((v) => v % 100 === 0, { error: PRICE_WHOLE });

const earliestVisitDate = z.iso.date({ error: DATE })
  .refine((v) => v >= todayInUs(), { error: "Earliest visit date cannot be in the past" })
  .refine((v) => v <= addDays(todayInUs(), PROPOSAL_MAX_DAYS_AHEAD), {
    error: "Earliest visit date must be within a year",
  });

const turnaroundDays = z.number({ error: TURNAROUND })
  .int({ error: TURNAROUND })
  .min(1, { error: TURNAROUND })
  .max(PROPOSAL_MAX_TURNAROUND_DAYS, { error: TURNAROUND });

const message = multiLine("Message", {
  min: 1,
  max: PROPOSAL_MESSAGE_MAX,
  messages: { min: "Write the client a message: what is included and what you need from them" },
});

/** `POST /api/purchased-leads/{leadId}/proposal` body. */
export const ProposalSchema = z.object({
  priceCents,
  earliestVisitDate,
  turnaroundDays,
  message,
}).strict();

/** `PATCH /api/purchased-leads/{leadId}/proposal` body: any of the fields, at least one. */
export const ProposalUpdateSchema = ProposalSchema.partial().strict().refine(
  (v) => Object.values(v).some((x) => x !== undefined),
  { error: "Nothing to change: give priceCents, earliestVisitDate, turnaroundDays or message" },
);

/** `POST /api/surveys/{id}/proposals/{proposalId}/decline` body. */
export const ProposalDeclineSchema = z.object({
  reason: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    multiLine("Reason", { max: PROPOSAL_DECLINE_REASON_MAX }).optional(),
  ),
}).strict();
