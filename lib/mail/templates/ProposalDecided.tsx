/**
 * The ProposalDecided email's data and editable words, without JSX: its component
 * (../components/ProposalDecided.tsx) and jsx-email are loaded on the first email rendered
 * (lib/mail/render.tsx), so the admin pages and the copy editor never load them.
 */
import type { TemplateCopyDef } from "../copy.ts";
import { bodyBlock, buttonBlock, headingBlock, previewBlock, reasonBlock } from "./_copy.tsx";

/** Data of the surveyor's "your proposal was accepted / declined" emails. */
export interface ProposalDecidedProps {
  companyName: string;
  surveyTypeName: string;
  /** "Austin, TX": the town and state. */
  location: string;
  /** "$1,285". */
  price: string;
  /** The client's reason, or why it was declined ("The client accepted another…"); null: none. */
  reason: string | null;
  /** The job's page (accepted) or the purchased lead's page (declined). */
  url: string;
}

/** The editable blocks of both emails. */
export type ProposalDecidedBlock = "preview" | "heading" | "body" | "button" | "reason";

const variables = {
  companyName: "The surveying company's name",
  surveyTypeName: 'The survey type ("Boundary Survey")',
  location: 'The town and state of the property ("Austin, TX")',
  price: 'The proposed price ("$1,285")',
};
const values = ({ companyName, surveyTypeName, location, price }: ProposalDecidedProps) => ({
  companyName,
  surveyTypeName,
  location,
  price,
});
const footer = reasonBlock(
  "You received this email because your firm sent a proposal on Meridian.",
);

/** "Your proposal was accepted". */
export const proposalAcceptedCopy: TemplateCopyDef<ProposalDecidedProps, ProposalDecidedBlock> = {
  variables,
  values,
  subject: "Your proposal was accepted: {surveyTypeName} in {location}",
  blocks: {
    preview: previewBlock("The client accepted your proposal of {price}."),
    heading: headingBlock("Your proposal was accepted"),
    body: bodyBlock(
      "Message",
      "The client accepted the proposal {companyName} sent for the {surveyTypeName} in {location}. The survey is now assigned to you at {price}. Call the client to confirm the details, then book the field visit on the job's page.",
    ),
    button: buttonBlock("Open the job"),
    reason: footer,
  },
};

/** "Your proposal was declined". */
export const proposalDeclinedCopy: TemplateCopyDef<ProposalDecidedProps, ProposalDecidedBlock> = {
  variables,
  values,
  subject: "Your proposal was declined: {surveyTypeName} in {location}",
  blocks: {
    preview: previewBlock("The client declined your proposal of {price}."),
    heading: headingBlock("Your proposal was declined"),
    body: bodyBlock(
      "Message",
      "The client declined the proposal {companyName} sent for the {surveyTypeName} in {location} ({price}).",
    ),
    button: buttonBlock("Open the lead"),
    reason: footer,
  },
};
