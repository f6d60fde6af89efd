/**
 * Set-password tokens. Only the SHA-256 of a token is stored (the token itself is in the
 * emailed link), a new one voids older ones of the same user, and using one deletes it. Each
 * has a purpose: a forgot-password `reset` (lasts an hour) or an `invitation` of a technician
 * or surveyor to choose their first password (lasts a week).
 */
import type { Db } from "./client.ts";

/** What a set-password link is for: a forgot-password reset, or an invitation's first password. */
export type PasswordTokenPurpose = "reset" | "invitation";

/** How long a reset link works. */
export const PASSWORD_RESET_TTL_MINUTES = 60;

/** How long a surveyor's invitation (set-password) link works: 7 days. */
export const INVITATION_TTL_MINUTES = 7 * 24 * 60;

/**
 * Stores a token hash for `userId` with `purpose` (`reset` unless given), replacing any
 * earlier tokens of that user (and sweeping expired tokens of everyone). It lasts `ttlMinutes`
 * (unless given: an hour for a reset, `INVITATION_TTL_MINUTES` for an invitation). Call it in
 * the same transaction that queues the email.
 */
export async function insertPasswordResetToken(
  db: Db,
  input: {
    userId: string;
    tokenHash: string;
    purpose?: PasswordTokenPurpose;
    ttlMinutes?: number;
  },
): Promise<void> {
  const purpose = input.purpose ?? "reset";
  const ttlMinutes = input.ttlMinutes ??
    (purpose === "invitation" ? INVITATION_TTL_MINUTES : PASSWORD_RESET_TTL_MINUTES);
  // Two requests for one user handled at once (reset requests are handled in the background,
  // possibly by several passes or instances) would each delete before the other inserts and
  // leave two live links; the row lock makes the second wait and then void the first's token.
  await db`select 1 from users where id = ${input.userId} for update`;
  await db`delete from password_reset_tokens
    where user_id = ${input.userId} or expires_at <= now()`;
  await db`
    insert into password_reset_tokens (token_hash, user_id, purpose, expires_at)
    values (${input.tokenHash}, ${input.userId}, ${purpose},
      now() + make_interval(mins => ${ttlMinutes}))`;
}

/** The account an unexpired token sets the password of, and what the token is for. */
export interface PasswordResetTarget {
  userId: string;
  email: string;
  fullName: string;
  purpose: PasswordTokenPurpose;
}

/** Whom an unexpired token resets, if its user exists and is enabled; else undefined. */
export async function getPasswordResetTarget(
  db: Db,
  input: { tokenHash: string },
): Promise<PasswordResetTarget | undefined> {
  const [row] = await db<PasswordResetTarget[]>`
    select u.id as user_id, u.email, u.full_name, t.purpose
    from password_reset_tokens t join users u on u.id = t.user_id
    where t.token_hash = ${input.tokenHash} and t.expires_at > now()
      and u.disabled_at is null`;
  return row;
}

/**
 * Uses a token: deletes it and every other token of its user, returning the user's id and the
 * token's purpose, or undefined when the token is unknown, expired or its user is disabled.
 * Run it in the transaction that updates the password so a token can never be used twice.
 */
export async function consumePasswordResetToken(
  db: Db,
  input: { tokenHash: string },
): Promise<{ userId: string; purpose: PasswordTokenPurpose } | undefined> {
  const [row] = await db<
    { userId: string; purpose: PasswordTokenPurpose; isUsable: boolean }[]
  >`
    delete from password_reset_tokens t using users u
    where t.token_hash = ${input.tokenHash} and u.id = t.user_id
    returning t.user_id, t.purpose,
      (t.expires_at > now() and u.disabled_at is null) as is_usable`;
  if (!row) return undefined;
  await db`delete from password_reset_tokens where user_id = ${row.userId}`;
  return row.isUsable ? { userId: row.userId, purpose: row.purpose } : undefined;
}

/** Deletes every token of `userId` (used when an account is disabled). */
export async function deletePasswordResetTokens(db: Db, input: { userId: string }): Promise<void> {
  await db`delete from password_reset_tokens where user_id = ${input.userId}`;
}

/** A forgot-password request waiting for its lookup, token and email. */
export interface PasswordResetRequest {
  id: string;
  email: string;
  ip: string | null;
  userAgent: string | null;
  /** Older than a reset link lasts: too late to send one out of the blue. */
  isStale: boolean;
}

/**
 * Stores a forgot-password request: the one statement /api/forgot-password runs before it
 * answers, the same for every email (known, unknown or disabled).
 */
export async function insertPasswordResetRequest(
  db: Db,
  input: { email: string; ip: string | null; userAgent: string | null },
): Promise<void> {
  await db`
    insert into password_reset_requests (email, ip, user_agent)
    values (${input.email}, ${input.ip?.slice(0, 64) ?? null},
      ${input.userAgent?.slice(0, 512) ?? null})`;
}

/**
 * Takes the oldest waiting request off the queue inside the caller's transaction (so it comes
 * back if the transaction fails), skipping rows another transaction holds; undefined when none
 * is waiting.
 */
export async function claimPasswordResetRequest(
  db: Db,
): Promise<PasswordResetRequest | undefined> {
  const [row] = await db<PasswordResetRequest[]>`
    delete from password_reset_requests
    where id = (
      select id from password_reset_requests
      order by created_at, id
      limit 1
      for update skip locked
    )
    returning id, email, ip, user_agent,
      created_at <= now() - make_interval(mins => ${PASSWORD_RESET_TTL_MINUTES}) as is_stale`;
  return row;
}
