/**
 * The AssignmentOffered email's data and editable words, without JSX: its component
 * (../components/AssignmentOffered.tsx) and jsx-email are loaded on the first email rendered
 * (lib/mail/render.tsx), so the admin pages and the copy editor never load them.
 */
import type { TemplateCopyDef } from "../copy.ts";
import { bodyBlock, buttonBlock, headingBlock, previewBlock, reasonBlock } from "./_copy.tsx";

/** Data of the email offering a surveyor a job an admin assigned them. */
export interface AssignmentOfferedProps {
  companyName: string;
  surveyTypeName: string;
  /** "Austin, TX": the town and state, never the street. */
  location: string;
  /** "$1,285". */
  agreedPrice: string;
  /** Where the surveyor accepts or declines. */
  actionUrl: string;
}

/** The editable blocks of the assignment offer. */
export type AssignmentOfferedBlock =
  | "preview"
  | "heading"
  | "body"
  | "button"
  | "footnote"
  | "reason";

/** The assignment offer's words. The job's facts box stays in the code. */
export const assignmentOfferedCopy: TemplateCopyDef<
  AssignmentOfferedProps,
  AssignmentOfferedBlock
> = {
  variables: {
    companyName: "The surveying company's name",
    surveyTypeName: 'The survey type ("Boundary Survey")',
    location: 'The town and state of the property ("Austin, TX"); never the street',
    agreedPrice: 'The agreed price ("$1,285")',
  },
  values: ({ companyName, surveyTypeName, location, agreedPrice }) => ({
    companyName,
    surveyTypeName,
    location,
    agreedPrice,
  }),
  subject: "You were assigned a {surveyTypeName} in {location}: accept or decline",
  blocks: {
    preview: previewBlock("A {surveyTypeName} in {location} at {agreedPrice}."),
    heading: headingBlock("You were assigned a survey"),
    body: bodyBlock(
      "Message",
      "Meridian assigned {companyName} a {surveyTypeName} in {location} at the agreed price below. Please accept or decline it; the client is told once you accept.",
    ),
    button: buttonBlock("Accept or decline"),
    footnote: bodyBlock(
      "Small print under the button",
      "Questions about this job? Reply to this email.",
    ),
    reason: reasonBlock("You received this email because your firm is a Meridian surveyor."),
  },
};
