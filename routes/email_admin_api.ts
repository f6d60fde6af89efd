import { Hono } from "hono";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { requireRole } from "./_auth.ts";
import { isUuid } from "../db/users.ts";
import { type OutboxListItem, retryFailedEmail } from "../db/email_outbox_admin.ts";
import { TEMPLATES } from "../lib/mail/render.tsx";
import type { OutboxRowView } from "../islands/EmailOutbox.tsx";

const EMAIL_NOT_FOUND = "Email not found";

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

/** Unknown and malformed ids are the same 404: nothing tells them apart. */
const EmailIdParam = z.object({ id: z.string().refine(isUuid) });
// deno-lint-ignore no-explicit-any
function notFoundOnInvalid(result: any, c: Context) {
  if (!result.success) return c.json({ message: EMAIL_NOT_FOUND }, 404);
}

/**
 * Admin API of the email outbox (admins only: recipients are personal data).
 *
 * `POST /api/admin/email-outbox/{id}/retry`: a failed email becomes due now, so the outbox
 * sender (lib/mail/sender.ts, every few seconds) tries it once more. 404 for an unknown id,
 * 409 for an email that is not failed (queued and sending ones are already on their way,
 * sent ones are not sent twice).
 */
export const emailAdminApi = new Hono<AppEnv>()
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
