import { Heading } from "jsx-email";
import type { FilledCopy } from "../copy.ts";
import { ActionButton, EmailLayout, headingStyle, textStyle } from "./_layout.tsx";
import { Paragraphs } from "./_paragraphs.tsx";
import type { LicenceVerifiedBlock, LicenceVerifiedProps } from "../templates/LicenceVerified.tsx";

/**
 * Sent when an admin verifies a surveyor's licence (Verify licence on a pending record, or
 * setting a never-verified record active): leads are open to them now.
 */
export function LicenceVerified(
  { leadsUrl, copy }: LicenceVerifiedProps & { copy: FilledCopy<LicenceVerifiedBlock> },
) {
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.greeting} style={textStyle} />
      <Paragraphs text={blocks.body} style={textStyle} />
      <ActionButton href={leadsUrl}>{blocks.button}</ActionButton>
    </EmailLayout>
  );
}
