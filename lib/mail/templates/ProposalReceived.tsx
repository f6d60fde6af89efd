/**
 * The ProposalReceived email's data and editable words, without JSX: its component
 * (../components/ProposalReceived.tsx) and jsx-email are loaded on the first email rendered
 * (lib/mail/render.tsx), so the admin pages and the copy editor never load them.
 */
import type { TemplateCopyDef } from "../copy.ts";
import {
  bodyBlock,
  buttonBlock,
  greetingBlock,
  headingBlock,
  previewBlock,
  reasonBlock,
} from "./_copy.tsx";

/** Data of the client's "You have a proposal" email. */
export interface ProposalReceivedProps {
  name: string;
  surveyTypeName: string;
  address: string;
  companyName: string;
  /** "$1,285". */
  price: string;
  /** "Tuesday, March 3, 2026". */
  earliestVisit: string;
  /** "5 business days". */
  turnaround: string;
  /** The surveyor's message, as they wrote it. */
  message: string;
  /** The request's page, where the client compares and accepts. */
  surveyUrl: string;
}

/** The editable blocks of the proposal email. */
export type ProposalReceivedBlock =
  | "preview"
  | "heading"
  | "greeting"
  | "body"
  | "button"
  | "footnote"
  | "reason";

/** The proposal email's words. The proposal's facts and message stay in the code. */
export const proposalReceivedCopy: TemplateCopyDef<ProposalReceivedProps, ProposalReceivedBlock> = {
  variables: {
    name: "The client's name",
    surveyTypeName: 'The survey type ("Boundary Survey")',
    address: "The property's address",
    companyName: "The surveying company's name",
    price: 'The proposed price ("$1,285")',
  },
  values: ({ name, surveyTypeName, address, companyName, price }) => ({
    name,
    surveyTypeName,
    address,
    companyName,
    price,
  }),
  subject: "You have a proposal from {companyName}",
  blocks: {
    preview: previewBlock("{companyName} proposes {price} for your {surveyTypeName}."),
    heading: headingBlock("You have a proposal"),
    greeting: greetingBlock(),
    body: bodyBlock(
      "Message",
      "{companyName}, a licensed surveyor who received your request for {address}, sent you a proposal for your {surveyTypeName}. Compare it with your instant quote and any other proposals, then accept the one you want: the survey is assigned to that surveyor at that price.",
    ),
    button: buttonBlock("See the proposal"),
    footnote: bodyBlock(
      "Small print under the button",
      "Nothing is agreed until you accept. You can also decline a proposal or keep your instant quote.",
    ),
    reason: reasonBlock("You received this email because you requested a survey on Meridian."),
  },
};
