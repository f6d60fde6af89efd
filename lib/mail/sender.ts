/**
 * Delivers the outbox. Each pass claims the due rows and sends them side by side (at most
 * `concurrency` at once, over a pooled SMTP transport), then records each outcome: sent, or
 * failed-with-backoff.
 *
 * Exactly once: a message the mail server accepted is never handed over again. With the app's
 * Deno KV (`deps.kv`, as main.ts passes it) each hand-off is recorded there around the SMTP
 * accept (lib/mail/handoff.ts): `handing_over` before, `accepted` right after, deleted once the
 * database says 'sent' (at the end of the pass). So when recording the outcome in the database fails (it restarts, say),
 * the fact survives in KV, also a restart of the process: every pass first records the accepted
 * hand-offs KV holds, and a claimed row that KV records as accepted is marked sent, never sent.
 * A KV that cannot note the hand-off means the message is not handed over (it is retried like a
 * refused one). The outcomes are also kept in memory, for a KV that failed after the accept.
 * A pass that cannot record what it holds claims nothing; meanwhile the row stays 'sending'
 * under its lease, so no other sender takes it either. Only when the process dies between the
 * hand-off and the `accepted` note is the outcome unknown: the row is tried again with the same
 * Message-ID (fixed per row at its first claim, so a receiving server or mail client can
 * recognise the repeat) and `last_error` says the earlier try was in doubt.
 *
 * A sender started with a `worker` name claims under it and, when it starts, makes the rows
 * still 'sending' under that name due at once: they are its crashed predecessor's, and waiting
 * out their 5-minute lease would only delay them. It does the same after a pass that failed on
 * the database, once the database answers again: a claim whose answer was lost in the outage
 * committed rows this process never saw (all of its own hand-offs are over by then).
 */
import { RecurringFailures } from "../recurring_failures.ts";
import type { Transporter } from "nodemailer";
import type { Sql } from "../../db/client.ts";
import type { Config } from "../config.ts";
import { isPostgresDown } from "../unavailable.ts";
import {
  beginMailHandoff,
  forgetMailHandoffs,
  listAcceptedMailHandoffs,
  markMailAccepted,
} from "./handoff.ts";
import {
  claimDueEmails,
  markEmailFailed,
  markEmailSent,
  MAX_ATTEMPTS,
  type OutboxEmail,
  releaseSenderEmails,
} from "./outbox.ts";

/** Messages handed to the mail server at once (and pooled SMTP connections). */
export const MAIL_CONCURRENCY = 5;
/** Rows one pass claims. */
export const MAIL_BATCH = 25;

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

/**
 * An SMTP transport for `smtpUrl` (smtp:// or smtps://, credentials in the URL). Pooled by
 * default: up to `maxConnections` connections, each reused for many messages, so concurrent
 * sends neither wait for one connection nor open one per message.
 */
export function createSmtpTransport(
  smtpUrl: string,
  { pool = true, maxConnections = MAIL_CONCURRENCY }: { pool?: boolean; maxConnections?: number } =
    {},
): MailTransport {
  // nodemailer is loaded by the first send, not at start: a server without SMTP_URL (the
  // default, whose emails wait in the outbox) never needs it, and imported at start it cost
  // 5 MB of heap and 20 MB resident (bench/memory.ts, README "Memory").
  let transporter: Promise<Transporter> | undefined;
  const ready = () =>
    transporter ??= import("nodemailer").then(({ default: nodemailer }) =>
      pool
        ? nodemailer.createTransport({
          url: smtpUrl,
          pool: true,
          maxConnections,
          maxMessages: 1000,
        })
        : nodemailer.createTransport(smtpUrl)
    ).catch((err) => {
      // Not kept: the next send tries again.
      transporter = undefined;
      throw err;
    });
  return {
    async send(message) {
      await (await ready()).sendMail({
        from: message.from,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        messageId: message.messageId,
      });
    },
    close: () => void transporter?.then((t) => t.close()),
  };
}

