/**
 * Delivers the outbox. Each tick claims the due rows, sends each through the transport and
 * marks it sent, or failed-with-backoff. A crash between claim and mark leaves the row
 * 'sending' until its lease lapses, when the next tick takes it again: rows are never lost
 * (at worst an email is delivered twice, which beats never).
 */
import nodemailer from "nodemailer";
import type { Sql } from "../../db/client.ts";
import type { Config } from "../config.ts";
import { claimDueEmails, markEmailFailed, markEmailSent, MAX_ATTEMPTS } from "./outbox.ts";

/** One message as the transport sees it. */
export interface OutgoingMessage {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Stable id so a receiving server can spot a redelivery. */
  messageId: string;
}

/** Anything that can deliver a message; throws when delivery fails. */
export interface MailTransport {
  send(message: OutgoingMessage): Promise<void>;
  close?(): void;
}

/** An SMTP transport for `smtpUrl` (smtp:// or smtps://, credentials in the URL). */
export function createSmtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transporter.sendMail({
        from: message.from,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        messageId: message.messageId,
      });
    },
    close: () => transporter.close(),
  };
}

/** What the sender needs: the database, the sender address and a transport. */
export interface SenderDeps {
  sql: Sql;
  config: Pick<Config, "SMTP_URL" | "MAIL_FROM" | "PUBLIC_URL">;
  /** Defaults to SMTP at `config.SMTP_URL`. */
  transport?: MailTransport;
}

/** Counts from one delivery pass. */
export interface DeliveryResult {
  sent: number;
  retrying: number;
  failed: number;
}

function messageIdFor(id: string, publicUrl: string): string {
  return `<${id}@${new URL(publicUrl).hostname || "meridian.local"}>`;
}

/**
 * One pass: claims up to `batch` due rows and tries each once. Never throws for a delivery
 * failure; the row records the error instead.
 */
export async function deliverDueEmails(
  deps: SenderDeps & { transport: MailTransport },
  { batch = 10, maxAttempts = MAX_ATTEMPTS }: { batch?: number; maxAttempts?: number } = {},
): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, retrying: 0, failed: 0 };
  const claimed = await claimDueEmails(deps.sql, { limit: batch });
  for (const email of claimed) {
    try {
      await deps.transport.send({
        from: deps.config.MAIL_FROM,
        to: email.toAddress,
        subject: email.subject,
        html: email.html,
        text: email.text,
        messageId: messageIdFor(email.id, deps.config.PUBLIC_URL),
      });
      await markEmailSent(deps.sql, { id: email.id });
      result.sent++;
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      const status = await markEmailFailed(deps.sql, { id: email.id, error, maxAttempts });
      if (status === "failed") {
        result.failed++;
        console.error(`[mail] Giving up on email ${email.id} after ${email.attempts} attempts`);
      } else {
        result.retrying++;
      }
    }
  }
  return result;
}

/**
 * Runs `deliverDueEmails` every `intervalMs` (never overlapping) until the returned function
 * is called. The stop function resolves once any pass in flight has finished.
 */
export function startOutboxSender(
  deps: SenderDeps,
  { intervalMs = 5000 }: { intervalMs?: number } = {},
): () => Promise<void> {
  const transport = deps.transport ?? createSmtpTransport(requireSmtpUrl(deps.config));
  let isStopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  const tick = () => {
    inFlight = (async () => {
      try {
        // Drain a backlog in consecutive passes rather than one per interval.
        while (!isStopped) {
          const { sent, retrying, failed } = await deliverDueEmails({ ...deps, transport });
          if (sent + retrying + failed === 0) break;
        }
      } catch (err) {
        // The database may be briefly unavailable; the next tick tries again.
        console.error("[mail] Outbox pass failed", err);
      }
      if (!isStopped) timer = setTimeout(tick, intervalMs);
    })();
  };
  tick();

  return async () => {
    isStopped = true;
    clearTimeout(timer);
    await inFlight;
    transport.close?.();
  };
}

function requireSmtpUrl(config: SenderDeps["config"]): string {
  if (!config.SMTP_URL) throw new Error("startOutboxSender needs SMTP_URL or a transport");
  return config.SMTP_URL;
}
