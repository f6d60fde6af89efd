import { Hono } from "hono";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { requireRole, requireUser } from "./_auth.ts";
import { getSurveyorByUserId } from "../db/surveyors.ts";
import { getSurveyForUser } from "../db/surveys.ts";
import { listSurveyProposals } from "../db/proposals.ts";
import {
  acceptProposal,
  declineProposal,
  ProposalError,
  sendProposal,
  updateProposal,
  withdrawProposal,
} from "../lib/proposals.ts";
import {
  ProposalDeclineSchema,
  ProposalSchema,
  ProposalUpdateSchema,
} from "../lib/proposal_schema.ts";
import { PROPOSAL_MESSAGES } from "../lib/proposal_constants.ts";

// Malformed ids name nothing: the lib answers 404 for them without a query.
const LeadParam = z.object({ leadId: z.string().max(100) });
const SurveyParam = z.object({ id: z.string().max(100) });
const ProposalParam = z.object({ id: z.string().max(100), proposalId: z.string().max(100) });

async function refusalsAsHttp<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof ProposalError) {
      throw new HTTPException(err.status, { message: err.message });
    }
    throw err;
  }
}

/** The signed-in surveyor's record id, or the 404 a surveyor without one gets. */
async function ownSurveyorId(c: Context<AppEnv>): Promise<string> {
  const surveyor = await getSurveyorByUserId(c.var.db, { userId: c.var.user!.id });
  if (!surveyor) throw new HTTPException(404, { message: PROPOSAL_MESSAGES.leadNotFound });
  return surveyor.id;
}

/** Only the owning client answers a proposal; to anyone else the survey does not exist. */
const onlyClients = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.user?.role !== "client") {
    throw new HTTPException(404, { message: PROPOSAL_MESSAGES.surveyNotFound });
  }
  await next();
});

/**
 * Proposals API (issue 22; lib/proposals.ts has the rules):
 *
 * - `POST /api/purchased-leads/{leadId}/proposal` (the surveyor who bought the lead)
 *   `{priceCents, earliestVisitDate, turnaroundDays, message}` → 201
 *   `{message: "Proposal sent", proposal}`; `PATCH` the same path (any of the fields) while it
 *   is pending → `{message: "Proposal updated", proposal}`; `DELETE` withdraws it →
 *   `{message: "Proposal withdrawn", proposal}`. A lead they did not buy: 404. A refunded
 *   purchase, a survey cancelled or with a surveyor, a second pending proposal, nothing
 *   pending to change: 409.
 * - `GET /api/surveys/{id}/proposals` (the owning client, admins) → `{proposals}`.
 * - `POST /api/surveys/{id}/proposals/{proposalId}/accept` (the owning client) →
 *   `{message: "Proposal accepted", proposal, assignment}`; `POST …/decline` `{reason?}` →
 *   `{message: "Proposal declined", proposal}`. 409, changing nothing, when the proposal is no
 *   longer pending or the survey was assigned or cancelled.
 *
 * Anyone else: 404. Bad input: 400 `{message, errors}`. Each change in one transaction.
 */
export const proposals = new Hono<AppEnv>()
  .post(
    "/api/purchased-leads/:leadId/proposal",
    requireRole("surveyor"),
    zValidator("param", LeadParam, onInvalid),
    zValidator("json", ProposalSchema, onInvalid),
    async (c) => {
      const { leadId } = c.req.valid("param");
      const surveyorId = await ownSurveyorId(c);
      const proposal = await refusalsAsHttp(c.var.db.begin((tx) =>
        sendProposal(tx, {
          leadId,
          surveyorId,
          fields: c.req.valid("json"),
          publicUrl: c.var.deps.config.PUBLIC_URL,
        })
      ));
      return c.json({ message: PROPOSAL_MESSAGES.sent, proposal }, 201);
    },
  )
  .patch(
    "/api/purchased-leads/:leadId/proposal",
    requireRole("surveyor"),
    zValidator("param", LeadParam, onInvalid),
    zValidator("json", ProposalUpdateSchema, onInvalid),
    async (c) => {
      const { leadId } = c.req.valid("param");
      const surveyorId = await ownSurveyorId(c);
      const proposal = await refusalsAsHttp(c.var.db.begin((tx) =>
        updateProposal(tx, {
          leadId,
          surveyorId,
          fields: c.req.valid("json"),
          publicUrl: c.var.deps.config.PUBLIC_URL,
        })
      ));
      return c.json({ message: PROPOSAL_MESSAGES.updated, proposal });
    },
  )
  .delete(
    "/api/purchased-leads/:leadId/proposal",
    requireRole("surveyor"),
    zValidator("param", LeadParam, onInvalid),
    async (c) => {
      const { leadId } = c.req.valid("param");
      const surveyorId = await ownSurveyorId(c);
      const proposal = await refusalsAsHttp(
        c.var.db.begin((tx) => withdrawProposal(tx, { leadId, surveyorId })),
      );
      return c.json({ message: PROPOSAL_MESSAGES.withdrawn, proposal });
    },
  )
  .get(
    "/api/surveys/:id/proposals",
    requireUser,
    zValidator("param", SurveyParam, onInvalid),
    async (c) => {
      const user = c.var.user!;
      // Owner and admins only (in the query); a surveyor or technician never owns a survey.
      const survey = user.role === "client" || user.role === "admin"
        ? await getSurveyForUser(c.var.db, { id: c.req.valid("param").id, user })
        : undefined;
      if (!survey) throw new HTTPException(404, { message: PROPOSAL_MESSAGES.surveyNotFound });
      return c.json({ proposals: await listSurveyProposals(c.var.db, { surveyId: survey.id }) });
    },
  )
  .post(
    "/api/surveys/:id/proposals/:proposalId/accept",
    requireUser,
    onlyClients,
    zValidator("param", ProposalParam, onInvalid),
    async (c) => {
      const { id, proposalId } = c.req.valid("param");
      const user = c.var.user!;
      const result = await refusalsAsHttp(c.var.db.begin((tx) =>
        acceptProposal(tx, {
          surveyId: id,
          proposalId,
          clientId: user.id,
          actorId: c.var.session?.impersonatorId ?? user.id,
          publicUrl: c.var.deps.config.PUBLIC_URL,
        })
      ));
      return c.json({ message: PROPOSAL_MESSAGES.accepted, ...result });
    },
  )
  .post(
    "/api/surveys/:id/proposals/:proposalId/decline",
    requireUser,
    onlyClients,
    zValidator("param", ProposalParam, onInvalid),
    zValidator("json", ProposalDeclineSchema, onInvalid),
    async (c) => {
      const { id, proposalId } = c.req.valid("param");
      const { reason } = c.req.valid("json");
      const proposal = await refusalsAsHttp(c.var.db.begin((tx) =>
        declineProposal(tx, {
          surveyId: id,
          proposalId,
          clientId: c.var.user!.id,
          reason: reason ?? null,
          publicUrl: c.var.deps.config.PUBLIC_URL,
        })
      ));
      return c.json({ message: PROPOSAL_MESSAGES.declined, proposal });
    },
  );
