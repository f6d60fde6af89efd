import { Heading, Text } from "jsx-email";
import { EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";

/** Data of the password-changed notice. */
export interface PasswordChangedProps {
  name: string;
}

/** Subject line of the password-changed notice. */
export function passwordChangedSubject(_props: PasswordChangedProps): string {
  return "Your Meridian password was changed";
}

/**
 * Sent after a password change or reset. It deliberately carries no link: a notice people are
 * told to act on quickly is a phishing template, so it points to the sign-in page by name.
 */
export function PasswordChanged({ name }: PasswordChangedProps) {
  return (
    <EmailLayout
      preview="The password for your Meridian account was just changed."
      reason="You received this email because the password of your Meridian account changed."
    >
      <Heading as="h1" style={headingStyle}>Your password was changed</Heading>
      <Text style={textStyle}>Hi {name},</Text>
      <Text style={textStyle}>
        The password for your Meridian account was just changed, and every other device signed in to
        your account has been signed out.
      </Text>
      <Text style={textStyle}>If this was you, there is nothing more to do.</Text>
      <Text style={mutedStyle}>
        If you did not make this change, open the Meridian sign-in page, choose "Forgot Password?"
        to set a new password right away, and contact our support team.
      </Text>
    </EmailLayout>
  );
}
