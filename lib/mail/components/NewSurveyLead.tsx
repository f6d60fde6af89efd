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
  LeadSummaryProps,
  NewSurveyLeadBlock,
  NewSurveyLeadProps,
} from "../templates/NewSurveyLead.tsx";

const labelStyle = { ...mutedStyle, margin: "0 0 4px", fontSize: "13px" } as const;
const valueStyle = { ...textStyle, margin: "0 0 12px", fontWeight: 700 } as const;

/** The job summary box shared by the lead emails. */
export function LeadSummary(props: LeadSummaryProps) {
  const facts: [string, string][] = [
    ["Survey type", props.surveyTypeName],
    ["Location", props.location],
    ...(props.size ? [["Size", props.size] as [string, string]] : []),
    ["Needed by", props.neededBy ?? "No date given"],
    ["Client's quote", props.quotedPrice],
    ["Lead price", props.leadPrice],
  ];
  return (
    <Section
      style={{
        backgroundColor: EMAIL_COLORS.bg,
        border: `1px solid ${EMAIL_COLORS.border}`,
        borderRadius: "8px",
        padding: "16px 20px 4px",
        margin: "0 0 16px",
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
          <Text style={labelStyle}>How the lead price is set: {props.formula}</Text>
        </Column>
      </Row>
    </Section>
  );
}

/** Sent to each matched in-network surveyor when a survey near them is offered as a lead. */
export function NewSurveyLead(
  { copy, ...props }: NewSurveyLeadProps & { copy: FilledCopy<NewSurveyLeadBlock> },
) {
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.intro} style={textStyle} />
      <LeadSummary {...props} />
      <Paragraphs text={blocks.buyers} style={textStyle} />
      <ActionButton href={props.leadUrl}>{blocks.button}</ActionButton>
    </EmailLayout>
  );
}
