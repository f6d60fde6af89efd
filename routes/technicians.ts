import type { Context } from "hono";
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { auditContext, requireRole } from "./_auth.ts";
import { ACTION_LIMITS, enforceActionLimits, perAccount, perRecipient } from "./_limits.ts";
import { INVITATION_VALID_DAYS } from "./surveyor_accounts.ts";
import type { Db } from "../db/client.ts";
import { getSurveyorIdForUser } from "../db/assignments.ts";
import { getFieldworkAccess } from "../db/survey_access.ts";
import { isUuid, PROFILE_PHONE_PATTERN } from "../db/users.ts";
import { INVITATION_TTL_MINUTES } from "../db/password_resets.ts";
import { type EmailNotice, emailNotice } from "../lib/mail/delivery.ts";
import {
  getTechnician,
  listTechnicians,
  type TechnicianMember,
  TECHNICIANS_PAGE_SIZE,
  type TechnicianScope,
} from "../db/technicians.ts";
import {
  assignTechnicianInTx,
  assignTechnicianProps,
  inviteTechnicianInTx,
  removeTechnicianInTx,
  resendTechnicianInvitationInTx,
  TECHNICIAN_MESSAGES,
  TechnicianError,
} from "../lib/technicians.ts";
import { CREW_NOTES_MAX } from "../lib/technician_constants.ts";
import { generatePassword, hashPassword } from "../lib/passwords.ts";
import { hashToken, randomToken, revokeUserSessions } from "../lib/sessions.ts";
import { multiLine, singleLine } from "../lib/text.ts";

// Malformed ids name nothing: the lookups answer 404 for them without a query.
const SurveyParam = z.object({ surveyId: z.string().max(100) });
const TechnicianParam = z.object({ technicianId: z.string().max(100) });

const unset = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const phone = singleLine("Phone", { max: 30 })
  .refine((v) => v === "" || PROFILE_PHONE_PATTERN.test(v), {
    error: "Enter a valid phone number",
  })
  .transform((v) => v || null);

/** `POST /api/technicians`: who joins the crew. `surveyorId` is the admin's choice of firm. */
const InviteInput = z.object({
  fullName: singleLine("Full name", { min: 1, max: 100 }),
  email: singleLine("Email", {
    min: 1,
    max: 254,
    messages: { min: "Enter the technician's email address", max: "Enter a valid email address" },
  }).pipe(z.email({ error: "Enter a valid email address" })),
  phone: phone.nullable().optional(),
  // null: Meridian staff. A surveyor may leave it out (their own firm) or name their own.
  surveyorId: z.string().max(100).nullable().optional(),
}).strict();

/** `PATCH /api/surveys/{surveyId}/assign-technician` (spec §3: technicianId, notes). */
const AssignInput = z.object({
  // Not shaped like an id is a validation error (400), not an unknown technician (404).
  technicianId: z.string({ error: "Choose a technician" }).regex(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    { error: "Choose a technician" },
  ),
  notes: multiLine("Notes", { max: CREW_NOTES_MAX }).nullable().optional(),
}).strict();

const ListQuery = z.object({
  // A firm's id, or "staff" for Meridian's own technicians; an admin without it sees everyone.
  surveyorId: z.preprocess(unset, singleLine("surveyorId", { max: 100 }).optional()),
  page: z.coerce.number({ error: "page must be a number" })
    .int({ error: "page must be a whole number" })
    .min(1, { error: "page must be at least 1" })
    .max(10_000, { error: "page is too large" })
    .default(1),
}).strict();

/** The actions take no input but the id: a body sent anyway is refused, not ignored. */
const noBody = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.raw.body && (await c.req.text()).trim() !== "") {
    throw new HTTPException(400, { message: "This request takes no body" });
  }
  await next();
});

async function refusalsAsHttp<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof TechnicianError) {
      throw new HTTPException(err.status, { message: err.message });
    }
    throw err;
  }
}

function notFound(message: string): never {
  throw new HTTPException(404, { message });
}

/** The caller's own firm (a surveyor), or a 404 when their account has no record. */
async function ownFirm(c: Context<AppEnv>, db: Db = c.var.db): Promise<string> {
  const id = await getSurveyorIdForUser(db, { userId: c.var.user!.id });
  if (!id) notFound(TECHNICIAN_MESSAGES.noFirm);
  return id;
}

/**
 * The technician `technicianId` if the caller may manage them (an admin: anyone; a surveyor:
 * their own firm's), locked in `tx`; else a 404.
 */
