import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { requireRole } from "./_auth.ts";
import { getSurveyForUser, isSurveyId } from "../db/surveys.ts";
import type { Db } from "../db/client.ts";
import {
  getOpenAssignment,
  listSurveyBuyers,
  listSurveyorNames,
  type SurveyBuyer,
} from "../db/assignments.ts";
import type { Assignment, AssignmentStatus } from "../lib/lead_market_schema.ts";
import type { NearbySurveyorInfo } from "../lib/surveyor_schema.ts";
import { mailDelivery } from "../lib/mail/delivery.ts";
import { dispatchMapHtml } from "../components/DispatchCard.tsx";
import {
  DispatchConflictError,
  findSurveyors,
  getSurveyDispatch,
  notifySurveyors,
} from "../lib/dispatch.ts";

/** Messages the dispatch API answers with besides lib/dispatch.ts DISPATCH_MESSAGES. */
export const DISPATCH_ROUTE_MESSAGES = {
  notFound: "Survey not found",
  noBody: "This request takes no body",
} as const;

const IdParam = z.object({ id: z.string().max(100) });

const FindQuery = z.object({
  refresh: z.enum(["true", "false"], { error: "refresh must be true or false" }).optional()
    .transform((v) => v === "true"),
}).strict();

/** The actions take no input but the id: a body sent anyway is refused, not ignored. */
const noBody = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.raw.body && (await c.req.text()).trim() !== "") {
    throw new HTTPException(400, { message: DISPATCH_ROUTE_MESSAGES.noBody });
  }
  await next();
});

function notFound(): never {
  throw new HTTPException(404, { message: DISPATCH_ROUTE_MESSAGES.notFound });
}

// A malformed id names no survey: 404 like an unknown one, without asking the database.
function surveyIdOf(id: string): string {
  return isSurveyId(id) ? id : notFound();
}

async function conflictsAs409<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof DispatchConflictError) {
      throw new HTTPException(409, { message: err.message });
    }
    throw err;
  }
}

/**
 * Dispatch API (spec §7; admins, but for the client's own view of the surveyors list):
 *
 * - `POST /api/surveys/{id}/find-surveyors[?refresh=true]` → `FindSurveyorsResponse`
 *   (`{surveyors, survey: {id, nearbySurveyorsInfo, nearbySurveyorsFoundAt}, fromCache}`).
 * - `POST /api/surveys/{id}/notify-surveyors` → `NotifySurveyorsResponse`
 *   (`{notified, totalSurveyors, leadPrice, leadId, invited}`) and `mailDelivery` ("none": no
 *   mail server, so its emails stay in the outbox).
 * - `GET /api/surveys/{id}/surveyors` without searching: an admin gets
 *   `{surveyors, lead, foundAt, buyers, assignment}` (the lead's buyers and the open
 *   assignment); the client, for their own request only, `ClientSurveyorsView` (names and
 *   companies of the surveyors matched, notified, buying or assigned, and the assignment).
 * - `GET /api/surveys/{id}/dispatch-map` (admins) → `{html}`: the dispatch map drawn again
 *   (components/DispatchCard.tsx `DispatchMap`), which the page swaps in after Find or Notify.
 *
 * Unknown or malformed id → 404 `{message: "Survey not found"}`; a cancelled or completed
 * request, one without a map location, or (notify) one already taken → 409 with the reason.
 */
