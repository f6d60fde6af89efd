import { Hono } from "hono";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { requireRole, requireUser } from "./_auth.ts";
import {
  applySurveyStatusChange,
  deleteSurveys,
  getSurveyByRequestId,
  getSurveyForUser,
  insertSurvey,
  insertSurveyEvent,
  listSurveyEvents,
  listSurveys,
  lockClientSubmissions,
  lockSurvey,
} from "../db/surveys.ts";
import { notifyAdmins } from "../db/notifications.ts";
import { fillEmptyPhone } from "../db/users.ts";
import { getActivePricingConfig } from "../db/pricing.ts";
import { checkDiscountCode, redeemDiscountCode } from "../db/discounts.ts";
import { priceSurvey } from "../lib/pricing.ts";
import { queueAdminNewSurveyEmail, queueSurveyConfirmationEmail } from "../lib/mail/emails.ts";
import {
  DeleteSurveysSchema,
  type Survey,
  SurveyListQuerySchema,
  SurveyRequestSchema,
} from "../lib/survey_schema.ts";
import {
  canTransition,
  deliveryBlockers,
  requiredDateField,
  transitionError,
} from "../lib/survey_status.ts";
import {
  deliveredNotice,
  deliveryState,
  FieldStatusUpdateSchema,
  FIELDWORK_MESSAGES,
  followDelivery,
  getDeliveryParty,
  latestFieldDate,
  overrideNote,
  recordFieldworkStart,
} from "../lib/fieldwork.ts";
import { type FieldworkSurvey, getFieldworkAccess } from "../db/survey_access.ts";
import { SURVEY_TYPE_INFO } from "../lib/survey_types.ts";
import { enqueueSurveyDispatch } from "../lib/jobs.ts";
import { refundPurchasesForSurveys } from "../lib/refunds.ts";
import { AssignmentError, endAssignmentForCancelledSurveyInTx } from "../lib/assignments.ts";
import type { ParcelData } from "../lib/parcels/provider.ts";
import type { Db } from "../db/client.ts";

/** Spec section 8: what a signed-out visitor is told when submitting a request. */
export const SUBMIT_AUTH_MESSAGE =
  "Authentication required. Please complete the registration process before submitting.";

/** Messages the survey API answers with. */
export const SURVEY_MESSAGES = {
  submitted: "Survey request submitted",
  clientsOnly: "Only client accounts can request surveys.",
  notFound: "Survey not found",
  listForbidden: "You do not have permission to list surveys.",
  statusUpdated: "Status updated",
  scheduledDateRequired: "Scheduled date is required when marking a survey as scheduled.",
  surveyedDateRequired: "Surveyed date is required when marking a survey as surveyed.",
  completedDateRequired: "Completed date is required when marking a survey as completed.",
  completedBeforeSurveyed: "Completed date cannot be before the surveyed date.",
  changedMeanwhile: "This survey's status changed in the meantime. Reload and try again.",
  deleted: "Survey deleted",
  cancelled: "Survey request cancelled",
  noneDeleted: "None of the selected surveys exist.",
} as const;

/** What a status change missing the date its status needs (`requiredDateField`) is told. */
const DATE_REQUIRED = {
  scheduledDate: SURVEY_MESSAGES.scheduledDateRequired,
  surveyedDate: SURVEY_MESSAGES.surveyedDateRequired,
  completedDate: SURVEY_MESSAGES.completedDateRequired,
} as const;

/** POST /api/surveys guard: the spec's 401 text when signed out; clients only. */
const requireClientForSubmit = createMiddleware<AppEnv>(async (c, next) => {
  const user = c.var.user;
  if (!user) throw new HTTPException(401, { message: SUBMIT_AUTH_MESSAGE });
  if (user.role !== "client") {
    throw new HTTPException(403, { message: SURVEY_MESSAGES.clientsOnly });
  }
  await next();
});

const IdParam = z.object({ id: z.string().max(100) });

// A retried submission that found the first one's survey.
class DuplicateSubmission extends Error {}

/** Who acts: the admin behind an impersonation, else the signed-in user. */
function actorId(c: Context<AppEnv>): string {
  return c.var.session?.impersonatorId ?? c.var.user!.id;
}

