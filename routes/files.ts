import { Hono } from "hono";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { fieldErrors, onInvalid } from "./_errors.tsx";
import { requireRole, requireUser } from "./_auth.ts";
import { type FieldworkAccess, getFieldworkAccess } from "../db/survey_access.ts";
import {
  checkPhotoItem,
  deleteSurveyFile,
  getStorageUse,
  getSurveyFile,
  getSurveyFileByOpId,
  insertSurveyFile,
  type SurveyFileRecord,
  toFileInfo,
} from "../db/survey_files.ts";
import { isUuid } from "../db/users.ts";
import type { Db } from "../db/client.ts";
import {
  ACCEPTED_FILE_TYPES,
  checkFileType,
  detectFileType,
  type FileType,
  INLINE_CONTENT_TYPES,
  nameWithFittingExtension,
  readHead,
} from "../lib/file_types.ts";
import {
  multipartBoundary,
  MultipartError,
  MultipartTooLargeError,
  parseMultipart,
} from "../lib/multipart.ts";
import {
  FILE_TOO_LARGE_MESSAGE,
  MAX_FILE_BYTES,
  MAX_UPLOAD_REQUEST_BYTES,
  type SurveyFileKind,
} from "../lib/survey_file_types.ts";
import { FileTooLargeError, newStorageKey, type StoredObject } from "../lib/storage/provider.ts";
import { claimUpload, registerUpload, releaseUpload } from "../lib/storage/cleanup.ts";
import { quotaMessage, type QuotaRoom, quotaRoom, storageQuotas } from "../lib/storage/quota.ts";
import type { SurveyStatus } from "../lib/survey_status.ts";

/** The answers of the files API, so islands and tests read the same words. */
export const FILE_MESSAGES = {
  uploaded: "File uploaded",
  replayed: "File already uploaded",
  deleted: "File deleted",
  notFound: "File not found",
  surveyNotFound: "Survey not found",
  notMultipart: "Send the file as multipart/form-data",
  noFile: "Choose a file to upload",
  oneFile: "Send one file per request",
  closed: "This survey is completed or cancelled: its files can no longer change",
  deliverableRole: "Only the survey's surveyor or an admin can upload deliverables",
  deleteRole: "Only the person who uploaded this file, the survey's surveyor or an admin can " +
    "delete it",
  opIdUsed: "This upload id was already used for another survey",
  badFileName: "The file name has control or direction characters: rename the file and try again",
  itemMissing: "Checklist item not found on this survey",
  itemNotPhoto: "That checklist item does not take photos",
  itemOnlyPhotos: "Only photos belong to a checklist item",
} as const;

const IdParam = z.object({ id: z.string().max(100) });

// Empty text fields are what a form sends for "none".
const optionalId = (message: string) =>
  z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.string().refine(isUuid, message).optional(),
  );

const UploadFields = z.object({
  kind: z.enum(["photo", "deliverable"], { message: "Choose photo or deliverable" }),
  checklistItemId: optionalId("Checklist item not found on this survey"),
  opId: optionalId("opId must be a UUID"),
}).strict();

const TEXT_FIELDS = new Set(["kind", "checklistItemId", "opId"]);
const MAX_FIELD_BYTES = 200;

/** Survey statuses in which files are final. */
const CLOSED: ReadonlySet<SurveyStatus> = new Set(["completed", "cancelled"]);

/** The kinds a caller may upload, by the role they work on the survey in. */
function kindsFor(access: FieldworkAccess): SurveyFileKind[] {
  switch (access.as) {
    case "admin":
    case "surveyor":
      return ["photo", "deliverable"];
    case "technician":
      return ["photo"];
    case "client":
      return [];
  }
}

