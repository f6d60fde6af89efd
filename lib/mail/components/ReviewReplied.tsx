import { Heading, Section, Text } from "jsx-email";
import type { FilledCopy } from "../copy.ts";
import {
  ActionButton,
  EMAIL_COLORS,
  EmailLayout,
  headingStyle,
  mutedStyle,
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
      <Section
        style={{
          backgroundColor: EMAIL_COLORS.bg,
          borderLeft: `4px solid ${EMAIL_COLORS.primary}`,
          padding: "12px 16px",
          margin: "0 0 24px",
        }}
      >
        <Text style={{ ...textStyle, margin: 0, whiteSpace: "pre-wrap" }}>
          {props.replyText}
        </Text>
      </Section>
      <ActionButton href={props.profileUrl}>{blocks.button}</ActionButton>
      <Paragraphs text={blocks.footnote} style={mutedStyle} />
    </EmailLayout>
  );
}
