/**
 * The NewSurveyLead email's data and editable words, without JSX: its component
 * (../components/NewSurveyLead.tsx) and jsx-email are loaded on the first email rendered
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

/**
 * The job as a lead shows it to surveyors: type, city and state, size, needed-by date, the
 * client's quote, the lead price and its formula. Never the client's name, phone, email or
 * street address: those come with buying the lead.
 */
export interface LeadSummaryProps {
  surveyTypeName: string;
  /** "Austin, TX", or the state's name when the city is not known. */
  location: string;
  /** "0.25 acres", "1 structure", or null when the request gives no size. */
  size: string | null;
  /** "Jan 15, 2099", or null when the client gave no date. */
  neededBy: string | null;
  /** "$1,285", or "Custom quote" for a type quoted by hand. */
  quotedPrice: string;
  /** "$77.10". */
  leadPrice: string;
  /** "6% of the $1,285.00 quote, at least $15, at most $150 = $77.10". */
  formula: string;
  /** How many surveyors may buy the lead. */
  maxBuyers: number;
  /** "Jan 22, 2099": when the lead closes. */
  expiresOn: string;
  leadUrl: string;
}

/** Data of the "New survey lead near you" email to an in-network surveyor. */
export type NewSurveyLeadProps = LeadSummaryProps;

/** The variables both lead emails offer: the job as the summary box shows it. */
export const LEAD_VARIABLES: Record<string, string> = {
  surveyTypeName: 'The survey type ("ALTA/NSPS Survey")',
  location: 'The town and state of the property ("Austin, TX"); never the street',
  quotedPrice: 'The client\'s quote ("$1,285", or "Custom quote")',
  leadPrice: 'What the lead costs ("$77.10")',
  buyers: 'How many surveyors may buy the lead, with the word ("3 surveyors", "1 surveyor")',
  expiresOn: 'The day the lead closes ("Jan 8, 2027")',
};

/** The values of LEAD_VARIABLES for one lead. */
export function leadValues(props: LeadSummaryProps): Record<string, string> {
  return {
    surveyTypeName: props.surveyTypeName,
    location: props.location,
    quotedPrice: props.quotedPrice,
    leadPrice: props.leadPrice,
    buyers: countOf(props.maxBuyers, "surveyor"),
    expiresOn: props.expiresOn,
  };
}

/** The editable blocks of the new-lead email. */
export type NewSurveyLeadBlock =
  | "preview"
  | "heading"
  | "intro"
  | "buyers"
  | "button"
  | "reason";

/** The new-lead email's words. The job summary box stays in the code. */
export const newSurveyLeadCopy: TemplateCopyDef<NewSurveyLeadProps, NewSurveyLeadBlock> = {
  variables: LEAD_VARIABLES,
  values: leadValues,
  subject: "New survey lead near you: {surveyTypeName} in {location}",
  blocks: {
    preview: previewBlock("{surveyTypeName} in {location}, lead price {leadPrice}."),
    heading: headingBlock("New survey lead near you"),
    intro: bodyBlock(
      "Before the job summary",
      "A client near you asked for a {surveyTypeName}. Here is the job:",
    ),
    buyers: bodyBlock(
      "After the job summary",
      "Up to {buyers} can buy this lead until {expiresOn}. The client's contact details come with the lead.",
    ),
    button: buttonBlock("View the lead"),
    reason: reasonBlock(
      "You received this email because you are a surveyor in the Meridian network and this job is within your service area.",
    ),
  },
};
