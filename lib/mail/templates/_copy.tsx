/**
 * What the template components share to show editable copy (issue 13): the labels and texts of
 * blocks most emails have, and the component that turns a block into paragraphs.
 */
import type { CSSProperties, ReactNode } from "react";
import { Text } from "jsx-email";
import { type CopyBlockDef, paragraphs } from "../copy.ts";

/** The inbox snippet block: shown after the subject in most mail apps, never in the body. */
export function previewBlock(text: string): CopyBlockDef {
  return { label: "Inbox preview (the line mail apps show after the subject)", text };
}

/** The heading at the top of the email. */
export function headingBlock(text: string): CopyBlockDef {
  return { label: "Heading", text };
}

/** The "Hi {name}," line. */
export function greetingBlock(text = "Hi {name},"): CopyBlockDef {
  return { label: "Greeting", text };
}

/** The footer line saying why the recipient got the email (before Meridian's tagline). */
export function reasonBlock(text: string): CopyBlockDef {
  return { label: "Why you received this (footer)", text };
}

/** The words on a button; its link stays in the code. */
export function buttonBlock(text: string, label = "Button"): CopyBlockDef {
  return { label, text };
}

/** A multi-paragraph block of body copy. */
export function bodyBlock(label: string, text: string): CopyBlockDef {
  return { label, text, isMultiline: true };
}

/**
 * `text` with the first occurrence of `bold` set in `<strong>`. Some emails stress one value (the
 * balance, the firm's name); marking the value rather than a place in the words keeps it stressed
 * wherever an admin moves it, with no markup syntax in the copy. Text without it stays plain.
 */
export function emphasize(text: string, bold?: string): ReactNode {
  const at = bold ? text.indexOf(bold) : -1;
  if (!bold || at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <strong>{bold}</strong>
      {text.slice(at + bold.length)}
    </>
  );
}

/**
 * A block as paragraphs (blank lines separate them) in `style`, each with its first `bold`
 * stressed. An empty block shows nothing, so an admin can drop an optional paragraph.
 */
export function Paragraphs(
  { text, style, bold }: { text: string; style: CSSProperties; bold?: string },
) {
  return (
    <>
      {paragraphs(text).map((paragraph, i) => (
        <Text key={i} style={style}>{emphasize(paragraph, bold)}</Text>
      ))}
    </>
  );
}

/** "7 days", "1 day", "2 files": a count with its noun, for a variable's value. */
export function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
