/** Messages sent through the public contact form (table `contact_messages`). */
import type { Db } from "./client.ts";

/** A stored contact message. */
export interface ContactMessage {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  topic: string;
  message: string;
  ip: string | null;
  createdAt: Date;
  readAt: Date | null;
}

const columns = [
  "id",
  "name",
  "email",
  "phone",
  "topic",
  "message",
  "ip",
  "created_at",
  "read_at",
] as const;

/** Stores one message and returns it. */
export async function insertContactMessage(
  db: Db,
  input: {
    name: string;
    email: string;
    phone: string | null;
    topic: string;
    message: string;
    ip: string | null;
  },
): Promise<ContactMessage> {
  const [row] = await db<ContactMessage[]>`
    insert into contact_messages (name, email, phone, topic, message, ip)
    values (${input.name}, ${input.email}, ${input.phone}, ${input.topic}, ${input.message},
      ${input.ip})
    returning ${db(columns)}`;
  return row;
}

/**
 * Newest messages first, `limit` per page (capped at 100), only unread ones with
 * `unreadOnly`. Pass the last row's `createdAt` and `id` as `before` for the next page; the
 * created_at index serves both.
 */
export async function listContactMessages(
  db: Db,
  { limit = 50, before, unreadOnly = false }: {
    limit?: number;
    before?: { createdAt: Date; id: string };
    unreadOnly?: boolean;
  } = {},
): Promise<ContactMessage[]> {
  const n = Math.max(1, Math.min(100, Math.trunc(limit)));
  // A JS Date keeps milliseconds but created_at has microseconds: the cursor row's own stored
  // time is used when it still exists, so rows less than a millisecond older are not skipped.
  const older = before
    ? db`and (created_at, id) < (
        coalesce((select created_at from contact_messages where id = ${before.id}),
          ${before.createdAt}),
        ${before.id})`
    : db``;
  const unread = unreadOnly ? db`and read_at is null` : db``;
  return await db<ContactMessage[]>`
    select ${db(columns)} from contact_messages
    where true ${older} ${unread}
    order by created_at desc, id desc
    limit ${n}`;
}

/** Marks a message read; returns false when there is no such message. */
export async function markContactMessageRead(db: Db, id: string): Promise<boolean> {
  const rows = await db`
    update contact_messages set read_at = coalesce(read_at, now()) where id = ${id}
    returning id`;
  return rows.length > 0;
}
