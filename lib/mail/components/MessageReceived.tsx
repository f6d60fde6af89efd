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
      <QuotedText>{props.messageText}</QuotedText>
      <ActionButton href={props.threadUrl}>{blocks.button}</ActionButton>
      <Paragraphs text={blocks.footnote} style={mutedStyle} />
    </EmailLayout>
  );
}
