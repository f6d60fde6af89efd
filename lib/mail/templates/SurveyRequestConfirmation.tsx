import { Column, Heading, Row, Section, Text } from "jsx-email";
import {
  ActionButton,
  EMAIL_COLORS,
  EmailLayout,
  headingStyle,
  mutedStyle,
  textStyle,
} from "./_layout.tsx";
import { formatPrice } from "./_format.ts";

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

/** Subject line of the survey-request confirmation. */
export function surveyRequestConfirmationSubject(
  { surveyTypeName }: SurveyRequestConfirmationProps,
): string {
  return `We received your ${surveyTypeName} request`;
}

const labelStyle = { ...mutedStyle, margin: "0 0 4px", fontSize: "13px" } as const;
const valueStyle = { ...textStyle, margin: "0 0 12px", fontWeight: 700 } as const;

/** Sent to the client right after they submit a survey request. */
export function SurveyRequestConfirmation(
  { name, address, surveyTypeName, quotedPriceCents, surveyUrl }: SurveyRequestConfirmationProps,
) {
  return (
    <EmailLayout
      preview={`Your ${surveyTypeName} request for ${address} is in. Here is what happens next.`}
      reason="You received this email because you requested a land survey on Meridian."
    >
      <Heading as="h1" style={headingStyle}>Your survey request is in</Heading>
      <Text style={textStyle}>Hi {name},</Text>
      <Text style={textStyle}>
        Thank you for requesting a survey with Meridian. There is nothing to pay now.
      </Text>
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
        What happens next
      </Heading>
      <Text style={textStyle}>
        1. We match your request with licensed surveyors near the property.
      </Text>
      <Text style={textStyle}>
        2. A surveyor contacts you, usually within 48 hours, to confirm the details and schedule the
        visit.
      </Text>
      <Text style={textStyle}>
        3. Most surveys are completed in 5-10 business days (elevation certificates 3-5 days, ALTA
        surveys 7-14 days).
      </Text>
      <ActionButton href={surveyUrl}>View your request</ActionButton>
      <Text style={mutedStyle}>
        Questions? Reply to this email or visit the Help Center on our website.
      </Text>
    </EmailLayout>
  );
}
