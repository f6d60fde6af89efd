import { Heading } from "jsx-email";
import type { FilledCopy } from "../copy.ts";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import { Paragraphs } from "./_paragraphs.tsx";
import type {
  TechnicianJobAssignedBlock,
  TechnicianJobAssignedProps,
} from "../templates/TechnicianJobAssigned.tsx";
import { FactsBox } from "./SurveyorAssigned.tsx";

/**
 * Sent to a technician when they are assigned a survey: where, when, what, the crew notes and
 * a link to the job's page with the checklist.
 */
export function TechnicianJobAssigned(
  { copy, ...props }:
    & TechnicianJobAssignedProps
    & { copy: FilledCopy<TechnicianJobAssignedBlock> },
) {
  const facts: [string, string][] = [
    ["Survey type", props.surveyTypeName],
    ["Address", props.address],
    ["Visit date", props.visitDate ?? "Not scheduled yet"],
  ];
  if (props.notes) facts.push(["Notes for the crew", props.notes]);
  const { blocks } = copy;
  return (
    <EmailLayout
      preview={props.visitDate ? blocks.preview : blocks.previewUnscheduled}
      reason={blocks.reason}
    >
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.greeting} style={textStyle} />
      <Paragraphs text={blocks.body} style={textStyle} />
      <FactsBox facts={facts} />
      <ActionButton href={props.jobUrl}>{blocks.button}</ActionButton>
      <Paragraphs text={blocks.footnote} style={mutedStyle} />
    </EmailLayout>
  );
}
