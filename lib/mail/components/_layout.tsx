/**
 * The Meridian email frame shared by every template: brand header, a single 600px column,
 * footer saying why the email was sent. Colours match the site and pass WCAG AA contrast.
 */
import type { ReactNode } from "react";
import { Body, Container, Head, Hr, Html, Link, Preview, Section, Text } from "jsx-email";

/** Brand colours used inline (email clients ignore stylesheets). */
export const EMAIL_COLORS = {
  primary: "#0f4c5c",
  accent: "#e36414",
  text: "#14262d",
  muted: "#4f6169",
  border: "#d3dde0",
  bg: "#f6f8f8",
  surface: "#ffffff",
} as const;

const font = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

/** Paragraph style for body copy. */
export const textStyle = {
  color: EMAIL_COLORS.text,
  fontFamily: font,
  fontSize: "16px",
  lineHeight: "24px",
  margin: "0 0 16px",
} as const;

/** Smaller, muted copy (notes, footers). */
export const mutedStyle = {
  ...textStyle,
  color: EMAIL_COLORS.muted,
  fontSize: "14px",
  lineHeight: "22px",
} as const;

/** Heading style. */
export const headingStyle = {
  color: EMAIL_COLORS.text,
  fontFamily: font,
  fontSize: "22px",
  lineHeight: "30px",
  fontWeight: 700,
  margin: "0 0 16px",
} as const;

/** Call-to-action link styled as a button (a plain link, so it also works in text mode). */
export const buttonStyle = {
  backgroundColor: EMAIL_COLORS.primary,
  borderRadius: "8px",
  color: "#ffffff",
  display: "inline-block",
  fontFamily: font,
  fontSize: "16px",
  fontWeight: 700,
  lineHeight: "24px",
  padding: "12px 24px",
  textDecoration: "none",
} as const;

/**
 * Normalises a link for an email: only http(s) URLs pass, and `URL.href` percent-encodes
 * quotes and angle brackets. Throws on anything else so a bad link never gets mailed.
 */
export function safeUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new Error(`Refusing to put a ${parsed.protocol} link in an email`);
  }
  return parsed.href;
}

/** Someone's own words quoted in an email (a message, a review reply), line breaks kept. */
export function QuotedText({ children }: { children: ReactNode }) {
  return (
    <Section
      style={{
        backgroundColor: EMAIL_COLORS.bg,
        borderLeft: `4px solid ${EMAIL_COLORS.primary}`,
        padding: "12px 16px",
        margin: "0 0 24px",
      }}
    >
      <Text style={{ ...textStyle, margin: 0, whiteSpace: "pre-wrap" }}>{children}</Text>
    </Section>
  );
}

/** A call-to-action button followed by the raw URL for clients that hide buttons. */
export function ActionButton({ href, children }: { href: string; children: ReactNode }) {
  const url = safeUrl(href);
  return (
    <Section style={{ margin: "8px 0 24px" }}>
      <Link href={url} style={buttonStyle}>{children}</Link>
      <Text style={{ ...mutedStyle, margin: "16px 0 0" }} data-skip="true">
        Or paste this link into your browser:{" "}
        <Link href={url} style={{ color: EMAIL_COLORS.primary, wordBreak: "break-all" }}>
          {url}
        </Link>
      </Text>
    </Section>
  );
}

/** The frame: `preview` is the inbox snippet; `reason` says why the recipient got this. */
export function EmailLayout(
  { preview, reason, children }: { preview: string; reason: string; children: ReactNode },
) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: EMAIL_COLORS.bg, margin: 0, padding: "24px 0" }}>
        <Container
          style={{
            backgroundColor: EMAIL_COLORS.surface,
            border: `1px solid ${EMAIL_COLORS.border}`,
            borderRadius: "12px",
            maxWidth: "600px",
            padding: "0",
          }}
        >
          <Section
            style={{
              backgroundColor: EMAIL_COLORS.primary,
              borderRadius: "12px 12px 0 0",
              padding: "20px 32px",
            }}
          >
            <Text
              style={{
                color: "#ffffff",
                fontFamily: font,
                fontSize: "22px",
                fontWeight: 700,
                letterSpacing: "0.02em",
                lineHeight: "28px",
                margin: 0,
              }}
            >
              Meridian
            </Text>
            <Text
              style={{
                color: "#d7e6ea",
                fontFamily: font,
                fontSize: "13px",
                lineHeight: "18px",
                margin: "2px 0 0",
              }}
            >
              Land surveys, nationwide
            </Text>
          </Section>
          <Section style={{ padding: "32px 32px 8px", textAlign: "left" }}>{children}</Section>
          <Section style={{ padding: "0 32px 24px", textAlign: "left" }}>
            <Hr style={{ borderColor: EMAIL_COLORS.border, margin: "0 0 16px" }} />
            <Text style={{ ...mutedStyle, fontSize: "12px", lineHeight: "18px", margin: 0 }}>
              {reason}{" "}
              Meridian connects property owners with licensed land surveyors across the United
              States.
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}
