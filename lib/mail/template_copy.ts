/**
 * Rules and helpers of the email copy editor (issue 13), shared by the API
 * (routes/email_template_api.ts) and the editor island, so a mistake shows at the field as the
 * admin types and the server refuses the same texts. Browser-safe: plain data in, plain data
 * out; the template registry itself (jsx-email) never reaches the browser.
 */
import {
  type CopyBlockDef,
  type CopyTexts,
  type TemplateCopyDef,
  unknownVariables,
} from "./copy.ts";

/** Longest subject, in characters (the outbox trims rendered subjects to the same length). */
export const SUBJECT_MAX = 200;
/** Longest single-line block (a heading, a button label, the preview text). */
export const LINE_BLOCK_MAX = 300;
/** Longest multi-paragraph block. */
export const TEXT_BLOCK_MAX = 3000;

/** What the editor and the checks need to know of a template's copy: plain JSON. */
export interface CopyShape {
  /** Variable names with what each holds. */
  variables: { name: string; description: string }[];
  /** Blocks in display order. */
  blocks: { key: string; label: string; isMultiline: boolean; defaultText: string }[];
  defaultSubject: string;
}

/** The shape of a template's copy definition. */
export function copyShapeOf<P, K extends string>(def: TemplateCopyDef<P, K>): CopyShape {
  return {
    variables: Object.entries(def.variables).map(([name, description]) => ({
      name,
      description,
    })),
    blocks: (Object.entries(def.blocks) as [string, CopyBlockDef][]).map(([key, block]) => ({
      key,
      label: block.label,
      isMultiline: block.isMultiline === true,
      defaultText: block.text,
    })),
    defaultSubject: def.subject,
  };
}

/** The longest text block `block` may hold. */
export function blockMax(block: { isMultiline: boolean }): number {
  return block.isMultiline ? TEXT_BLOCK_MAX : LINE_BLOCK_MAX;
}

/** `{a}, {b}` */
function braces(names: string[]): string {
  return names.map((n) => `{${n}}`).join(", ");
}

/** The message for `field` (a label) using unknown variables `names`. */
export function unknownVariablesMessage(field: string, names: string[]): string {
  const what = names.length === 1 ? "an unknown variable" : "unknown variables";
  return `${field} uses ${what}: ${
    braces(names)
  }. Use only the variables listed beside the editor.`;
}

/**
 * What is wrong with `texts` for a template of `shape`, by field (`subject`, `blocks.{key}`);
 * empty when nothing is. Checks: every block present and no other, text required (a block whose
 * default is empty may stay empty), single-line fields on one line, the length limits, and
 * every `{variable}` declared. With `checkVariables: false` (the live preview) unknown
 * variables pass: they show as written.
 */
export function copyErrors(
  shape: CopyShape,
  texts: CopyTexts,
  { checkVariables = true }: { checkVariables?: boolean } = {},
): Record<string, string> {
  const errors: Record<string, string> = {};
  const allowed = shape.variables.map((v) => v.name);
  const subject = texts.subject.trim();
  if (subject === "") errors.subject = "Subject is required";
  else if (/[\r\n]/.test(subject)) errors.subject = "Subject must be one line";
  else if (subject.length > SUBJECT_MAX) {
    errors.subject = `Subject must be at most ${SUBJECT_MAX} characters`;
  } else if (checkVariables) {
    const unknown = unknownVariables(subject, allowed);
    if (unknown.length) errors.subject = unknownVariablesMessage("Subject", unknown);
  }
  for (const block of shape.blocks) {
    const field = `blocks.${block.key}`;
    const text = texts.blocks[block.key];
    const name = `"${block.label}"`;
    if (typeof text !== "string") {
      errors[field] = `${name} is missing`;
      continue;
    }
    const max = blockMax(block);
    if (text.trim() === "" && block.defaultText.trim() !== "") {
      errors[field] = `${name} is required`;
    } else if (!block.isMultiline && /[\r\n]/.test(text)) {
      errors[field] = `${name} must be one line`;
    } else if (text.length > max) errors[field] = `${name} must be at most ${max} characters`;
    else if (checkVariables) {
      const unknown = unknownVariables(text, allowed);
      if (unknown.length) errors[field] = unknownVariablesMessage(name, unknown);
    }
  }
  const known = new Set(shape.blocks.map((b) => b.key));
  for (const key of Object.keys(texts.blocks)) {
    if (!known.has(key)) errors[`blocks.${key}`] = `This email has no block "${key}"`;
  }
  return errors;
}

