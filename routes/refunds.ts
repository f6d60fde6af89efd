import { Hono } from "hono";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { requireRole } from "./_auth.ts";
import { getSurveyorByUserId } from "../db/surveyors.ts";
import { isRefundId, listRefundRequests, REFUND_REQUESTS_MAX_PAGE_SIZE } from "../db/refunds.ts";
import { RefundRequestSchema } from "../lib/lead_market_schema.ts";
import { multiLine } from "../lib/text.ts";
import {
  decideRefundRequest,
  fileRefundRequest,
  REFUND_MESSAGES,
  RefundRuleError,
} from "../lib/refunds.ts";
import { REFUND_NOTE_MAX, REFUND_REQUEST_STATUSES } from "../lib/refund_constants.ts";

/** Return requests per page of the admin queue unless the caller asks for another size. */
export const REFUND_REQUESTS_PAGE_SIZE = 20;

const PAGE_SIZE_ERROR =
  `Page size must be a whole number from 1 to ${REFUND_REQUESTS_MAX_PAGE_SIZE}`;

const ListQuery = z.object({
  status: z.enum(REFUND_REQUEST_STATUSES, {
    error: "Status must be pending, approved or denied",
  }).default("pending"),
  page: z.coerce.number({ error: "Page must be a whole number from 1" })
    .int({ error: "Page must be a whole number from 1" })
    .min(1, { error: "Page must be a whole number from 1" })
    .max(100_000, { error: "Page must be 100,000 or less" })
    .default(1),
  pageSize: z.coerce.number({ error: PAGE_SIZE_ERROR })
    .int({ error: PAGE_SIZE_ERROR })
    .min(1, { error: PAGE_SIZE_ERROR })
    .max(REFUND_REQUESTS_MAX_PAGE_SIZE, { error: PAGE_SIZE_ERROR })
    .default(REFUND_REQUESTS_PAGE_SIZE),
});

/** `POST /api/admin/refund-requests/{id}/decision` body: a denial says why. */
export const RefundDecisionSchema = z.object({
  decision: z.enum(["approve", "deny"], { error: "Decision must be approve or deny" }),
  note: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    multiLine("Note", { max: REFUND_NOTE_MAX }).optional(),
  ),
}).strict().refine((v) => v.decision === "approve" || v.note !== undefined, {
  error: "Say why the return is denied",
  path: ["note"],
});

// Unknown and malformed ids are the same 404: nothing says which it was.
const LeadIdParam = z.object({ leadId: z.string().refine(isRefundId) });
const RequestIdParam = z.object({ id: z.string().refine(isRefundId) });
function notFound(message: string) {
  // deno-lint-ignore no-explicit-any
  return (result: any, c: Context) => {
    if (!result.success) return c.json({ message }, 404);
  };
}

function asHttp(err: unknown): never {
  if (err instanceof RefundRuleError) throw new HTTPException(err.status, { message: err.message });
  throw err;
}

/**
 * Lead returns (lib/refunds.ts has the rules):
 *
 * - `POST /api/purchased-leads/{leadId}/refund-request` (the surveyor who bought the lead;
 *   `leadId` may also be the purchase's id) `{reason, note}` → 201
 *   `{message: "Return requested", request}`; 404 for a lead they did not buy; 409 when it is
 *   already returned, charged nothing, has a request pending or decided, or was bought more
 *   than 14 days ago, or became their job (marked won, or the survey assigned to them).
 * - `GET /api/admin/refund-requests?status=pending&page=&pageSize=` (admins) → a page of
 *   requests with company, lead, amount, reason, note and age, and the total.
 * - `POST /api/admin/refund-requests/{id}/decision` (admins) `{decision, note}` → approve
 *   refunds and answers "Return approved — $38.50 credited", deny answers "Return denied";
 *   the buyer is told either way; a second decision is a 409.
 */
export const refunds = new Hono<AppEnv>()
  .post(
    "/api/purchased-leads/:leadId/refund-request",
    requireRole("surveyor"),
    zValidator("param", LeadIdParam, notFound(REFUND_MESSAGES.leadNotFound)),
    zValidator("json", RefundRequestSchema, onInvalid),
    async (c) => {
      const { leadId } = c.req.valid("param");
      const { reason, note } = c.req.valid("json");
      const surveyor = await getSurveyorByUserId(c.var.db, { userId: c.var.user!.id });
      if (!surveyor) throw new HTTPException(404, { message: REFUND_MESSAGES.leadNotFound });
      const request = await c.var.db.begin((tx) =>
        fileRefundRequest(tx, { leadId, surveyorId: surveyor.id, reason, note })
      ).catch(asHttp);
      return c.json({ message: REFUND_MESSAGES.requested, request }, 201);
    },
  )
  .get(
    "/api/admin/refund-requests",
    requireRole("admin"),
    zValidator("query", ListQuery, onInvalid),
    async (c) => {
      const query = c.req.valid("query");
      const page = await listRefundRequests(c.var.db, query);
      return c.json(page);
    },
  )
  .post(
    "/api/admin/refund-requests/:id/decision",
    requireRole("admin"),
    zValidator("param", RequestIdParam, notFound(REFUND_MESSAGES.requestNotFound)),
    zValidator("json", RefundDecisionSchema, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const { decision, note } = c.req.valid("json");
      const result = await c.var.db.begin((tx) =>
        decideRefundRequest(tx, {
          requestId: id,
          decision,
          note: note ?? null,
          // The admin behind an impersonation is never a surveyor here: requireRole saw admin.
          adminId: c.var.user!.id,
          publicUrl: c.var.deps.config.PUBLIC_URL,
        })
      ).catch(asHttp);
      return c.json(result);
    },
  );
