import { Hono } from "hono";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { auditContext, requireRole } from "./_auth.ts";
import { insertAuditEvent } from "../db/audit.ts";
import { getSurveyorVerification } from "../db/claim_tokens.ts";
import { lockSurveyorAccountLink } from "../db/surveyor_accounts.ts";
import { notifyLicenceVerified } from "../lib/surveyor_verification.ts";
import {
  addContact,
  addContactHistory,
  getSurveyor,
  insertSurveyor,
  insertSurveyorFromPlace,
  isSurveyorId,
  listContactHistory,
  listSurveyors,
  listSurveyorWork,
  removeContact,
  TooManyContactsError,
  updateContact,
  updateSurveyor,
} from "../db/surveyors.ts";
import {
  ContactHistorySchema,
  ContactSchema,
  ContactUpdateSchema,
  MAX_CONTACTS,
  NewSurveyorSchema,
  PlaceSchema,
  SurveyorListQuerySchema,
  SurveyorUpdateSchema,
} from "../lib/surveyor_schema.ts";

/** Messages the surveyor API answers with. */
export const SURVEYOR_MESSAGES = {
  notFound: "Surveyor not found",
  contactNotFound: "Contact not found",
  created: "Surveyor created",
  updated: "Surveyor updated",
  historyAdded: "Contact history added",
  contactAdded: "Contact added",
  contactUpdated: "Contact updated",
  contactRemoved: "Contact removed",
  tooManyContacts: `A surveyor can have at most ${MAX_CONTACTS} contacts. Remove one first.`,
  badIndex: "Contact index must be a whole number of 0 or more",
  placeConverted: "Place converted to a surveyor prospect",
  placeExists: "This place is already in the directory",
} as const;

/** How many contact-history entries the detail answer carries. */
export const SURVEYOR_HISTORY_LIMIT = 50;

const IdParam = z.object({ id: z.string().refine(isSurveyorId) });
const ContactParam = z.object({
  id: z.string().refine(isSurveyorId),
  index: z.string(),
});

// A malformed id cannot name a surveyor: the same 404 as an unknown one.
// deno-lint-ignore no-explicit-any
function notFoundOnInvalid(result: any, c: Context) {
  if (!result.success) return c.json({ message: SURVEYOR_MESSAGES.notFound }, 404);
}

function notFound(): never {
  throw new HTTPException(404, { message: SURVEYOR_MESSAGES.notFound });
}

// The contact index from the path: a non-negative integer, else 400.
function contactIndex(raw: string): number {
  if (!/^\d{1,9}$/.test(raw)) {
    throw new HTTPException(400, { message: SURVEYOR_MESSAGES.badIndex });
  }
  return Number(raw);
}

// An edit at an index found nothing: say whether the surveyor or the contact is missing.
async function contactMissing(c: Context<AppEnv>, id: string): Promise<never> {
  if (!(await getSurveyor(c.var.db, { id }))) notFound();
  throw new HTTPException(404, { message: SURVEYOR_MESSAGES.contactNotFound });
}

/**
 * The surveyor directory and CRM API (spec §7), admins only (signed out 401, any other role
 * 403; an unknown or malformed surveyor id 404 `{message: "Surveyor not found"}`):
 *
 * - `GET /api/surveyors` (SurveyorListQuerySchema) → SurveyorListResponse
 * - `GET /api/surveyors/{id}` → `{surveyor, history}` (the latest 50 history entries)
 * - `POST /api/surveyors` (NewSurveyorSchema) → 201 `{message, surveyor}`; a record added as
 *   active is recorded as verified by the admin (active means verified: SURVEYOR_STATUSES)
 * - `PATCH /api/surveyors/{id}` (SurveyorUpdateSchema) → `{message, surveyor}`; setting a
 *   never-verified record active records it as verified by the admin and tells its account;
 *   setting prospect, invited or pending clears the verification
 * - `POST /api/surveyors/{id}/contact-history` (ContactHistorySchema) → 201 `{message, entry}`
 * - `POST /api/surveyors/{id}/contacts` (ContactSchema) → 201 `{message, surveyor}`; a full
 *   list → 409
 * - `PATCH|DELETE /api/surveyors/{id}/contacts/{index}` → `{message, surveyor}`; an index that
 *   is not a non-negative integer → 400, out of range → 404 `{message: "Contact not found"}`
 * - `GET /api/surveys/by-surveyor/{id}` → `{surveyor: {id, companyName}, surveys, leads}`
 * - `POST /api/convert-place-to-surveyor` (PlaceSchema) → 201 new / 200 existing
 *   `{message, surveyor}`
 */
