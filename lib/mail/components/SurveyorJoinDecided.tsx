import { Heading } from "jsx-email";
import type { FilledCopy } from "../copy.ts";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import { Paragraphs } from "./_paragraphs.tsx";
import type {
  SurveyorJoinDecidedBlock,
  SurveyorJoinDecidedProps,
} from "../templates/SurveyorJoinDecided.tsx";

/**
 * Sent to a surveyor who joined by themselves when an admin decides: their request to join a
 * firm on record (approved or declined), or the licence check of their firm (not passed).
 */
export function SurveyorJoinDecided(
  { copy, ...props }: SurveyorJoinDecidedProps & { copy: FilledCopy<SurveyorJoinDecidedBlock> },
) {
  const { blocks } = copy;
  const isLinked = props.decision === "linked";
  const heading = isLinked
    ? blocks.heading
    : props.decision === "declined"
    ? blocks.declinedHeading
    : blocks.rejectedHeading;
  const sentence = blocks[props.decision];
  return (
    <EmailLayout preview={sentence} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{heading}</Heading>
      <Paragraphs text={blocks.greeting} style={textStyle} />
      <Paragraphs text={sentence} style={textStyle} />
      <ActionButton href={props.url}>
        {isLinked ? blocks.button : blocks.contactButton}
      </ActionButton>
      {!isLinked && <Paragraphs text={blocks.footnote} style={mutedStyle} />}
    </EmailLayout>
  );
}
