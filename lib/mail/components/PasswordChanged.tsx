import { Heading } from "jsx-email";
import type { FilledCopy } from "../copy.ts";
import { EmailLayout, headingStyle, mutedStyle, textStyle } from "./_layout.tsx";
import { Paragraphs } from "./_paragraphs.tsx";
import type { PasswordChangedBlock, PasswordChangedProps } from "../templates/PasswordChanged.tsx";

/**
 * Sent after a password change or reset. It deliberately carries no link: a notice people are
 * told to act on quickly is a phishing template, so it points to the sign-in page by name.
 */
export function PasswordChanged(
  { copy }: PasswordChangedProps & { copy: FilledCopy<PasswordChangedBlock> },
) {
  const { blocks } = copy;
  return (
    <EmailLayout preview={blocks.preview} reason={blocks.reason}>
      <Heading as="h1" style={headingStyle}>{blocks.heading}</Heading>
      <Paragraphs text={blocks.greeting} style={textStyle} />
      <Paragraphs text={blocks.body} style={textStyle} />
      <Paragraphs text={blocks.footnote} style={mutedStyle} />
    </EmailLayout>
  );
}
