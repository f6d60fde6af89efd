/**
 * The SurveyDelivered email's data and editable words, without JSX: its component
 * (../components/SurveyDelivered.tsx) and jsx-email are loaded on the first email rendered
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

/** Data of the client's "your survey is delivered" email. */
export interface SurveyDeliveredProps {
  name: string;
  surveyTypeName: string;
  address: string;
  /** The surveying company that delivered it. */
  companyName: string;
  /** "March 5, 2026". */
  completedDate: string;
  /** How many deliverable files wait on the request's page (at least one). */
  fileCount: number;
  /** The request's page (`/client/surveys/{id}`, which signs the client in first). */
  surveyUrl: string;
}

/** The editable blocks of the "survey delivered" email. */
export type SurveyDeliveredBlock =
  | "preview"
  | "heading"
  | "greeting"
  | "body"
  | "button"
  | "footnote"
  | "reason";

/** The "survey delivered" email's words. The delivery's facts box stays in the code. */
export const surveyDeliveredCopy: TemplateCopyDef<SurveyDeliveredProps, SurveyDeliveredBlock> = {
  variables: {
    name: "The client's name",
    surveyTypeName: 'The survey type ("Boundary Survey")',
    address: "The property's address",
    companyName: "The surveying company's name",
    completedDate: 'The day the survey was completed ("March 5, 2026")',
    files: 'How many files there are to download ("2 files")',
  },
  values: ({ name, surveyTypeName, address, companyName, completedDate, fileCount }) => ({
    name,
    surveyTypeName,
    address,
    companyName,
    completedDate,
    files: countOf(fileCount, "file"),
  }),
  subject: "Your {surveyTypeName} is ready to download",
  blocks: {
    preview: previewBlock("{companyName} delivered your {surveyTypeName}: {files} to download."),
    heading: headingBlock("Your survey is complete"),
    greeting: greetingBlock(),
    body: bodyBlock(
      "Message",
      "{companyName} has completed your {surveyTypeName} for {address}. The final documents are ready to download from your request's page.",
    ),
    button: buttonBlock("Download your survey"),
    footnote: bodyBlock(
      "Small print under the button",
      "Once you have looked at the documents, you can rate {companyName} on the same page. Your rating helps other clients choose a surveyor.",
    ),
    reason: reasonBlock("You received this email because you requested a land survey on Meridian."),
  },
};
