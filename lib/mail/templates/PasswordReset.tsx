/**
 * The PasswordReset email's data and editable words, without JSX: its component
 * (../components/PasswordReset.tsx) and jsx-email are loaded on the first email rendered
 * (lib/mail/render.tsx), so the admin pages and the copy editor never load them.
 */
import type { TemplateCopyDef } from "../copy.ts";
import {
  bodyBlock,
  buttonBlock,
  greetingBlock,
  headingBlock,
  previewBlock,
  reasonBlock,
} from "./_copy.tsx";

/** Data of the password-reset email. */
export interface PasswordResetProps {
  name: string;
  resetUrl: string;
}

/** The editable blocks of the password-reset email. */
export type PasswordResetBlock =
  | "preview"
  | "heading"
  | "greeting"
  | "body"
  | "button"
  | "footnote"
  | "reason";

/** The password-reset email's words: subject, blocks and the variables they may use. */
export const passwordResetCopy: TemplateCopyDef<PasswordResetProps, PasswordResetBlock> = {
  variables: { name: "The name of the person who asked for the reset" },
  values: ({ name }) => ({ name }),
  subject: "Reset your Meridian password",
  blocks: {
    preview: previewBlock("Use this link within an hour to choose a new password."),
    heading: headingBlock("Reset your password"),
    greeting: greetingBlock(),
    body: bodyBlock(
      "Message",
      "We received a request to reset the password for your Meridian account. Choose a new password with the button below.",
    ),
    button: buttonBlock("Reset password"),
    footnote: bodyBlock(
      "Small print under the button",
      "This link expires in 1 hour and can be used once. If you did not ask to reset your password, you can ignore this email: your password stays the same.",
    ),
    reason: reasonBlock(
      "You received this email because someone asked to reset the password of your Meridian account.",
    ),
  },
};
