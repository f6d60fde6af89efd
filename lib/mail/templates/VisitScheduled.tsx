import { Heading } from "jsx-email";
import type { FilledCopy, TemplateCopyDef } from "../copy.ts";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import {
  bodyBlock,
  buttonBlock,
  greetingBlock,
  headingBlock,
  Paragraphs,
  previewBlock,
  reasonBlock,
} from "./_copy.tsx";
import { FactsBox } from "./SurveyorAssigned.tsx";

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

/** Sent to the client when their surveyor books (or moves) the field visit. */
export function VisitScheduled(
  { copy, ...props }: VisitScheduledProps & { copy: FilledCopy<VisitScheduledBlock> },
) {
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.greeting} style={textStyle} />
      <Paragraphs text={blocks.body} style={textStyle} />
      <FactsBox
        facts={[
          ["Visit date", props.visitDate],
          ["Surveying company", props.companyName],
          ...(props.phone ? [["Phone", props.phone] as [string, string]] : []),
        ]}
      />
      <ActionButton href={props.surveyUrl}>{blocks.button}</ActionButton>
      <Paragraphs text={blocks.footnote} style={mutedStyle} />
    </EmailLayout>
  );
}