/** What the sender needs: the database, the sender address and a transport. */
export interface SenderDeps {
  sql: Sql;
  /**
   * The app's Deno KV, where hand-offs are recorded so that an accepted message is never sent
   * again, also after a restart (lib/mail/handoff.ts). Without it that memory is the process's.
   */
  kv?: Deno.Kv;
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

function messageDomain(publicUrl: string): string {
  return new URL(publicUrl).hostname || "meridian.local";
}

/** An outcome the database has not taken yet. */
type Unrecorded =
  | { kind: "sent" }
  | { kind: "failed"; attemptId: string | null; error: string; maxAttempts: number };

// Outcomes whose recording failed, by outbox id; recorded before the next claim. Process-wide,
// like the fact it stands for (this process handed the message over, or saw it fail).
const unrecorded = new Map<string, Unrecorded>();

/** How many outcomes wait to be recorded (the database failed when they happened). */
export function unrecordedOutcomeCount(): number {
  return unrecorded.size;
}

/**
 * Records the outcomes kept while the database failed. Throws (keeping the rest) when it
 * still fails.
 */
export async function recordUnrecordedOutcomes(sql: Sql): Promise<number> {
  let recorded = 0;
  for (const [id, outcome] of [...unrecorded]) {
    if (outcome.kind === "sent") await markEmailSent(sql, { id });
    else await markEmailFailed(sql, { id, ...outcome });
    unrecorded.delete(id);
    recorded++;
  }
  return recorded;
}

/**
 * Records in the database every hand-off KV holds as accepted (the process that made it may
 * have died before it could), then forgets them. Returns how many. Throws when KV cannot be
 * read or the database fails.
 */
export async function reconcileAcceptedHandoffs(sql: Sql, kv: Deno.Kv): Promise<number> {
  const ids = await listAcceptedMailHandoffs(kv);
  for (const id of ids) {
    await markEmailSent(sql, { id });
    unrecorded.delete(id);
  }
  await forgetQuietly(kv, ids);
  return ids.length;
}

async function forgetQuietly(kv: Deno.Kv | undefined, ids: readonly string[]): Promise<void> {
  if (!kv || ids.length === 0) return;
  try {
    await forgetMailHandoffs(kv, ids);
  } catch (err) {
    // Harmless: an 'accepted' record is recorded again (a no-op), a 'handing_over' one replaced.
    console.error(`[mail] Could not forget the hand-off records of ${ids.length} email(s)`, err);
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Runs `work` on every item, at most `limit` at a time. */
async function eachBounded<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * One pass: records any outcome a database failure held back, then claims up to `batch` due
 * rows and tries each once, `concurrency` at a time. Never throws for a delivery failure (the
 * row records the error instead); throws when the database fails before anything is claimed.
 * A message counts as sent once the mail server accepted it, recorded or not yet.
 */
export async function deliverDueEmails(
  deps: SenderDeps & { transport: MailTransport },
  { batch = MAIL_BATCH, maxAttempts = MAX_ATTEMPTS, concurrency = MAIL_CONCURRENCY, worker }: {
    batch?: number;
    maxAttempts?: number;
    concurrency?: number;
    /** Who claims (lib/jobs.ts `workerName`). */
    worker?: string;
  } = {},
): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, retrying: 0, failed: 0 };
  const held = await recordUnrecordedOutcomes(deps.sql);
  if (held > 0) console.log(`[mail] Recorded ${held} outcome(s) held back by a database failure.`);
  if (deps.kv) {
    const accepted = await reconcileAcceptedHandoffs(deps.sql, deps.kv);
    if (accepted > 0) console.log(`[mail] Recorded ${accepted} accepted hand-off(s) from KV.`);
  }
  const domain = messageDomain(deps.config.PUBLIC_URL);
  const claimed = await claimDueEmails(deps.sql, { limit: batch, messageDomain: domain, worker });
  // Rows whose outcome the database now holds: their KV records go, in one commit at the end.
  const settled: string[] = [];
  await eachBounded(claimed, concurrency, async (email) => {
    const handoff = {
      id: email.id,
      attemptId: email.attemptId,
      messageId: email.messageId ?? `<${email.id}@${domain}>`,
    };
    const failure = await handOver(deps, email, handoff);
    if (failure === undefined) {
      result.sent++;
      if (deps.kv) {
        try {
          await markMailAccepted(deps.kv, handoff);
        } catch (err) {
          // Memory (below) still keeps this process from sending it again.
          console.error(`[mail] Email ${email.id} was delivered; noting it in KV failed`, err);
        }
      }
      try {
        await markEmailSent(deps.sql, { id: email.id });
      } catch (err) {
        // Delivered: never send it again. Recorded when the database answers.
        unrecorded.set(email.id, { kind: "sent" });
        console.error(`[mail] Email ${email.id} was delivered; recording it failed`, err);
        return;
      }
      settled.push(email.id);
      return;
    }
    try {
      const status = await markEmailFailed(deps.sql, {
        id: email.id,
        attemptId: email.attemptId,
        error: failure,
        maxAttempts,
      });
      settled.push(email.id);
      if (status === "failed") {
        result.failed++;
        console.error(`[mail] Giving up on email ${email.id} after ${email.attempts} attempts`);
      } else {
        result.retrying++;
      }
    } catch (err) {
      unrecorded.set(email.id, {
        kind: "failed",
        attemptId: email.attemptId,
        error: failure,
        maxAttempts,
      });
      result.retrying++;
      console.error(`[mail] Email ${email.id} failed; recording the failure failed too`, err);
    }
  });
  await forgetQuietly(deps.kv, settled);
  return result;
}

/**
 * Hands `email` to the mail server unless KV records that an earlier try already did. Returns
 * undefined when the server has it, else why not (a KV that cannot note the hand-off counts as
 * a failed try: nothing was sent).
 */
async function handOver(
  deps: SenderDeps & { transport: MailTransport },
  email: OutboxEmail,
  handoff: { id: string; attemptId: string | null; messageId: string },
): Promise<string | undefined> {
  if (deps.kv) {
    try {
      if (await beginMailHandoff(deps.kv, handoff) === "accepted") {
        console.log(`[mail] Email ${email.id} was accepted by an earlier try; not sent again.`);
        return undefined;
      }
    } catch (err) {
      return `Not sent: the hand-off could not be noted in KV (${errorText(err)})`;
    }
  }
  try {
    await deps.transport.send({
      from: deps.config.MAIL_FROM,
      to: email.toAddress,
      subject: email.subject,
      html: email.html,
      text: email.text,
      messageId: handoff.messageId,
    });
    return undefined;
  } catch (err) {
    return errorText(err);
  }
}

/**
 * Runs `deliverDueEmails` every `intervalMs` (never overlapping) until the returned function
 * is called. The stop function resolves once any pass in flight has finished.
 */
export function startOutboxSender(
  deps: SenderDeps,
  { intervalMs = 5000, worker }: {
    intervalMs?: number;
    /** This sender's name (lib/jobs.ts `workerName`); its predecessor's claims come back. */
    worker?: string;
  } = {},
): () => Promise<void> {
  const transport = deps.transport ?? createSmtpTransport(requireSmtpUrl(deps.config));
  let isStopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  let isReleased = !worker;
  // A failure that repeats (the database unavailable) is logged once (lib/recurring_failures.ts).
  const failures = new RecurringFailures("[mail] Outbox pass");

  const tick = () => {
    inFlight = (async () => {
      try {
        if (!isReleased && worker) {
          // Outcomes this process holds first: a released row must not be claimed (and sent)
          // again before its 'sent' is recorded.
          await recordUnrecordedOutcomes(deps.sql);
          if (deps.kv) await reconcileAcceptedHandoffs(deps.sql, deps.kv);
          const n = await releaseSenderEmails(deps.sql, { worker });
          isReleased = true;
          if (n > 0) console.log(`[mail] Retrying ${n} email(s) a previous run left in doubt.`);
        }
        // Drain a backlog in consecutive passes rather than one per interval.
        while (!isStopped) {
          const { sent, retrying, failed } = await deliverDueEmails(
            { ...deps, transport },
            { worker },
          );
          if (sent + retrying + failed === 0) break;
        }
        failures.succeeded();
      } catch (err) {
        // The database may be briefly unavailable; the next tick tries again, and first takes
        // back what a claim lost in the outage may have left leased under this name.
        if (worker && isPostgresDown(err)) isReleased = false;
        failures.failed(err);
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
