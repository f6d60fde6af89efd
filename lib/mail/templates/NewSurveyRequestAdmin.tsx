import { Heading, Text } from "jsx-email";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";

/** Data of the admin notice about a new survey request. */
export interface NewSurveyRequestAdminProps {
  surveyId: string;
  clientName: string;
  address: string;
  surveyTypeName: string;
  adminUrl: string;
}

/** Subject line of the admin notice. */
export function newSurveyRequestAdminSubject(
  { surveyTypeName, address }: NewSurveyRequestAdminProps,
): string {
  return `New survey request: ${surveyTypeName} at ${address}`;
}

/** Sent to admins when a client submits a survey request, so it can be matched quickly. */
export function NewSurveyRequestAdmin(
  { surveyId, clientName, address, surveyTypeName, adminUrl }: NewSurveyRequestAdminProps,
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
      <Text style={textStyle}>
        Find nearby surveyors and notify them from the admin dashboard.
      </Text>
      <ActionButton href={adminUrl}>Open in the admin dashboard</ActionButton>
    </EmailLayout>
  );
}