// A cancelled request keeps no live job: its open assignment ends ("Request cancelled") and the
// surveyor is told, in the cancelling transaction (after the survey moved to cancelled).
async function endOpenAssignment(
  tx: Db,
  c: Context<AppEnv>,
  surveyId: string,
): Promise<void> {
  try {
    await endAssignmentForCancelledSurveyInTx(tx, {
      surveyId,
      actorId: actorId(c),
      publicUrl: c.var.deps.config.PUBLIC_URL,
    });
  } catch (err) {
    if (err instanceof AssignmentError) {
      throw new HTTPException(err.status, { message: err.message });
    }
    throw err;
  }
}

/** What the status API answers the crew: the survey's status and its days, nothing else. */
function crewSurveyView(survey: FieldworkSurvey) {
  return {
    id: survey.id,
    status: survey.status,
    scheduledDate: survey.scheduledDate,
    surveyedDate: survey.surveyedDate,
    completedDate: survey.completedDate,
  };
}

function absoluteUrl(c: Context<AppEnv>, path: string): string {
  return new URL(path, c.var.deps.config.PUBLIC_URL).href;
}

function surveyPath(id: string): string {
  return `/survey/${id}`;
}

/** Longest a submission waits for parcel data before going on without it. */
export const PARCEL_LOOKUP_TIMEOUT_MS = 3000;

/**
 * Best-effort parcel data for a new request (Regrid when configured): looked up by the
 * coordinates, else the address, before the transaction opens. A slow or failing provider
 * never blocks a submission; the request is stored without parcel data instead.
 */
