import { Hono } from "hono";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { requireRole } from "./_auth.ts";
import { onInvalid } from "./_errors.tsx";
import type { Db, Sql } from "../db/client.ts";
import {
  type EmailTemplateVersion,
  getLatestVersions,
  insertTemplateVersion,
  listTemplateVersions,
  StaleVersionError,
} from "../db/email_templates.ts";
import type { CopyTexts } from "../lib/mail/copy.ts";
import { insertOutboxEmail } from "../lib/mail/outbox.ts";
import { emailNotice } from "../lib/mail/delivery.ts";
import { renderSample, samplePreview, samplePreviewPath } from "../lib/mail/sample_previews.ts";
import {
  type RenderedEmail,
  TEMPLATE_IDS,
  templateCopyDef,
  type TemplateId,
  TEMPLATES,
} from "../lib/mail/render.tsx";
import {
  cleanCopy,
  copyErrors,
  type CopyShape,
  copyShapeOf,
  defaultTexts,
  SUBJECT_MAX,
  TEXT_BLOCK_MAX,
} from "../lib/mail/template_copy.ts";
import { multiLine, singleLine } from "../lib/text.ts";
import type {
  EmailTemplateEditorProps,
  EmailTemplateState,
  PreviewView,
  TemplateTextsView,
  TemplateVersionView,
} from "../islands/_email_template.ts";

const TEMPLATE_NOT_FOUND = "Email template not found";
/** Subject prefix of "Send me a test", so the admin's inbox never mistakes it for a real one. */
export const TEST_SUBJECT_PREFIX = "[Test] ";

/** True when `id` names a registered template. */
export function isTemplateId(id: string): id is TemplateId {
  return (TEMPLATE_IDS as readonly string[]).includes(id);
}

const shapes = new Map<TemplateId, CopyShape>();
/** The copy shape of template `id` (computed once: the registry is constant). */
export function templateShape(id: TemplateId): CopyShape {
  let shape = shapes.get(id);
  if (!shape) {
    shape = copyShapeOf(templateCopyDef(id));
    shapes.set(id, shape);
  }
  return shape;
}

function versionView(v: EmailTemplateVersion): TemplateVersionView {
  return {
    version: v.version,
    isReset: v.isReset,
    createdByName: v.createdByName,
    createdAt: new Date(v.createdAt).toISOString(),
  };
}

function textsView(v: EmailTemplateVersion | undefined): TemplateTextsView | null {
  return v ? { ...versionView(v), subject: v.subject, blocks: v.blocks } : null;
}

/** The saved copy of template `id`: newest version, the one before it and the history. */
export async function templateState(db: Db, id: TemplateId): Promise<EmailTemplateState> {
  const [{ current, previous }, versions] = await Promise.all([
    getLatestVersions(db, { template: id }),
    listTemplateVersions(db, { template: id }),
  ]);
  return {
    current: textsView(current),
    previous: textsView(previous),
    versions: versions.map((v) => versionView({ ...v, subject: "", blocks: {} })),
  };
}

/**
 * The saved words' preview as the editor starts with it: the subject and plain text; the HTML
 * is not inlined (twice: in the page and in the island's props) but read by the frame from
 * `previewSrc`.
 */
function previewView({ subject, text }: RenderedEmail): PreviewView {
  return { subject, text };
}

/** Everything the editor page of template `id` passes to its island. */
export async function editorProps(
  db: Db,
  id: TemplateId,
  adminEmail: string,
): Promise<EmailTemplateEditorProps> {
  const state = await templateState(db, id);
  const def = TEMPLATES[id];
  const values = templateCopyDef(id).values(def.sample);
  const shape = templateShape(id);
  return {
    templateId: id,
    templateName: def.name,
    shape,
    variables: shape.variables.map((v) => ({ ...v, sample: values[v.name] ?? "" })),
    state,
    preview: previewView(await samplePreview(id, state.current ?? undefined)),
    previewSrc: samplePreviewPath(id),
    adminEmail,
  };
}