// Controls and bidirectional overrides ("fdp\u202Eexe.pdf" shows as "fdp.exe…") in file names.
// deno-lint-ignore no-control-regex
const DIRECTION_OR_CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** The uploaded name as stored: base name only, at most 200 characters, a fitting extension. */
function storedFileName(raw: string, type: FileType): string {
  // Old browsers send the whole path.
  const base = (raw.split(/[\\/]/).pop() ?? "").normalize("NFC").trim();
  if (DIRECTION_OR_CONTROL.test(base)) {
    throw new HTTPException(400, { message: FILE_MESSAGES.badFileName });
  }
  const short = [...base].slice(0, 200).join("");
  const name = short === "" || /^\.+$/.test(short) ? "file" : short;
  return nameWithFittingExtension(name, type);
}

/** `Content-Disposition` with an ASCII fallback and the exact name (RFC 6266, RFC 5987). */
export function contentDisposition(type: "attachment" | "inline", fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

function fail(status: 400 | 403 | 404 | 409 | 413 | 415, message: string): never {
  throw new HTTPException(status, { message });
}

/** Room left under the storage quotas of the survey and of the firm working on it. */
async function roomFor(c: Context<AppEnv>, survey: FieldworkAccess["survey"], db: Db = c.var.db) {
  const surveyorId = survey.workingSurveyorId;
  const use = await getStorageUse(db, { surveyId: survey.id, surveyorId });
  return quotaRoom(storageQuotas(c.var.deps.config), use, { hasFirm: surveyorId !== null });
}

/** What an upload stored before its fields were all known. */
interface StoredUpload {
  key: string;
  object: StoredObject;
  type: FileType;
  fileName: string;
}

/**
 * The file's bytes go; used when a request fails after storing them. The key stays queued
 * until its delete succeeded (lib/storage/cleanup.ts), so an outage leaves nothing behind.
 */
async function release(c: Context<AppEnv>, key: string): Promise<void> {
  await releaseUpload(c.var.db, c.var.deps.storage, { key });
}

/** A replayed upload (same opId): the file already stored, or 409 for another survey's id. */
function replayAnswer(c: Context<AppEnv>, existing: SurveyFileRecord, surveyId: string) {
  if (existing.surveyId !== surveyId) fail(409, FILE_MESSAGES.opIdUsed);
  return c.json({ message: FILE_MESSAGES.replayed, file: toFileInfo(existing) }, 200);
}

/**
 * Reads the form: text fields as they come and the file streamed into storage (sniffed
 * first, then stored chunk by chunk). With `kind` and `opId` sent before the file (as the
 * islands do), a refused kind or a replay is answered before a byte is stored; sent after
 * it, the stored bytes are released when the request turns out to be refused.
 */
async function readUpload(
  c: Context<AppEnv>,
  access: FieldworkAccess,
  contentType: string,
): Promise<{ fields: Record<string, string>; stored?: StoredUpload; replay?: SurveyFileRecord }> {
  const fields: Record<string, string> = {};
  let stored: StoredUpload | undefined;
  let room: QuotaRoom | undefined;
  const { storage } = c.var.deps;
  try {
    const parts = parseMultipart(c.req.raw.body!, {
      contentType,
      maxBytes: MAX_UPLOAD_REQUEST_BYTES,
      maxParts: 8,
      maxFieldBytes: MAX_FIELD_BYTES,
    });
    for await (const part of parts) {
      if (part.type === "field") {
        if (part.name === "file") fail(400, FILE_MESSAGES.noFile);
        if (!TEXT_FIELDS.has(part.name)) fail(400, `Unknown form field: ${safeName(part.name)}`);
        if (part.name in fields) fail(400, `The ${part.name} field is repeated`);
        fields[part.name] = part.value;
        continue;
      }
      if (part.name !== "file") fail(400, `Unknown form field: ${safeName(part.name)}`);
      if (stored) fail(400, FILE_MESSAGES.oneFile);
      // What can be decided before storing anything.
      const sentKind = fields.kind;
      if (sentKind !== undefined && sentKind !== "photo" && sentKind !== "deliverable") {
        fail(400, "Choose photo or deliverable");
      }
      const kind: SurveyFileKind | undefined = sentKind;
      if (kind === "deliverable" && !kindsFor(access).includes("deliverable")) {
        fail(403, FILE_MESSAGES.deliverableRole);
      }
      if (fields.opId && isUuid(fields.opId)) {
        const existing = await getSurveyFileByOpId(c.var.db, { opId: fields.opId });
        if (existing) return { fields, replay: existing };
      }
      if (CLOSED.has(access.survey.status)) fail(409, FILE_MESSAGES.closed);
      // Quotas: a full one refuses before a byte is stored; otherwise the room left is the
      // most the provider takes (checked again when the file is recorded).
      room = await roomFor(c, access.survey);
      if (room.leftBytes === 0) fail(413, quotaMessage(room));
      const { head, isWhole, stream } = await readHead(part.body);
      // Without the kind yet (sent after the file), anything some kind accepts is stored and
      // the kind and role are checked once the form is read.
      const allowed: SurveyFileKind[] = kind ? [kind] : ["photo", "deliverable"];
      const type = detectFileType(head, { isWhole });
      if (!type || !allowed.some((k) => ACCEPTED_FILE_TYPES[k].includes(type.id))) {
        const check = checkFileType(head, { kind: allowed.at(-1) ?? "photo", isWhole });
        fail(415, check.ok ? "This file's type is not accepted" : check.message);
      }
      const fileName = storedFileName(part.filename, type);
      const key = newStorageKey();
      await registerUpload(c.var.db, { key, storage: storage.kind });
      try {
        const object = await storage.put(key, stream, {
          contentType: type.contentType,
          maxBytes: Math.min(MAX_FILE_BYTES, room.leftBytes),
        });
        stored = { key, object, type, fileName };
      } catch (err) {
        // The provider removes what it stored, unless the failure was its own (an outage):
        // the registration goes only with a delete that succeeded.
        await release(c, key);
        throw err;
      }
    }
    return { fields, stored };
  } catch (err) {
    if (stored) await release(c, stored.key);
    if (err instanceof FileTooLargeError && room && err.maxBytes < MAX_FILE_BYTES) {
      fail(413, quotaMessage(room));
    }
    if (err instanceof FileTooLargeError || err instanceof MultipartTooLargeError) {
      fail(413, FILE_TOO_LARGE_MESSAGE);
    }
    if (err instanceof MultipartError) fail(400, `Malformed upload: ${err.message}`);
    throw err;
  }
}

/** A field name fit to quote in a message. */
function safeName(name: string): string {
  return JSON.stringify(name.replace(DIRECTION_OR_CONTROL, "").slice(0, 40));
}

/**
 * Survey files API (photos from the checklist, deliverables of the surveyor):
 *
 * - `POST /api/surveys/{id}/files` multipart/form-data `{kind: "photo"|"deliverable",
 *   checklistItemId?, opId?, file}` → 201 `{message: "File uploaded", file}`. Photos: the
 *   survey's technician, surveyor or an admin; deliverables: the surveyor or an admin.
 *   Type by content (lib/file_types.ts; 415 naming what is accepted), at most 25 MB (413,
 *   also from Content-Length before reading), within the storage quotas of the survey and of
 *   the firm working on it (413 naming the quota, its size and its use; lib/storage/quota.ts).
 *   A replayed opId → 200 with the file already stored. The form is parsed by busboy
 *   (lib/multipart.ts) and the file streams into storage; it is never held whole in memory.
 * - `GET /api/files/{id}` (`?inline=1` for a photo to show in an <img>): the bytes, streamed,
 *   for the client owning the survey, its surveyor and technician, and admins.
 * - `DELETE /api/files/{id}`: the uploader, the survey's surveyor or an admin, until the
 *   survey is completed.
 *
 * A survey or file the caller may not see is a 404.
 */
export const files = new Hono<AppEnv>()
  .post(
    "/api/surveys/:id/files",
    requireRole("admin", "surveyor", "technician"),
    zValidator("param", IdParam, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const user = c.var.user!;
      const access = await getFieldworkAccess(c.var.db, { surveyId: id, user });
      if (!access || kindsFor(access).length === 0) fail(404, FILE_MESSAGES.surveyNotFound);
      const length = c.req.header("content-length");
      if (length !== undefined && Number(length) > MAX_UPLOAD_REQUEST_BYTES) {
        fail(413, FILE_TOO_LARGE_MESSAGE);
      }
      const contentType = c.req.header("content-type");
      if (!multipartBoundary(contentType)) fail(415, FILE_MESSAGES.notMultipart);
      if (!c.req.raw.body) fail(400, FILE_MESSAGES.noFile);

      const { fields, stored, replay } = await readUpload(c, access, contentType!);
      if (replay) return replayAnswer(c, replay, id);
      const outcome = await checkAndRecord(c, access, fields, stored);
      if (outcome.status !== 201 && stored) await release(c, stored.key);
      if ("message" in outcome) {
        return c.json({ message: outcome.message, ...outcome.extra }, outcome.status);
      }
      return replayAnswer(c, outcome.replay, id);
    },
  )
  .get(
    "/api/files/:id",
    requireUser,
    zValidator("param", IdParam, onInvalid),
    zValidator("query", z.object({ inline: z.enum(["0", "1"]).optional() }).strict(), onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const file = await getSurveyFile(c.var.db, { id });
      const access = file &&
        await getFieldworkAccess(c.var.db, { surveyId: file.surveyId, user: c.var.user! });
      if (!file || !access) fail(404, FILE_MESSAGES.notFound);
      const { storage } = c.var.deps;
      const object = file.storage === storage.kind ? await storage.get(file.storageKey) : undefined;
      if (!object) {
        console.error(`[files] ${file.id}: no ${file.storage} object ${file.storageKey}`);
        fail(404, FILE_MESSAGES.notFound);
      }
      const isInline = c.req.valid("query").inline === "1" &&
        INLINE_CONTENT_TYPES.has(file.contentType);
      const contentType = file.contentType.startsWith("text/")
        ? `${file.contentType}; charset=utf-8`
        : file.contentType;
      return new Response(object.body, {
        status: 200,
        headers: {
          "Content-Type": contentType,
          "Content-Length": String(object.sizeBytes),
          "Content-Disposition": contentDisposition(
            isInline ? "inline" : "attachment",
            file.fileName,
          ),
          "X-Content-Type-Options": "nosniff",
          // no-transform: served as stored (the compression middleware leaves it alone), so
          // the length and the checksum hold.
          "Cache-Control": "private, no-store, no-transform",
        },
      });
    },
  )
  .delete(
    "/api/files/:id",
    requireRole("admin", "surveyor", "technician"),
    zValidator("param", IdParam, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const user = c.var.user!;
      const file = await getSurveyFile(c.var.db, { id });
      if (!file) fail(404, FILE_MESSAGES.notFound);
      const outcome = await c.var.db.begin(async (tx) => {
        const access = await getFieldworkAccess(tx, { surveyId: file.surveyId, user, lock: true });
        if (!access) return 404;
        if (CLOSED.has(access.survey.status)) return 409;
        const mayDelete = access.as === "admin" || access.as === "surveyor" ||
          (access.as === "technician" && file.uploadedBy === user.id);
        if (!mayDelete) return 403;
        return (await deleteSurveyFile(tx, { id })) ? 200 : 404;
      });
      if (outcome === 404) fail(404, FILE_MESSAGES.notFound);
      if (outcome === 409) fail(409, FILE_MESSAGES.closed);
      if (outcome === 403) fail(403, FILE_MESSAGES.deleteRole);
      // The Postgres provider's chunks went with the row (trigger); an S3 object goes now,
      // or with the next sweep if the bucket does not answer.
      if (file.storage !== "postgres") await release(c, file.storageKey);
      return c.json({ message: FILE_MESSAGES.deleted, id });
    },
  );

type RecordOutcome =
  | { status: 201; message: string; extra: Record<string, unknown> }
  | {
    status: 400 | 403 | 404 | 409 | 413 | 415;
    message: string;
    extra?: Record<string, unknown>;
  }
  | { status: 200; replay: SurveyFileRecord };

/**
 * Checks the whole form now that it is read, and records the stored file in one transaction
 * with the survey locked (so it cannot complete or go away in between).
 */
async function checkAndRecord(
  c: Context<AppEnv>,
  access: FieldworkAccess,
  fields: Record<string, string>,
  stored: StoredUpload | undefined,
): Promise<RecordOutcome> {
  const parsed = UploadFields.safeParse(fields);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    const first = Object.values(errors)[0] ?? "Invalid upload";
    return { status: 400, message: first, extra: { errors } };
  }
  const { kind, checklistItemId, opId } = parsed.data;
  if (!kindsFor(access).includes(kind)) {
    return { status: 403, message: FILE_MESSAGES.deliverableRole };
  }
  if (checklistItemId && kind !== "photo") {
    return { status: 400, message: FILE_MESSAGES.itemOnlyPhotos };
  }
  if (opId) {
    const existing = await getSurveyFileByOpId(c.var.db, { opId });
    if (existing) return { status: 200, replay: existing };
  }
  if (!stored) {
    return {
      status: 400,
      message: FILE_MESSAGES.noFile,
      extra: { errors: { file: FILE_MESSAGES.noFile } },
    };
  }
  if (!ACCEPTED_FILE_TYPES[kind].includes(stored.type.id)) {
    // Sent after the file, the kind could not narrow the check while it streamed.
    return {
      status: 415,
      message: `A ${stored.type.extension.toUpperCase()} file is not accepted as a ${kind}.`,
    };
  }
  const user = c.var.user!;
  const surveyId = access.survey.id;
  return await c.var.db.begin(async (tx): Promise<RecordOutcome> => {
    const locked = await getFieldworkAccess(tx, { surveyId, user, lock: true });
    if (!locked || !kindsFor(locked).includes(kind)) {
      return { status: 404, message: FILE_MESSAGES.surveyNotFound };
    }
    if (CLOSED.has(locked.survey.status)) return { status: 409, message: FILE_MESSAGES.closed };
    // The survey is locked; uploads to the firm's other surveys wait here too, so parallel
    // uploads cannot pass the quota together.
    const firmId = locked.survey.workingSurveyorId;
    if (firmId) await tx`select pg_advisory_xact_lock(hashtext(${`storage_quota:${firmId}`}))`;
    const room = await roomFor(c, locked.survey, tx);
    if (stored.object.sizeBytes > room.leftBytes) {
      return { status: 413, message: quotaMessage(room, stored.object.sizeBytes) };
    }
    if (checklistItemId) {
      const item = await checkPhotoItem(tx, { surveyId, itemId: checklistItemId });
      if (item === "missing") return { status: 404, message: FILE_MESSAGES.itemMissing };
      if (item === "not_photo") return { status: 400, message: FILE_MESSAGES.itemNotPhoto };
    }
    const file = await insertSurveyFile(tx, {
      surveyId,
      kind,
      checklistItemId: checklistItemId ?? null,
      fileName: stored.fileName,
      contentType: stored.type.contentType,
      sizeBytes: stored.object.sizeBytes,
      sha256: stored.object.sha256,
      storage: c.var.deps.storage.kind,
      storageKey: stored.key,
      uploadedBy: user.id,
      opId: opId ?? null,
    });
    if (!file) {
      // Another request with the same opId recorded first.
      const existing = await getSurveyFileByOpId(tx, { opId: opId! });
      return { status: 200, replay: existing! };
    }
    await claimUpload(tx, { key: stored.key });
    return { status: 201, message: FILE_MESSAGES.uploaded, extra: { file: toFileInfo(file) } };
  });
}
