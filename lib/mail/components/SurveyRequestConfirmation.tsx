import { Column, Heading, Row, Section, Text } from "jsx-email";
import type { FilledCopy } from "../copy.ts";
import {
  ActionButton,
  EMAIL_COLORS,
  EmailLayout,
  headingStyle,
  mutedStyle,
  textStyle,
} from "./_layout.tsx";
import { Paragraphs } from "./_paragraphs.tsx";
import { formatPrice } from "../templates/_format.ts";
import type {
  SurveyRequestConfirmationBlock,
  SurveyRequestConfirmationProps,
} from "../templates/SurveyRequestConfirmation.tsx";

const labelStyle = { ...mutedStyle, margin: "0 0 4px", fontSize: "13px" } as const;
const valueStyle = { ...textStyle, margin: "0 0 12px", fontWeight: 700 } as const;

/** Sent to the client right after they submit a survey request. */
export function SurveyRequestConfirmation(
  { address, surveyTypeName, quotedPriceCents, surveyUrl, copy }:
    & SurveyRequestConfirmationProps
    & { copy: FilledCopy<SurveyRequestConfirmationBlock> },
) {
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.greeting} style={textStyle} />
      <Paragraphs text={blocks.intro} style={textStyle} />
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
            <Text style={labelStyle}>Property address</Text>
            <Text style={valueStyle}>{address}</Text>
            <Text style={labelStyle}>Survey type</Text>
            <Text style={valueStyle}>{surveyTypeName}</Text>
            <Text style={labelStyle}>Quoted price</Text>
            <Text style={valueStyle}>
              {quotedPriceCents === null
                ? "Custom quote: your surveyor will confirm the price"
                : formatPrice(quotedPriceCents)}
            </Text>
          </Column>
        </Row>
      </Section>
      <Heading as="h2" style={{ ...headingStyle, fontSize: "18px", lineHeight: "26px" }}>
        {blocks.nextStepsHeading}
      </Heading>
      <Paragraphs text={blocks.nextSteps} style={textStyle} />
      <ActionButton href={surveyUrl}>{blocks.button}</ActionButton>
      <Paragraphs text={blocks.footnote} style={mutedStyle} />
    </EmailLayout>
  );
}
