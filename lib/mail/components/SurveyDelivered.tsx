import { Heading } from "jsx-email";
import type { FilledCopy } from "../copy.ts";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import { Paragraphs } from "./_paragraphs.tsx";
import { countOf } from "../templates/_copy.tsx";
import type { SurveyDeliveredBlock, SurveyDeliveredProps } from "../templates/SurveyDelivered.tsx";
import { FactsBox } from "./SurveyorAssigned.tsx";

/**
 * Sent to the client when their surveyor completes the survey: the files are on the request's
 * page, where they can also rate the surveyor.
 */
export function SurveyDelivered(
  { copy, ...props }: SurveyDeliveredProps & { copy: FilledCopy<SurveyDeliveredBlock> },
) {
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.greeting} style={textStyle} />
      <Paragraphs text={blocks.body} style={textStyle} />
      <FactsBox
        facts={[
          ["Completed", props.completedDate],
          ["Surveying company", props.companyName],
          ["Deliverables", countOf(props.fileCount, "file")],
        ]}
      />
      <ActionButton href={props.surveyUrl}>{blocks.button}</ActionButton>
      <Paragraphs text={blocks.footnote} style={mutedStyle} />
    </EmailLayout>
  );
}