export const dispatch = new Hono<AppEnv>()
  .post(
    "/api/surveys/:id/find-surveyors",
    requireRole("admin"),
    zValidator("param", IdParam, onInvalid),
    zValidator("query", FindQuery, onInvalid),
    noBody,
    async (c) => {
      const id = surveyIdOf(c.req.valid("param").id);
      const { refresh } = c.req.valid("query");
      const result = await conflictsAs409(
        findSurveyors({ sql: c.var.db, places: c.var.deps.places }, { surveyId: id, refresh }),
      );
      if (!result) notFound();
      return c.json(result);
    },
  )
  .post(
    "/api/surveys/:id/notify-surveyors",
    requireRole("admin"),
    zValidator("param", IdParam, onInvalid),
    noBody,
    async (c) => {
      const id = surveyIdOf(c.req.valid("param").id);
      const actorId = c.var.session?.impersonatorId ?? c.var.user!.id;
      const result = await conflictsAs409(
        notifySurveyors({ sql: c.var.db, config: c.var.deps.config }, { surveyId: id, actorId }),
      );
      if (!result) notFound();
      // Whether the lead emails and invitations leave: the toast must not imply they did.
      return c.json({ ...result, mailDelivery: mailDelivery(c.var.deps.config) });
    },
  )
  .get(
    "/api/surveys/:id/surveyors",
    requireRole("admin", "client"),
    zValidator("param", IdParam, onInvalid),
    async (c) => {
      const id = surveyIdOf(c.req.valid("param").id);
      const user = c.var.user!;
      const db = c.var.db;
      // A client's own survey only: ownership in the query, anyone else's is a 404.
      if (user.role !== "admin" && !(await getSurveyForUser(db, { id, user }))) notFound();
      const [result, buyers, assignment] = await Promise.all([
        getSurveyDispatch({ sql: db }, { surveyId: id }),
        listSurveyBuyers(db, { surveyId: id }),
        getOpenAssignment(db, { surveyId: id }),
      ]);
      if (!result) notFound();
      if (user.role === "admin") {
        return c.json({ ...result, buyers, assignment: assignment ?? null });
      }
      return c.json(await clientView(db, result.surveyors, buyers, assignment));
    },
  )
  .get(
    "/api/surveys/:id/dispatch-map",
    requireRole("admin"),
    zValidator("param", IdParam, onInvalid),
    async (c) => {
      const id = surveyIdOf(c.req.valid("param").id);
      const db = c.var.db;
      const [survey, state] = await Promise.all([
        getSurveyForUser(db, { id, user: c.var.user! }),
        getSurveyDispatch({ sql: db }, { surveyId: id }),
      ]);
      if (!survey || !state) notFound();
      return c.json({ html: dispatchMapHtml(survey, state) });
    },
  );

/** What a client sees of the surveyors on their request: names and companies, no more. */
export interface ClientSurveyorsView {
  surveyors: {
    companyName: string;
    name: string | null;
    notified: boolean;
    bought: boolean;
    assigned: boolean;
  }[];
  assignment: {
    companyName: string;
    status: AssignmentStatus;
    agreedPriceCents: number;
    scheduledDate: string | null;
  } | null;
}

// The surveyor records involved (matched, notified, bought, assigned), named in one query;
// places that are not records, distances, scores and ids stay with the admins.
async function clientView(
  db: Db,
  matches: NearbySurveyorInfo[],
  buyers: SurveyBuyer[],
  assignment: Assignment | undefined,
): Promise<ClientSurveyorsView> {
  const notified = new Set(matches.filter((m) => m.notified).map((m) => m.surveyorId));
  const bought = new Set(buyers.filter((b) => !b.isRefunded).map((b) => b.surveyorId));
  const ids = [
    ...new Set([
      ...matches.flatMap((m) => m.surveyorId ? [m.surveyorId] : []),
      ...bought,
      ...(assignment ? [assignment.surveyorId] : []),
    ]),
  ];
  const names = new Map((await listSurveyorNames(db, { ids })).map((n) => [n.id, n]));
  return {
    surveyors: ids.flatMap((sid) => {
      const n = names.get(sid);
      return n
        ? [{
          companyName: n.companyName,
          name: n.principalName,
          notified: notified.has(sid),
          bought: bought.has(sid),
          assigned: assignment?.surveyorId === sid,
        }]
        : [];
    }),
    assignment: assignment
      ? {
        companyName: assignment.companyName,
        status: assignment.status,
        agreedPriceCents: assignment.agreedPriceCents,
        scheduledDate: assignment.scheduledDate,
      }
      : null,
  };
}
