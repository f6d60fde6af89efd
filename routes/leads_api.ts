import { Hono } from "hono";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { requireRole } from "./_auth.ts";
import { ACTION_LIMITS, enforceActionLimits, perAccount } from "./_limits.ts";
import {
  buyLead,
  claimLead,
  dismissLead,
  getLeadForSurveyor,
  getPurchasedLead,
  getSurveyorForUser,
  LEAD_MARKET_MESSAGES,
  LeadMarketError,
  LEADS_PAGE_SIZE,
  listAvailableLeads,
  listPurchasedLeads,
  type MarketSurveyor,
  updatePipeline,
} from "../db/lead_market.ts";
import { PipelineUpdateSchema } from "../lib/lead_market_schema.ts";
import { SURVEY_TYPES } from "../lib/survey_types.ts";
import { MAX_SERVICE_RADIUS_MILES } from "../lib/surveyor_constants.ts";

/** Messages the lead API answers with besides db/lead_market.ts LEAD_MARKET_MESSAGES. */
export const LEADS_API_MESSAGES = {
  noProfile: "No surveyor profile is linked to your account yet",
  noBody: "This request takes no body",
  purchased: "Lead purchased",
  claimed: "Lead claimed — you are assigned to this survey",
  hidden: "Lead hidden",
  saved: "Saved",
} as const;

const IdParam = z.object({ id: z.string().max(100) });

const unset = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const page = z.coerce.number({ error: "page must be a number" })
  .int({ error: "page must be a whole number" })
  .min(1, { error: "page must be at least 1" })
  .max(10_000, { error: "page is too large" })
  .default(1);

/** `GET /api/leads` query: a survey type, a distance in miles from the office, a page. */
export const LeadListQuerySchema = z.object({
  surveyType: z.preprocess(
    unset,
    z.enum(SURVEY_TYPES, { error: "Unknown survey type" }).optional(),
  ),
  maxDistance: z.preprocess(
    unset,
    z.coerce.number({ error: "maxDistance must be a number of miles" })
      .positive({ error: "maxDistance must be more than 0 miles" })
      .max(MAX_SERVICE_RADIUS_MILES, {
        error: `maxDistance must be at most ${MAX_SERVICE_RADIUS_MILES} miles`,
      })
      .optional(),
  ),
  page,
}).strict();

const PageQuery = z.object({ page }).strict();

/** The actions take no input but the id: a body sent anyway is refused, not ignored. */
const noBody = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.raw.body && (await c.req.text()).trim() !== "") {
    throw new HTTPException(400, { message: LEADS_API_MESSAGES.noBody });
  }
  await next();
});

// Buys and claims share one per-account limit (routes/_limits.ts): 429 before anything is taken.
const limitLeadTakes = createMiddleware<AppEnv>(async (c, next) => {
  await enforceActionLimits(c, "lead purchases", [
    perAccount(c, "lead_takes", ACTION_LIMITS.leadTakes),
  ]);
  await next();
});

function notFound(): never {
  throw new HTTPException(404, { message: LEAD_MARKET_MESSAGES.notFound });
}

/** The surveyor record linked to the signed-in account, or 404 with how to get one. */
async function surveyorOf(c: Context<AppEnv>): Promise<MarketSurveyor> {
  const surveyor = await getSurveyorForUser(c.var.db, { userId: c.var.user!.id });
  if (!surveyor) throw new HTTPException(404, { message: LEADS_API_MESSAGES.noProfile });
  return surveyor;
}

function actorOf(c: Context<AppEnv>): string {
  return c.var.session?.impersonatorId ?? c.var.user!.id;
}

async function asHttp<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof LeadMarketError) {
      throw new HTTPException(err.status, { message: err.message });
    }
    throw err;
  }
}

/**
 * The optional `Idempotency-Key` header of buy and claim: a UUID the client makes once per
 * intent (one click of Buy) and sends again on every retry of it.
 */
const TakeHeaders = z.object({
  "idempotency-key": z.uuid({ error: "Idempotency-Key must be a UUID" }).optional(),
});

/**
 * Buy or claim (`action`) lead `leadId` for the signed-in surveyor: 201 with `message`, the
 * unlocked lead and the balance after the charge; a refusal of the lead market is its 4xx.
 * With `requestId`, a retry answers the same 201 as the request that bought (charged once).
 * The answer is built inside the purchase's transaction: once it commits, nothing can fail.
 */
async function take(
  c: Context<AppEnv>,
  leadId: string,
  action: typeof buyLead | typeof claimLead,
  message: string,
  requestId: string | undefined,
): Promise<Response> {
  const surveyor = await surveyorOf(c);
  const result = await asHttp(
    action(c.var.db, {
      leadId,
      surveyorId: surveyor.id,
      actorId: actorOf(c),
      publicUrl: c.var.deps.config.PUBLIC_URL,
      requestId,
    }),
  );
  return c.json({ message, lead: result.lead, balanceCents: result.balanceAfterCents }, 201);
}

