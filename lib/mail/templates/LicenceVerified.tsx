/**
 * The LicenceVerified email's data and editable words, without JSX: its component
 * (../components/LicenceVerified.tsx) and jsx-email are loaded on the first email rendered
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

/** Data of the licence-verified notice. */
export interface LicenceVerifiedProps {
  /** Whom it greets: the account holder's name. */
  name: string;
  companyName: string;
  /** The licence as checked ("TX 6012"), or "" when the record names none. */
  licence: string;
  /** Where the leads are (/leads on the public URL). */
  leadsUrl: string;
}

/** The editable blocks of the licence-verified notice. */
export type LicenceVerifiedBlock =
  | "preview"
  | "heading"
  | "greeting"
  | "body"
  | "button"
  | "reason";

/** The licence-verified notice's words. */
export const licenceVerifiedCopy: TemplateCopyDef<LicenceVerifiedProps, LicenceVerifiedBlock> = {
  variables: {
    name: "The account holder's name",
    companyName: "The surveying company's name",
    licence: 'The licence checked, in brackets (" (TX 6012)"), or nothing when none is on record',
  },
  values: ({ name, companyName, licence }) => ({
    name,
    companyName,
    licence: licence ? ` (${licence})` : "",
  }),
  subject: "Your licence is verified: leads are open to {companyName}",
  blocks: {
    preview: previewBlock("Meridian verified the licence of {companyName}."),
    heading: headingBlock("Your licence is verified"),
    greeting: greetingBlock(),
    body: bodyBlock(
      "Message",
      "Meridian checked the licence of {companyName}{licence} with the state licensing board. You can now buy and claim leads near your office.\n\nNew requests in your service area reach you by email and in the app.",
    ),
    button: buttonBlock("See leads near you"),
    reason: reasonBlock(
      "You received this email because Meridian verified the licence on your surveyor account.",
    ),
  },
};