/** Unknown, malformed and unregistered ids are the same 404. */
const TemplateParam = z.object({
  id: z.string().max(100).refine(isTemplateId),
});
// deno-lint-ignore no-explicit-any
function notFoundOnInvalid(result: any, c: Context) {
  if (!result.success) return c.json({ message: TEMPLATE_NOT_FOUND }, 404);
}

/** Block key → text; which keys a template has is checked against its shape in the handler. */
const Blocks = z.record(
  z.string().max(100).regex(/^[A-Za-z][A-Za-z0-9_]*$/, { error: "Unknown block" }),
  multiLine("Text", { max: TEXT_BLOCK_MAX }),
  { error: "Blocks must be an object of texts" },
);
// Strict: a field this API does not know is a mistake worth a 400, not something to ignore.
const CopyInput = z.strictObject({
  subject: singleLine("Subject", { min: 1, max: SUBJECT_MAX }),
  blocks: Blocks,
});
const SaveInput = CopyInput.extend({
  /** The version the editor started from (0: the defaults); another save since is a 409. */
  baseVersion: z.int({ error: "Base version must be a whole number" }).min(0).max(1_000_000)
    .optional(),
});
const ResetInput = z.strictObject({ baseVersion: SaveInput.shape.baseVersion });

/** 400 `{message, errors}` with the first error as the message, like the validator hook. */
function refuse(errors: Record<string, string>): never {
  const message = Object.values(errors)[0];
  throw new HTTPException(400, {
    res: Response.json({ message, errors }, { status: 400 }),
  });
}

/** `texts` checked against template `id` (400 when wrong) and trimmed. */
function checkedCopy(id: TemplateId, texts: CopyTexts, checkVariables = true): CopyTexts {
  const shape = templateShape(id);
  const errors = copyErrors(shape, texts, { checkVariables });
  if (Object.keys(errors).length) refuse(errors);
  return cleanCopy(shape, texts);
}

function sameTexts(a: CopyTexts, b: CopyTexts): boolean {
  if (a.subject !== b.subject) return false;
  const keys = new Set([...Object.keys(a.blocks), ...Object.keys(b.blocks)]);
  return [...keys].every((k) => a.blocks[k] === b.blocks[k]);
}

/**
 * Runs `append` (which reads the versions and inserts the next one) in a transaction; a version
 * saved by someone else since the editor loaded is a 409 naming who saved it.
 */
async function appendVersion(db: Sql, append: (tx: Db) => Promise<void>): Promise<void> {
  try {
    await db.begin(append);
  } catch (err) {
    if (err instanceof StaleVersionError) {
      throw new HTTPException(409, { message: staleMessage(err) });
    }
    throw err;
  }
}

function staleMessage(err: StaleVersionError): string {
  const v = err.current;
  return v
    ? `Version ${v.version} was saved by ${
      v.createdByName ?? "another admin"
    } while you were editing. Reload the page to see it, then make your changes again.`
    : "The saved versions changed while you were editing. Reload the page and try again.";
}

/**
 * Admin API of the editable email copy (admins only). `:id` is a template id of the registry
 * (lib/mail/render.tsx); any other is a 404.
 *
 * - `POST /api/admin/email-templates/{id}/versions` `{subject, blocks, baseVersion?}`: saves the
 *   texts as the next version (who and when recorded) → 201 `{message, state}`. Every block of
 *   the template must be there and no other; a `{variable}` the template does not declare is a
 *   400 naming it and the field. 409 when nothing changed, or when `baseVersion` is no longer
 *   the newest (another admin saved meanwhile). Queued emails use the newest version at once.
 * - `POST /api/admin/email-templates/{id}/reset` `{baseVersion?}`: "Reset to default", a new
 *   version holding the defaults, after which the app sends the code's defaults → 201. 409 when
 *   the template already sends its defaults.
 * - `POST /api/admin/email-templates/{id}/preview` `{subject, blocks}`: the draft rendered with
 *   the template's sample data → `{subject, html, text}`. Unknown variables are shown as
 *   written (the editor marks them); nothing is stored.
 * - `POST /api/admin/email-templates/{id}/test` `{subject, blocks}`: the draft rendered with the
 *   sample data, subject prefixed "[Test] ", queued in the outbox to the signed-in admin's own
 *   address → 202 `{message, to}`. Refused like a save on unknown variables.
 */
