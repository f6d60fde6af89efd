import { Heading } from "jsx-email";
import type { FilledCopy } from "../copy.ts";
import {
  ActionButton,
  EmailLayout,
  headingStyle,
  mutedStyle,
  QuotedText,
  textStyle,
} from "./_layout.tsx";
import { Paragraphs } from "./_paragraphs.tsx";
import type { ReviewRepliedBlock, ReviewRepliedProps } from "../templates/ReviewReplied.tsx";

/** Sent to a client when the firm they reviewed publishes its one reply to the review. */
export function ReviewReplied(
  { copy, ...props }: ReviewRepliedProps & { copy: FilledCopy<ReviewRepliedBlock> },
) {
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.greeting} style={textStyle} />
      <Paragraphs text={blocks.body} style={textStyle} />
      <QuotedText>{props.replyText}</QuotedText>
      <ActionButton href={props.profileUrl}>{blocks.button}</ActionButton>
      <Paragraphs text={blocks.footnote} style={mutedStyle} />
    </EmailLayout>
  );
}
