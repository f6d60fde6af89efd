/**
 * Files of a survey (checklist photos and deliverables): the survey_files rows. The bytes are
 * in the storage provider under storage_key (lib/storage/); deleting a row releases them
 * (migration 0019's trigger and lib/storage/cleanup.ts). Who may see or change a file is
 * decided by db/survey_access.ts getFieldworkAccess on the file's survey.
 */
import type { Db } from "./client.ts";
import { isUuid } from "./users.ts";
import type { StorageKind } from "../lib/storage/provider.ts";
import type { SurveyFileInfo, SurveyFileKind } from "../lib/survey_file_types.ts";

/** A file with where its bytes are. */
export interface SurveyFileRecord extends SurveyFileInfo {
  storage: StorageKind;
  storageKey: string;
  opId: string | null;
}

type Row = Omit<SurveyFileRecord, "createdAt"> & { createdAt: Date };

function toRecord(row: Row): SurveyFileRecord {
  return { ...row, sizeBytes: Number(row.sizeBytes), createdAt: row.createdAt.toISOString() };
}

/** The public part of a record (what the API and pages show). */
export function toFileInfo(record: SurveyFileRecord): SurveyFileInfo {
  const { storage: _s, storageKey: _k, opId: _o, ...info } = record;
  return info;
}

function selectFiles(db: Db) {
  return db`
    select f.id, f.survey_id, f.kind, f.checklist_item_id, f.file_name, f.content_type,
      f.size_bytes::float8 as size_bytes, f.sha256, f.uploaded_by, u.full_name as uploaded_by_name,
      f.created_at, f.storage, f.storage_key, f.op_id
    from survey_files f left join users u on u.id = f.uploaded_by`;
}

/** The survey's files, oldest first, of one `kind` or all. */
export async function listSurveyFiles(
  db: Db,
  { surveyId, kind }: { surveyId: string; kind?: SurveyFileKind },
): Promise<SurveyFileInfo[]> {
  if (!isUuid(surveyId)) return [];
  const rows = await db<Row[]>`
    ${selectFiles(db)}
    where f.survey_id = ${surveyId} ${kind ? db`and f.kind = ${kind}` : db``}
    order by f.kind, f.created_at, f.id`;
  return rows.map((row) => toFileInfo(toRecord(row)));
}

/**
 * SQL for the deliverables of the survey aliased `s`, as `listSurveyFiles` lists them with kind
 * 'deliverable', as a JSON array (null for none): for a column of a survey query (db/surveys.ts
 * getSurveyPageData). `deliverablesFromJson` reads it.
 */
export function deliverablesJsonColumn(db: Db) {
  return db`(select json_agg(d order by d.created_at, d.id) from (
      select f.id, f.survey_id, f.kind, f.checklist_item_id, f.file_name, f.content_type,
        f.size_bytes::float8 as size_bytes, f.sha256, f.uploaded_by,
        u.full_name as uploaded_by_name, f.created_at
      from survey_files f left join users u on u.id = f.uploaded_by
      where f.survey_id = s.id and f.kind = 'deliverable'
    ) d)`;
}

// A file as json_agg spells it (created_at as Postgres writes a timestamptz).
interface FileJson {
  id: string;
  survey_id: string;
  kind: SurveyFileKind;
  checklist_item_id: string | null;
  file_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  uploaded_by: string | null;
  uploaded_by_name: string | null;
  created_at: string;
}

