/**
 * Server-side sessions in Deno KV.
 *
 * Why not hono-sessions with a KV store: its store interface is keyed by the raw session id
 * (so the id would sit in KV in the clear, and anyone reading KV could ride any session), it
 * has no hook for a per-user index (so "end all of this user's sessions" after a password
 * reset, role change or disable would mean scanning every session), and it has a single
 * expiry rather than an idle timeout plus an absolute timeout that differ by role. Those are
 * requirements here, so this small layer does it directly:
 *
 * - The session id is 32 random bytes (256 bits), base64url, and lives only in the cookie.
 *   KV holds its SHA-256 under `keys.session(hash)`.
 * - `keys.sessionsByUser(userId, hash)` indexes every session of a user (and of the admin
 *   behind an impersonation) so `revokeUserSessions` is one prefix scan.
 * - Idle timeout 7 days and absolute timeout 30 days; for admins, and for any session an
 *   admin is impersonating from, 30 minutes and 12 hours. The absolute clock starts at the
 *   password sign-in and is carried over into impersonation and back, so switching cannot
 *   stretch an admin's 12 hours.
 * - `lastSeenAt` is written at most once a minute, so most requests cost one KV read.
 *
 * - Fail closed: every KV call goes through `withKv`, so when KV is locked or unwritable the
 *   functions here throw `ServiceUnavailableError("kv")` (a 503) after a short retry, and
 *   callers never treat "could not read" as "no session" or "could not write" as done.
 *
 * Every function that looks at the time takes `now` (epoch ms) so tests need not sleep.
 */
import { keys, withKv } from "../db/kv.ts";
import type { Role } from "./roles.ts";
import { createHash } from "node:crypto";

/** Cookie name over plain http (development, tests). */
export const SESSION_COOKIE_NAME = "meridian_session";
/** Cookie name when PUBLIC_URL is https: the `__Host-` prefix forces Secure, Path=/, no Domain. */
export const SECURE_SESSION_COOKIE_NAME = "__Host-meridian_session";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Idle and absolute limits of a session. */
export interface SessionTimeouts {
  idleMs: number;
  absoluteMs: number;
}

/** Limits for everyone but admins. */
export const USER_SESSION_TIMEOUTS: SessionTimeouts = { idleMs: 7 * DAY, absoluteMs: 30 * DAY };
/** Limits for admins, also applied while an admin impersonates someone. */
export const ADMIN_SESSION_TIMEOUTS: SessionTimeouts = {
  idleMs: 30 * MINUTE,
  absoluteMs: 12 * HOUR,
};
/** `lastSeenAt` is refreshed when it is at least this old. */
export const TOUCH_INTERVAL_MS = MINUTE;

/** What KV stores for a session. Times are epoch milliseconds. */
export interface SessionRecord {
  /** The signed-in user (the impersonated user while impersonating). */
  userId: string;
  /** The admin behind an impersonation, else null. */
  impersonatorId: string | null;
  /** When the user signed in with a password (carried across impersonation switches). */
  createdAt: number;
  lastSeenAt: number;
  ip: string;
  userAgent: string;
  /**
   * The user's role when the session was opened (absent on sessions opened before it was
   * stored). Only a guess of the role the user has now: a page may build its statement for it
   * (routes/_auth.ts `viewerRoleGuess`), and uses what it read only once the user read with it
   * has that role.
   */
  role?: Role;
}

/** A session as read from KV. */
export interface LoadedSession {
  idHash: string;
  record: SessionRecord;
  versionstamp: string;
}

/** Name of the session cookie and whether it is Secure, from PUBLIC_URL. */
export function sessionCookie(config: { PUBLIC_URL: string }): { name: string; secure: boolean } {
  const secure = new URL(config.PUBLIC_URL).protocol === "https:";
  return { name: secure ? SECURE_SESSION_COOKIE_NAME : SESSION_COOKIE_NAME, secure };
}

/**
 * Limits that apply to a session: admin limits when the signed-in user is an admin or when an
 * admin is impersonating, else the user limits.
 */
export function sessionTimeouts(
  record: Pick<SessionRecord, "impersonatorId">,
  userRole: Role,
): SessionTimeouts {
  return record.impersonatorId || userRole === "admin"
    ? ADMIN_SESSION_TIMEOUTS
    : USER_SESSION_TIMEOUTS;
}

function encodeBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** `bytes` random bytes as base64url (32 bytes: 43 characters, 256 bits). */
export function randomToken(bytes = 32): string {
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** Hex SHA-256 of a token: what KV and the database store instead of the token. */
export function hashToken(token: string): Promise<string> {
  return Promise.resolve(sha256Hex(token));
}

function sha256Hex(token: string): string {
  // node:crypto hashes synchronously (~6 µs); crypto.subtle.digest's round trip through the
  // thread pool cost ~58 µs on every signed-in request (bench/signed_in_pages.ts profile).
  return createHash("sha256").update(token).digest("hex");
}

/** True when `raw` could be a session id this module issued (43 base64url characters). */
export function isSessionIdShape(raw: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(raw);
}

function remainingMs(record: SessionRecord, timeouts: SessionTimeouts, now: number): number {
  return Math.min(
    record.lastSeenAt + timeouts.idleMs - now,
    record.createdAt + timeouts.absoluteMs - now,
  );
}

/** Why a session is no longer valid at `now`, or null while it is. */
export function sessionExpiry(
  record: SessionRecord,
  timeouts: SessionTimeouts,
  now: number,
): "idle" | "absolute" | null {
  if (now >= record.createdAt + timeouts.absoluteMs) return "absolute";
  if (now >= record.lastSeenAt + timeouts.idleMs) return "idle";
  return null;
}

/**
 * Creates a session and returns its id (for the cookie only) with the stored record.
 * `timeouts` sets when KV may drop it; `createdAt` carries the sign-in time over from the
 * session being replaced (impersonation and return). Throws `ServiceUnavailableError` when
 * the record cannot be stored: a session never exists without its record.
 */
export async function createSession(
  kv: Deno.Kv,
  input: {
    userId: string;
    impersonatorId?: string | null;
    ip: string;
    userAgent: string;
    timeouts: SessionTimeouts;
    createdAt?: number;
    now?: number;
    /** The user's role now (`SessionRecord.role`). */
    role?: Role;
  },
): Promise<{ id: string; idHash: string; record: SessionRecord }> {
  const now = input.now ?? Date.now();
  const id = randomToken(32);
  const idHash = await hashToken(id);
  const record: SessionRecord = {
    userId: input.userId,
    impersonatorId: input.impersonatorId ?? null,
    createdAt: input.createdAt ?? now,
    lastSeenAt: now,
    ip: input.ip.slice(0, 64),
    userAgent: input.userAgent.slice(0, 256),
    ...(input.role && { role: input.role }),
  };
  const expireIn = Math.max(1000, remainingMs(record, input.timeouts, now));
  const indexExpireIn = Math.max(1000, record.createdAt + input.timeouts.absoluteMs - now);
  const op = kv.atomic()
    .check({ key: keys.session(idHash), versionstamp: null })
    .set(keys.session(idHash), record, { expireIn })
    .set(keys.sessionsByUser(record.userId, idHash), now, { expireIn: indexExpireIn });
  if (record.impersonatorId) {
    op.set(keys.sessionsByUser(record.impersonatorId, idHash), now, {
      expireIn: indexExpireIn,
    });
  }
  const res = await withKv(kv, () => op.commit());
  if (!res.ok) throw new Error("Session id collision");
  return { id, idHash, record };
}

/**
 * The session for a cookie value, or null when the value is malformed or unknown. Does not
 * judge expiry (that needs the user's role): see `sessionExpiry`. Throws
 * `ServiceUnavailableError` when KV cannot be read (never null for "could not tell").
 */
export async function readSession(kv: Deno.Kv, id: string): Promise<LoadedSession | null> {
  if (!isSessionIdShape(id)) return null;
  // Hashed in this turn: the request's one KV read starts without waiting a microtask.
  const idHash = sha256Hex(id);
  const entry = await withKv(kv, () => kv.get<SessionRecord>(keys.session(idHash)));
  if (!entry.value || !entry.versionstamp) return null;
  return { idHash, record: entry.value, versionstamp: entry.versionstamp };
}

/**
 * Records activity: writes `lastSeenAt = now` when the stored value is at least a minute
 * old, and only if the session was not changed or deleted meanwhile (so a touch racing a
 * logout cannot bring the session back). Returns whether it wrote.
 */
export async function touchSession(
  kv: Deno.Kv,
  session: LoadedSession,
  timeouts: SessionTimeouts,
  now: number = Date.now(),
): Promise<boolean> {
  if (now - session.record.lastSeenAt < TOUCH_INTERVAL_MS) return false;
  const record = { ...session.record, lastSeenAt: now };
  const expireIn = Math.max(1000, remainingMs(record, timeouts, now));
  const res = await withKv(kv, () =>
    kv.atomic()
      .check({ key: keys.session(session.idHash), versionstamp: session.versionstamp })
      .set(keys.session(session.idHash), record, { expireIn })
      .commit());
  return res.ok;
}

/** The stored record of the session with hash `idHash`, or null when there is none. */
export async function getSessionRecord(
  kv: Deno.Kv,
  idHash: string,
): Promise<SessionRecord | null> {
  return (await withKv(kv, () => kv.get<SessionRecord>(keys.session(idHash)))).value;
}

/** Deletes a session and its index entries. Returns whether there was one. */
export async function deleteSession(kv: Deno.Kv, idHash: string): Promise<boolean> {
  return await withKv(kv, async () => {
    const entry = await kv.get<SessionRecord>(keys.session(idHash));
    if (!entry.value) return false;
    const op = kv.atomic()
      .delete(keys.session(idHash))
      .delete(keys.sessionsByUser(entry.value.userId, idHash));
    if (entry.value.impersonatorId) {
      op.delete(keys.sessionsByUser(entry.value.impersonatorId, idHash));
    }
    await op.commit();
    return true;
  });
}

/**
 * Ends every session of `userId`, including impersonation sessions that user started or is
 * the target of, except the one whose hash is `except`. Returns how many it ended.
 */
export async function revokeUserSessions(
  kv: Deno.Kv,
  userId: string,
  { except }: { except?: string } = {},
): Promise<number> {
  let count = 0;
  for (const idHash of await listUserSessionHashes(kv, userId)) {
    if (idHash === except) continue;
    if (await deleteSession(kv, idHash)) count++;
    await withKv(kv, () => kv.delete(keys.sessionsByUser(userId, idHash)));
  }
  return count;
}

/** Hashes of the sessions indexed under `userId`. */
export async function listUserSessionHashes(kv: Deno.Kv, userId: string): Promise<string[]> {
  return await withKv(kv, async () => {
    const hashes: string[] = [];
    for await (const entry of kv.list({ prefix: keys.sessionsByUserPrefix(userId) })) {
      hashes.push(entry.key[entry.key.length - 1] as string);
    }
    return hashes;
  });
}
