import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { requireUser } from "./_auth.ts";
import { ACTION_LIMITS, enforceActionLimits, perAccount } from "./_limits.ts";
import { getMessageAccess, type MessageAccess, type MessageThread } from "../db/messages.ts";
import { loadThread, postMessage } from "../lib/messages.ts";
import { MESSAGE_MAX, MESSAGE_TEXTS } from "../lib/message_text.ts";
import { multiLine } from "../lib/text.ts";

const IdParam = z.object({ id: z.string().max(100) });
const SurveyorId = z.uuid({ error: "surveyorId must be a firm's id" });
const Cursor = (name: string) =>
  z.string().regex(/^\d{1,18}$/, { error: `${name} must be a message cursor` });

const ThreadQuery = z.object({
  surveyorId: SurveyorId.optional(),
  after: Cursor("after").optional(),
  before: Cursor("before").optional(),
});

/** `POST /api/surveys/{id}/messages` body. */
export const MessageSchema = z.object({
  surveyorId: SurveyorId.optional(),
  body: multiLine("Message", {
    min: 1,
    max: MESSAGE_MAX,
    messages: {
      type: "Message must be text",
      missing: "Write a message",
      min: "Write a message",
      max: `Message must be at most ${MESSAGE_MAX.toLocaleString("en-US")} characters`,
    },
  }),
}).strict();

/**
 * The thread a call is about: the one named by `surveyorId`, else the caller's only one.
 * Throws 404 when the caller is in no thread of the survey (or not in the named one), 400 when
 * a client or admin with several threads did not say which.
 */
function pickThread(access: MessageAccess | undefined, surveyorId?: string): MessageThread {
  if (!access) throw new HTTPException(404, { message: MESSAGE_TEXTS.notFound });
  const { threads } = access;
  if (surveyorId) {
    const thread = threads.find((t) => t.surveyorId === surveyorId);
    if (!thread) throw new HTTPException(404, { message: MESSAGE_TEXTS.notFound });
    return thread;
  }
  if (threads.length === 0) throw new HTTPException(404, { message: MESSAGE_TEXTS.noThreads });
  if (threads.length > 1) throw new HTTPException(400, { message: MESSAGE_TEXTS.chooseFirm });
  return threads[0];
}

/**
 * Messages on the job (issue 22): one conversation per survey and firm.
 *
 * - `GET /api/surveys/{id}/messages?surveyorId=&after=&before=` → `{messages, participants,
 *   threads, cursor, …}`, oldest first; `after` (a cursor) returns only newer messages, for
 *   polling; opening a thread marks it read.
 * - `POST /api/surveys/{id}/messages` `{surveyorId?, body}` → 201 `{message, cursor}`; the
 *   other readers get a bell notification and (at most every 15 minutes) an email.
 *
 * `surveyorId` names the firm's thread; a surveyor or technician has one and may leave it out,
 * a client or admin with several threads may not (400). Anyone not in the thread: 404;
 * signed out: 401. Posting counts against `ACTION_LIMITS.messages`.
 */
export const messages = new Hono<AppEnv>()
  .get(
    "/api/surveys/:id/messages",
    requireUser,
    zValidator("param", IdParam, onInvalid),
    zValidator("query", ThreadQuery, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const { surveyorId, after, before } = c.req.valid("query");
      const user = c.var.user!;
      const access = await getMessageAccess(c.var.db, { surveyId: id, user });
      const thread = pickThread(access, surveyorId);
      const body = await loadThread(c.var.db, { access: access!, thread, user, after, before });
      return c.json(body);
    },
  )
  .post(
    "/api/surveys/:id/messages",
    requireUser,
    zValidator("param", IdParam, onInvalid),
    zValidator("json", MessageSchema, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const { surveyorId, body } = c.req.valid("json");
      const user = c.var.user!;
      await enforceActionLimits(c, "messages", [
        perAccount(c, "messages", ACTION_LIMITS.messages),
      ]);
      const posted = await c.var.db.begin(async (tx) => {
        const access = await getMessageAccess(tx, { surveyId: id, user, lock: true });
        const thread = pickThread(access, surveyorId);
        return await postMessage(tx, {
          access: access!,
          thread,
          user,
          body,
          publicUrl: c.var.deps.config.PUBLIC_URL,
        });
      });
      return c.json(
        { message: MESSAGE_TEXTS.sent, sent: posted.message, cursor: posted.cursor },
        201,
      );
    },
  );