/** The files of a `deliverablesJsonColumn`, as `listSurveyFiles` returns them. */
export function deliverablesFromJson(rows: FileJson[] | null): SurveyFileInfo[] {
  return (rows ?? []).map((r) => ({
    id: r.id,
    surveyId: r.survey_id,
    kind: r.kind,
    checklistItemId: r.checklist_item_id,
    fileName: r.file_name,
    contentType: r.content_type,
    sizeBytes: r.size_bytes,
    sha256: r.sha256,
    uploadedBy: r.uploaded_by,
    uploadedByName: r.uploaded_by_name,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

/** How many deliverables the survey has (completion needs at least one). */
export async function countDeliverables(
  db: Db,
  { surveyId }: { surveyId: string },
): Promise<number> {
  if (!isUuid(surveyId)) return 0;
  const [{ n }] = await db<{ n: number }[]>`
    select count(*)::int as n from survey_files
    where survey_id = ${surveyId} and kind = 'deliverable'`;
  return n;
}

/** The file `id`, or undefined (also for a malformed id). Check access on its survey. */
export async function getSurveyFile(
  db: Db,
  { id }: { id: string },
): Promise<SurveyFileRecord | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db<Row[]>`${selectFiles(db)} where f.id = ${id}`;
  return row ? toRecord(row) : undefined;
}

/** The file a device uploaded with `opId` (a retried upload), or undefined. */
export async function getSurveyFileByOpId(
  db: Db,
  { opId }: { opId: string },
): Promise<SurveyFileRecord | undefined> {
  const [row] = await db<Row[]>`${selectFiles(db)} where f.op_id = ${opId}`;
  return row ? toRecord(row) : undefined;
}

/** What `insertSurveyFile` records. */
export interface NewSurveyFile {
  surveyId: string;
  kind: SurveyFileKind;
  checklistItemId: string | null;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  storage: StorageKind;
  storageKey: string;
  uploadedBy: string;
  opId: string | null;
}

/**
 * Records a stored file. Returns undefined when `opId` was already used (a concurrent
 * retry won): the caller answers with that file instead.
 */
export async function insertSurveyFile(
  db: Db,
  file: NewSurveyFile,
): Promise<SurveyFileRecord | undefined> {
  const [inserted] = await db<{ id: string }[]>`
    insert into survey_files (survey_id, kind, checklist_item_id, file_name, content_type,
      size_bytes, sha256, storage, storage_key, uploaded_by, op_id)
    values (${file.surveyId}, ${file.kind}, ${file.checklistItemId}, ${file.fileName},
      ${file.contentType}, ${file.sizeBytes}, ${file.sha256}, ${file.storage},
      ${file.storageKey}, ${file.uploadedBy}, ${file.opId})
    on conflict (op_id) do nothing
    returning id`;
  return inserted ? await getSurveyFile(db, { id: inserted.id }) : undefined;
}

/** Deletes the file row (its bytes are released by the trigger); false when it was gone. */
export async function deleteSurveyFile(db: Db, { id }: { id: string }): Promise<boolean> {
  const rows = await db`delete from survey_files where id = ${id} returning id`;
  return rows.length > 0;
}

/**
 * Whether `itemId` is a photo item of the survey's checklist: "missing" (not on this
 * survey's checklist), "not_photo" (another kind of item), or "ok".
 */
export async function checkPhotoItem(
  db: Db,
  { surveyId, itemId }: { surveyId: string; itemId: string },
): Promise<"ok" | "missing" | "not_photo"> {
  const [item] = await db<{ kind: string }[]>`
    select kind from survey_checklist_items where id = ${itemId} and survey_id = ${surveyId}`;
  if (!item) return "missing";
  return item.kind === "photo" ? "ok" : "not_photo";
}

/** Bytes of recorded files on a survey and on every survey of a firm. */
export interface StorageUse {
  surveyBytes: number;
  /** 0 when no firm was asked about. */
  firmBytes: number;
}

/**
 * The bytes recorded on `surveyId` and, with `surveyorId`, on every survey that firm works or
 * worked on (an accepted, scheduled or completed assignment): what storage quotas count.
 */
export async function getStorageUse(
  db: Db,
  { surveyId, surveyorId }: { surveyId: string; surveyorId: string | null },
): Promise<StorageUse> {
  const [row] = await db<StorageUse[]>`
    select
      (select coalesce(sum(size_bytes), 0)::float8 from survey_files
        where survey_id = ${surveyId}) as survey_bytes,
      (select coalesce(sum(f.size_bytes), 0)::float8 from survey_files f
        where ${surveyorId}::uuid is not null and f.survey_id in (
          select a.survey_id from survey_assignments a
          where a.surveyor_id = ${surveyorId}::uuid
            and a.status in ('accepted', 'scheduled', 'completed'))) as firm_bytes`;
  return row;
}
