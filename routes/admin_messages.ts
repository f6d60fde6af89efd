import { Hono } from "hono";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { requireRole } from "./_auth.ts";
import { isUuid } from "../db/users.ts";
import {
  type ContactMessage,
  listContactMessages,
  markContactMessageRead,
} from "../db/contact_messages.ts";
import type { ContactMessagePage, ContactMessageView } from "../islands/AdminMessages.tsx";

/** Messages per page unless the caller asks for another size. */
export const MESSAGES_PAGE_SIZE = 20;
/** Largest page GET /api/admin/contact-messages serves. */
export const MESSAGES_MAX_PAGE_SIZE = 50;

const MESSAGE_NOT_FOUND = "Message not found";
const CURSOR_ERROR = "The 'before' cursor is not one this list gave out";
const LIMIT_ERROR = `Limit must be a whole number from 1 to ${MESSAGES_MAX_PAGE_SIZE}`;

/** The console's view of a stored message. */
export function messageView(m: ContactMessage): ContactMessageView {
  return {
    id: m.id,
    name: m.name,
    email: m.email,
    phone: m.phone,
    topic: m.topic,
    message: m.message,
    createdAt: m.createdAt.toISOString(),
    readAt: m.readAt ? m.readAt.toISOString() : null,
  };
}

/** The keyset cursor after `m`: `{createdAt ISO}_{id}`. */
export function messageCursor(m: Pick<ContactMessageView, "createdAt" | "id">): string {
  return `${m.createdAt}_${m.id}`;
}

const CURSOR_RE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z)_([0-9a-fA-F-]{36})$/;

const Cursor = z.string({ error: CURSOR_ERROR }).max(100, CURSOR_ERROR).transform((raw, ctx) => {
  const match = CURSOR_RE.exec(raw);
  const createdAt = match ? new Date(match[1]) : undefined;
  if (!match || !createdAt || Number.isNaN(createdAt.getTime()) || !isUuid(match[2])) {
    ctx.addIssue({ code: "custom", message: CURSOR_ERROR });
    return z.NEVER;
  }
  return { createdAt, id: match[2].toLowerCase() };
});

const ListQuery = z.object({
  before: Cursor.optional(),
  limit: z.coerce.number({ error: LIMIT_ERROR })
    .int(LIMIT_ERROR)
    .min(1, LIMIT_ERROR)
    .max(MESSAGES_MAX_PAGE_SIZE, LIMIT_ERROR)
    .default(MESSAGES_PAGE_SIZE),
  unread: z.enum(["true", "false"], { error: "Unread must be true or false" })
    .optional()
    .transform((v) => v === "true"),
});

/** Unknown or malformed ids are the same 404: nothing is revealed about which it was. */
const MessageIdParam = z.object({ id: z.string().refine(isUuid) });
// deno-lint-ignore no-explicit-any
function notFoundOnInvalid(result: any, c: Context) {
  if (!result.success) return c.json({ message: MESSAGE_NOT_FOUND }, 404);
}

/**
 * One page of messages, newest first. Asks for one more row than it returns, so the last
 * page says so (`nextCursor: null`) without an extra empty request.
 */
export async function loadMessagePage(
  c: Context<AppEnv>,
  input: { limit: number; before?: { createdAt: Date; id: string }; unreadOnly: boolean },
): Promise<ContactMessagePage> {
  const rows = await listContactMessages(c.var.db, {
    limit: input.limit + 1,
    before: input.before,
    unreadOnly: input.unreadOnly,
  });
  const messages = rows.slice(0, input.limit).map(messageView);
  const hasMore = rows.length > input.limit;
  return {
    messages,
    nextCursor: hasMore ? messageCursor(messages[messages.length - 1]) : null,
  };
}

/**
 * Admin APIs for the contact form's inbox: the list (newest first, keyset pages, optional
 * unread filter) and marking one message read. Admins only.
 */
export const adminMessages = new Hono<AppEnv>()
  .get(
    "/api/admin/contact-messages",
    requireRole("admin"),
    zValidator("query", ListQuery, onInvalid),
    async (c) => {
      const { before, limit, unread } = c.req.valid("query");
      const page = await loadMessagePage(c, { limit, before, unreadOnly: unread });
      return c.json(page);
    },
  )
  .patch(
    "/api/admin/contact-messages/:id/read",
    requireRole("admin"),
    zValidator("param", MessageIdParam, notFoundOnInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      if (!(await markContactMessageRead(c.var.db, id))) {
        throw new HTTPException(404, { message: MESSAGE_NOT_FOUND });
      }
      return c.json({ message: "Message marked as read" });
    },
  );
