/**
 * What a surveyor hears when their licence is verified, whichever way an admin did it (Verify
 * licence on a pending record, or setting a never-verified record active): a bell notification
 * and the LicenceVerified email, both in the admin's transaction.
 */
import type { Db } from "../db/client.ts";
import { insertNotification } from "../db/notifications.ts";
import { queueLicenceVerifiedEmail } from "./mail/emails.ts";

/** The bell notification's title when a surveyor's licence is verified. */
export const LICENCE_VERIFIED_TITLE = "Licence verified";

/**
 * Tells account `userId` that its record's licence is verified and leads are open to it: the
 * bell, and an email to the account's address (links on `publicUrl`). A disabled account is
 * told nothing.
 */
export async function notifyLicenceVerified(
  db: Db,
  { userId, publicUrl }: { userId: string; publicUrl: string },
): Promise<void> {
  const [who] = await db<
    { email: string; fullName: string; companyName: string; licence: string | null }[]
  >`
    select u.email, u.full_name, v.company_name,
      nullif(concat_ws(' ', v.license_states[1], v.license_number), '') as licence
    from users u left join surveyors v on v.user_id = u.id
    where u.id = ${userId} and u.disabled_at is null
    limit 1`;
  if (!who) return;
  await insertNotification(db, {
    userId,
    kind: "surveyor_joined",
    title: LICENCE_VERIFIED_TITLE,
    body: "Meridian checked your licence details: you can now buy and claim leads near you.",
    link: "/surveyor-dashboard",
  });
  await queueLicenceVerifiedEmail(db, {
    to: who.email,
    name: who.fullName,
    companyName: who.companyName ?? "your firm",
    licence: who.licence ?? "",
    leadsUrl: new URL("/leads", publicUrl).href,
  });
}