async function lookupParcel(
  c: Context<AppEnv>,
  body: { lat?: number; lng?: number; address: string; formattedAddress?: string },
): Promise<ParcelData | undefined> {
  const provider = c.var.deps.parcels;
  if (!provider.isConfigured) return undefined;
  const query = body.lat !== undefined && body.lng !== undefined
    ? { lat: body.lat, lng: body.lng }
    : { address: body.formattedAddress ?? body.address };
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      provider.lookup(query),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), PARCEL_LOOKUP_TIMEOUT_MS);
      }),
    ]);
  } catch (err) {
    console.warn(`[${c.var.requestId}] parcel lookup failed: ${(err as Error).message}`);
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Survey requests API.
 *
 * - `POST /api/surveys` (clients): prices the request on the server, redeems the discount,
 *   stores it with its quote, event, emails, notifications and (AUTO_DISPATCH) its dispatch
 *   job in one transaction. 201 the first time; 200 with the same survey for a retried
 *   `requestId`.
 * - `GET /api/surveys` (clients: their own; admins: all, filtered) and `GET /api/surveys/{id}`
 *   (owner or admin; anyone else 404).
 * - `PATCH /api/surveys/{id}/status`: legal transitions for the caller's role only: the
 *   client cancels, the crew starts fieldwork, marks surveyed and (the surveyor) completes
 *   under the delivery rules, admins move anything forward and override those rules with a
 *   note (lib/survey_status.ts, lib/fieldwork.ts). Anyone not on the survey gets a 404.
 * - `DELETE /api/surveys/{id}` (admin deletes; the owning client cancels before assignment)
 *   and `POST /api/surveys/delete-multiple` (admins).
 */
export const surveys = new Hono<AppEnv>()
  .post(
    "/api/surveys",
    requireClientForSubmit,
    zValidator("json", SurveyRequestSchema, onInvalid),
    async (c) => {
      const body = c.req.valid("json");
      const user = c.var.user!;
      const db = c.var.db;
      const existing = await getSurveyByRequestId(db, {
        clientId: user.id,
        requestId: body.requestId,
      });
      if (existing) return c.json({ message: SURVEY_MESSAGES.submitted, survey: existing }, 200);

      const id = crypto.randomUUID();
      const parcel = await lookupParcel(c, body);
      let survey: Survey | undefined;
      try {
        survey = await db.begin(async (tx) => {
          await lockClientSubmissions(tx, { clientId: user.id });
          if (await getSurveyByRequestId(tx, { clientId: user.id, requestId: body.requestId })) {
            throw new DuplicateSubmission();
          }
          const { version, config } = await getActivePricingConfig(tx);
          // A code can only change a priced quote; a quote-required request keeps its use.
          let discount = null;
          if (body.discountCode && !priceSurvey(config, body).quoteRequired) {
            const check = await checkDiscountCode(tx, {
              code: body.discountCode,
              clientId: user.id,
            });
            if (!check.ok) throw new HTTPException(400, { message: check.message });
            discount = check.discount;
          }
          const quote = priceSurvey(config, body, discount);
          quote.configVersion = version;

          // Emails and notifications first: rendering takes a while, and the rows locked
          // below (the discount code, the survey counters) are shared with other clients'
          // submissions, so they are taken last and held only until the commit.
          const typeName = SURVEY_TYPE_INFO[body.surveyType].name;
          const address = body.formattedAddress ?? body.address;
          await queueSurveyConfirmationEmail(tx, {
            to: user.email,
            name: user.fullName,
            surveyId: id,
            address,
            surveyTypeName: typeName,
            quotedPriceCents: quote.totalCents,
            publicUrl: c.var.deps.config.PUBLIC_URL,
          });
          const admins = await notifyAdmins(tx, {
            kind: "survey_requested",
            title: "New survey request",
            body: `${user.fullName} requested a ${typeName} for ${address}.`,
            link: surveyPath(id),
          });
          for (const admin of admins) {
            await queueAdminNewSurveyEmail(tx, {
              to: admin.email,
              surveyId: id,
              clientName: user.fullName,
              address,
              surveyTypeName: typeName,
              adminUrl: absoluteUrl(c, surveyPath(id)),
              isAutoDispatch: c.var.deps.config.AUTO_DISPATCH,
            });
          }

          if (discount) {
            // The check above only read; this counts the use atomically (a code with one use
            // left goes to exactly one of two simultaneous submissions). A code's kind and
            // value never change once created, so the quote priced from the check stands.
            const redeemed = await redeemDiscountCode(tx, {
              code: body.discountCode!,
              clientId: user.id,
              surveyId: id,
            });
            if (!redeemed.ok) throw new HTTPException(400, { message: redeemed.message });
          }
          const inserted = await insertSurvey(tx, {
            id,
            clientId: user.id,
            request: body,
            quote,
            pricingConfigVersion: version,
            parcel,
          });
          if (!inserted) throw new DuplicateSubmission();
          await fillEmptyPhone(tx, { id: user.id, phone: body.contactPhone });
          await insertSurveyEvent(tx, {
            surveyId: id,
            actorId: actorId(c),
            fromStatus: null,
            toStatus: "requested",
          });
          // Matching and notifying run in a durable job, committed with the request (so a
          // stored request always has its dispatch) and never inside the client's request.
          if (c.var.deps.config.AUTO_DISPATCH) {
            await enqueueSurveyDispatch(tx, { surveyId: id });
          }
          // The answer is read inside the transaction: after the commit nothing may fail and
          // turn a stored request into an error (its client would retry a request that exists).
          return await getSurveyForUser(tx, { id, user });
        });
      } catch (err) {
        if (!(err instanceof DuplicateSubmission)) throw err;
        const first = await getSurveyByRequestId(db, {
          clientId: user.id,
          requestId: body.requestId,
        });
        if (!first) throw err;
        return c.json({ message: SURVEY_MESSAGES.submitted, survey: first }, 200);
      }
      return c.json({ message: SURVEY_MESSAGES.submitted, survey: survey as Survey }, 201);
    },
  )
  .get(
    "/api/surveys",
    requireUser,
    zValidator("query", SurveyListQuerySchema, onInvalid),
    async (c) => {
      const user = c.var.user!;
      if (user.role !== "admin" && user.role !== "client") {
        throw new HTTPException(403, { message: SURVEY_MESSAGES.listForbidden });
      }
      const query = c.req.valid("query");
      const { surveys, total } = await listSurveys(c.var.db, {
        ...query,
        clientId: user.role === "client" ? user.id : undefined,
      });
      return c.json({ surveys, total, page: query.page, pageSize: query.pageSize });
    },
  )
  .post(
    "/api/surveys/delete-multiple",
    requireRole("admin"),
    zValidator("json", DeleteSurveysSchema, onInvalid),
    async (c) => {
      const { ids } = c.req.valid("json");
      const unique = [...new Set(ids)];
      const deleted = await c.var.db.begin(async (tx) => {
        // Returns first: deleting a survey cascades its lead and purchases (lib/refunds.ts).
        await refundPurchasesForSurveys(tx, {
          surveyIds: unique,
          reason: "request_removed",
          closeAs: "removed",
          actorId: actorId(c),
          publicUrl: c.var.deps.config.PUBLIC_URL,
        });
        return await deleteSurveys(tx, { ids: unique });
      });
      if (deleted === 0) throw new HTTPException(404, { message: SURVEY_MESSAGES.noneDeleted });
      return c.json({
        message: deleted === 1 ? "1 survey deleted" : `${deleted} surveys deleted`,
        deleted,
      });
    },
  )
  .get(
    "/api/surveys/:id",
    requireUser,
    zValidator("param", IdParam, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const survey = await getSurveyForUser(c.var.db, { id, user: c.var.user! });
      if (!survey) throw new HTTPException(404, { message: SURVEY_MESSAGES.notFound });
      const events = await listSurveyEvents(c.var.db, {
        surveyId: survey.id,
        viewer: c.var.user!,
      });
      return c.json({ survey, events });
    },
  )
  .patch(
    "/api/surveys/:id/status",
    requireUser,
    zValidator("param", IdParam, onInvalid),
    zValidator("json", FieldStatusUpdateSchema, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const input = c.req.valid("json");
      const user = c.var.user!;
      const field = requiredDateField(input.status);
      const updated = await c.var.db.begin(async (tx) => {
        const survey = await lockSurvey(tx, { id });
        // The client who owns it, the firm doing the job, its technician, admins: anyone else
        // is told the survey does not exist.
        const access = survey && await getFieldworkAccess(tx, { surveyId: survey.id, user });
        if (!survey || !access) {
          throw new HTTPException(404, { message: SURVEY_MESSAGES.notFound });
        }
        const role = access.as;
        if (!canTransition(role, survey.status, input.status)) {
          throw new HTTPException(409, {
            message: transitionError(role, survey.status, input.status),
          });
        }
        if (input.position && input.status !== "in_fieldwork") {
          throw new HTTPException(400, { message: FIELDWORK_MESSAGES.positionOnlyWhenStarting });
        }
        if (field && !input[field]) {
          throw new HTTPException(400, { message: DATE_REQUIRED[field] });
        }
        const surveyed = input.surveyedDate ?? survey.surveyedDate;
        if (input.completedDate && surveyed && input.completedDate < surveyed) {
          throw new HTTPException(400, { message: SURVEY_MESSAGES.completedBeforeSurveyed });
        }
        // The crew reports what happened; admins may record a planned or back-office date.
        const latest = latestFieldDate();
        if (
          role !== "admin" &&
          ((input.surveyedDate ?? "") > latest || (input.completedDate ?? "") > latest)
        ) {
          throw new HTTPException(400, { message: FIELDWORK_MESSAGES.dateInFuture });
        }
        const state = await deliveryState(tx, {
          surveyId: survey.id,
          from: survey.status,
          to: input.status,
        });
        const blockers = deliveryBlockers(survey.status, input.status, state);
        if (blockers.length > 0 && role !== "admin") {
          throw new HTTPException(409, { message: blockers.join(" ") });
        }
        if (blockers.length > 0 && !input.note) {
          throw new HTTPException(400, {
            message: `${FIELDWORK_MESSAGES.noteRequired} ${blockers.join(" ")}`,
          });
        }
        const party = input.status === "completed"
          ? await getDeliveryParty(tx, {
            surveyId: survey.id,
            workingSurveyorId: access.survey.workingSurveyorId,
            deliverables: state.deliverables,
          })
          : undefined;
        const changed = await applySurveyStatusChange(tx, {
          survey,
          to: input.status,
          actorId: actorId(c),
          note: blockers.length > 0 ? overrideNote(blockers, input.note!) : input.note,
          // A client's note is their own; staff choose whether the client reads theirs.
          isNoteVisibleToClient: user.role === "client" ? true : input.isNoteVisibleToClient,
          surveyedDate: input.surveyedDate,
          completedDate: input.completedDate,
          scheduledDate: input.scheduledDate,
          notice: party ? deliveredNotice(party, survey) : undefined,
        });
        if (!changed) throw new HTTPException(409, { message: SURVEY_MESSAGES.changedMeanwhile });
        if (input.status === "in_fieldwork") {
          await recordFieldworkStart(tx, { surveyId: survey.id, position: input.position });
        }
        if (party) {
          await followDelivery(tx, {
            survey,
            party,
            completedDate: input.completedDate!,
            bySurveyor: role === "surveyor",
            publicUrl: c.var.deps.config.PUBLIC_URL,
          });
        }
        if (input.status === "cancelled") {
          await refundPurchasesForSurveys(tx, {
            surveyIds: [survey.id],
            reason: user.role === "client" ? "client_cancelled" : "request_removed",
            closeAs: "cancelled",
            actorId: actorId(c),
            publicUrl: c.var.deps.config.PUBLIC_URL,
          });
          await endOpenAssignment(tx, c, survey.id);
        }
        // Read inside the transaction, as for a new request: a committed change answers 200.
        // The crew gets the survey's status and days (the request itself is the client's).
        if (role === "technician" || role === "surveyor") {
          const after = await getFieldworkAccess(tx, { surveyId: survey.id, user });
          return after && crewSurveyView(after.survey);
        }
        return await getSurveyForUser(tx, { id, user });
      });
      // When the change was answered, by this server's clock to the millisecond, taken after
      // the commit: a device that kept a copy of the field page compares it with the page's
      // renderedAt (islands/_field_memory.ts). The HTTP Date header is no substitute: Deno
      // refreshes it from a timer, so on a busy server it can be a whole second behind.
      const answeredAt = new Date().toISOString();
      return c.json({ message: SURVEY_MESSAGES.statusUpdated, survey: updated, answeredAt });
    },
  )
  .delete(
    "/api/surveys/:id",
    requireUser,
    zValidator("param", IdParam, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const user = c.var.user!;
      if (user.role === "admin") {
        const deleted = await c.var.db.begin(async (tx) => {
          // Returns first: deleting the survey cascades its lead and purchases.
          await refundPurchasesForSurveys(tx, {
            surveyIds: [id],
            reason: "request_removed",
            closeAs: "removed",
            actorId: actorId(c),
            publicUrl: c.var.deps.config.PUBLIC_URL,
          });
          return await deleteSurveys(tx, { ids: [id] });
        });
        if (!deleted) throw new HTTPException(404, { message: SURVEY_MESSAGES.notFound });
        return c.json({ message: SURVEY_MESSAGES.deleted });
      }
      // A client cannot delete history; "deleting" their own request cancels it while that
      // is still allowed.
      await c.var.db.begin(async (tx) => {
        const survey = await lockSurvey(tx, { id });
        if (!survey || survey.clientId !== user.id) {
          throw new HTTPException(404, { message: SURVEY_MESSAGES.notFound });
        }
        if (!canTransition(user.role, survey.status, "cancelled")) {
          throw new HTTPException(409, {
            message: transitionError(user.role, survey.status, "cancelled"),
          });
        }
        const changed = await applySurveyStatusChange(tx, {
          survey,
          to: "cancelled",
          actorId: actorId(c),
        });
        if (!changed) throw new HTTPException(409, { message: SURVEY_MESSAGES.changedMeanwhile });
        await refundPurchasesForSurveys(tx, {
          surveyIds: [survey.id],
          reason: "client_cancelled",
          closeAs: "cancelled",
          actorId: actorId(c),
          publicUrl: c.var.deps.config.PUBLIC_URL,
        });
        await endOpenAssignment(tx, c, survey.id);
      });
      return c.json({ message: SURVEY_MESSAGES.cancelled });
    },
  );
