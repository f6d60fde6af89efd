/**
 * The TechnicianInvitation email's data and editable words, without JSX: its component
 * (../components/TechnicianInvitation.tsx) and jsx-email are loaded on the first email rendered
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

/** The editable blocks of the technician invitation. */
export type TechnicianInvitationBlock =
  | "preview"
  | "heading"
  | "greeting"
  | "body"
  | "button"
  | "footnote"
  | "reason";

/** The technician invitation's words. */
export const technicianInvitationCopy: TemplateCopyDef<
  TechnicianInvitationProps,
  TechnicianInvitationBlock
> = {
  variables: {
    name: "The technician's name",
    companyName: 'The surveying company they join ("Meridian" for Meridian\'s own staff)',
    inviterName: "The name of the surveyor or admin who added them",
    validFor: 'How long the link works ("7 days")',
  },
  values: ({ name, companyName, inviterName, validDays }) => ({
    name,
    companyName,
    inviterName,
    validFor: countOf(validDays, "day"),
  }),
  subject: "You're invited to join {companyName}'s field crew on Meridian",
  blocks: {
    preview: previewBlock("Choose a password to see the survey jobs {companyName} assigns you."),
    heading: headingBlock("Join your field crew on Meridian"),
    greeting: greetingBlock(),
    body: bodyBlock(
      "Message (the company's name shows in bold)",
      "{inviterName} added you to {companyName}'s field crew on Meridian. Choose a password to sign in: the survey jobs you are assigned appear on your dashboard with the address, the visit day, access notes, the client's phone and the checklist to complete on site, and it works on your phone.",
    ),
    button: buttonBlock("Choose your password"),
    footnote: bodyBlock(
      "Small print under the button",
      'This link expires in {validFor} and can be used once. If it has expired, ask {inviterName} for a new one, or use "Forgot password" on the sign-in page with this email address. If you were not expecting this invitation, you can ignore this email.',
    ),
    reason: reasonBlock(
      "You received this email because {inviterName} added this address to {companyName}'s field crew on Meridian.",
    ),
  },
};
