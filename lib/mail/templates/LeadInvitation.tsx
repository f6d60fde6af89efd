/**
 * The LeadInvitation email's data and editable words, without JSX: its component
 * (../components/LeadInvitation.tsx) and jsx-email are loaded on the first email rendered
 * (lib/mail/render.tsx), so the admin pages and the copy editor never load them.
 */
import type { TemplateCopyDef } from "../copy.ts";
import {
  bodyBlock,
  buttonBlock,
  countOf,
  headingBlock,
  previewBlock,
  reasonBlock,
} from "./_copy.tsx";
import { LEAD_VARIABLES, type LeadSummaryProps, leadValues } from "./NewSurveyLead.tsx";

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

/** The editable blocks of the lead invitation. */
export type LeadInvitationBlock =
  | "preview"
  | "heading"
  | "intro"
  | "leadPage"
  | "button"
  | "join"
  | "joinButton"
  | "joinLinkExpires"
  | "joinLinkNoExpiry"
  | "footnote"
  | "reason";

/**
 * The lead invitation's words. The join paragraph, button and note show only to a firm that
 * got its own join link; the note has one block for a link that expires and one for one that
 * does not.
 */
export const leadInvitationCopy: TemplateCopyDef<LeadInvitationProps, LeadInvitationBlock> = {
  variables: {
    ...LEAD_VARIABLES,
    joinValidFor: 'How long the firm\'s join link works ("30 days"); empty when it has none',
  },
  values: (props) => ({
    ...leadValues(props),
    joinValidFor: props.claimValidDays ? countOf(props.claimValidDays, "day") : "",
  }),
  subject: "A survey job near you: {surveyTypeName} in {location}",
  blocks: {
    preview: previewBlock("A client near you needs a {surveyTypeName} in {location}."),
    heading: headingBlock("A survey job near you"),
    intro: bodyBlock(
      "Before the job summary",
      "Meridian connects property owners with licensed land surveyors. A client near you asked for a {surveyTypeName}:",
    ),
    leadPage: bodyBlock(
      "After the job summary",
      "See the job and how to take it on the lead page. The lead is open until {expiresOn}.",
    ),
    button: buttonBlock("See the job", "Button to the lead page"),
    join: bodyBlock(
      "Invitation to join (firms with a join link)",
      "To take on jobs like this one, join Meridian as a surveyor: create your account with your licence details and coverage. We check the licence before you can buy leads, and your first claimed job has no claim fee.",
    ),
    joinButton: buttonBlock("Join Meridian as a surveyor", "Button to join"),
    joinLinkExpires: bodyBlock(
      "Note under the join button, when the link expires",
      "This join link is for your firm only and works for {joinValidFor}.",
    ),
    joinLinkNoExpiry: bodyBlock(
      "Note under the join button, when the link does not expire",
      "This join link is for your firm only.",
    ),
    footnote: bodyBlock("Closing small print", "Not interested? You can ignore this email."),
    reason: reasonBlock(
      "You received this email because your firm offers land surveys near this property.",
    ),
  },
};
