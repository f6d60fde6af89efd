import { Heading } from "jsx-email";
import type { FilledCopy } from "../copy.ts";
import { ActionButton, EmailLayout, headingStyle, textStyle } from "./_layout.tsx";
import { Paragraphs } from "./_paragraphs.tsx";
import type { ProposalDecidedBlock, ProposalDecidedProps } from "../templates/ProposalDecided.tsx";
import { FactsBox } from "./SurveyorAssigned.tsx";

function ProposalDecided(
  { copy, ...props }: ProposalDecidedProps & { copy: FilledCopy<ProposalDecidedBlock> },
) {
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.body} style={textStyle} />
      <FactsBox
        facts={[
          ["Survey type", props.surveyTypeName],
          ["Location", props.location],
          ["Your price", props.price],
          ...(props.reason ? [["Reason", props.reason] as [string, string]] : []),
        ]}
      />
      <ActionButton href={props.url}>{blocks.button}</ActionButton>
    </EmailLayout>
  );
}

/** Sent to the surveyor whose proposal the client accepted: the job is theirs. */
export const ProposalAccepted = ProposalDecided;
/** Sent to a surveyor whose proposal the client declined, or lost to another one. */
export const ProposalDeclined = ProposalDecided;
