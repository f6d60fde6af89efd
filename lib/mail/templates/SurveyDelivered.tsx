import { Heading, Text } from "jsx-email";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import { FactsBox } from "./SurveyorAssigned.tsx";

/** Data of the client's "your survey is delivered" email. */
export interface SurveyDeliveredProps {
  name: string;
  surveyTypeName: string;
  address: string;
  /** The surveying company that delivered it. */
  companyName: string;
  /** "March 5, 2026". */
  completedDate: string;
  /** How many deliverable files wait on the request's page (at least one). */
  fileCount: number;
  /** The request's page (`/client/surveys/{id}`, which signs the client in first). */
  surveyUrl: string;
}

/** Subject line of the "survey delivered" email. */
export function surveyDeliveredSubject({ surveyTypeName }: SurveyDeliveredProps): string {
  return `Your ${surveyTypeName} is ready to download`;
}

/**
 * Sent to the client when their surveyor completes the survey: the files are on the request's
 * page, where they can also rate the surveyor.
 */
export function SurveyDelivered(props: SurveyDeliveredProps) {
  const files = `${props.fileCount} file${props.fileCount === 1 ? "" : "s"}`;
  return (
    <EmailLayout
      preview={`${props.companyName} delivered your ${props.surveyTypeName}: ${files} to download.`}
      reason="You received this email because you requested a land survey on Meridian."
    >
      <Heading as="h1" style={headingStyle}>Your survey is complete</Heading>
      <Text style={textStyle}>Hi {props.name},</Text>
      <Text style={textStyle}>
        {props.companyName} has completed your {props.surveyTypeName} for{" "}
        {props.address}. The final documents are ready to download from your request's page.
      </Text>
      <FactsBox
        facts={[
          ["Completed", props.completedDate],
          ["Surveying company", props.companyName],
          ["Deliverables", files],
        ]}
      />
      <ActionButton href={props.surveyUrl}>Download your survey</ActionButton>
      <Text style={mutedStyle}>
        Once you have looked at the documents, you can rate {props.companyName}{" "}
        on the same page. Your rating helps other clients choose a surveyor.
      </Text>
    </EmailLayout>
  );
}
