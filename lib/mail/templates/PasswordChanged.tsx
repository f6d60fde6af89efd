/**
 * The PasswordChanged email's data and editable words, without JSX: its component
 * (../components/PasswordChanged.tsx) and jsx-email are loaded on the first email rendered
 * (lib/mail/render.tsx), so the admin pages and the copy editor never load them.
 */
import type { TemplateCopyDef } from "../copy.ts";
import { bodyBlock, greetingBlock, headingBlock, previewBlock, reasonBlock } from "./_copy.tsx";

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
