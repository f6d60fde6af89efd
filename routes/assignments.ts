import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { requireRole } from "./_auth.ts";
import {
  ASSIGNMENT_MESSAGES,
  AssignmentError,
  assignSurveyorInTx,
  updateAssignmentStatusInTx,
} from "../lib/assignments.ts";
import { AssignmentStatusSchema, AssignSurveyorSchema } from "../lib/lead_market_schema.ts";

// Malformed ids name nothing: lib/assignments.ts answers 404 for them without a query.
const Params = z.object({ surveyId: z.string().max(100), surveyorId: z.string().max(100) });

async function refusalsAsHttp<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof AssignmentError) {
      throw new HTTPException(err.status, { message: err.message });
    }
    throw err;
  }
}

/**
 * Surveyor assignment API (spec §7):
 *
 * - `POST /api/surveys/{surveyId}/assign/{surveyorId}` (admins) `{agreedPrice, reason?}`:
 *   agreedPrice in dollars (more than 0, whole cents) → 201
 *   `{message: "Surveyor assigned", assignment}` (status offered: the surveyor accepts or
 *   declines). An open assignment of another surveyor ends with `reason` (default
 *   "Reassigned").
 * - `PATCH /api/surveys/{surveyId}/assignment/{surveyorId}/status` (admins, or the surveyor
 *   whose account is linked to `surveyorId`; another surveyor gets 404)
 *   `{status, scheduledDate?, reason?}` → `{message: "Assignment updated", assignment}`.
 *
 * Unknown survey, surveyor or assignment → 404; a move the lifecycle or the caller's role
 * does not allow, a closed survey, a paused or already assigned surveyor → 409 with the
 * reason; bad input (negative or fractional-cent price, scheduling without a date or in the
 * past) → 400. Everything in one transaction; a refusal writes nothing.
 */
export const assignments = new Hono<AppEnv>()
  .post(
    "/api/surveys/:surveyId/assign/:surveyorId",
    requireRole("admin"),
    zValidator("param", Params, onInvalid),
    zValidator("json", AssignSurveyorSchema, onInvalid),
    async (c) => {
      const { surveyId, surveyorId } = c.req.valid("param");
      const { agreedPrice, reason } = c.req.valid("json");
      const actorId = c.var.session?.impersonatorId ?? c.var.user!.id;
      const assignment = await refusalsAsHttp(c.var.db.begin((tx) =>
        assignSurveyorInTx(tx, {
          surveyId,
          surveyorId,
          // The schema allows whole cents only, so rounding removes float noise, not money.
          agreedPriceCents: Math.round(agreedPrice * 100),
          source: "admin",
          actorId,
          reason,
          publicUrl: c.var.deps.config.PUBLIC_URL,
        })
      ));
      return c.json({ message: ASSIGNMENT_MESSAGES.assigned, assignment }, 201);
    },
  )
  .patch(
    "/api/surveys/:surveyId/assignment/:surveyorId/status",
    requireRole("admin", "surveyor"),
    zValidator("param", Params, onInvalid),
    zValidator("json", AssignmentStatusSchema, onInvalid),
    async (c) => {
      const { surveyId, surveyorId } = c.req.valid("param");
      const input = c.req.valid("json");
      const user = c.var.user!;
      // An admin acting as someone (impersonation) acts with the rights of that account, but
      // the admin is recorded as the actor, as for survey status changes.
      const actorId = c.var.session?.impersonatorId ?? user.id;
      const assignment = await refusalsAsHttp(
        c.var.db.begin((tx) =>
          updateAssignmentStatusInTx(tx, {
            surveyId,
            surveyorId,
            status: input.status,
            scheduledDate: input.scheduledDate,
            reason: input.reason,
            actor: { id: user.id, role: user.role },
            actorId,
            publicUrl: c.var.deps.config.PUBLIC_URL,
          })
        ),
      );
      return c.json({ message: ASSIGNMENT_MESSAGES.updated, assignment });
    },
  );
