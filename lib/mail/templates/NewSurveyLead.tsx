import { Column, Heading, Row, Section, Text } from "jsx-email";
import type { FilledCopy, TemplateCopyDef } from "../copy.ts";
import {
  ActionButton,
  EMAIL_COLORS,
  EmailLayout,
  headingStyle,
  mutedStyle,
  textStyle,
} from "./_layout.tsx";
import {
  bodyBlock,
  buttonBlock,
  countOf,
  headingBlock,
  Paragraphs,
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

const labelStyle = { ...mutedStyle, margin: "0 0 4px", fontSize: "13px" } as const;
const valueStyle = { ...textStyle, margin: "0 0 12px", fontWeight: 700 } as const;

/** The job summary box shared by the lead emails. */
export function LeadSummary(props: LeadSummaryProps) {
  const facts: [string, string][] = [
    ["Survey type", props.surveyTypeName],
    ["Location", props.location],
    ...(props.size ? [["Size", props.size] as [string, string]] : []),
    ["Needed by", props.neededBy ?? "No date given"],
    ["Client's quote", props.quotedPrice],
    ["Lead price", props.leadPrice],
  ];
  return (
    <Section
      style={{
        backgroundColor: EMAIL_COLORS.bg,
        border: `1px solid ${EMAIL_COLORS.border}`,
        borderRadius: "8px",
        padding: "16px 20px 4px",
        margin: "0 0 16px",
      }}
    >
      <Row>
        <Column>
          {facts.map(([label, value]) => (
            <div key={label}>
              <Text style={labelStyle}>{label}</Text>
              <Text style={valueStyle}>{value}</Text>
            </div>
          ))}
          <Text style={labelStyle}>How the lead price is set: {props.formula}</Text>
        </Column>
      </Row>
    </Section>
  );
}

/** Sent to each matched in-network surveyor when a survey near them is offered as a lead. */
export function NewSurveyLead(
  { copy, ...props }: NewSurveyLeadProps & { copy: FilledCopy<NewSurveyLeadBlock> },
) {
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.intro} style={textStyle} />
      <LeadSummary {...props} />
      <Paragraphs text={blocks.buyers} style={textStyle} />
      <ActionButton href={props.leadUrl}>{blocks.button}</ActionButton>
    </EmailLayout>
  );
}
