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
  greetingBlock,
  headingBlock,
  Paragraphs,
  previewBlock,
  reasonBlock,
} from "./_copy.tsx";

/** Data of the client's "Surveyor assigned" email. */
export interface SurveyorAssignedProps {
  name: string;
  surveyTypeName: string;
  address: string;
  companyName: string;
  /** The licensed principal's name, when the record has one. */
  surveyorName: string | null;
  phone: string | null;
  /** "TX 6012" (licence number with its state), or null when the record has none. */
  license: string | null;
  /** "$1,285". */
  agreedPrice: string;
  surveyUrl: string;
}

/** The editable blocks of the "Surveyor assigned" email. */
export type SurveyorAssignedBlock =
  | "preview"
  | "heading"
  | "greeting"
  | "body"
  | "button"
  | "footnote"
  | "reason";

/** The "Surveyor assigned" email's words. The surveyor's facts box stays in the code. */
export const surveyorAssignedCopy: TemplateCopyDef<SurveyorAssignedProps, SurveyorAssignedBlock> = {
  variables: {
    name: "The client's name",
    surveyTypeName: 'The survey type ("Boundary Survey")',
    address: "The property's address",
    companyName: "The surveying company's name",
    agreedPrice: 'The agreed price ("$1,285")',
  },
  values: ({ name, surveyTypeName, address, companyName, agreedPrice }) => ({
    name,
    surveyTypeName,
    address,
    companyName,
    agreedPrice,
  }),
  subject: "Surveyor assigned: {companyName}",
  blocks: {
    preview: previewBlock("{companyName} will do your {surveyTypeName} at {address}."),
    heading: headingBlock("Surveyor assigned"),
    greeting: greetingBlock(),
    body: bodyBlock(
      "Message",
      "{companyName} has taken your {surveyTypeName} request for {address}. They will contact you to confirm the details and book the field visit.",
    ),
    button: buttonBlock("View your request"),
    footnote: bodyBlock(
      "Small print under the button",
      "Questions? Reply to this email or visit the Help Center on our website.",
    ),
    reason: reasonBlock(
      "You received this email because you requested a land survey on Meridian.",
    ),
  },
};

const labelStyle = { ...mutedStyle, margin: "0 0 4px", fontSize: "13px" } as const;
const valueStyle = { ...textStyle, margin: "0 0 12px", fontWeight: 700 } as const;

/** Label/value pairs in the boxed style the assignment emails share. */
export function FactsBox({ facts }: { facts: [string, string][] }) {
  return (
    <Section
      style={{
        backgroundColor: EMAIL_COLORS.bg,
        border: `1px solid ${EMAIL_COLORS.border}`,
        borderRadius: "8px",
        padding: "16px 20px 4px",
        margin: "0 0 24px",
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
        </Column>
      </Row>
    </Section>
  );
}

/**
 * Sent to the client once a surveyor has taken their survey (a claim, or an admin's
 * assignment the surveyor accepted): who, how to reach them, their licence and the agreed
 * price.
 */
export function SurveyorAssigned(
  { copy, ...props }: SurveyorAssignedProps & { copy: FilledCopy<SurveyorAssignedBlock> },
) {
  const facts: [string, string][] = [
    ["Surveying company", props.companyName],
    ...(props.surveyorName ? [["Surveyor", props.surveyorName] as [string, string]] : []),
    ...(props.phone ? [["Phone", props.phone] as [string, string]] : []),
    ...(props.license ? [["Licence", props.license] as [string, string]] : []),
    ["Agreed price", props.agreedPrice],
  ];
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.greeting} style={textStyle} />
      <Paragraphs text={blocks.body} style={textStyle} />
      <FactsBox facts={facts} />
      <ActionButton href={props.surveyUrl}>{blocks.button}</ActionButton>
      <Paragraphs text={blocks.footnote} style={mutedStyle} />
    </EmailLayout>
  );
}