export const surveyors = new Hono<AppEnv>()
  .get(
    "/api/surveyors",
    requireRole("admin"),
    zValidator("query", SurveyorListQuerySchema, onInvalid),
    async (c) => {
      const list = await listSurveyors(c.var.db, c.req.valid("query"));
      return c.json(list);
    },
  )
  .post(
    "/api/surveyors",
    requireRole("admin"),
    zValidator("json", NewSurveyorSchema, onInvalid),
    async (c) => {
      const surveyor = await c.var.db.begin(async (tx) => {
        const created = await insertSurveyor(tx, {
          ...c.req.valid("json"),
          source: "manual",
          verifiedBy: auditContext(c).actorId,
        });
        await insertAuditEvent(tx, {
          event: "surveyor_created",
          ...auditContext(c),
          targetId: created.userId,
          details: { surveyorId: created.id, companyName: created.companyName },
        });
        return created;
      });
      return c.json({ message: SURVEYOR_MESSAGES.created, surveyor }, 201);
    },
  )
  .get(
    "/api/surveyors/:id",
    requireRole("admin"),
    zValidator("param", IdParam, notFoundOnInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const [surveyor, history] = await Promise.all([
        getSurveyor(c.var.db, { id }),
        listContactHistory(c.var.db, { surveyorId: id, limit: SURVEYOR_HISTORY_LIMIT }),
      ]);
      if (!surveyor) notFound();
      return c.json({ surveyor, history });
    },
  )
  .patch(
    "/api/surveyors/:id",
    requireRole("admin"),
    zValidator("param", IdParam, notFoundOnInvalid),
    zValidator("json", SurveyorUpdateSchema, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const update = c.req.valid("json");
      const actorId = auditContext(c).actorId;
      const surveyor = await c.var.db.begin(async (tx) => {
        // Locked first, so of two admins making it active at once one records the verification.
        const before = update.status === "active" &&
          await lockSurveyorAccountLink(tx, { id }) &&
          await getSurveyorVerification(tx, { id });
        const updated = await updateSurveyor(tx, { id, update, actorId });
        if (!updated) return undefined;
        if (before && !before.verifiedAt && updated.userId) {
          await notifyLicenceVerified(tx, {
            userId: updated.userId,
            publicUrl: c.var.deps.config.PUBLIC_URL,
          });
        }
        // Which fields, not their values: the log outlives the record's contact details.
        await insertAuditEvent(tx, {
          event: "surveyor_updated",
          ...auditContext(c),
          targetId: updated.userId,
          details: { surveyorId: id, fields: Object.keys(update).sort().join(",") },
        });
        return updated;
      });
      if (!surveyor) notFound();
      return c.json({ message: SURVEYOR_MESSAGES.updated, surveyor });
    },
  )
  .post(
    "/api/surveyors/:id/contact-history",
    requireRole("admin"),
    zValidator("param", IdParam, notFoundOnInvalid),
    zValidator("json", ContactHistorySchema, onInvalid),
    async (c) => {
      const entry = await addContactHistory(c.var.db, {
        surveyorId: c.req.valid("param").id,
        authorId: c.var.user!.id,
        entry: c.req.valid("json"),
      });
      if (!entry) notFound();
      return c.json({ message: SURVEYOR_MESSAGES.historyAdded, entry }, 201);
    },
  )
  .post(
    "/api/surveyors/:id/contacts",
    requireRole("admin"),
    zValidator("param", IdParam, notFoundOnInvalid),
    zValidator("json", ContactSchema, onInvalid),
    async (c) => {
      let surveyor;
      try {
        surveyor = await addContact(c.var.db, {
          id: c.req.valid("param").id,
          contact: c.req.valid("json"),
        });
      } catch (err) {
        if (err instanceof TooManyContactsError) {
          throw new HTTPException(409, { message: SURVEYOR_MESSAGES.tooManyContacts });
        }
        throw err;
      }
      if (!surveyor) notFound();
      return c.json({ message: SURVEYOR_MESSAGES.contactAdded, surveyor }, 201);
    },
  )
  .patch(
    "/api/surveyors/:id/contacts/:index",
    requireRole("admin"),
    zValidator("param", ContactParam, notFoundOnInvalid),
    zValidator("json", ContactUpdateSchema, onInvalid),
    async (c) => {
      const { id, index: raw } = c.req.valid("param");
      const index = contactIndex(raw);
      const surveyor = await updateContact(c.var.db, { id, index, update: c.req.valid("json") });
      if (!surveyor) return await contactMissing(c, id);
      return c.json({ message: SURVEYOR_MESSAGES.contactUpdated, surveyor });
    },
  )
  .delete(
    "/api/surveyors/:id/contacts/:index",
    requireRole("admin"),
    zValidator("param", ContactParam, notFoundOnInvalid),
    async (c) => {
      const { id, index: raw } = c.req.valid("param");
      const index = contactIndex(raw);
      const surveyor = await removeContact(c.var.db, { id, index });
      if (!surveyor) return await contactMissing(c, id);
      return c.json({ message: SURVEYOR_MESSAGES.contactRemoved, surveyor });
    },
  )
  .get(
    "/api/surveys/by-surveyor/:id",
    requireRole("admin"),
    zValidator("param", IdParam, notFoundOnInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const [surveyor, work] = await Promise.all([
        getSurveyor(c.var.db, { id }),
        listSurveyorWork(c.var.db, { surveyorId: id }),
      ]);
      if (!surveyor) notFound();
      return c.json({
        surveyor: { id: surveyor.id, companyName: surveyor.companyName },
        surveys: work.surveys,
        leads: work.leads,
      });
    },
  )
  .post(
    "/api/convert-place-to-surveyor",
    requireRole("admin"),
    zValidator("json", PlaceSchema, onInvalid),
    async (c) => {
      const p = c.req.valid("json");
      const { surveyor, created } = await insertSurveyorFromPlace(c.var.db, {
        place: {
          ...p,
          address: p.address ?? null,
          city: p.city ?? null,
          state: p.state ?? null,
          zip: p.zip ?? null,
          phone: p.phone ?? null,
          website: p.website ?? null,
          rating: p.rating ?? null,
          reviewCount: p.reviewCount ?? null,
        },
      });
      return created
        ? c.json({ message: SURVEYOR_MESSAGES.placeConverted, surveyor }, 201)
        : c.json({ message: SURVEYOR_MESSAGES.placeExists, surveyor }, 200);
    },
  );
