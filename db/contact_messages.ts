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
 * Newest messages first, `limit` per page (capped at 100). Pass the last row's `createdAt`
 * and `id` as `before` for the next page; the created_at index serves both.
 */
export async function listContactMessages(
  db: Db,
  { limit = 50, before }: { limit?: number; before?: { createdAt: Date; id: string } } = {},
): Promise<ContactMessage[]> {
  const n = Math.max(1, Math.min(100, Math.trunc(limit)));
  return await db<ContactMessage[]>`
    select ${db(columns)} from contact_messages
    ${before ? db`where (created_at, id) < (${before.createdAt}, ${before.id})` : db``}
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
