import type { Db } from "../../db/client.ts";

/**
 * Queues the password-reset email in the outbox, inside the caller's transaction.
 * (Stub until the mail work lands: templates, outbox table and sender.)
 */
export async function queuePasswordResetEmail(
  _db: Db,
  _email: { to: string; name: string; resetUrl: string },
): Promise<void> {}

/** Queues the "your password was changed" notice in the outbox, in the caller's transaction. */
export async function queuePasswordChangedEmail(
  _db: Db,
  _email: { to: string; name: string },
): Promise<void> {}
