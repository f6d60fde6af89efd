/**
 * Google accounts linked to users (table google_accounts, 0020_google_accounts.sql): one per
 * user, one user per Google subject.
 */
import type { Db } from "./client.ts";
import { isUuid } from "./users.ts";

/** A link as read for sign-in. */
export interface GoogleAccountLink {
  userId: string;
  subject: string;
  email: string;
}

/** The link shown on /profile. `linkedAt` is an ISO time. */
export interface LinkedGoogleAccount {
  email: string;
  linkedAt: string;
  /**
   * False while the account still has only the unknown password it was created with by Google
   * sign-in: removing the link would lock its owner out.
   */
  hasPassword: boolean;
}

/** Thrown by `insertGoogleAccount` when the user or the Google subject is already linked. */
export class GoogleAccountLinkedError extends Error {
  constructor() {
    super("This account is already linked to a Google account");
  }
}

/** The link of Google subject `subject`, or undefined. */
export async function getGoogleAccountBySubject(
  db: Db,
  { subject }: { subject: string },
): Promise<GoogleAccountLink | undefined> {
  const [row] = await db<GoogleAccountLink[]>`
    select user_id, subject, email from google_accounts where subject = ${subject}`;
  return row;
}

/** The Google account linked to `userId`, for /profile, or undefined. */
export async function getGoogleAccountForUser(
  db: Db,
  { userId }: { userId: string },
): Promise<LinkedGoogleAccount | undefined> {
  if (!isUuid(userId)) return undefined;
  const [row] = await db<{ email: string; linkedAt: Date; hasPassword: boolean }[]>`
    select g.email, g.linked_at,
      (g.placeholder_password_hash is null or u.password_hash <> g.placeholder_password_hash)
        as has_password
    from google_accounts g join users u on u.id = g.user_id
    where g.user_id = ${userId}`;
  return row &&
    { email: row.email, linkedAt: row.linkedAt.toISOString(), hasPassword: row.hasPassword };
}

/**
 * Links Google subject `subject` to `userId`. `placeholderPasswordHash` is the hash given to
 * an account that Google sign-in created (see the migration). Throws `GoogleAccountLinkedError`
 * when the user already has a link or the subject belongs to another user.
 */
export async function insertGoogleAccount(
  db: Db,
  input: { userId: string; subject: string; email: string; placeholderPasswordHash?: string },
): Promise<void> {
  try {
    await db`
      insert into google_accounts (user_id, subject, email, placeholder_password_hash)
      values (
        ${input.userId}, ${input.subject}, ${input.email},
        ${input.placeholderPasswordHash ?? null}
      )`;
  } catch (err) {
    if ((err as { code?: string }).code === "23505") throw new GoogleAccountLinkedError();
    throw err;
  }
}

/** Records a sign-in through the link of `subject`, keeping Google's current email. */
export async function touchGoogleAccount(
  db: Db,
  input: { subject: string; email: string },
): Promise<void> {
  await db`
    update google_accounts set last_used_at = now(), email = ${input.email}
    where subject = ${input.subject}`;
}

/**
 * Removes the link of `userId` if its owner has a password of their own. `removed`, or why
 * not: `none` (no link) or `no_password` (the account has only its placeholder password).
 */
export async function deleteGoogleAccount(
  db: Db,
  { userId }: { userId: string },
): Promise<"removed" | "none" | "no_password"> {
  if (!isUuid(userId)) return "none";
  // One statement decides and deletes, so a password change racing it cannot slip between.
  const [row] = await db<{ deleted: boolean; found: boolean }[]>`
    with target as (
      select g.user_id,
        (g.placeholder_password_hash is null or u.password_hash <> g.placeholder_password_hash)
          as has_password
      from google_accounts g join users u on u.id = g.user_id
      where g.user_id = ${userId}
      for update of g
    ), deleted as (
      delete from google_accounts g using target
      where g.user_id = target.user_id and target.has_password
      returning g.user_id
    )
    select exists (select 1 from deleted) as deleted, exists (select 1 from target) as found`;
  return row.deleted ? "removed" : row.found ? "no_password" : "none";
}
