import { Heading } from "jsx-email";
import type { FilledCopy } from "../copy.ts";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import { Paragraphs } from "./_paragraphs.tsx";
import {
  type RefundDecisionBlock,
  type RefundDecisionProps,
  sentenceBlock,
} from "../templates/RefundDecision.tsx";

/**
 * Sent to a buyer when a lead's charge comes back to their balance (the client cancelled or
 * the request was withdrawn within the return window, or an admin approved their request),
 * and when an admin denies a return request.
 */
export function RefundDecision(
  { copy, ...props }: RefundDecisionProps & { copy: FilledCopy<RefundDecisionBlock> },
) {
  const isApproved = props.decision === "approved";
  const { blocks } = copy;
  const sentence = blocks[sentenceBlock(props)];
  return (
    <EmailLayout preview={sentence} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>
        {isApproved ? blocks.returnedHeading : blocks.deniedHeading}
      </Heading>
      <Paragraphs text={blocks.greeting} style={textStyle} />
      <Paragraphs text={sentence} style={textStyle} />
      {isApproved && <Paragraphs text={blocks.backInBalance} style={textStyle} />}
      {props.note && <Paragraphs text={blocks.note} style={textStyle} />}
      <ActionButton href={props.url}>
        {isApproved ? blocks.returnedButton : blocks.deniedButton}
      </ActionButton>
      {!isApproved && <Paragraphs text={blocks.deniedFootnote} style={mutedStyle} />}
    </EmailLayout>
  );
}