async function manageable(
  c: Context<AppEnv>,
  tx: Db,
  technicianId: string,
): Promise<TechnicianMember> {
  const technician = await getTechnician(tx, { userId: technicianId, lock: true });
  if (!technician) notFound(TECHNICIAN_MESSAGES.technicianNotFound);
  if (c.var.user!.role !== "admin" && technician.surveyorId !== await ownFirm(c, tx)) {
    notFound(TECHNICIAN_MESSAGES.technicianNotFound);
  }
  return technician;
}

/** Who an invitation says it comes from. */
function inviterName(c: Context<AppEnv>): string {
  const user = c.var.user!;
  return user.role === "admin" ? "The Meridian team" : user.fullName;
}

/** What the invitation answer says about its email (queued; sent only with a mail server). */
function invitationNotice(c: Context<AppEnv>, emailId: string, to: string): EmailNotice {
  return emailNotice(c.var.deps.config, {
    emailId,
    isAdmin: c.var.user!.role === "admin",
    what: `The invitation to ${to}`,
  });
}

/** A fresh set-password token, its hash and link. */
async function invitationLink(c: Context<AppEnv>) {
  const token = randomToken(32);
  const url = new URL("/reset-password", c.var.deps.config.PUBLIC_URL);
  url.searchParams.set("token", token);
  return {
    tokenHash: await hashToken(token),
    setPasswordUrl: url.href,
    validDays: INVITATION_VALID_DAYS,
    ttlMinutes: INVITATION_TTL_MINUTES,
    inviterName: inviterName(c),
  };
}

/**
 * Technicians (issue 12; lib/technicians.ts has the rules):
 *
 * - `GET /api/technicians?surveyorId=&page=` → `{technicians, total, page, pageSize}`: a
 *   surveyor's own crew; an admin's choice (a firm's id, `staff`, or everyone).
 * - `POST /api/technicians` `{fullName, email, phone?, surveyorId?}` → 201
 *   `{message, email, technician}`: the account, the crew row and the 7-day set-password email
 *   (`email`: an EmailNotice, queued or not sent for want of a mail server, and for admins the
 *   message's outbox page; `message` is its sentence). A
 *   surveyor invites to their own firm; an admin names the firm, or null for Meridian staff.
 *   An email that already has an account → 409.
 * - `POST /api/technicians/{technicianId}/invite`: a fresh link for someone who never signed in.
 * - `DELETE /api/technicians/{technicianId}`: off the firm; their open jobs end and the account
 *   is disabled (sessions revoked).
 * - `GET /api/surveys/{surveyId}/technicians` → `{technicians, current}`: whom the caller may
 *   assign to the survey (the AssignTechnician island's choices).
 * - `PATCH /api/surveys/{surveyId}/assign-technician` `{technicianId, notes}` →
 *   `{message: "Technician assigned", assignment}`.
 *
 * Surveyors and admins only; anything the caller may not see or use is a 404 `{message}`.
 */
