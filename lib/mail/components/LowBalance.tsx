import { Heading } from "jsx-email";
import type { FilledCopy } from "../copy.ts";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import { Paragraphs } from "./_paragraphs.tsx";
import type { LowBalanceBlock, LowBalanceProps } from "../templates/LowBalance.tsx";

/**
 * Sent (at most once a day) when a lead purchase or claim fee takes a surveyor's balance below
 * the low-balance threshold: what is left, and how to add credit before the next lead.
 */
export function LowBalance(
  { balance, billingUrl, copy }: LowBalanceProps & { copy: FilledCopy<LowBalanceBlock> },
) {
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.greeting} style={textStyle} />
      <Paragraphs text={blocks.body} style={textStyle} bold={balance} />
      <ActionButton href={billingUrl}>{blocks.button}</ActionButton>
      <Paragraphs text={blocks.footnote} style={mutedStyle} />
    </EmailLayout>
  );
}
