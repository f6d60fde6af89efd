import { Heading, Text } from "jsx-email";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import { LeadSummary, type LeadSummaryProps } from "./NewSurveyLead.tsx";

/**
 * Data of the invitation sent to a surveyor outside the network about a job near them:
 * the job summary plus, for a firm without an account, its own link to join Meridian.
 */
export type LeadInvitationProps = LeadSummaryProps & {
  /** `/surveyor/claim?token=…` for this firm (single use), or absent for none. */
  claimUrl?: string | null;
  /** How many days the join link works. */
  claimValidDays?: number | null;
};

/** Subject line of the lead invitation. */
export function leadInvitationSubject({ surveyTypeName, location }: LeadInvitationProps): string {
  return `A survey job near you: ${surveyTypeName} in ${location}`;
}

/**
 * Sent once per lead to a surveying firm that is not in the network yet (a prospect with an
 * email address), linking to the public lead page and, when it has one, the firm's own join
 * link (`/surveyor/claim?token=…`).
 */
export function LeadInvitation(props: LeadInvitationProps) {
  const { claimUrl, claimValidDays } = props;
  return (
    <EmailLayout
      preview={`A client near you needs a ${props.surveyTypeName} in ${props.location}.`}
      reason="You received this email because your firm offers land surveys near this property."
    >
      <Heading as="h1" style={headingStyle}>A survey job near you</Heading>
      <Text style={textStyle}>
        Meridian connects property owners with licensed land surveyors. A client near you asked for
        a {props.surveyTypeName}:
      </Text>
      <LeadSummary {...props} />
      <Text style={textStyle}>
        See the job and how to take it on the lead page. The lead is open until {props.expiresOn}.
      </Text>
      <ActionButton href={props.leadUrl}>See the job</ActionButton>
      {claimUrl
        ? (
          <>
            <Text style={textStyle}>
              To take on jobs like this one, join Meridian as a surveyor: create your account with
              your licence details and coverage. We check the licence before you can buy leads, and
              your first claimed job has no claim fee.
            </Text>
            <ActionButton href={claimUrl}>Join Meridian as a surveyor</ActionButton>
            <Text style={mutedStyle}>
              {`This join link is for your firm only${
                claimValidDays ? ` and works for ${claimValidDays} days` : ""
              }.`}
            </Text>
          </>
        )
        : null}
      <Text style={mutedStyle}>Not interested? You can ignore this email.</Text>
    </EmailLayout>
  );
}
