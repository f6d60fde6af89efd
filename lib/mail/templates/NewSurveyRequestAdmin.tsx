import { Heading, Text } from "jsx-email";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";

/** Data of the admin notice about a new survey request. */
export interface NewSurveyRequestAdminProps {
  surveyId: string;
  clientName: string;
  address: string;
  surveyTypeName: string;
  adminUrl: string;
  /**
   * Whether automatic dispatch (AUTO_DISPATCH) was on when the request came in: then the app
   * matches and notifies surveyors by itself, else an admin does it. Absent: off.
   */
  isAutoDispatch?: boolean;
}

/** Subject line of the admin notice. */
export function newSurveyRequestAdminSubject(
  { surveyTypeName, address }: NewSurveyRequestAdminProps,
): string {
  return `New survey request: ${surveyTypeName} at ${address}`;
}

/** What the admin is told happens next: by the app itself, or by them. */
export function nextStepText(isAutoDispatch: boolean): string {
  return isAutoDispatch
    ? "Nearby in-network surveyors are being matched and notified automatically. If nobody covers the property, you will get a separate notice. The request's page shows the matches and who was notified."
    : "Automatic dispatch is off: find nearby surveyors and notify them from the request's page in the admin dashboard.";
}

/** Sent to admins when a client submits a survey request, so it can be matched quickly. */
export function NewSurveyRequestAdmin(
  { surveyId, clientName, address, surveyTypeName, adminUrl, isAutoDispatch = false }:
    NewSurveyRequestAdminProps,
) {
  return (
    <EmailLayout
      preview={`${clientName} requested a ${surveyTypeName} at ${address}.`}
      reason="You received this email because you are a Meridian administrator."
    >
      <Heading as="h1" style={headingStyle}>New survey request</Heading>
      <Text style={textStyle}>
        {clientName} requested a <strong>{surveyTypeName}</strong> for {address}.
      </Text>
      <Text style={mutedStyle}>Request reference: {surveyId}</Text>
      <Text style={textStyle}>{nextStepText(isAutoDispatch)}</Text>
      <ActionButton href={adminUrl}>Open in the admin dashboard</ActionButton>
    </EmailLayout>
  );
}
