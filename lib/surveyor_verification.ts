/**
 * What a surveyor hears when their licence is verified, whichever way an admin did it (Verify
 * licence on a pending record, or setting a never-verified record active).
 */
import type { Db } from "../db/client.ts";
import { insertNotification } from "../db/notifications.ts";

/** The bell notification's title when a surveyor's licence is verified. */
export const LICENCE_VERIFIED_TITLE = "Licence verified";

/** Tells account `userId` that its record's licence is verified and leads are open to it. */
export async function notifyLicenceVerified(
  db: Db,
  { userId }: { userId: string },
): Promise<void> {
  await insertNotification(db, {
    userId,
    kind: "surveyor_joined",
    title: LICENCE_VERIFIED_TITLE,
    body: "Meridian checked your licence details: you can now buy and claim leads near you.",
    link: "/surveyor-dashboard",
  });
}
