/**
 * The SurveyRequestConfirmation email's data and editable words, without JSX: its component
 * (../components/SurveyRequestConfirmation.tsx) and jsx-email are loaded on the first email
 * rendered (lib/mail/render.tsx), so the admin pages and the copy editor never load them.
 */
import type { TemplateCopyDef } from "../copy.ts";
import { formatPrice } from "./_format.ts";
import {
  bodyBlock,
  buttonBlock,
  greetingBlock,
  headingBlock,
  previewBlock,
  reasonBlock,
} from "./_copy.tsx";

/** Data of the client's survey-request confirmation. */
export interface SurveyRequestConfirmationProps {
  name: string;
  surveyId: string;
  address: string;
  surveyTypeName: string;
  /** The instant quote in cents, or null when the survey type needs a custom quote. */
  quotedPriceCents: number | null;
  surveyUrl: string;
}

/** The editable blocks of the survey-request confirmation. */
export type SurveyRequestConfirmationBlock =
  | "preview"
  | "heading"
  | "greeting"
  | "intro"
  | "nextStepsHeading"
  | "nextSteps"
  | "button"
  | "footnote"
  | "reason";

/** The survey-request confirmation's words. The request's facts box stays in the code. */
export const surveyRequestConfirmationCopy: TemplateCopyDef<
  SurveyRequestConfirmationProps,
  SurveyRequestConfirmationBlock
> = {
  variables: {
    name: "The client's name",
    surveyTypeName: 'The survey type ("Boundary Survey")',
    address: "The property's address",
    quotedPrice: 'The quoted price ("$385"), or "Custom quote" when the surveyor sets it',
  },
  values: ({ name, surveyTypeName, address, quotedPriceCents }) => ({
    name,
    surveyTypeName,
    address,
    quotedPrice: quotedPriceCents === null ? "Custom quote" : formatPrice(quotedPriceCents),
  }),
  subject: "We received your {surveyTypeName} request",
  blocks: {
    preview: previewBlock(
      "Your {surveyTypeName} request for {address} is in. Here is what happens next.",
    ),
    heading: headingBlock("Your survey request is in"),
    greeting: greetingBlock(),
    intro: bodyBlock(
      "Opening paragraph",
      "Thank you for requesting a survey with Meridian. There is nothing to pay now.",
    ),
    nextStepsHeading: { label: "Second heading", text: "What happens next" },
    nextSteps: bodyBlock(
      "What happens next (one paragraph per step)",
      "1. We match your request with licensed surveyors near the property.\n\n2. A surveyor contacts you, usually within 48 hours, to confirm the details and schedule the visit.\n\n3. Most surveys are completed in 5-10 business days (elevation certificates 3-5 days, ALTA surveys 7-14 days).",
    ),
    button: buttonBlock("View your request"),
    footnote: bodyBlock(
      "Small print under the button",
      "Questions? Reply to this email or visit the Help Center on our website.",
    ),
    reason: reasonBlock("You received this email because you requested a land survey on Meridian."),
  },
};
