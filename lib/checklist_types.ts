/**
 * Survey checklist types and rules shared by the server and the islands: zod-free and with no
 * imports from db/ or routes/, so the browser bundle can use them.
 */

/** What kind of answer an item takes. */
export type ChecklistItemKind = "check" | "number" | "text" | "photo";

/** Every item kind, in the order the template editor offers them. */
export const CHECKLIST_ITEM_KINDS: readonly ChecklistItemKind[] = [
  "check",
  "number",
  "text",
  "photo",
];

/** How each kind is named to people. */
export const CHECKLIST_KIND_LABELS: Record<ChecklistItemKind, string> = {
  check: "Check",
  number: "Number",
  text: "Text",
  photo: "Photo",
};

/** Longest text answer, in characters (the API refuses longer). */
export const CHECKLIST_TEXT_MAX = 2000;
/** Most photos one item holds. */
export const CHECKLIST_PHOTOS_MAX = 20;
/** Most items a template may have. */
export const CHECKLIST_TEMPLATE_MAX_ITEMS = 100;

/**
 * An answer: check → boolean, number → finite number, text → string, photo → survey_files ids.
 * null means not answered (or cleared).
 */
export type ChecklistValue = boolean | number | string | string[] | null;

/** One item of a checklist template (stored in checklist_templates.items). */
export interface ChecklistTemplateItem {
  /** Stable id within the template (lowercase letters, digits, underscores). */
  key: string;
  label: string;
  kind: ChecklistItemKind;
  /** Only for number items, e.g. "ft". */
  unit?: string;
  help?: string;
  isRequired: boolean;
}

/** A template version of a survey type as the admin editor shows it. */
export interface ChecklistTemplateView {
  surveyType: string;
  version: number;
  items: ChecklistTemplateItem[];
  createdAt: string;
  /** Who saved this version; null for the seeded defaults. */
  createdByName: string | null;
}

/** A survey checklist's item with its current answer. */
export interface ChecklistItemView {
  id: string;
  key: string;
  label: string;
  kind: ChecklistItemKind;
  unit: string | null;
  help: string | null;
  isRequired: boolean;
  value: ChecklistValue;
  /** Who gave the answer that holds; null when unanswered. */
  answeredByName: string | null;
  /** Device time of that answer (ISO), the last-writer-wins clock. */
  answeredAt: string | null;
}

/** A survey's checklist: the template version it was copied from and its items in order. */
export interface ChecklistView {
  surveyId: string;
  templateVersion: number;
  items: ChecklistItemView[];
}

/** How far a checklist has got. */
export interface ChecklistProgress {
  total: number;
  done: number;
  requiredTotal: number;
  requiredDone: number;
}

/** One edit as a device sends it to `POST /api/surveys/:id/checklist/answers`. */
export interface ChecklistAnswerOp {
  /** A uuid made on the device: a replay of the same op is stored once. */
  opId: string;
  itemKey?: string;
  itemId?: string;
  value: ChecklistValue;
  /** The device's time of the edit (ISO 8601). */
  answeredAt: string;
}

/**
 * Whether `value` counts as done for an item of `kind`: a ticked check, a number, non-blank
 * text, at least one photo. Mirrors the SQL in db/checklists.ts (doneSql).
 */
export function isItemDone(kind: ChecklistItemKind, value: ChecklistValue): boolean {
  switch (kind) {
    case "check":
      return value === true;
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "text":
      return typeof value === "string" && value.trim() !== "";
    case "photo":
      return Array.isArray(value) && value.length > 0;
  }
}

/** Progress of a list of items, computed the way the server does. */
export function progressOf(
  items: readonly { kind: ChecklistItemKind; isRequired: boolean; value: ChecklistValue }[],
): ChecklistProgress {
  const progress = { total: 0, done: 0, requiredTotal: 0, requiredDone: 0 };
  for (const item of items) {
    const done = isItemDone(item.kind, item.value);
    progress.total++;
    if (done) progress.done++;
    if (item.isRequired) {
      progress.requiredTotal++;
      if (done) progress.requiredDone++;
    }
  }
  return progress;
}

/** The key an ALTA checklist gives Table A item `id` (e.g. "11a" → "alta_table_a_11a"). */
export function altaItemKey(id: string): string {
  return `alta_table_a_${id.toLowerCase()}`;
}
