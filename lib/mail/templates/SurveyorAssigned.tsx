import { Column, Heading, Row, Section, Text } from "jsx-email";
import {
  ActionButton,
  EMAIL_COLORS,
  EmailLayout,
  headingStyle,
  mutedStyle,
  textStyle,
} from "./_layout.tsx";

/** Data of the client's "Surveyor assigned" email. */
export interface SurveyorAssignedProps {
  name: string;
  surveyTypeName: string;
  address: string;
  companyName: string;
  /** The licensed principal's name, when the record has one. */
  surveyorName: string | null;
  phone: string | null;
  /** "TX 6012" (licence number with its state), or null when the record has none. */
  license: string | null;
  /** "$1,285". */
  agreedPrice: string;
  surveyUrl: string;
}

/** Subject line of the "Surveyor assigned" email. */
export function surveyorAssignedSubject({ companyName }: SurveyorAssignedProps): string {
  return `Surveyor assigned: ${companyName}`;
}

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
export function SurveyorAssigned(props: SurveyorAssignedProps) {
  const facts: [string, string][] = [
    ["Surveying company", props.companyName],
    ...(props.surveyorName ? [["Surveyor", props.surveyorName] as [string, string]] : []),
    ...(props.phone ? [["Phone", props.phone] as [string, string]] : []),
    ...(props.license ? [["Licence", props.license] as [string, string]] : []),
    ["Agreed price", props.agreedPrice],
  ];
  return (
    <EmailLayout
      preview={`${props.companyName} will do your ${props.surveyTypeName} at ${props.address}.`}
      reason="You received this email because you requested a land survey on Meridian."
    >
      <Heading as="h1" style={headingStyle}>Surveyor assigned</Heading>
      <Text style={textStyle}>Hi {props.name},</Text>
      <Text style={textStyle}>
        {props.companyName} has taken your {props.surveyTypeName} request for{" "}
        {props.address}. They will contact you to confirm the details and book the field visit.
      </Text>
      <FactsBox facts={facts} />
      <ActionButton href={props.surveyUrl}>View your request</ActionButton>
      <Text style={mutedStyle}>
        Questions? Reply to this email or visit the Help Center on our website.
      </Text>
    </EmailLayout>
  );
}
