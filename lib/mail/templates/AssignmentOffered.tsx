import { Heading, Text } from "jsx-email";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import { FactsBox } from "./SurveyorAssigned.tsx";

/** Data of the email offering a surveyor a job an admin assigned them. */
export interface AssignmentOfferedProps {
  companyName: string;
  surveyTypeName: string;
  /** "Austin, TX": the town and state, never the street. */
  location: string;
  /** "$1,285". */
  agreedPrice: string;
  /** Where the surveyor accepts or declines. */
  actionUrl: string;
}

/** Subject line of the assignment offer. */
export function assignmentOfferedSubject(
  { surveyTypeName, location }: AssignmentOfferedProps,
): string {
  return `You were assigned a ${surveyTypeName} in ${location}: accept or decline`;
}

/**
 * Sent to a surveyor an admin assigned to a survey: the job and the agreed price, and that
 * nothing is settled until they accept (or decline) on Meridian.
 */
export function AssignmentOffered(props: AssignmentOfferedProps) {
  return (
    <EmailLayout
      preview={`A ${props.surveyTypeName} in ${props.location} at ${props.agreedPrice}.`}
      reason="You received this email because your firm is a Meridian surveyor."
    >
      <Heading as="h1" style={headingStyle}>You were assigned a survey</Heading>
      <Text style={textStyle}>
        Meridian assigned {props.companyName} a {props.surveyTypeName} in {props.location}{" "}
        at the agreed price below. Please accept or decline it; the client is told once you accept.
      </Text>
      <FactsBox
        facts={[
          ["Survey type", props.surveyTypeName],
          ["Location", props.location],
          ["Agreed price", props.agreedPrice],
        ]}
      />
      <ActionButton href={props.actionUrl}>Accept or decline</ActionButton>
      <Text style={mutedStyle}>
        Questions about this job? Reply to this email.
      </Text>
    </EmailLayout>
  );
}
