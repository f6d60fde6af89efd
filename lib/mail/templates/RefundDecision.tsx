/**
 * The RefundDecision email's data and editable words, without JSX: its component
 * (../components/RefundDecision.tsx) and jsx-email are loaded on the first email rendered
 * (lib/mail/render.tsx), so the admin pages and the copy editor never load them.
 */
import { type FilledCopy, fillText, type TemplateCopyDef } from "../copy.ts";
import { bodyBlock, buttonBlock, greetingBlock, reasonBlock } from "./_copy.tsx";

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

/** The editable blocks of the return email. */
export type RefundDecisionBlock =
  | "deniedSubject"
  | "returnedHeading"
  | "deniedHeading"
  | "greeting"
  | "returnedAutomatically"
  | "returnedOnRequest"
  | "denied"
  | "backInBalance"
  | "note"
  | "returnedButton"
  | "deniedButton"
  | "deniedFootnote"
  | "reason";

/**
 * The return email's words. The subject is the one for money returned; a denied request uses
 * the `deniedSubject` block. What happened is one of three sentences (returned on its own,
 * returned on request, denied), which is also the inbox preview.
 */
export const refundDecisionCopy: TemplateCopyDef<RefundDecisionProps, RefundDecisionBlock> = {
  variables: {
    name: "Whom the email greets: the account holder's name, or the company's",
    amount: 'What the lead cost ("$38.50")',
    surveyTypeName: 'The survey type of the lead ("Boundary Survey")',
    location: 'The town and state of the lead ("Austin, TX")',
    cause: 'Why the money came back, as the end of a sentence ("the client cancelled the request")',
    note: "The Meridian team's note with a decision (empty when there is none)",
  },
  values: ({ name, amount, surveyTypeName, location, cause, note }) => ({
    name,
    amount,
    surveyTypeName,
    location,
    cause,
    note: note ?? "",
  }),
  subject: "{amount} returned to your Meridian balance",
  blocks: {
    deniedSubject: {
      label: "Subject when a return request is denied (the subject above is for money returned)",
      text: "Your return request for the {surveyTypeName} lead in {location} was denied",
    },
    returnedHeading: { label: "Heading when returned", text: "Your lead was returned" },
    deniedHeading: { label: "Heading when denied", text: "Your return request was denied" },
    greeting: greetingBlock(),
    returnedAutomatically: bodyBlock(
      "What happened, when the lead came back on its own (also the inbox preview)",
      "Your {amount} for the {surveyTypeName} lead in {location} was returned: {cause}.",
    ),
    returnedOnRequest: bodyBlock(
      "What happened, when a return request was approved (also the inbox preview)",
      "Your {amount} for the {surveyTypeName} lead in {location} was returned: your return request was approved ({cause}).",
    ),
    denied: bodyBlock(
      "What happened, when a return request was denied (also the inbox preview)",
      "Your request to return the {surveyTypeName} lead in {location} ({amount}) was denied.",
    ),
    backInBalance: bodyBlock(
      "Where the money went (when returned)",
      "The {amount} is back in your balance for your next lead; your billing history lists it as a refund.",
    ),
    note: bodyBlock(
      "The team's note (only when there is one)",
      "Note from the Meridian team: {note}",
    ),
    returnedButton: buttonBlock("See your balance", "Button when returned"),
    deniedButton: buttonBlock("Open the lead", "Button when denied"),
    deniedFootnote: bodyBlock(
      "Small print when denied",
      "If something about the lead was wrong that the note does not answer, reply through the contact page and tell us what happened.",
    ),
    reason: reasonBlock("You received this email because you bought this lead on Meridian."),
  },
};

/** Which sentence says what happened (the email's component shows the same one). */
export function sentenceBlock(
  { decision, isRequested }: Pick<RefundDecisionProps, "decision" | "isRequested">,
): "denied" | "returnedOnRequest" | "returnedAutomatically" {
  if (decision === "denied") return "denied";
  return isRequested ? "returnedOnRequest" : "returnedAutomatically";
}

/** The subject of one return email: the copy's subject, or its denied subject. */
export function refundDecisionSubject(
  props: Pick<RefundDecisionProps, "decision">,
  copy: FilledCopy<RefundDecisionBlock>,
): string {
  return props.decision === "approved" ? copy.subject : copy.blocks.deniedSubject;
}

/**
 * The sentence that says what happened in the default words, the in-app notification's body
 * (the email itself uses the admin's copy).
 */
export function refundDecisionSentence(
  props: Pick<
    RefundDecisionProps,
    "decision" | "isRequested" | "amount" | "surveyTypeName" | "location" | "cause"
  >,
): string {
  const { amount, surveyTypeName, location, cause } = props;
  return fillText(refundDecisionCopy.blocks[sentenceBlock(props)].text, {
    amount,
    surveyTypeName,
    location,
    cause,
  });
}
