/**
 * What the email copy editor (islands/EmailTemplateEditor.tsx) and its API
 * (routes/email_template_api.ts) exchange: plain JSON, times as ISO strings.
 */
import type { CopyShape } from "../lib/mail/template_copy.ts";

/** One saved version, without its texts (the history list). */
export interface TemplateVersionView {
  version: number;
  /** "Reset to default": the app sends the code's defaults while this is the newest. */
  isReset: boolean;
  /** Who saved it; null when that account was deleted. */
  createdByName: string | null;
  createdAt: string;
}

/** A saved version with its texts. */
export interface TemplateTextsView extends TemplateVersionView {
  subject: string;
  blocks: Record<string, string>;
}

/** A template's saved copy: the newest version, the one before it, and the history. */
export interface EmailTemplateState {
  /** Null while the template was never saved (the app sends the defaults). */
  current: TemplateTextsView | null;
  /** The version before `current`; null when `current` is the first (compare to the defaults). */
  previous: TemplateTextsView | null;
  /** Newest first, at most VERSION_HISTORY_LIMIT. */
  versions: TemplateVersionView[];
}

/** A rendered email as the preview shows it. */
export interface PreviewView {
  subject: string;
  /**
   * The HTML of a draft rendered by POST …/preview. Absent for the saved words the page starts
   * with: the frame reads those from `previewSrc`, so the page does not carry them twice.
   */
  html?: string;
  text: string;
}

/** One variable beside the editor: its name, what it holds and its value in the preview. */
export interface VariableView {
  name: string;
  description: string;
  sample: string;
}

/** Props of EmailTemplateEditor (plain JSON). */
export interface EmailTemplateEditorProps {
  templateId: string;
  templateName: string;
  shape: CopyShape;
  /** Variables with their sample values, in the order the template declares them. */
  variables: VariableView[];
  state: EmailTemplateState;
  /** The current copy rendered with the sample data (its HTML at `previewSrc`). */
  preview: PreviewView;
  /** Where the frame reads the current copy's HTML (GET /admin/email-templates/{id}/preview). */
  previewSrc: string;
  /** Where "Send me a test" goes: the signed-in admin's address. */
  adminEmail: string;
}

// Fixed time zone so the server's HTML and the hydrated island print the same text.
const WHEN = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});

/** "Nov 21, 2026, 3:04 PM UTC". */
export function formatSavedAt(iso: string): string {
  return WHEN.format(new Date(iso));
}

/** "Jo Admin" or "a deleted user". */
export function savedBy(view: { createdByName: string | null }): string {
  return view.createdByName ?? "a deleted user";
}
