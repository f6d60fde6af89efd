import { Heading } from "jsx-email";
import type { FilledCopy } from "../copy.ts";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import { Paragraphs } from "./_paragraphs.tsx";
import type {
  SurveyorInvitationBlock,
  SurveyorInvitationProps,
} from "../templates/SurveyorInvitation.tsx";

/**
 * Sent when an admin creates an account for a surveyor record: the link sets the account's
 * first password, works once and lasts `validDays` days.
 */
export function SurveyorInvitation(
  { companyName, setPasswordUrl, copy }:
    & SurveyorInvitationProps
    & { copy: FilledCopy<SurveyorInvitationBlock> },
) {
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.greeting} style={textStyle} />
      <Paragraphs text={blocks.body} style={textStyle} bold={companyName} />
      <ActionButton href={setPasswordUrl}>{blocks.button}</ActionButton>
      <Paragraphs text={blocks.footnote} style={mutedStyle} />
    </EmailLayout>
  );
}