/**
 * The lead market API (surveyors only; the surveyor is the record linked to the signed-in
 * account — none linked → 404 `{message: "No surveyor profile is linked to your account yet"}`):
 *
 * - `GET /api/leads?surveyType=&maxDistance=&page=` → `{leads: LeadSummary[], total, page,
 *   pageSize, balanceCents}`: open leads they may take, newest first (no personal data).
 * - `GET /api/leads/{id}` → `{lead: LeadSummary, balanceCents}`; 404 unless visible to them.
 * - `POST /api/leads/{id}/buy` → 201 `{message: "Lead purchased", lead: UnlockedLead,
 *   balanceCents}`.
 * - `POST /api/leads/{id}/claim` → 201 `{message: "Lead claimed — you are assigned to this
 *   survey", lead: UnlockedLead, balanceCents}`.
 * - `POST /api/leads/{id}/dismiss` → `{message: "Lead hidden"}` (idempotent, free).
 * - `GET /api/purchased-leads?page=` → `{leads: UnlockedLead[], total, page, pageSize}`.
 * - `GET /api/purchased-leads/{id}` → `{lead: UnlockedLead}` (by lead id; only their own).
 * - `PATCH /api/purchased-leads/{id}` (PipelineUpdateSchema) → `{message: "Saved", lead}`.
 *
 * Buy and claim take an optional `Idempotency-Key: <uuid>` header (not a UUID → 400): a retry
 * with the same key after a lost answer gets the first request's 201 (same purchase, same
 * balance, charged once), also when it races the first; the key reused for another lead or
 * action → 422.
 *
 * Buy, claim and dismiss take no body (one sent → 400). Refusals: 404 unknown lead (or, for
 * reads and dismiss, one they may not see; another surveyor's purchase), 409 closed / sold
 * out / already theirs / not eligible with the reason, 402 balance too low ("Your balance is
 * $12.00; this lead costs $38.50. Add credit to buy it."): nothing charged or stored.
 */
export const leadsApi = new Hono<AppEnv>()
  .get(
    "/api/leads",
    requireRole("surveyor"),
    zValidator("query", LeadListQuerySchema, onInvalid),
    async (c) => {
      const surveyor = await surveyorOf(c);
      const query = c.req.valid("query");
      const { leads, total } = await listAvailableLeads(c.var.db, {
        surveyorId: surveyor.id,
        surveyType: query.surveyType,
        maxDistanceMiles: query.maxDistance,
        page: query.page,
        pageSize: LEADS_PAGE_SIZE,
      });
      return c.json({
        leads,
        total,
        page: query.page,
        pageSize: LEADS_PAGE_SIZE,
        balanceCents: surveyor.balanceCents,
      });
    },
  )
  .get(
    "/api/leads/:id",
    requireRole("surveyor"),
    zValidator("param", IdParam, onInvalid),
    async (c) => {
      const surveyor = await surveyorOf(c);
      const lead = await getLeadForSurveyor(c.var.db, {
        leadId: c.req.valid("param").id,
        surveyorId: surveyor.id,
      });
      if (!lead) notFound();
      return c.json({ lead, balanceCents: surveyor.balanceCents });
    },
  )
  .post(
    "/api/leads/:id/buy",
    requireRole("surveyor"),
    zValidator("param", IdParam, onInvalid),
    zValidator("header", TakeHeaders, onInvalid),
    noBody,
    limitLeadTakes,
    (c) =>
      take(
        c,
        c.req.valid("param").id,
        buyLead,
        LEADS_API_MESSAGES.purchased,
        c.req.valid("header")["idempotency-key"],
      ),
  )
  .post(
    "/api/leads/:id/claim",
    requireRole("surveyor"),
    zValidator("param", IdParam, onInvalid),
    zValidator("header", TakeHeaders, onInvalid),
    noBody,
    limitLeadTakes,
    (c) =>
      take(
        c,
        c.req.valid("param").id,
        claimLead,
        LEADS_API_MESSAGES.claimed,
        c.req.valid("header")["idempotency-key"],
      ),
  )
  .post(
    "/api/leads/:id/dismiss",
    requireRole("surveyor"),
    zValidator("param", IdParam, onInvalid),
    noBody,
    async (c) => {
      const surveyor = await surveyorOf(c);
      await asHttp(
        dismissLead(c.var.db, { leadId: c.req.valid("param").id, surveyorId: surveyor.id }),
      );
      return c.json({ message: LEADS_API_MESSAGES.hidden });
    },
  )
  .get(
    "/api/purchased-leads",
    requireRole("surveyor"),
    zValidator("query", PageQuery, onInvalid),
    async (c) => {
      const surveyor = await surveyorOf(c);
      const { page } = c.req.valid("query");
      const { leads, total } = await listPurchasedLeads(c.var.db, {
        surveyorId: surveyor.id,
        page,
        pageSize: LEADS_PAGE_SIZE,
      });
      return c.json({ leads, total, page, pageSize: LEADS_PAGE_SIZE });
    },
  )
  .get(
    "/api/purchased-leads/:id",
    requireRole("surveyor"),
    zValidator("param", IdParam, onInvalid),
    async (c) => {
      const surveyor = await surveyorOf(c);
      const lead = await getPurchasedLead(c.var.db, {
        leadId: c.req.valid("param").id,
        surveyorId: surveyor.id,
      });
      if (!lead) notFound();
      return c.json({ lead });
    },
  )
  .patch(
    "/api/purchased-leads/:id",
    requireRole("surveyor"),
    zValidator("param", IdParam, onInvalid),
    zValidator("json", PipelineUpdateSchema, onInvalid),
    async (c) => {
      const surveyor = await surveyorOf(c);
      // One transaction: the change and the admins' 'Lead won' notification land together.
      const lead = await c.var.db.begin((tx) =>
        updatePipeline(tx, {
          leadId: c.req.valid("param").id,
          surveyorId: surveyor.id,
          update: c.req.valid("json"),
        })
      );
      if (!lead) notFound();
      return c.json({ message: LEADS_API_MESSAGES.saved, lead });
    },
  );
