import { Heading } from "jsx-email";
import type { FilledCopy } from "../copy.ts";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import { Paragraphs } from "./_paragraphs.tsx";
import type {
  ProposalReceivedBlock,
  ProposalReceivedProps,
} from "../templates/ProposalReceived.tsx";
import { FactsBox } from "./SurveyorAssigned.tsx";

/**
 * Sent to the client when a surveyor who bought their lead sends a proposal: the price, the
 * earliest visit, the turnaround and the surveyor's message, with a link to compare and accept.
 */
export function ProposalReceived(
  { copy, ...props }: ProposalReceivedProps & { copy: FilledCopy<ProposalReceivedBlock> },
) {
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.greeting} style={textStyle} />
      <Paragraphs text={blocks.body} style={textStyle} />
      <FactsBox
        facts={[
          ["Surveying company", props.companyName],
          ["Price", props.price],
          ["Earliest visit", props.earliestVisit],
          ["Turnaround after the visit", props.turnaround],
        ]}
      />
      <Paragraphs text={props.message} style={textStyle} />
      <ActionButton href={props.surveyUrl}>{blocks.button}</ActionButton>
      <Paragraphs text={blocks.footnote} style={mutedStyle} />
    </EmailLayout>
  );
}
