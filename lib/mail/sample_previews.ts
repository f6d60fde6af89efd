/**
 * Each email rendered with its template's sample data (lib/mail/render.tsx `TEMPLATES[id].sample`),
 * as the admin's email pages show it: the list's previews, an editor's first preview, the
 * framed preview document (`GET /admin/email-templates/{id}/preview`).
 *
 * The samples are constant, so a template's rendering with the words it sends now is kept until
 * another version of its words is saved: rendering one email through jsx-email costs
 * milliseconds, the pages that show it are read far more often than words are saved.
 */
import type { CopyTexts } from "./copy.ts";
import { type RenderedEmail, renderEmail, type TemplateId, TEMPLATES } from "./render.tsx";

/** Renders template `id` with its sample data and `texts` (undefined: the defaults). */
export function renderSample(id: TemplateId, texts?: CopyTexts): Promise<RenderedEmail> {
  // deno-lint-ignore no-explicit-any
  return renderEmail(id, TEMPLATES[id].sample as any, texts);
}

/** A template's newest saved version of its words, as the pages read it (undefined: none). */
export interface SavedWords {
  version: number;
  isReset: boolean;
  subject: string;
  blocks: Record<string, string>;
  createdAt: Date | string;
}

/**
 * What the app sends now for a template whose newest version is `saved`, and a key naming it:
 * the version with its save time (a version number alone repeats in a database that was
 * emptied, as tests do).
 */
function wordsOf(saved: SavedWords | undefined): { key: string; texts?: CopyTexts } {
  if (!saved) return { key: "default" };
  const key = `${saved.version}:${new Date(saved.createdAt).getTime()}`;
  return saved.isReset ? { key } : { key, texts: { subject: saved.subject, blocks: saved.blocks } };
}

const kept = new Map<TemplateId, { key: string; email: Promise<RenderedEmail> }>();

/**
 * Template `id` rendered with its sample data and the words it sends now (`saved`: its newest
 * version), from memory when those words were rendered before. A failed rendering is not kept.
 */
export function samplePreview(id: TemplateId, saved: SavedWords | undefined) {
  const { key, texts } = wordsOf(saved);
  const found = kept.get(id);
  if (found?.key === key) return found.email;
  const email = renderSample(id, texts).catch((err) => {
    if (kept.get(id)?.email === email) kept.delete(id);
    throw err;
  });
  kept.set(id, { key, email });
  return email;
}

/** Where the framed preview of template `id` with the words it sends now is read. */
export function samplePreviewPath(id: TemplateId): string {
  return `/admin/email-templates/${id}/preview`;
}
