import { Heading } from "jsx-email";
import type { FilledCopy, TemplateCopyDef } from "../copy.ts";
import { EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import {
  bodyBlock,
  greetingBlock,
  headingBlock,
  Paragraphs,
  previewBlock,
  reasonBlock,
} from "./_copy.tsx";

/** Data of the password-changed notice. */
export interface PasswordChangedProps {
  name: string;
}

/** The editable blocks of the password-changed notice. */
export type PasswordChangedBlock =
  | "preview"
  | "heading"
  | "greeting"
  | "body"
  | "footnote"
  | "reason";

/**
 * The password-changed notice's words. They should keep pointing to the sign-in page by name:
 * the email has no link (see PasswordChanged).
 */
export const passwordChangedCopy: TemplateCopyDef<PasswordChangedProps, PasswordChangedBlock> = {
  variables: { name: "The account holder's name" },
  values: ({ name }) => ({ name }),
  subject: "Your Meridian password was changed",
  blocks: {
    preview: previewBlock("The password for your Meridian account was just changed."),
    heading: headingBlock("Your password was changed"),
    greeting: greetingBlock(),
    body: bodyBlock(
      "Message",
      "The password for your Meridian account was just changed, and every other device signed in to your account has been signed out.\n\nIf this was you, there is nothing more to do.",
    ),
    footnote: bodyBlock(
      "If it was not them (small print)",
      'If you did not make this change, open the Meridian sign-in page, choose "Forgot Password?" to set a new password right away, and contact our support team.',
    ),
    reason: reasonBlock(
      "You received this email because the password of your Meridian account changed.",
    ),
  },
};

/**
 * Sent after a password change or reset. It deliberately carries no link: a notice people are
 * told to act on quickly is a phishing template, so it points to the sign-in page by name.
 */
export function PasswordChanged(
  { copy }: PasswordChangedProps & { copy: FilledCopy<PasswordChangedBlock> },
) {
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.greeting} style={textStyle} />
      <Paragraphs text={blocks.body} style={textStyle} />
      <Paragraphs text={blocks.footnote} style={mutedStyle} />
    </EmailLayout>
  );
}
