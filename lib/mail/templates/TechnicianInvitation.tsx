import { Heading, Text } from "jsx-email";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";

/** Data of the technician invitation email. */
export interface TechnicianInvitationProps {
  /** The technician's name. */
  name: string;
  /** The firm they join, or "Meridian" for Meridian's own staff. */
  companyName: string;
  /** Who invited them (the surveyor or the admin). */
  inviterName: string;
  /** The set-password link (a password-reset token that lasts `validDays`). */
  setPasswordUrl: string;
  /** How many days the link works. */
  validDays: number;
}

/** Subject line of the technician invitation. */
export function technicianInvitationSubject({ companyName }: TechnicianInvitationProps): string {
  return `You're invited to join ${companyName}'s field crew on Meridian`;
}

/**
 * Sent when a surveyor (or an admin) adds a technician to their crew: the link sets the
 * account's first password, works once and lasts `validDays` days.
 */
export function TechnicianInvitation(
  { name, companyName, inviterName, setPasswordUrl, validDays }: TechnicianInvitationProps,
) {
  const days = `${validDays} day${validDays === 1 ? "" : "s"}`;
  return (
    <EmailLayout
      preview={`Choose a password to see the survey jobs ${companyName} assigns you.`}
      reason={`You received this email because ${inviterName} added this address to ${companyName}'s field crew on Meridian.`}
    >
      <Heading as="h1" style={headingStyle}>Join your field crew on Meridian</Heading>
      <Text style={textStyle}>Hi {name},</Text>
      <Text style={textStyle}>
        {inviterName} added you to{" "}
        <strong>{companyName}</strong>'s field crew on Meridian. Choose a password to sign in: the
        survey jobs you are assigned appear on your dashboard with the address, the visit day,
        access notes, the client's phone and the checklist to complete on site, and it works on your
        phone.
      </Text>
      <ActionButton href={setPasswordUrl}>Choose your password</ActionButton>
      <Text style={mutedStyle}>
        This link expires in {days} and can be used once. If it has expired, ask {inviterName}{" "}
        for a new one, or use "Forgot password" on the sign-in page with this email address. If you
        were not expecting this invitation, you can ignore this email.
      </Text>
    </EmailLayout>
  );
}
