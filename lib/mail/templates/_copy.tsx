/**
 * The labels and default texts of blocks most emails have (issue 13). The component that shows a
 * block as paragraphs is in ../components/_paragraphs.tsx.
 */
import type { CopyBlockDef } from "../copy.ts";

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

/** "7 days", "1 day", "2 files": a count with its noun, for a variable's value. */
export function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