export const emailTemplateApi = new Hono<AppEnv>()
  .post(
    "/api/admin/email-templates/:id/versions",
    requireRole("admin"),
    zValidator("param", TemplateParam, notFoundOnInvalid),
    zValidator("json", SaveInput, onInvalid),
    async (c) => {
      const id = c.req.valid("param").id as TemplateId;
      const { baseVersion, ...input } = c.req.valid("json");
      const texts = checkedCopy(id, input);
      const createdBy = c.var.session?.impersonatorId ?? c.var.user!.id;
      const db = c.var.db;
      await appendVersion(db, async (tx) => {
        const { current } = await getLatestVersions(tx, { template: id });
        const sent = current && !current.isReset ? current : defaultTexts(templateShape(id));
        // Compared before the lock: a concurrent save makes this stale only if baseVersion
        // was not given, and then saving the same words again is harmless.
        if (sameTexts(texts, sent)) {
          throw new HTTPException(409, {
            message: current
              ? `No changes: these are the words of version ${current.version}`
              : "No changes: these are the default words",
          });
        }
        await insertTemplateVersion(tx, { template: id, ...texts, createdBy, baseVersion });
      });
      return c.json(
        { message: "Email template saved", state: await templateState(db, id) },
        201,
      );
    },
  )
  .post(
    "/api/admin/email-templates/:id/reset",
    requireRole("admin"),
    zValidator("param", TemplateParam, notFoundOnInvalid),
    zValidator("json", ResetInput, onInvalid),
    async (c) => {
      const id = c.req.valid("param").id as TemplateId;
      const { baseVersion } = c.req.valid("json");
      const createdBy = c.var.session?.impersonatorId ?? c.var.user!.id;
      const db = c.var.db;
      await appendVersion(db, async (tx) => {
        const { current } = await getLatestVersions(tx, { template: id });
        if (!current || current.isReset) {
          throw new HTTPException(409, { message: "This email already uses the default words" });
        }
        await insertTemplateVersion(tx, {
          template: id,
          ...defaultTexts(templateShape(id)),
          isReset: true,
          createdBy,
          baseVersion,
        });
      });
      return c.json(
        { message: "Email reset to default", state: await templateState(db, id) },
        201,
      );
    },
  )
  .post(
    "/api/admin/email-templates/:id/preview",
    requireRole("admin"),
    zValidator("param", TemplateParam, notFoundOnInvalid),
    zValidator("json", CopyInput, onInvalid),
    async (c) => {
      const id = c.req.valid("param").id as TemplateId;
      const texts = checkedCopy(id, c.req.valid("json"), false);
      const { subject, html, text } = await renderSample(id, texts);
      c.header("Cache-Control", "no-store");
      return c.json({ subject, html, text });
    },
  )
  .post(
    "/api/admin/email-templates/:id/test",
    requireRole("admin"),
    zValidator("param", TemplateParam, notFoundOnInvalid),
    zValidator("json", CopyInput, onInvalid),
    async (c) => {
      const id = c.req.valid("param").id as TemplateId;
      const texts = checkedCopy(id, c.req.valid("json"));
      const email = await renderSample(id, texts);
      const to = c.var.user!.email;
      const subject = (TEST_SUBJECT_PREFIX + email.subject).slice(0, SUBJECT_MAX);
      const emailId = await insertOutboxEmail(c.var.db, { ...email, subject, to });
      const notice = emailNotice(c.var.deps.config, {
        emailId,
        isAdmin: true,
        what: `The test email to ${to}`,
      });
      return c.json({ message: "Test email queued", to, email: notice }, 202);
    },
  );
