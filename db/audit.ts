/**
 * The security audit log. Append-only: the app inserts rows and reads them; a trigger in
 * 0002_accounts.sql refuses updates and deletes. Never put passwords, tokens or cookies in
 * `details`.
 */
import type { Db } from "./client.ts";

/** The events the accounts code records. */
export type AuditEventName =
  | "login_succeeded"
  | "login_failed"
  | "logout"
  | "registered"
  | "password_reset_requested"
  | "password_reset_completed"
  | "password_changed"
  | "profile_updated"
  | "role_changed"
  | "user_created"
  | "user_disabled"
  | "user_enabled"
  | "impersonation_started"
  | "impersonation_ended"
  | "surveyor_invited"
  | "surveyor_account_linked"
  | "surveyor_account_unlinked"
  | "surveyor_created"
  | "surveyor_updated"
  | "surveyor_office_moved"
  | "surveyor_licence_requested"
  | "surveyor_licence_decided"
  | "surveyor_claim_denied"
  | "google_account_linked"
  | "google_account_unlinked"
  | "email_viewed";

/** One audit row as written. */
export interface AuditEventInput {
  event: AuditEventName;
  /** Who did it (the admin while impersonating), or null when nobody is signed in. */
  actorId?: string | null;
  /** Whom it concerns, or null (e.g. a failed login for an unknown identifier). */
  targetId?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  details?: Record<string, string | number | boolean | null>;
}

/** One audit row as read. `createdAt` is an ISO time in UTC. */
export interface AuditEvent {
  id: number;
  event: AuditEventName;
  actorId: string | null;
  targetId: string | null;
  ip: string | null;
  userAgent: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

/** Appends one event. The user agent is cut to 512 characters. */
export async function insertAuditEvent(db: Db, input: AuditEventInput): Promise<void> {
  await db`
    insert into audit_log (event, actor_id, target_id, ip, user_agent, details)
    values (
      ${input.event}, ${input.actorId ?? null}, ${input.targetId ?? null},
      ${input.ip?.slice(0, 64) ?? null}, ${input.userAgent?.slice(0, 512) ?? null},
      ${db.json(input.details ?? {})}
    )`;
}

/** The newest events, optionally about one user (as actor or target), newest first. */
export async function listAuditEvents(
  db: Db,
  input: { userId?: string; event?: AuditEventName; limit?: number } = {},
): Promise<AuditEvent[]> {
  const userId = input.userId ?? null;
  const event = input.event ?? null;
  const rows = await db<(Omit<AuditEvent, "createdAt" | "id"> & { id: string; createdAt: Date })[]>`
    select id, event, actor_id, target_id, ip, user_agent, details, created_at from audit_log
    where (${userId}::uuid is null or actor_id = ${userId}::uuid or target_id = ${userId}::uuid)
      and (${event}::text is null or event = ${event})
    order by id desc
    limit ${input.limit ?? 100}`;
  return rows.map((r) => ({ ...r, id: Number(r.id), createdAt: r.createdAt.toISOString() }));
}
