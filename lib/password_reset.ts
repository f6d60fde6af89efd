/**
 * The work behind a forgot-password request, done after the answer.
 *
 * Why after: the answer must not reveal whether the email has an account, and its timing
 * did (a known email cost a token, a rendered email and a transaction: 16 ms against 7.5 ms
 * for an unknown one). Padding every answer to a fixed time would have to guess the slowest
 * case under any load, and a guess that is too short leaks again. Instead the route stores the
 * request (one identical insert for every email) and answers; this module then does the
 * lookup, token, email and audit. The stored row is what makes it durable: it is deleted in
 * the transaction that queues the email, so a crash before that commit leaves it for the next
 * pass. Passes run after each request (see routes/auth_api.ts); a request older than a reset
 * link lasts is not sent late, only recorded.
 */
import type { Db, Sql } from "../db/client.ts";
import { getUserByEmail } from "../db/users.ts";
import { insertAuditEvent } from "../db/audit.ts";
import {
  claimPasswordResetRequest,
  getPasswordResetTarget,
  insertPasswordResetToken,
  type PasswordResetRequest,
  type PasswordTokenPurpose,
} from "../db/password_resets.ts";
import { queuePasswordResetEmail } from "./mail/emails.ts";
import { hashToken, randomToken } from "./sessions.ts";

async function handleRequest(
  tx: Db,
  request: PasswordResetRequest,
  publicUrl: string,
): Promise<void> {
  const audit = {
    event: "password_reset_requested",
    actorId: null,
    ip: request.ip,
    userAgent: request.userAgent,
  } as const;
  if (request.isStale) {
    await insertAuditEvent(tx, { ...audit, details: { expired: true } });
    return;
  }
  const user = await getUserByEmail(tx, request.email);
  if (!user || user.disabledAt) {
    await insertAuditEvent(tx, { ...audit, details: { matched: false } });
    return;
  }
  const token = randomToken(32);
  const resetUrl = new URL("/reset-password", publicUrl);
  resetUrl.searchParams.set("token", token);
  await insertPasswordResetToken(tx, { userId: user.id, tokenHash: await hashToken(token) });
  await queuePasswordResetEmail(tx, {
    to: user.email,
    name: user.fullName,
    resetUrl: resetUrl.href,
  });
  await insertAuditEvent(tx, { ...audit, targetId: user.id });
}

/**
 * Handles every waiting forgot-password request, each in its own transaction: a token and the
 * reset email for an enabled account, an audit row either way. Returns how many it handled.
 * Several passes may run at once (other requests, other instances); each request is handled
 * by exactly one. Throws when the database fails; the request in hand stays queued.
 */
export async function processPasswordResetRequests(
  sql: Sql,
  { publicUrl }: { publicUrl: string },
): Promise<number> {
  let handled = 0;
  while (
    await sql.begin(async (tx) => {
      const request = await claimPasswordResetRequest(tx);
      if (!request) return false;
      await handleRequest(tx, request, publicUrl);
      return true;
    })
  ) handled++;
  return handled;
}

/** What a set-password token looks like (32 random bytes, base64url): anything else is no link. */
export const PASSWORD_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * What the set-password link with `token` is for, so its page can read as an invitation or a
 * reset; null for a missing, malformed, unknown, used or expired token (the page then shows
 * the spec's invalid-link panel).
 */
export async function getPasswordTokenPurpose(
  db: Db,
  token: string | undefined,
): Promise<PasswordTokenPurpose | null> {
  if (!token || !PASSWORD_TOKEN_SHAPE.test(token)) return null;
  const target = await getPasswordResetTarget(db, { tokenHash: await hashToken(token) });
  return target?.purpose ?? null;
}
