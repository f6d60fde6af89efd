import { Heading, Text } from "jsx-email";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import { FactsBox } from "./SurveyorAssigned.tsx";

/** Data of the client's "visit scheduled" email. */
export interface VisitScheduledProps {
  name: string;
  surveyTypeName: string;
  address: string;
  companyName: string;
  phone: string | null;
  /** "Tuesday, March 3, 2026". */
  visitDate: string;
  surveyUrl: string;
}

/** Subject line of the "visit scheduled" email. */
export function visitScheduledSubject({ visitDate }: VisitScheduledProps): string {
  return `Your survey visit is scheduled for ${visitDate}`;
}

/** Sent to the client when their surveyor books (or moves) the field visit. */
export function VisitScheduled(props: VisitScheduledProps) {
  return (
    <EmailLayout
      preview={`${props.companyName} will visit ${props.address} on ${props.visitDate}.`}
      reason="You received this email because you requested a land survey on Meridian."
    >
      <Heading as="h1" style={headingStyle}>Your survey visit is scheduled</Heading>
      <Text style={textStyle}>Hi {props.name},</Text>
      <Text style={textStyle}>
        {props.companyName} will visit {props.address} for your {props.surveyTypeName} on{" "}
        {props.visitDate}.
      </Text>
      <FactsBox
        facts={[
          ["Visit date", props.visitDate],
          ["Surveying company", props.companyName],
          ...(props.phone ? [["Phone", props.phone] as [string, string]] : []),
        ]}
      />
      <ActionButton href={props.surveyUrl}>View your request</ActionButton>
      <Text style={mutedStyle}>
        Need another day? Call your surveyor or reply to this email.
      </Text>
    </EmailLayout>
  );
}