export const technicians = new Hono<AppEnv>()
  .get(
    "/api/technicians",
    requireRole("admin", "surveyor"),
    zValidator("query", ListQuery, onInvalid),
    async (c) => {
      const { surveyorId, page } = c.req.valid("query");
      let scope: TechnicianScope;
      if (c.var.user!.role === "admin") {
        scope = surveyorId === undefined
          ? { all: true }
          : surveyorId === "staff"
          ? { staff: true }
          : { surveyorId };
      } else {
        const own = await ownFirm(c);
        if (surveyorId !== undefined && surveyorId.toLowerCase() !== own) {
          notFound(TECHNICIAN_MESSAGES.firmNotFound);
        }
        scope = { surveyorId: own };
      }
      const result = await listTechnicians(c.var.db, { scope, page });
      return c.json({ ...result, page, pageSize: TECHNICIANS_PAGE_SIZE });
    },
  )
  .post(
    "/api/technicians",
    requireRole("admin", "surveyor"),
    zValidator("json", InviteInput, onInvalid),
    async (c) => {
      const input = c.req.valid("json");
      let surveyorId: string | null;
      if (c.var.user!.role === "admin") {
        if (input.surveyorId === undefined) {
          throw new HTTPException(400, { message: TECHNICIAN_MESSAGES.firmRequired });
        }
        surveyorId = input.surveyorId === null ? null : input.surveyorId.toLowerCase();
        if (surveyorId !== null && !isUuid(surveyorId)) {
          notFound(TECHNICIAN_MESSAGES.firmNotFound);
        }
      } else {
        surveyorId = await ownFirm(c);
        if (input.surveyorId != null && input.surveyorId.toLowerCase() !== surveyorId) {
          notFound(TECHNICIAN_MESSAGES.firmNotFound);
        }
      }
      await enforceActionLimits(c, "invitations", [
        perAccount(c, "technician_invites", ACTION_LIMITS.technicianInvites),
        await perRecipient("invites_by_recipient", input.email, ACTION_LIMITS.invitesPerRecipient),
      ]);
      // The argon2 hash of a password nobody knows is computed outside the transaction.
      const passwordHash = await hashPassword(generatePassword());
      const link = await invitationLink(c);
      const { invitationEmailId, ...technician } = await refusalsAsHttp(
        c.var.db.begin((tx) =>
          inviteTechnicianInTx(tx, {
            fullName: input.fullName,
            email: input.email,
            phone: input.phone ?? null,
            surveyorId,
            passwordHash,
            ...link,
            audit: auditContext(c),
          })
        ),
      );
      const email = invitationNotice(c, invitationEmailId, technician.email);
      return c.json({ message: email.text, email, technician }, 201);
    },
  )
  .post(
    "/api/technicians/:technicianId/invite",
    requireRole("admin", "surveyor"),
    zValidator("param", TechnicianParam, onInvalid),
    noBody,
    async (c) => {
      const { technicianId } = c.req.valid("param");
      const link = await invitationLink(c);
      const { technician, emailId } = await refusalsAsHttp(c.var.db.begin(async (tx) => {
        const technician = await manageable(c, tx, technicianId);
        // Counted once the recipient is known; a 429 rolls back and nothing is queued.
        await enforceActionLimits(c, "invitations", [
          perAccount(c, "technician_invites", ACTION_LIMITS.technicianInvites),
          await perRecipient(
            "invites_by_recipient",
            technician.email,
            ACTION_LIMITS.invitesPerRecipient,
          ),
        ]);
        const emailId = await resendTechnicianInvitationInTx(tx, technician, link);
        return { technician, emailId };
      }));
      const email = invitationNotice(c, emailId, technician.email);
      return c.json({ message: email.text, email, technician });
    },
  )
  .delete(
    "/api/technicians/:technicianId",
    requireRole("admin", "surveyor"),
    zValidator("param", TechnicianParam, onInvalid),
    noBody,
    async (c) => {
      const { technicianId } = c.req.valid("param");
      const ended = await refusalsAsHttp(c.var.db.begin(async (tx) => {
        const technician = await manageable(c, tx, technicianId);
        const ended = await removeTechnicianInTx(tx, technician, auditContext(c));
        // Before the commit, so a KV outage (503) leaves the technician as they were.
        await revokeUserSessions(c.var.kv, technician.id);
        return ended;
      }));
      return c.json({
        message: TECHNICIAN_MESSAGES.removed,
        endedJobs: ended.map((j) => j.surveyId),
      });
    },
  )
  .get(
    "/api/surveys/:surveyId/technicians",
    requireRole("admin", "surveyor"),
    zValidator("param", SurveyParam, onInvalid),
    async (c) => {
      const { surveyId } = c.req.valid("param");
      const user = c.var.user!;
      const access = await getFieldworkAccess(c.var.db, { surveyId, user });
      if (!access || (access.as !== "admin" && access.as !== "surveyor")) {
        notFound(TECHNICIAN_MESSAGES.surveyNotFound);
      }
      const props = await assignTechnicianProps(c.var.db, {
        surveyId: access.survey.id,
        as: access.as,
        workingSurveyorId: access.survey.workingSurveyorId,
      });
      return c.json({ technicians: props.technicians, current: props.current });
    },
  )
  .patch(
    "/api/surveys/:surveyId/assign-technician",
    requireRole("admin", "surveyor"),
    zValidator("param", SurveyParam, onInvalid),
    zValidator("json", AssignInput, onInvalid),
    async (c) => {
      const { surveyId } = c.req.valid("param");
      const { technicianId, notes } = c.req.valid("json");
      const user = c.var.user!;
      const { assignment } = await refusalsAsHttp(c.var.db.begin((tx) =>
        assignTechnicianInTx(tx, {
          surveyId,
          technicianId,
          notes: notes ?? null,
          user: { id: user.id, role: user.role },
          actorId: c.var.session?.impersonatorId ?? user.id,
          publicUrl: c.var.deps.config.PUBLIC_URL,
        })
      ));
      return c.json({ message: TECHNICIAN_MESSAGES.assigned, assignment });
    },
  );
