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
import type { MessageReceivedBlock, MessageReceivedProps } from "../templates/MessageReceived.tsx";

/** Sent to a reader of a survey's conversation when a message is waiting for them. */
export function MessageReceived(
  { copy, ...props }: MessageReceivedProps & { copy: FilledCopy<MessageReceivedBlock> },
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
          {props.messageText}
        </Text>
      </Section>
      <ActionButton href={props.threadUrl}>{blocks.button}</ActionButton>
      <Paragraphs text={blocks.footnote} style={mutedStyle} />
    </EmailLayout>
  );
}
