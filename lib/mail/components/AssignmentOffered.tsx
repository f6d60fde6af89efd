import { Heading } from "jsx-email";
import type { FilledCopy } from "../copy.ts";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import { Paragraphs } from "./_paragraphs.tsx";
import type {
  AssignmentOfferedBlock,
  AssignmentOfferedProps,
} from "../templates/AssignmentOffered.tsx";
import { FactsBox } from "./SurveyorAssigned.tsx";

/**
 * Sent to a surveyor an admin assigned to a survey: the job and the agreed price, and that
 * nothing is settled until they accept (or decline) on Meridian.
 */
export function AssignmentOffered(
  { copy, ...props }: AssignmentOfferedProps & { copy: FilledCopy<AssignmentOfferedBlock> },
) {
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.body} style={textStyle} />
      <FactsBox
        facts={[
          ["Survey type", props.surveyTypeName],
          ["Location", props.location],
          ["Agreed price", props.agreedPrice],
        ]}
      />
      <ActionButton href={props.actionUrl}>{blocks.button}</ActionButton>
      <Paragraphs text={blocks.footnote} style={mutedStyle} />
    </EmailLayout>
  );
}
