import { Column, Heading, Row, Section, Text } from "jsx-email";
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
import type {
  SurveyorAssignedBlock,
  SurveyorAssignedProps,
} from "../templates/SurveyorAssigned.tsx";

const labelStyle = { ...mutedStyle, margin: "0 0 4px", fontSize: "13px" } as const;
const valueStyle = { ...textStyle, margin: "0 0 12px", fontWeight: 700 } as const;

/** Label/value pairs in the boxed style the assignment emails share. */
export function FactsBox({ facts }: { facts: [string, string][] }) {
  return (
    <Section
      style={{
        backgroundColor: EMAIL_COLORS.bg,
        border: `1px solid ${EMAIL_COLORS.border}`,
        borderRadius: "8px",
        padding: "16px 20px 4px",
        margin: "0 0 24px",
      }}
    >
      <Row>
        <Column>
          {facts.map(([label, value]) => (
            <div key={label}>
              <Text style={labelStyle}>{label}</Text>
              <Text style={valueStyle}>{value}</Text>
            </div>
          ))}
        </Column>
      </Row>
    </Section>
  );
}

/**
 * Sent to the client once a surveyor has taken their survey (a claim, or an admin's
 * assignment the surveyor accepted): who, how to reach them, their licence and the agreed
 * price.
 */
export function SurveyorAssigned(
  { copy, ...props }: SurveyorAssignedProps & { copy: FilledCopy<SurveyorAssignedBlock> },
) {
  const facts: [string, string][] = [
    ["Surveying company", props.companyName],
    ...(props.surveyorName ? [["Surveyor", props.surveyorName] as [string, string]] : []),
    ...(props.phone ? [["Phone", props.phone] as [string, string]] : []),
    ...(props.license ? [["Licence", props.license] as [string, string]] : []),
    ["Agreed price", props.agreedPrice],
  ];
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.greeting} style={textStyle} />
      <Paragraphs text={blocks.body} style={textStyle} />
      <FactsBox facts={facts} />
      <ActionButton href={props.surveyUrl}>{blocks.button}</ActionButton>
      <Paragraphs text={blocks.footnote} style={mutedStyle} />
    </EmailLayout>
  );
}
