/**
 * The SurveyorAssigned email's data and editable words, without JSX: its component
 * (../components/SurveyorAssigned.tsx) and jsx-email are loaded on the first email rendered
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

/** Data of the client's "Surveyor assigned" email. */
export interface SurveyorAssignedProps {
  name: string;
  surveyTypeName: string;
  address: string;
  companyName: string;
  /** The licensed principal's name, when the record has one. */
  surveyorName: string | null;
  phone: string | null;
  /** "TX 6012" (licence number with its state), or null when the record has none. */
  license: string | null;
  /** "$1,285". */
  agreedPrice: string;
  surveyUrl: string;
}

/** The editable blocks of the "Surveyor assigned" email. */
export type SurveyorAssignedBlock =
  | "preview"
  | "heading"
  | "greeting"
  | "body"
  | "button"
  | "footnote"
  | "reason";

/** The "Surveyor assigned" email's words. The surveyor's facts box stays in the code. */
export const surveyorAssignedCopy: TemplateCopyDef<SurveyorAssignedProps, SurveyorAssignedBlock> = {
  variables: {
    name: "The client's name",
    surveyTypeName: 'The survey type ("Boundary Survey")',
    address: "The property's address",
    companyName: "The surveying company's name",
    agreedPrice: 'The agreed price ("$1,285")',
  },
  values: ({ name, surveyTypeName, address, companyName, agreedPrice }) => ({
    name,
    surveyTypeName,
    address,
    companyName,
    agreedPrice,
  }),
  subject: "Surveyor assigned: {companyName}",
  blocks: {
    preview: previewBlock("{companyName} will do your {surveyTypeName} at {address}."),
    heading: headingBlock("Surveyor assigned"),
    greeting: greetingBlock(),
    body: bodyBlock(
      "Message",
      "{companyName} has taken your {surveyTypeName} request for {address}. They will contact you to confirm the details and book the field visit.",
    ),
    button: buttonBlock("View your request"),
    footnote: bodyBlock(
      "Small print under the button",
      "Questions? Reply to this email or visit the Help Center on our website.",
    ),
    reason: reasonBlock(
      "You received this email because you requested a land survey on Meridian.",
    ),
  },
};
