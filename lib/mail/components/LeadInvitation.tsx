import { Heading } from "jsx-email";
import type { FilledCopy } from "../copy.ts";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import { Paragraphs } from "./_paragraphs.tsx";
import type { LeadInvitationBlock, LeadInvitationProps } from "../templates/LeadInvitation.tsx";
import { LeadSummary } from "./NewSurveyLead.tsx";

/**
 * Sent once per lead to a surveying firm that is not in the network yet (a prospect with an
 * email address), linking to the public lead page and, when it has one, the firm's own join
 * link (`/surveyor/claim?token=…`).
 */
export function LeadInvitation(
  { copy, ...props }: LeadInvitationProps & { copy: FilledCopy<LeadInvitationBlock> },
) {
  const { claimUrl, claimValidDays } = props;
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.intro} style={textStyle} />
      <LeadSummary {...props} />
      <Paragraphs text={blocks.leadPage} style={textStyle} />
      <ActionButton href={props.leadUrl}>{blocks.button}</ActionButton>
      {claimUrl
        ? (
          <>
            <Paragraphs text={blocks.join} style={textStyle} />
            <ActionButton href={claimUrl}>{blocks.joinButton}</ActionButton>
            <Paragraphs
              text={claimValidDays ? blocks.joinLinkExpires : blocks.joinLinkNoExpiry}
              style={mutedStyle}
            />
          </>
        )
        : null}
      <Paragraphs text={blocks.footnote} style={mutedStyle} />
    </EmailLayout>
  );
}
