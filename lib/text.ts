/**
 * The one string schema for text people type into Meridian (names, addresses, notes, search
 * boxes, codes): every body, query and form field that holds free text is built here, so the
 * same rules hold everywhere and a bad byte is a 400, never a database error.
 *
 * A value is trimmed, NFC-normalised (so "é" typed as e + combining accent and as one
 * character compare and count alike), checked for characters that have no business in typed
 * text, then length-limited. Refused: control characters (C0, DEL and C1 — NUL among them,
 * which Postgres cannot store in `text`), except tab and newline in multi-line text, and
 * strings that are not well-formed UTF-16 (a lone surrogate such as the JSON escape
 * `"\ud800"`, which would otherwise be stored as U+FFFD).
 *
 * Browser-safe (no Deno APIs), so an island may share a schema built from it.
 */
import { z } from "zod";

// Unicode's Cc category: C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F).
const CONTROL = /\p{Cc}/u;
// The same without tab and newline; CR never gets here (multiLine turns it into LF).
const CONTROL_EXCEPT_TAB_NEWLINE = /(?![\t\n])\p{Cc}/u;

/**
 * True when `value` holds a character typed text may not: a control character (tab and
 * newline are allowed when `multiLine`), or a lone surrogate (the string is not well-formed).
 */
export function hasDisallowedCharacters(
  value: string,
  { multiLine = false }: { multiLine?: boolean } = {},
): boolean {
  if (!value.isWellFormed()) return true;
  return (multiLine ? CONTROL_EXCEPT_TAB_NEWLINE : CONTROL).test(value);
}

/** Messages a text field answers with; each defaults to wording built from the label. */
export interface TextMessages {
  /** Not a string (and missing, unless `missing` is given). Default: "<Label> must be text". */
  type?: string;
  /** Missing. Default: `type` when given, else "<Label> is required". */
  missing?: string;
  /** Shorter than `min`. Default: "<Label> is required" for min 1, else "<Label> must be at least N characters". */
  min?: string;
  /** Longer than `max`. Default: "<Label> must be at most N characters". */
  max?: string;
  /** A disallowed character. Default: "<Label> contains characters that are not allowed". */
  chars?: string;
}

/** Length limits (after trimming and normalising) and any messages to keep. */
export interface TextRules {
  /** Fewest characters; default 0 (the empty string passes: chain `.optional()` etc. as needed). */
  min?: number;
  /** Most characters. Required: every text input has a limit. */
  max: number;
  /** Field-specific wording that replaces the defaults. */
  messages?: TextMessages;
}

type Kind = "singleLine" | "multiLine" | "secret";

function build(label: string, rules: TextRules, kind: Kind) {
  const { min = 0, max, messages = {} } = rules;
  const multiLine = kind === "multiLine";
  let schema = z.string({
    error: (issue) =>
      issue.input === undefined
        ? messages.missing ?? messages.type ?? `${label} is required`
        : messages.type ?? `${label} must be text`,
  });
  if (kind !== "secret") schema = schema.trim().normalize("NFC");
  // Browsers send textarea line breaks as CRLF in forms and LF from scripts: store one form.
  if (multiLine) schema = schema.overwrite((v) => v.replace(/\r\n?/g, "\n"));
  schema = schema.refine((v) => !hasDisallowedCharacters(v, { multiLine }), {
    error: messages.chars ?? `${label} contains characters that are not allowed`,
  });
  if (min > 0) {
    schema = schema.min(min, {
      error: messages.min ??
        (min === 1 ? `${label} is required` : `${label} must be at least ${min} characters`),
    });
  }
  return schema.max(max, { error: messages.max ?? `${label} must be at most ${max} characters` });
}

/**
 * A one-line text field (a name, an address, a code, a search): trimmed, NFC-normalised, no
 * control characters at all (tab and newline included), well-formed, `min`–`max` characters.
 * `label` starts every default message ("Full name must be at most 100 characters").
 */
export function singleLine(label: string, rules: TextRules): z.ZodString {
  return build(label, rules, "singleLine");
}

/**
 * A multi-line text field (notes, a message): as `singleLine`, but tab and newline are allowed
 * and CRLF or CR line breaks are stored as LF.
 */
export function multiLine(label: string, rules: TextRules): z.ZodString {
  return build(label, rules, "multiLine");
}

/**
 * A secret (a password): checked like `singleLine` but kept exactly as typed — not trimmed, not
 * normalised — because it is only ever hashed and compared, and changing it would lock out
 * whoever set it before. Control characters and lone surrogates are refused: nobody types
 * them, and a lone surrogate would hash as U+FFFD, so two different secrets would match.
 */
export function secret(label: string, rules: TextRules): z.ZodString {
  return build(label, rules, "secret");
}

/**
 * `text` as the end of a sentence: a period added, unless it already ends with one (a name
 * such as "Austin Survey Co.") or with "!", "?" or "…", so a sentence ending in a company
 * name never reads "Co..".
 */
export function endSentence(text: string): string {
  return /[.!?…]["'”’)]*$/.test(text.trimEnd()) ? text : `${text}.`;
}
