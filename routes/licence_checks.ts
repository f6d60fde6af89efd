import { Hono } from "hono";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { auditContext, requireRole } from "./_auth.ts";
import { insertAuditEvent } from "../db/audit.ts";
import { isUuid } from "../db/users.ts";
import {
  decideLicenceNumber,
  decideLicenceState,
  firmExists,
  listLicenceChecks,
  lockFirm,
  rejectFirstLicenceCheck,
} from "../db/surveyor_licences.ts";
import { verifySurveyor } from "../db/claim_tokens.ts";
import { stateNames } from "../lib/surveyor_licence.ts";
import {
  notifyJoinDecision,
  notifyLicenceDecision,
  notifyLicenceVerified,
  type QueuedEmail,
} from "../lib/surveyor_verification.ts";
import { emailNotice } from "../lib/mail/delivery.ts";
import { singleLine } from "../lib/text.ts";
import { STATE_CODES, type StateCode } from "../lib/survey_options.ts";

/** What the licence check API answers with. */
export const LICENCE_CHECK_MESSAGES = {
  notFound: "Surveyor not found",
  noStateRequest: "No licence check is waiting for this state; reload the queue.",
  noNumberRequest:
    "This licence number is no longer waiting for a check (decided, withdrawn or changed by the surveyor); reload the queue.",
  noFirstCheck:
    "This firm is no longer waiting for its first licence check (already decided, or paused); reload the queue.",
} as const;

const Decision = z.enum(["verify", "reject"], {
  error: "Choose verify or reject",
});

const StateParam = z.object({
  id: z.string(),
  state: z.string(),
});
const IdParam = z.object({ id: z.string() });
const StateDecision = z.strictObject({ decision: Decision });
const NumberDecision = z.strictObject({
  decision: Decision,
  licenseNumber: singleLine("Licence number", {
    min: 1,
    max: 60,
    messages: { min: "Give the licence number you checked" },
  }),
});

function notFound(): never {
  throw new HTTPException(404, { message: LICENCE_CHECK_MESSAGES.notFound });
}

// Only admins decide licences: signed out 401; for anyone else these firms do not exist (404).
const adminOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.user) throw new HTTPException(401, { message: "Authentication required" });
  if (c.var.user.role !== "admin") notFound();
  await next();
});

// An unknown firm is a 404 whatever the body says (so is a firm the caller may not see).
const knownFirm = createMiddleware<AppEnv>(async (c, next) => {
  const id = c.req.param("id") ?? "";
  if (!isUuid(id) || !await firmExists(c.var.db, { id })) notFound();
  await next();
});

// The deciding admin (the real one while impersonating).
function adminId(c: Context<AppEnv>): string {
  return c.var.session?.impersonatorId ?? c.var.user!.id;
}

/**
 * The admins' licence check of states and numbers asked for by verified firms (issue 20;
 * lib/surveyor_licence.ts has the rule). Admins only: signed out 401; the queue is a 403 for any
 * other role (like every admin list), a decision a 404 (the firm is not theirs to see).
 *
 * - `GET /api/licence-checks` → `{checks, total}`: firms with a pending state or number, oldest
 *   request first.
 * - `POST /api/surveyors/{id}/licence-states/{state}` `{decision: "verify"|"reject"}` → `{message}`:
 *   verified, the state counts from now; rejected, it stays closed. The surveyor is told (bell)
 *   and the decision is audited. 409 when no request for the state waits; 404 for an unknown firm.
 * - `POST /api/surveyors/{id}/licence-number` `{decision, licenseNumber}` (the number checked)
 *   → `{message}`: verified, it replaces the firm's number; rejected, the firm keeps its number.
 *   409 when that number no longer waits (the surveyor changed or withdrew it meanwhile).
 * - `POST /api/surveyors/{id}/licence` `{decision}` → `{message, email}`: the first licence
 *   check of a firm that joined (status pending, with an account). Verified, the firm is active
 *   and leads are open to it (the LicenceVerified email); rejected, the firm is paused (no
 *   leads, no public page) and told why (the SurveyorJoinDecided email). Both ring the bell;
 *   `email` is the EmailNotice of the email queued (never "sent" without a mail server), null
 *   for a firm without an account to tell. 409 when the firm no longer waits for its first check.
 */
