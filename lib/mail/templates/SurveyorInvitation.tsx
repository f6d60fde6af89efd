import { Heading, Text } from "jsx-email";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";

/** Data of the surveyor invitation email. */
export interface SurveyorInvitationProps {
  /** Whom it greets: the principal's name, or the company's. */
  name: string;
  companyName: string;
  /** The set-password link (a password-reset token that lasts `validDays`). */
  setPasswordUrl: string;
  /** How many days the link works. */
  validDays: number;
}

/** Subject line of the surveyor invitation. */
export function surveyorInvitationSubject(_props: SurveyorInvitationProps): string {
  return "You're invited to join the Meridian surveyor network";
}

/**
 * Sent when an admin creates an account for a surveyor record: the link sets the account's
 * first password, works once and lasts `validDays` days.
 */
export function SurveyorInvitation(
  { name, companyName, setPasswordUrl, validDays }: SurveyorInvitationProps,
) {
  const days = `${validDays} day${validDays === 1 ? "" : "s"}`;
  return (
    <EmailLayout
      preview={`Choose a password to open ${companyName}'s Meridian surveyor account.`}
      reason="You received this email because the Meridian team created a surveyor account for this address."
    >
      <Heading as="h1" style={headingStyle}>Join the Meridian surveyor network</Heading>
      <Text style={textStyle}>Hi {name},</Text>
      <Text style={textStyle}>
        We created a Meridian surveyor account for{" "}
        <strong>{companyName}</strong>. Choose a password to sign in, keep your coverage area and
        survey types up to date, and hear about survey requests near you.
      </Text>
      <ActionButton href={setPasswordUrl}>Choose your password</ActionButton>
      <Text style={mutedStyle}>
        This link expires in {days}{" "}
        and can be used once. If it has expired, ask us for a new one, or use "Forgot password" on
        the sign-in page with this email address. If you were not expecting this invitation, you can
        ignore this email.
      </Text>
    </EmailLayout>
  );
}
