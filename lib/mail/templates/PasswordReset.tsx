import { Heading, Text } from "jsx-email";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";

/** Data of the password-reset email. */
export interface PasswordResetProps {
  name: string;
  resetUrl: string;
}

/** Subject line of the password-reset email. */
export function passwordResetSubject(_props: PasswordResetProps): string {
  return "Reset your Meridian password";
}

/** Sent after a reset request; the link is valid for one hour and works once. */
export function PasswordReset({ name, resetUrl }: PasswordResetProps) {
  return (
    <EmailLayout
      preview="Use this link within an hour to choose a new password."
      reason="You received this email because someone asked to reset the password of your Meridian account."
    >
      <Heading as="h1" style={headingStyle}>Reset your password</Heading>
      <Text style={textStyle}>Hi {name},</Text>
      <Text style={textStyle}>
        We received a request to reset the password for your Meridian account. Choose a new password
        with the button below.
      </Text>
      <ActionButton href={resetUrl}>Reset password</ActionButton>
      <Text style={mutedStyle}>
        This link expires in 1 hour and can be used once. If you did not ask to reset your password,
        you can ignore this email: your password stays the same.
      </Text>
    </EmailLayout>
  );
}
