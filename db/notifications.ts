/**
 * In-app notifications: one row per recipient. Every read and write is scoped to the
 * recipient in the query, so nobody can see or mark another user's notification.
 */
import type { Db } from "./client.ts";
import type { Notification } from "../lib/survey_schema.ts";

/** What a notification says and where it points. */
export interface NewNotification {
  kind: Notification["kind"];
  title: string;
  body: string;
  /** Site-relative path of the related page. */
  link: string | null;
}

/** Page size of `GET /api/notifications`. */
export const NOTIFICATIONS_PAGE_SIZE = 20;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type NotificationRow = Omit<Notification, "createdAt" | "readAt"> & {
  createdAt: Date;
  readAt: Date | null;
};

function toNotification(row: NotificationRow): Notification {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt ? row.readAt.toISOString() : null,
  };
}

/** Notifies one user. */
export async function insertNotification(
  db: Db,
  input: NewNotification & { userId: string },
): Promise<void> {
  await db`
    insert into notifications (user_id, kind, title, body, link)
    values (${input.userId}, ${input.kind}, ${input.title}, ${input.body}, ${input.link})`;
}

/** Notifies each of `userIds` with the same notification, in one statement. */
export async function insertNotifications(
  db: Db,
  input: NewNotification & { userIds: string[] },
): Promise<void> {
  if (input.userIds.length === 0) return;
  await db`
    insert into notifications (user_id, kind, title, body, link)
    select u, ${input.kind}, ${input.title}, ${input.body}, ${input.link}
    from unnest(${db.array(input.userIds)}::uuid[]) as u`;
}

/**
 * Whether an active admin got a notification of `kind` linking to `link` in the last
 * `withinHours` hours: a retried background job checks it so the admins are told once.
 * Reads each admin's newest notifications through notifications_user_created_at_idx.
 */
export async function hasRecentAdminNotification(
  db: Db,
  { kind, link, withinHours }: { kind: Notification["kind"]; link: string; withinHours: number },
): Promise<boolean> {
  const [row] = await db<{ found: boolean }[]>`
    select exists (
      select 1 from users a join notifications n on n.user_id = a.id
      where a.role = 'admin' and a.disabled_at is null
        and n.created_at > now() - make_interval(hours => ${withinHours}::int)
        and n.kind = ${kind} and n.link = ${link}
    ) as found`;
  return row.found;
}

/** An admin who was notified, so the caller can email them too. */
export interface NotifiedAdmin {
  id: string;
  email: string;
  fullName: string;
}

/**
 * Notifies every active (not disabled) admin in one statement and returns who they are.
 */
export async function notifyAdmins(db: Db, input: NewNotification): Promise<NotifiedAdmin[]> {
  return await db<NotifiedAdmin[]>`
    with admins as (
      select id, email, full_name from users where role = 'admin' and disabled_at is null
    ), inserted as (
      insert into notifications (user_id, kind, title, body, link)
      select id, ${input.kind}, ${input.title}, ${input.body}, ${input.link} from admins
      returning user_id
    )
    select a.id, a.email, a.full_name from admins a join inserted i on i.user_id = a.id
    order by a.full_name, a.id`;
}

/**
 * One page of the user's notifications, newest first. Reads one row beyond the page to say
 * whether there is another, instead of counting them all.
 */
export async function listNotifications(
  db: Db,
  { userId, page, pageSize = NOTIFICATIONS_PAGE_SIZE }: {
    userId: string;
    page: number;
    pageSize?: number;
  },
): Promise<{ notifications: Notification[]; hasMore: boolean }> {
  const rows = await db<NotificationRow[]>`
    select id, kind, title, body, link, is_read, created_at, read_at
    from notifications
    where user_id = ${userId}
    order by created_at desc, id desc
    limit ${pageSize + 1} offset ${(page - 1) * pageSize}`;
  return {
    notifications: rows.slice(0, pageSize).map(toNotification),
    hasMore: rows.length > pageSize,
  };
}

/** How many of the user's notifications are unread (served by a partial index). */
export async function countUnreadNotifications(
  db: Db,
  { userId }: { userId: string },
): Promise<number> {
  const [{ count }] = await db<{ count: number }[]>`
    select count(*)::int as count from notifications where user_id = ${userId} and not is_read`;
  return count;
}

/**
 * Marks one of the user's notifications read. Returns false when the user has no notification
 * with that id (including someone else's). Marking a read one again keeps its first read time.
 */
export async function markNotificationRead(
  db: Db,
  { id, userId }: { id: string; userId: string },
): Promise<boolean> {
  if (!UUID.test(id)) return false;
  const rows = await db`
    update notifications set is_read = true, read_at = coalesce(read_at, now())
    where id = ${id} and user_id = ${userId}
    returning id`;
  return rows.length === 1;
}

/** Marks all the user's unread notifications read; returns how many changed. */
export async function markAllNotificationsRead(
  db: Db,
  { userId }: { userId: string },
): Promise<number> {
  const rows = await db`
    update notifications set is_read = true, read_at = now()
    where user_id = ${userId} and not is_read
    returning id`;
  return rows.length;
}
