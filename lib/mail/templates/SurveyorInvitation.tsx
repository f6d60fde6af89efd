/**
 * The SurveyorInvitation email's data and editable words, without JSX: its component
 * (../components/SurveyorInvitation.tsx) and jsx-email are loaded on the first email rendered
 * (lib/mail/render.tsx), so the admin pages and the copy editor never load them.
 */
import type { TemplateCopyDef } from "../copy.ts";
import {
  bodyBlock,
  buttonBlock,
  countOf,
  greetingBlock,
  headingBlock,
  previewBlock,
  reasonBlock,
} from "./_copy.tsx";

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

/** The editable blocks of the surveyor invitation. */
export type SurveyorInvitationBlock =
  | "preview"
  | "heading"
  | "greeting"
  | "body"
  | "button"
  | "footnote"
  | "reason";

/** The surveyor invitation's words. */
export const surveyorInvitationCopy: TemplateCopyDef<
  SurveyorInvitationProps,
  SurveyorInvitationBlock
> = {
  variables: {
    name: "Whom the email greets: the licensed surveyor's name, or the company's",
    companyName: "The surveying company's name",
    validFor: 'How long the link works ("7 days")',
  },
  values: ({ name, companyName, validDays }) => ({
    name,
    companyName,
    validFor: countOf(validDays, "day"),
  }),
  subject: "You're invited to join the Meridian surveyor network",
  blocks: {
    preview: previewBlock("Choose a password to open {companyName}'s Meridian surveyor account."),
    heading: headingBlock("Join the Meridian surveyor network"),
    greeting: greetingBlock(),
    body: bodyBlock(
      "Message (the company's name shows in bold)",
      "We created a Meridian surveyor account for {companyName}. Choose a password to sign in, keep your coverage area and survey types up to date, and hear about survey requests near you.",
    ),
    button: buttonBlock("Choose your password"),
    footnote: bodyBlock(
      "Small print under the button",
      'This link expires in {validFor} and can be used once. If it has expired, ask us for a new one, or use "Forgot password" on the sign-in page with this email address. If you were not expecting this invitation, you can ignore this email.',
    ),
    reason: reasonBlock(
      "You received this email because the Meridian team created a surveyor account for this address.",
    ),
  },
};