export const licenceChecks = new Hono<AppEnv>()
  .get("/api/licence-checks", requireRole("admin"), async (c) => {
    return c.json(await listLicenceChecks(c.var.db));
  })
  .post(
    "/api/surveyors/:id/licence",
    adminOnly,
    knownFirm,
    zValidator("param", IdParam, onInvalid),
    zValidator("json", StateDecision, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const { decision } = c.req.valid("json");
      const by = adminId(c);
      const publicUrl = c.var.deps.config.PUBLIC_URL;
      const { firm, email } = await c.var.db.begin(async (tx) => {
        const firm = await lockFirm(tx, { id });
        if (!firm) notFound();
        const decided = firm.userId !== null &&
          (decision === "verify"
            ? await verifySurveyor(tx, { id, adminId: by })
            : await rejectFirstLicenceCheck(tx, { id }));
        if (!decided) {
          throw new HTTPException(409, { message: LICENCE_CHECK_MESSAGES.noFirstCheck });
        }
        const email: QueuedEmail | null = decision === "verify"
          ? await notifyLicenceVerified(tx, { userId: firm.userId!, publicUrl })
          : await notifyJoinDecision(tx, {
            userId: firm.userId!,
            companyName: firm.companyName,
            decision: "rejected",
            publicUrl,
          });
        await insertAuditEvent(tx, {
          event: "surveyor_licence_decided",
          ...auditContext(c),
          targetId: firm.userId,
          details: { surveyorId: id, firstCheck: true, decision },
        });
        return { firm, email };
      });
      return c.json({
        message: decision === "verify"
          ? `Licence verified — ${firm.companyName} can now buy leads`
          : `${firm.companyName}'s licence was rejected: the firm is paused and told in the app.`,
        email: email &&
          emailNotice(c.var.deps.config, {
            emailId: email.emailId,
            isAdmin: true,
            what: `The email to ${email.to}`,
          }),
      });
    },
  )
  .post(
    "/api/surveyors/:id/licence-states/:state",
    adminOnly,
    knownFirm,
    zValidator("param", StateParam, onInvalid),
    zValidator("json", StateDecision, onInvalid),
    async (c) => {
      const { id, state: raw } = c.req.valid("param");
      const { decision } = c.req.valid("json");
      if (!isUuid(id)) notFound();
      const state = raw.toUpperCase() as StateCode;
      const by = adminId(c);
      const firm = await c.var.db.begin(async (tx) => {
        const firm = await lockFirm(tx, { id });
        if (!firm) notFound();
        // Not a state: no request for it can be waiting.
        if (!STATE_CODES.includes(state)) {
          throw new HTTPException(409, { message: LICENCE_CHECK_MESSAGES.noStateRequest });
        }
        if (!await decideLicenceState(tx, { surveyorId: id, state, decision, adminId: by })) {
          throw new HTTPException(409, { message: LICENCE_CHECK_MESSAGES.noStateRequest });
        }
        if (firm.userId) {
          await notifyLicenceDecision(tx, { userId: firm.userId, decision, state });
        }
        await insertAuditEvent(tx, {
          event: "surveyor_licence_decided",
          ...auditContext(c),
          targetId: firm.userId,
          details: { surveyorId: id, state, decision },
        });
        return firm;
      });
      const name = stateNames([state]);
      return c.json({
        message: decision === "verify"
          ? `${firm.companyName}'s ${name} licence is verified: leads there are open to them.`
          : `${firm.companyName}'s ${name} licence was rejected; they have been told.`,
      });
    },
  )
  .post(
    "/api/surveyors/:id/licence-number",
    adminOnly,
    knownFirm,
    zValidator("param", IdParam, onInvalid),
    zValidator("json", NumberDecision, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const { decision, licenseNumber } = c.req.valid("json");
      if (!isUuid(id)) notFound();
      const firm = await c.var.db.begin(async (tx) => {
        const firm = await lockFirm(tx, { id });
        if (!firm) notFound();
        const decided = await decideLicenceNumber(tx, {
          surveyorId: id,
          licenceNumber: licenseNumber,
          decision,
        });
        if (!decided) {
          throw new HTTPException(409, { message: LICENCE_CHECK_MESSAGES.noNumberRequest });
        }
        if (firm.userId) {
          await notifyLicenceDecision(tx, {
            userId: firm.userId,
            decision,
            number: licenseNumber,
          });
        }
        await insertAuditEvent(tx, {
          event: "surveyor_licence_decided",
          ...auditContext(c),
          targetId: firm.userId,
          details: {
            surveyorId: id,
            licenceNumber: licenseNumber,
            previousNumber: firm.licenseNumber,
            decision,
          },
        });
        return firm;
      });
      return c.json({
        message: decision === "verify"
          ? `Licence number ${licenseNumber} verified for ${firm.companyName}.`
          : `Licence number ${licenseNumber} rejected; ${firm.companyName} keeps ${
            firm.licenseNumber ?? "no number"
          } and has been told.`,
      });
    },
  );
