/**
 * The editable words of an email (issue 13): each template declares its subject and copy blocks
 * with their default texts and the named variables (`{clientName}`) those texts may use. Admins
 * change the words on /admin/email-templates; the layout, links and escaping stay in the
 * jsx-email code, which receives the texts with the variables already filled in as plain strings
 * (React escapes them like any other text).
 */

import { endSentence } from "../text.ts";

/** One editable block of copy with its default text. */
export interface CopyBlockDef {
  /** What the block is, as the editor labels it ("Opening paragraph"). */
  label: string;
  /** The default text. Blank lines separate paragraphs in multi-paragraph blocks. */
  text: string;
  /** Several paragraphs allowed (a textarea); otherwise a single line. */
  isMultiline?: boolean;
}

/**
 * A template's editable copy: the variables, how an email's props give their values, the default
 * subject and the blocks in display order (object key order).
 */
export interface TemplateCopyDef<P, K extends string = string> {
  /** Variable name → what it holds, shown beside the editor ("The client's full name"). */
  variables: Record<string, string>;
  /** Every variable's value for one email, already formatted (money, dates) as plain text. */
  values(props: P): Record<string, string>;
  /** The default subject; may use the variables. */
  subject: string;
  /** The default blocks by key. */
  blocks: Record<K, CopyBlockDef>;
}

/** Copy as an admin writes and the database stores it: raw texts with `{variables}`. */
export interface CopyTexts {
  subject: string;
  blocks: Record<string, string>;
}

/** Copy with the variables filled in, as a template component renders it. */
export interface FilledCopy<K extends string = string> {
  subject: string;
  blocks: Record<K, string>;
}

/** `{name}`: a variable reference. Braces around anything else are literal text. */
const VARIABLE = /\{([A-Za-z][A-Za-z0-9_]*)\}/g;

/** The variable names `text` uses that are not in `allowed`, each once, in order of use. */
export function unknownVariables(text: string, allowed: Iterable<string>): string[] {
  const known = new Set(allowed);
  const unknown: string[] = [];
  for (const match of text.matchAll(VARIABLE)) {
    if (!known.has(match[1]) && !unknown.includes(match[1])) unknown.push(match[1]);
  }
  return unknown;
}

/** A variable and the period that may follow it. */
const VARIABLE_THEN_PERIOD = /\{([A-Za-z][A-Za-z0-9_]*)\}(\.?)/g;

/**
 * `text` with every `{variable}` of `values` replaced by its value; others left as written. A
 * period after a variable whose value already ends a sentence is not doubled ("for
 * {companyName}." with "Austin Survey Co." reads "for Austin Survey Co.", never "Co..").
 */
export function fillText(text: string, values: Record<string, string>): string {
  return text.replace(
    VARIABLE_THEN_PERIOD,
    (whole, name: string, period: string) => {
      if (!Object.hasOwn(values, name)) return whole;
      return period ? endSentence(values[name]) : values[name];
    },
  );
}

/**
 * Fills `texts` (stored copy, or the defaults when undefined) for one email. A block missing from
 * stored copy (a block added to the code after the copy was saved) gets its default text, and
 * stored blocks the code no longer has are ignored.
 */
export function fillCopy<P, K extends string>(
  def: TemplateCopyDef<P, K>,
  props: P,
  texts?: CopyTexts,
): FilledCopy<K> {
  const values = def.values(props);
  const blocks = {} as Record<K, string>;
  for (const [key, block] of Object.entries(def.blocks) as [K, CopyBlockDef][]) {
    const stored = texts?.blocks[key];
    blocks[key] = fillText(typeof stored === "string" ? stored : block.text, values);
  }
  return { subject: fillText(texts?.subject ?? def.subject, values), blocks };
}

/** The paragraphs of a block: split on blank lines, each trimmed, empty ones dropped. */
export function paragraphs(text: string): string[] {
  return text.split(/\n\s*\n/).map((p) => p.trim()).filter((p) => p !== "");
}
