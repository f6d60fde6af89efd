/**
 * The ReviewReplied email's data and editable words, without JSX: its component
 * (../components/ReviewReplied.tsx) and jsx-email are loaded on the first email rendered
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

/** Data of the email telling a client the firm answered their review. */
export interface ReviewRepliedProps {
  /** The client's name. */
  name: string;
  companyName: string;
  /** "Boundary Survey". */
  surveyTypeName: string;
  /** The firm's reply as written (plain text; shown as text, never as HTML). */
  replyText: string;
  /** The firm's public page, where the review and the reply are shown. */
  profileUrl: string;
}

/** The editable blocks of the review-reply email. */
export type ReviewRepliedBlock =
  | "preview"
  | "heading"
  | "greeting"
  | "body"
  | "button"
  | "footnote"
  | "reason";

/** The review-reply email's words. The reply itself stays in the code, quoted as text. */
export const reviewRepliedCopy: TemplateCopyDef<ReviewRepliedProps, ReviewRepliedBlock> = {
  variables: {
    name: "The client's name",
    companyName: "The surveying company's name",
    surveyTypeName: 'The survey type ("Boundary Survey")',
  },
  values: ({ name, companyName, surveyTypeName }) => ({ name, companyName, surveyTypeName }),
  subject: "{companyName} replied to your review",
  blocks: {
    preview: previewBlock("{companyName} answered your review of their {surveyTypeName}."),
    heading: headingBlock("The surveyor replied to your review"),
    greeting: greetingBlock(),
    body: bodyBlock(
      "Message",
      "{companyName} answered the review you wrote about your {surveyTypeName}. Their reply is public, under your review on their Meridian profile:",
    ),
    button: buttonBlock("See the review and the reply"),
    footnote: bodyBlock(
      "Small print under the button",
      "A firm can answer each review once. If the reply is abusive or untrue, tell us through the contact page.",
    ),
    reason: reasonBlock(
      "You received this email because you reviewed a surveyor on Meridian and they replied.",
    ),
  },
};
