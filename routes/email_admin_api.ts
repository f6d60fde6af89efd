import { Hono } from "hono";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { auditContext, requireRole } from "./_auth.ts";
import { isUuid } from "../db/users.ts";
import { insertAuditEvent } from "../db/audit.ts";
import { type OutboxListItem, retryFailedEmail } from "../db/email_outbox_admin.ts";
import { getOutboxEmail, type OutboxEmail } from "../lib/mail/outbox.ts";
import { type MailDelivery, mailDelivery } from "../lib/mail/delivery.ts";
import { type EmailLink, emailLinks } from "../lib/mail/links.ts";
import { TEMPLATES } from "../lib/mail/render.tsx";
import type { OutboxRowView } from "../islands/EmailOutbox.tsx";

/** The 404 message for an outbox id that is unknown, malformed or not the caller's to see. */
export const EMAIL_NOT_FOUND = "Email not found";

/** One outbox message as its admin page and API show it: the row, its bodies and links. */
export interface OutboxMessageView extends OutboxRowView {
  html: string;
  text: string;
  /** Its http(s) links (set-password links included: admins only). */
  links: EmailLink[];
  /** How this server delivers mail: "none" means the message is not going anywhere. */
  delivery: MailDelivery;
}

/** The display name of template `id`, or the id itself for one no longer registered. */
export function templateName(id: string): string {
  return Object.hasOwn(TEMPLATES, id) ? TEMPLATES[id as keyof typeof TEMPLATES].name : id;
}

/** The outbox table's view of a row: ISO times and the template's display name. */
export function outboxRowView(row: OutboxListItem): OutboxRowView {
  return {
    id: row.id,
    toAddress: row.toAddress,
    template: row.template,
    templateName: templateName(row.template),
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt ? row.sentAt.toISOString() : null,
  };
}

/** The whole message with its links, for an admin. */
export function outboxMessageView(row: OutboxEmail, delivery: MailDelivery): OutboxMessageView {
  return {
    ...outboxRowView(row),
    html: row.html,
    text: row.text,
    links: emailLinks(row),
    delivery,
  };
}

/**
 * Email `id` with its bodies for the signed-in admin, or undefined. Opening one is recorded in
 * the audit log (`email_viewed`): its links may hold someone's set-password token.
 */
export async function viewOutboxMessage(
  c: Context<AppEnv>,
  id: string,
): Promise<OutboxMessageView | undefined> {
  const row = await getOutboxEmail(c.var.db, { id });
  if (!row) return undefined;
  await insertAuditEvent(c.var.db, {
    event: "email_viewed",
    ...auditContext(c),
    details: { emailId: row.id, template: row.template },
  });
  return outboxMessageView(row, mailDelivery(c.var.deps.config));
}

/**
 * Guard of one message: signed out → 401; any role but admin → the same 404 as an unknown id,
 * so a message (and whether it exists) is invisible to everyone else.
 */
export const adminElseNotFound = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.user) throw new HTTPException(401, { message: "Authentication required" });
  if (c.var.user.role !== "admin") throw new HTTPException(404, { message: EMAIL_NOT_FOUND });
  await next();
});

/** Unknown and malformed ids are the same 404: nothing tells them apart. */
const EmailIdParam = z.object({ id: z.string().refine(isUuid) });
// deno-lint-ignore no-explicit-any
function notFoundOnInvalid(result: any, c: Context) {
  if (!result.success) return c.json({ message: EMAIL_NOT_FOUND }, 404);
}

/**
 * Admin API of the email outbox (admins only: recipients are personal data).
 *
 * `GET /api/admin/email-outbox/{id}`: one message, `{email: OutboxMessageView}` (subject,
 * recipient, status, attempts, last error, HTML and text bodies, links, and whether this server
 * delivers mail at all). The view is audited. 401 signed out; 404 `{message}` for any other
 * role and for an unknown id.
 *
 * `POST /api/admin/email-outbox/{id}/retry`: a failed email becomes due now, so the outbox
 * sender (lib/mail/sender.ts, every few seconds) tries it once more. 404 for an unknown id,
 * 409 for an email that is not failed (queued and sending ones are already on their way,
 * sent ones are not sent twice).
 */
export const emailAdminApi = new Hono<AppEnv>()
  .get(
    "/api/admin/email-outbox/:id",
    adminElseNotFound,
    zValidator("param", EmailIdParam, notFoundOnInvalid),
    async (c) => {
      const email = await viewOutboxMessage(c, c.req.valid("param").id);
      if (!email) throw new HTTPException(404, { message: EMAIL_NOT_FOUND });
      return c.json({ email });
    },
  )
  .post(
    "/api/admin/email-outbox/:id/retry",
    requireRole("admin"),
    zValidator("param", EmailIdParam, notFoundOnInvalid),
    async (c) => {
      const result = await retryFailedEmail(c.var.db, { id: c.req.valid("param").id });
      if (result.outcome === "not_found") {
        throw new HTTPException(404, { message: EMAIL_NOT_FOUND });
      }
      if (result.outcome === "not_failed") {
        const why = result.status === "sent"
          ? "This email was already sent"
          : "This email is already waiting to be sent";
        throw new HTTPException(409, { message: `${why}; only failed emails can be retried` });
      }
      return c.json({
        message: "Email queued again",
        email: outboxRowView(result.email),
      });
    },
  );
