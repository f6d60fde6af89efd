/**
 * The durable half of the mail sender's exactly-once hand-off (issue 20): what this app's Deno KV
 * knows about a message it handed to the SMTP server, kept where a database outage or a process
 * restart cannot erase it.
 *
 * Before a message goes to the mail server its row gets a `handing_over` record (which claim,
 * which Message-ID); once the server accepted it, the record says `accepted`. The database is
 * told next (`markEmailSent`), and the record is deleted once it has been. So:
 *
 * - an `accepted` record is the fact "the server has this message": the sender never hands such
 *   a row over again, and records it as sent in the database at the start of every pass
 *   (`reconcileAcceptedHandoffs`), in this process or the next one after a restart;
 * - a `handing_over` record left behind is a hand-off in doubt (the process died between the two
 *   writes): the row is retried with the same Message-ID, as the outbox notes.
 *
 * Every call goes through `withKv`: a locked or unreachable KV throws
 * `ServiceUnavailableError("kv")` within a second, and the sender then does not hand the message
 * over at all (it cannot promise to remember it).
 */
import { keys, withKv } from "../../db/kv.ts";

/** What KV holds for one outbox row. */
export interface MailHandoff {
  state: "handing_over" | "accepted";
  /** The claim that handed it over (email_outbox.attempt_id). */
  attemptId: string | null;
  messageId: string;
  /** Epoch ms of the last change. */
  at: number;
}

// A record outlives any retry schedule (8 tries over about 4 hours) by far; it is deleted once
// the database has the outcome, so this only bounds what a lost database row could leave.
const HANDOFF_TTL_MS = 30 * 24 * 60 * 60_000;

/**
 * Notes that outbox row `id` is about to be handed to the mail server by claim `attemptId`.
 * Returns "accepted" (writing nothing) when KV already records that the server accepted this
 * row: it must not be sent again. Otherwise "send". Throws `ServiceUnavailableError("kv")`
 * when KV cannot be read or written.
 */
export async function beginMailHandoff(
  kv: Deno.Kv,
  { id, attemptId, messageId }: { id: string; attemptId: string | null; messageId: string },
): Promise<"send" | "accepted"> {
  const key = keys.mailHandoff(id);
  return await withKv(kv, async () => {
    for (;;) {
      const entry = await kv.get<MailHandoff>(key);
      if (entry.value?.state === "accepted") return "accepted";
      const record: MailHandoff = { state: "handing_over", attemptId, messageId, at: Date.now() };
      const res = await kv.atomic().check(entry).set(key, record, { expireIn: HANDOFF_TTL_MS })
        .commit();
      if (res.ok) return "send";
    }
  });
}

/**
 * Records that the mail server accepted outbox row `id`. Throws
 * `ServiceUnavailableError("kv")` when KV cannot be written.
 */
export async function markMailAccepted(
  kv: Deno.Kv,
  { id, attemptId, messageId }: { id: string; attemptId: string | null; messageId: string },
): Promise<void> {
  const record: MailHandoff = { state: "accepted", attemptId, messageId, at: Date.now() };
  await withKv(kv, () => kv.set(keys.mailHandoff(id), record, { expireIn: HANDOFF_TTL_MS }));
}

// Deletes per atomic commit (Deno KV allows up to 1000 mutations in one).
const FORGET_BATCH = 500;

/**
 * Forgets the hand-offs of rows `ids` once the database holds their outcomes, a few hundred per
 * KV commit (one write for a whole pass, not one per message). Throws like the others.
 */
export async function forgetMailHandoffs(kv: Deno.Kv, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += FORGET_BATCH) {
    const op = kv.atomic();
    for (const id of ids.slice(i, i + FORGET_BATCH)) op.delete(keys.mailHandoff(id));
    await withKv(kv, () => op.commit());
  }
}

/** Row `id`'s hand-off record, or undefined. */
export async function getMailHandoff(
  kv: Deno.Kv,
  { id }: { id: string },
): Promise<MailHandoff | undefined> {
  const entry = await withKv(kv, () => kv.get<MailHandoff>(keys.mailHandoff(id)));
  return entry.value ?? undefined;
}

/** The outbox ids KV records as accepted by the mail server (the database may not know yet). */
export async function listAcceptedMailHandoffs(kv: Deno.Kv): Promise<string[]> {
  return await withKv(kv, async () => {
    const ids: string[] = [];
    for await (const entry of kv.list<MailHandoff>({ prefix: keys.mailHandoffsPrefix() })) {
      if (entry.value.state === "accepted") ids.push(String(entry.key[1]));
    }
    return ids;
  });
}
