import { Column, Heading, Row, Section, Text } from "jsx-email";
import {
  ActionButton,
  EMAIL_COLORS,
  EmailLayout,
  headingStyle,
  mutedStyle,
  textStyle,
} from "./_layout.tsx";

/**
 * The job as a lead shows it to surveyors: type, city and state, size, needed-by date, the
 * client's quote, the lead price and its formula. Never the client's name, phone, email or
 * street address: those come with buying the lead.
 */
export interface LeadSummaryProps {
  surveyTypeName: string;
  /** "Austin, TX", or the state's name when the city is not known. */
  location: string;
  /** "0.25 acres", "1 structure", or null when the request gives no size. */
  size: string | null;
  /** "Jan 15, 2099", or null when the client gave no date. */
  neededBy: string | null;
  /** "$1,285", or "Custom quote" for a type quoted by hand. */
  quotedPrice: string;
  /** "$77.10". */
  leadPrice: string;
  /** "6% of the $1,285.00 quote, at least $15, at most $150 = $77.10". */
  formula: string;
  /** How many surveyors may buy the lead. */
  maxBuyers: number;
  /** "Jan 22, 2099": when the lead closes. */
  expiresOn: string;
  leadUrl: string;
}

/** Data of the "New survey lead near you" email to an in-network surveyor. */
export type NewSurveyLeadProps = LeadSummaryProps;

/** Subject line of the new-lead email. */
export function newSurveyLeadSubject({ surveyTypeName, location }: NewSurveyLeadProps): string {
  return `New survey lead near you: ${surveyTypeName} in ${location}`;
}

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
export function NewSurveyLead(props: NewSurveyLeadProps) {
  return (
    <EmailLayout
      preview={`${props.surveyTypeName} in ${props.location}, lead price ${props.leadPrice}.`}
      reason="You received this email because you are a surveyor in the Meridian network and this job is within your service area."
    >
      <Heading as="h1" style={headingStyle}>New survey lead near you</Heading>
      <Text style={textStyle}>
        A client near you asked for a {props.surveyTypeName}. Here is the job:
      </Text>
      <LeadSummary {...props} />
      <Text style={textStyle}>
        Up to {props.maxBuyers} {props.maxBuyers === 1 ? "surveyor" : "surveyors"}{" "}
        can buy this lead until {props.expiresOn}. The client's contact details come with the lead.
      </Text>
      <ActionButton href={props.leadUrl}>View the lead</ActionButton>
    </EmailLayout>
  );
}
