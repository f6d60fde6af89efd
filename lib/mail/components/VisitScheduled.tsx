import { Heading } from "jsx-email";
import type { FilledCopy } from "../copy.ts";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import { Paragraphs } from "./_paragraphs.tsx";
import type { VisitScheduledBlock, VisitScheduledProps } from "../templates/VisitScheduled.tsx";
import { FactsBox } from "./SurveyorAssigned.tsx";

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
