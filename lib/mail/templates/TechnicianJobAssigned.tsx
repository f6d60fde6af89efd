import { Heading, Text } from "jsx-email";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import { FactsBox } from "./SurveyorAssigned.tsx";

/** Data of the email telling a technician they were assigned a job. */
export interface TechnicianJobAssignedProps {
  name: string;
  /** The firm doing the job, or "Meridian" for staff. */
  companyName: string;
  surveyTypeName: string;
  /** The property's full address. */
  address: string;
  /** "Tuesday, March 3, 2026", or null while the visit is not booked. */
  visitDate: string | null;
  /** The surveyor's notes for the crew, or null. */
  notes: string | null;
  /** The technician's page of the job. */
  jobUrl: string;
}

/** Subject line of the job email. */
export function technicianJobAssignedSubject(
  { surveyTypeName, address }: TechnicianJobAssignedProps,
): string {
  return `New job: ${surveyTypeName} at ${address}`;
}

/**
 * Sent to a technician when they are assigned a survey: where, when, what, the crew notes and
 * a link to the job's page with the checklist.
 */
export function TechnicianJobAssigned(props: TechnicianJobAssignedProps) {
  const facts: [string, string][] = [
    ["Survey type", props.surveyTypeName],
    ["Address", props.address],
    ["Visit date", props.visitDate ?? "Not scheduled yet"],
  ];
  if (props.notes) facts.push(["Notes for the crew", props.notes]);
  return (
    <EmailLayout
      preview={`${props.surveyTypeName} at ${props.address}${
        props.visitDate ? ` on ${props.visitDate}` : ""
      }.`}
      reason={`You received this email because you are on ${props.companyName}'s field crew on Meridian.`}
    >
      <Heading as="h1" style={headingStyle}>You were assigned a job</Heading>
      <Text style={textStyle}>Hi {props.name},</Text>
      <Text style={textStyle}>
        {props.companyName} assigned you the fieldwork of a {props.surveyTypeName}.
      </Text>
      <FactsBox facts={facts} />
      <ActionButton href={props.jobUrl}>Open the job</ActionButton>
      <Text style={mutedStyle}>
        The job's page has the access notes, the client's phone and the checklist to complete on
        site. Sign in with this email address.
      </Text>
    </EmailLayout>
  );
}
