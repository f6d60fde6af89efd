/**
 * The VisitScheduled email's data and editable words, without JSX: its component
 * (../components/VisitScheduled.tsx) and jsx-email are loaded on the first email rendered
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

/** Data of the client's "visit scheduled" email. */
export interface VisitScheduledProps {
  name: string;
  surveyTypeName: string;
  address: string;
  companyName: string;
  phone: string | null;
  /** "Tuesday, March 3, 2026". */
  visitDate: string;
  surveyUrl: string;
}

/** The editable blocks of the "visit scheduled" email. */
export type VisitScheduledBlock =
  | "preview"
  | "heading"
  | "greeting"
  | "body"
  | "button"
  | "footnote"
  | "reason";

/** The "visit scheduled" email's words. The visit's facts box stays in the code. */
export const visitScheduledCopy: TemplateCopyDef<VisitScheduledProps, VisitScheduledBlock> = {
  variables: {
    name: "The client's name",
    surveyTypeName: 'The survey type ("Boundary Survey")',
    address: "The property's address",
    companyName: "The surveying company's name",
    visitDate: 'The day of the visit ("Tuesday, March 3, 2026")',
  },
  values: ({ name, surveyTypeName, address, companyName, visitDate }) => ({
    name,
    surveyTypeName,
    address,
    companyName,
    visitDate,
  }),
  subject: "Your survey visit is scheduled for {visitDate}",
  blocks: {
    preview: previewBlock("{companyName} will visit {address} on {visitDate}."),
    heading: headingBlock("Your survey visit is scheduled"),
    greeting: greetingBlock(),
    body: bodyBlock(
      "Message",
      "{companyName} will visit {address} for your {surveyTypeName} on {visitDate}.",
    ),
    button: buttonBlock("View your request"),
    footnote: bodyBlock(
      "Small print under the button",
      "Need another day? Call your surveyor or reply to this email.",
    ),
    reason: reasonBlock("You received this email because you requested a land survey on Meridian."),
  },
};
