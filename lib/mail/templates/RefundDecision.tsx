import { Heading, Text } from "jsx-email";
import { ActionButton, EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";

/** Data of the return (refund) email: an automatic return, or the decision on a request. */
export interface RefundDecisionProps {
  /** Whom it greets: the account holder's name, or the company's. */
  name: string;
  /** "approved" when the money came back (automatically or on request), else "denied". */
  decision: "approved" | "denied";
  /** Whether the surveyor asked (a request) or it happened on its own (automatic). */
  isRequested: boolean;
  /** What the lead cost, formatted ("$38.50"). */
  amount: string;
  /** "Boundary Survey". */
  surveyTypeName: string;
  /** "Austin, TX". */
  location: string;
  /** Why, as the end of a sentence: "the client cancelled the request". */
  cause: string;
  /** The admin's note with a decision, if any. */
  note: string | null;
  /** Approved: the billing page (the refund line); denied: the purchased lead. */
  url: string;
}

/** Subject line of the return email. */
export function refundDecisionSubject(
  { decision, amount, surveyTypeName, location }: RefundDecisionProps,
): string {
  return decision === "approved"
    ? `${amount} returned to your Meridian balance`
    : `Your return request for the ${surveyTypeName} lead in ${location} was denied`;
}

/** The sentence that says what happened, also the in-app notification's body. */
export function refundDecisionSentence(
  { decision, isRequested, amount, surveyTypeName, location, cause }: Pick<
    RefundDecisionProps,
    "decision" | "isRequested" | "amount" | "surveyTypeName" | "location" | "cause"
  >,
): string {
  if (decision === "denied") {
    return `Your request to return the ${surveyTypeName} lead in ${location} (${amount}) was denied.`;
  }
  return isRequested
    ? `Your ${amount} for the ${surveyTypeName} lead in ${location} was returned: your return request was approved (${cause}).`
    : `Your ${amount} for the ${surveyTypeName} lead in ${location} was returned: ${cause}.`;
}

/**
 * Sent to a buyer when a lead's charge comes back to their balance (the client cancelled or
 * the request was withdrawn within the return window, or an admin approved their request),
 * and when an admin denies a return request.
 */
export function RefundDecision(props: RefundDecisionProps) {
  const isApproved = props.decision === "approved";
  return (
    <EmailLayout
      preview={refundDecisionSentence(props)}
      reason="You received this email because you bought this lead on Meridian."
    >
      <Heading as="h1" style={headingStyle}>
        {isApproved ? "Your lead was returned" : "Your return request was denied"}
      </Heading>
      <Text style={textStyle}>Hi {props.name},</Text>
      <Text style={textStyle}>{refundDecisionSentence(props)}</Text>
      {isApproved && (
        <Text style={textStyle}>
          The {props.amount}{" "}
          is back in your balance for your next lead; your billing history lists it as a refund.
        </Text>
      )}
      {props.note && <Text style={textStyle}>Note from the Meridian team: {props.note}</Text>}
      <ActionButton href={props.url}>
        {isApproved ? "See your balance" : "Open the lead"}
      </ActionButton>
      {!isApproved && (
        <Text style={mutedStyle}>
          If something about the lead was wrong that the note does not answer, reply through the
          contact page and tell us what happened.
        </Text>
      )}
    </EmailLayout>
  );
}