/** The texts with the subject and every block trimmed, blocks in the shape's order. */
export function cleanCopy(shape: CopyShape, texts: CopyTexts): CopyTexts {
  const blocks: Record<string, string> = {};
  for (const block of shape.blocks) blocks[block.key] = (texts.blocks[block.key] ?? "").trim();
  return { subject: texts.subject.trim(), blocks };
}

/** The default texts of `shape`. */
export function defaultTexts(shape: CopyShape): CopyTexts {
  return {
    subject: shape.defaultSubject,
    blocks: Object.fromEntries(shape.blocks.map((b) => [b.key, b.defaultText])),
  };
}

/** One run of a diff: text both versions share, or text only the new (ins) or old (del) has. */
export interface DiffPart {
  kind: "same" | "ins" | "del";
  text: string;
}

// Words and the spaces between them are separate tokens, so a changed word shows alone.
function tokens(text: string): string[] {
  return text.match(/\s+|[^\s]+/g) ?? [];
}

/** Token count past which the diff compares whole lines (keeps the table small). */
const WORD_DIFF_LIMIT = 1500;

/**
 * A word diff of `before` → `after` (longest common subsequence of words and spaces; by line
 * when either side is very long). Adjacent runs of one kind are merged.
 */
export function diffWords(before: string, after: string): DiffPart[] {
  let a = tokens(before);
  let b = tokens(after);
  if (a.length > WORD_DIFF_LIMIT || b.length > WORD_DIFF_LIMIT) {
    a = before.split(/(?<=\n)/);
    b = after.split(/(?<=\n)/);
  }
  // Common prefix and suffix first: most edits touch a few words of a long text.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  // lcs[i][j]: common length of midA[i..] and midB[j..].
  const lcs: Uint16Array[] = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = midA[i] === midB[j] ? lcs[i + 1][j + 1] + 1 : Math.max(
        lcs[i + 1][j],
        lcs[i][j + 1],
      );
    }
  }
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart["kind"], text: string) => {
    const last = parts[parts.length - 1];
    if (last && last.kind === kind) last.text += text;
    else if (text) parts.push({ kind, text });
  };
  push("same", a.slice(0, start).join(""));
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && midA[i] === midB[j]) {
      push("same", midA[i]);
      i++;
      j++;
    } else if (i < n && (j >= m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      // Removed text before added text, as a reader compares them.
      push("del", midA[i++]);
    } else {
      push("ins", midB[j++]);
    }
  }
  push("same", a.slice(endA).join(""));
  return shiftSpaces(parts);
}

/**
 * Moves a change's leading space to its end when the text after it starts with the same
 * space: "your[ new] password" reads better as "your [new ]password"; both are the same diff.
 */
function shiftSpaces(parts: DiffPart[]): DiffPart[] {
  for (let k = 1; k < parts.length - 1; k++) {
    const [before, change, after] = [parts[k - 1], parts[k], parts[k + 1]];
    if (before.kind !== "same" || change.kind === "same" || after.kind !== "same") continue;
    const space = /^\s+/.exec(change.text)?.[0];
    if (!space || !after.text.startsWith(space) || space === change.text) continue;
    before.text += space;
    change.text = change.text.slice(space.length) + space;
    after.text = after.text.slice(space.length);
  }
  return parts.filter((part) => part.text !== "");
}
