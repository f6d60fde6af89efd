/**
 * The SurveyorJoinDecided email's data and editable words, without JSX: its component
 * (../components/SurveyorJoinDecided.tsx) and jsx-email are loaded on the first email rendered
 * (lib/mail/render.tsx), so the admin pages and the copy editor never load them.
 */
import type { FilledCopy, TemplateCopyDef } from "../copy.ts";
import { bodyBlock, buttonBlock, greetingBlock, reasonBlock } from "./_copy.tsx";

/**
 * What an admin decided about a surveyor who joined by themselves (/for-surveyors):
 * - `linked`: their request to join a firm already on record was approved;
 * - `declined`: that request was declined;
 * - `rejected`: the licence check of their firm did not pass (verified is LicenceVerified).
 */
export type SurveyorJoinDecision = "linked" | "declined" | "rejected";

/** Data of the self-join decision email. */
export interface SurveyorJoinDecidedProps {
  /** The account holder's name. */
  name: string;
  companyName: string;
  decision: SurveyorJoinDecision;
  /** Linked: the dashboard; declined or rejected: the contact page. */
  url: string;
}

/** The editable blocks of the self-join decision email. */
export type SurveyorJoinDecidedBlock =
  | "declinedSubject"
  | "rejectedSubject"
  | "heading"
  | "declinedHeading"
  | "rejectedHeading"
  | "greeting"
  | "linked"
  | "declined"
  | "rejected"
  | "button"
  | "contactButton"
  | "footnote"
  | "reason";

/**
 * The self-join decision email's words. The subject is the one for a linked account; the
 * other decisions use their subject blocks. What happened is also the inbox preview.
 */
export const surveyorJoinDecidedCopy: TemplateCopyDef<
  SurveyorJoinDecidedProps,
  SurveyorJoinDecidedBlock
> = {
  variables: {
    name: "The account holder's name",
    companyName: "The surveying company's name",
  },
  values: ({ name, companyName }) => ({ name, companyName }),
  subject: "Your Meridian account is linked to {companyName}",
  blocks: {
    declinedSubject: {
      label: "Subject when the request to join a firm on record was declined",
      text: "Your request to join {companyName} on Meridian was declined",
    },
    rejectedSubject: {
      label: "Subject when the firm's licence check did not pass",
      text: "We could not verify the licence of {companyName}",
    },
    heading: { label: "Heading when linked", text: "Your account is linked to your firm" },
    declinedHeading: { label: "Heading when declined", text: "Your request was declined" },
    rejectedHeading: {
      label: "Heading when the licence check failed",
      text: "Licence not verified",
    },
    greeting: greetingBlock(),
    linked: bodyBlock(
      "What happened, when linked (also the inbox preview)",
      "Meridian reviewed your sign-up and linked your account to {companyName}, which was already on record. If its licence still needs checking, we check it next and tell you when leads are open to you.",
    ),
    declined: bodyBlock(
      "What happened, when declined (also the inbox preview)",
      "Meridian could not confirm that you represent {companyName}, so your account was not linked to it and you cannot buy its leads.",
    ),
    rejected: bodyBlock(
      "What happened, when the licence check failed (also the inbox preview)",
      "Meridian could not verify the licence of {companyName} with the state licensing board, so leads stay closed to your account and the firm has no public page.",
    ),
    button: buttonBlock("Open your dashboard", "Button when linked"),
    contactButton: buttonBlock("Contact Meridian", "Button when declined or not verified"),
    footnote: bodyBlock(
      "Small print when declined or not verified",
      "If you think this is a mistake, write to us through the contact page with your licence number and the state that issued it.",
    ),
    reason: reasonBlock(
      "You received this email because you signed up as a surveyor on Meridian.",
    ),
  },
};

/** The subject of one decision email: the copy's subject, or its declined or rejected one. */
export function surveyorJoinDecidedSubject(
  props: Pick<SurveyorJoinDecidedProps, "decision">,
  copy: FilledCopy<SurveyorJoinDecidedBlock>,
): string {
  if (props.decision === "declined") return copy.blocks.declinedSubject;
  if (props.decision === "rejected") return copy.blocks.rejectedSubject;
  return copy.subject;
}
