/**
 * Survey checklists: versioned templates per survey type, the per-survey copy made when a
 * technician is first assigned, answers from devices (idempotent by op id, last writer wins per
 * item by the device's clock, every edit kept in survey_checklist_answers) and progress.
 */
import type { Db } from "./client.ts";
import { readWithViewer, type Viewer } from "./users.ts";
import type { SurveyType } from "../lib/survey_types.ts";
import { ALTA_TABLE_A_ITEMS, type AltaItemId } from "../lib/survey_options.ts";
import { DEFAULT_CHECKLIST_TEMPLATES } from "../lib/checklists.ts";
import {
  altaItemKey,
  type ChecklistItemKind,
  type ChecklistItemView,
  type ChecklistProgress,
  type ChecklistTemplateItem,
  type ChecklistTemplateView,
  type ChecklistValue,
  type ChecklistView,
} from "../lib/checklist_types.ts";

// "Done" in SQL, the same rule as lib/checklist_types.ts isItemDone: a ticked check, a number,
// non-blank text, at least one photo. `i` is survey_checklist_items.
function doneSql(db: Db) {
  // coalesce: an unanswered item (null value) is false, not null, so `not done` counts it.
  return db`coalesce(case i.kind
    when 'check' then i.value = 'true'::jsonb
    when 'number' then jsonb_typeof(i.value) = 'number'
    when 'text' then jsonb_typeof(i.value) = 'string' and btrim(i.value #>> '{}') <> ''
    when 'photo' then jsonb_typeof(i.value) = 'array' and jsonb_array_length(i.value) > 0
    else false end, false)`;
}

/**
 * Inserts version 1 (the defaults) of every survey type that has no template. Migration 0018
 * seeds them; this covers a database emptied since (tests truncate every table), like
 * db/pricing.ts does for the pricing defaults.
 */
async function ensureDefaultTemplates(db: Db): Promise<void> {
  const present = await db<{ surveyType: string }[]>`
    select distinct survey_type from checklist_templates`;
  const have = new Set(present.map((row) => row.surveyType));
  const missing = Object.entries(DEFAULT_CHECKLIST_TEMPLATES)
    .filter(([surveyType]) => !have.has(surveyType))
    .map(([surveyType, items]) => ({
      surveyType,
      version: 1,
      items: db.json(items as unknown as Parameters<typeof db.json>[0]),
    }));
  if (missing.length === 0) return;
  await db`
    insert into checklist_templates ${db(missing, "surveyType", "version", "items")}
    on conflict (survey_type, version) do nothing`;
}

/** The label an ALTA checklist gives Table A item `id`. */
function altaItemLabel(id: string): string {
  const text = ALTA_TABLE_A_ITEMS[id as AltaItemId] ?? "Table A item";
  return `Table A item ${id}: ${text}`.slice(0, 200);
}

/**
 * Copies the current template version of the survey's type into the survey's own checklist;
 * an ALTA survey gets one required check per Table A item it was ordered with. A no-op when the
 * survey already has a checklist (reassigning a technician keeps the answers), or when the
 * survey does not exist. Call it inside the assignment's transaction.
 */
export async function instantiateChecklist(
  tx: Db,
  { surveyId }: { surveyId: string },
): Promise<void> {
  const [survey] = await tx<{ surveyType: SurveyType; altaItems: string[] }[]>`
    select survey_type, alta_items from surveys where id = ${surveyId}`;
  if (!survey) return;
  await ensureDefaultTemplates(tx);
  const [template] = await tx<{ id: string; version: number; items: ChecklistTemplateItem[] }[]>`
    select id, version, items from checklist_templates
    where survey_type = ${survey.surveyType}
    order by version desc limit 1`;
  const created = await tx`
    insert into survey_checklists (survey_id, template_id, template_version)
    values (${surveyId}, ${template?.id ?? null}, ${template?.version ?? 0})
    on conflict (survey_id) do nothing
    returning survey_id`;
  if (created.length === 0) return;
  const items: ChecklistTemplateItem[] = [...(template?.items ?? [])];
  if (survey.surveyType === "alta") {
    const keys = new Set(items.map((item) => item.key));
    for (const id of survey.altaItems ?? []) {
      const key = altaItemKey(id);
      if (keys.has(key)) continue;
      keys.add(key);
      items.push({
        key,
        label: altaItemLabel(id),
        kind: "check",
        help: "Ordered with the request (ALTA/NSPS Table A).",
        isRequired: true,
      });
    }
  }
  if (items.length === 0) return;
  const rows = items.map((item, position) => ({
    surveyId,
    position,
    key: item.key,
    label: item.label,
    kind: item.kind,
    unit: item.kind === "number" ? item.unit ?? null : null,
    help: item.help ?? null,
    isRequired: item.isRequired,
  }));
  await tx`insert into survey_checklist_items ${
    tx(rows, "surveyId", "position", "key", "label", "kind", "unit", "help", "isRequired")
  }`;
}

/**
 * Progress of the checklists of `surveyIds`, one query. A survey without a checklist (no
 * technician assigned yet) is absent from the map.
 */
export async function getChecklistProgress(
  db: Db,
  { surveyIds }: { surveyIds: string[] },
): Promise<Map<string, ChecklistProgress>> {
  const progress = new Map<string, ChecklistProgress>();
  if (surveyIds.length === 0) return progress;
  const rows = await db<{ id: string; progress: ChecklistProgressJson | null }[]>`
    select s.id, ${checklistProgressColumn(db)} as progress
    from surveys s where s.id = any(${db.array(surveyIds)}::uuid[])`;
  for (const row of rows) {
    if (row.progress) progress.set(row.id, checklistProgressFromJson(row.progress));
  }
  return progress;
}

/**
 * SQL for the checklist progress of the survey aliased `s`, as a JSON object with
 * `getChecklistProgress`'s counts in snake_case (null when it has no checklist): for a column
 * of a survey query (db/surveys.ts getSurveyPageData).
 */
export function checklistProgressColumn(db: Db) {
  return db`(select json_build_object(
      'total', count(i.id),
      'done', count(i.id) filter (where ${doneSql(db)}),
      'required_total', count(i.id) filter (where i.is_required),
      'required_done', count(i.id) filter (where i.is_required and ${doneSql(db)}))
    from survey_checklists c
    left join survey_checklist_items i on i.survey_id = c.survey_id
    where c.survey_id = s.id
    group by c.survey_id)`;
}

/** `checklistProgressColumn`'s JSON. */
export type ChecklistProgressJson = Record<
  "total" | "done" | "required_total" | "required_done",
  number
>;

/** `checklistProgressColumn`'s JSON as the progress. */
export function checklistProgressFromJson(json: ChecklistProgressJson): ChecklistProgress {
  return {
    total: json.total,
    done: json.done,
    requiredTotal: json.required_total,
    requiredDone: json.required_done,
  };
}

/**
 * How many required items of the survey's checklist are not done yet; 0 when the survey has no
 * checklist (nothing is required of it).
 */
export async function countMissingRequired(
  db: Db,
  { surveyId }: { surveyId: string },
): Promise<number> {
  const [row] = await db<{ missing: number }[]>`
    select count(*)::int as missing from survey_checklist_items i
    where i.survey_id = ${surveyId} and i.is_required and not ${doneSql(db)}`;
  return row?.missing ?? 0;
}

/**
 * SQL for the checklist of the survey aliased `s` as JSON (null when it has none): its template
 * version and its items in order, each as `listChecklistItems` reads it, for a column of a
 * page's statement (db/field_page.ts). `checklistFromJson` turns it into the view.
 */
export function checklistJsonColumn(db: Db) {
  return db`(select json_build_object('templateVersion', c.template_version, 'items',
      coalesce((select json_agg(json_build_object('id', i.id, 'key', i.key, 'label', i.label,
          'kind', i.kind, 'unit', i.unit, 'help', i.help, 'isRequired', i.is_required,
          'value', i.value, 'answeredByName', u.full_name, 'answeredAt', i.answered_at)
          order by i.position, i.key)
        from survey_checklist_items i left join users u on u.id = i.answered_by
        where i.survey_id = s.id), '[]'::json))
    from survey_checklists c where c.survey_id = s.id)`;
}

/**
 * The survey's checklist with every item's current answer, who gave it and when, or undefined
 * when the survey has none. Callers check access first (db/survey_access.ts).
 */
export async function getChecklist(
  db: Db,
  { surveyId }: { surveyId: string },
): Promise<ChecklistView | undefined> {
  const [row] = await db<{ checklist: Parameters<typeof checklistFromJson>[1] }[]>`
    select ${checklistJsonColumn(db)} as checklist from surveys s where s.id = ${surveyId}`;
  return checklistFromJson(surveyId, row?.checklist ?? null);
}

/** `checklistJsonColumn`'s JSON of survey `surveyId` as the checklist's view. */
export function checklistFromJson(
  surveyId: string,
  json: { templateVersion: number; items: ChecklistItemJson[] } | null,
): ChecklistView | undefined {
  if (!json) return undefined;
  return { surveyId, templateVersion: json.templateVersion, items: json.items.map(itemView) };
}

/** An item as `checklistJsonColumn` gives it: its answer's time as JSON writes it. */
export type ChecklistItemJson = Omit<ChecklistItemView, "answeredAt"> & {
  answeredAt: string | Date | null;
};

function itemView(row: ChecklistItemJson): ChecklistItemView {
  return {
    ...row,
    value: row.value ?? null,
    answeredAt: row.answeredAt ? new Date(row.answeredAt).toISOString() : null,
  };
}

async function listItems(db: Db, { surveyId }: { surveyId: string }) {
  const rows = await db<ChecklistItemJson[]>`
    select i.id, i.key, i.label, i.kind, i.unit, i.help, i.is_required, i.value,
      u.full_name as answered_by_name, i.answered_at
    from survey_checklist_items i
    left join users u on u.id = i.answered_by
    where i.survey_id = ${surveyId}
    order by i.position, i.key`;
  return rows.map(itemView);
}

/**
 * The current (highest) template version of every survey type that has one; the defaults are
 * written first when a type with defaults has none yet (a database emptied since the seed).
 */
export async function listCurrentTemplates(db: Db): Promise<ChecklistTemplateView[]> {
  const read = () =>
    db<TemplateRow[]>`
      select distinct on (t.survey_type) t.survey_type, t.version, t.items, t.created_at,
        u.full_name as created_by_name
      from checklist_templates t
      left join users u on u.id = t.created_by
      order by t.survey_type, t.version desc`;
  let rows = await read();
  const have = new Set(rows.map((row) => row.surveyType));
  if (Object.keys(DEFAULT_CHECKLIST_TEMPLATES).some((type) => !have.has(type as SurveyType))) {
    await ensureDefaultTemplates(db);
    rows = await read();
  }
  return rows.map(templateView);
}

type TemplateRow = Omit<ChecklistTemplateView, "createdAt"> & { createdAt: Date | string };

function templateView(row: TemplateRow): ChecklistTemplateView {
  return { ...row, createdAt: new Date(row.createdAt).toISOString() };
}

/** SQL for the current template version of `surveyType` (no row when it has none). */
function currentTemplateStatement(db: Db, surveyType: SurveyType) {
  return db`
    select t.survey_type, t.version, t.items, t.created_at, u.full_name as created_by_name
    from checklist_templates t
    left join users u on u.id = t.created_by
    where t.survey_type = ${surveyType}
    order by t.version desc limit 1`;
}

/**
 * The current template version of `surveyType`, or undefined when it has none. The defaults
 * are written when it has none yet (a database emptied since the seed), not checked first.
 */
export async function getCurrentTemplate(
  db: Db,
  { surveyType }: { surveyType: SurveyType },
): Promise<ChecklistTemplateView | undefined> {
  const [row] = await currentTemplateStatement(db, surveyType) as unknown as TemplateRow[];
  if (row) return templateView(row);
  await ensureDefaultTemplates(db);
  const [written] = await currentTemplateStatement(db, surveyType) as unknown as TemplateRow[];
  return written && templateView(written);
}

/**
 * `getCurrentTemplate` with the viewer `viewerId` (the user with the bell's count) in the same
 * statement (db/users.ts `readWithViewer`), for a page that reads its own viewer.
 */
export async function getCurrentTemplateWithViewer(
  db: Db,
  { surveyType, viewerId }: { surveyType: SurveyType; viewerId: string },
): Promise<{ viewer: Viewer | undefined; template: ChecklistTemplateView | undefined }> {
  const { viewer, rows } = await readWithViewer<TemplateRow>(
    db,
    viewerId,
    currentTemplateStatement(db, surveyType),
  );
  return {
    viewer,
    template: rows[0] ? templateView(rows[0]) : await getCurrentTemplate(db, { surveyType }),
  };
}

/**
 * Saves `items` as a new version of `surveyType`'s template (current + 1) by `createdBy`.
 * Concurrent saves are serialised by a transaction-scoped advisory lock per type, so each gets
 * its own version number. Returns the saved version.
 */
export async function insertTemplateVersion(
  tx: Db,
  { surveyType, items, createdBy }: {
    surveyType: SurveyType;
    items: ChecklistTemplateItem[];
    createdBy: string;
  },
): Promise<ChecklistTemplateView> {
  await tx`select pg_advisory_xact_lock(hashtext(${"checklist_template:" + surveyType}))`;
  // The defaults are version 1 even in a database emptied since the seed.
  await ensureDefaultTemplates(tx);
  const clean = items.map((item) => ({
    key: item.key,
    label: item.label,
    kind: item.kind,
    ...(item.kind === "number" && item.unit ? { unit: item.unit } : {}),
    ...(item.help ? { help: item.help } : {}),
    isRequired: item.isRequired,
  }));
  const [row] = await tx<{ version: number; createdAt: Date }[]>`
    insert into checklist_templates (survey_type, version, items, created_by)
    select ${surveyType}, coalesce(max(version), 0) + 1, ${tx.json(clean)}, ${createdBy}
    from checklist_templates where survey_type = ${surveyType}
    returning version, created_at`;
  const [user] = await tx<{ fullName: string }[]>`
    select full_name from users where id = ${createdBy}`;
  return {
    surveyType,
    version: row.version,
    items: clean,
    createdAt: new Date(row.createdAt).toISOString(),
    createdByName: user?.fullName ?? null,
  };
}

/** One validated edit to apply (see applyChecklistAnswers). */
export interface ChecklistAnswerInput {
  opId: string;
  itemId?: string;
  itemKey?: string;
  value: ChecklistValue;
  /** Device time of the edit, already clamped to the server's now. */
  answeredAt: Date;
}

/** What became of one op. */
export interface ChecklistOpResult {
  opId: string;
  /** applied: it now holds the item; superseded: a later edit holds it (kept in the history);
   * duplicate: this op id was received before (nothing stored again). */
  outcome: "applied" | "superseded" | "duplicate";
  itemId: string;
}

/** An op's item lookup failed or the value does not fit the item. */
export class ChecklistAnswerError extends Error {
  constructor(message: string, readonly opId: string) {
    super(message);
  }
}

/** Id, key, label and kind of every item of the survey's checklist (to check answers). */
export async function listItemKinds(db: Db, { surveyId }: { surveyId: string }) {
  return await db<{ id: string; key: string; label: string; kind: ChecklistItemKind }[]>`
    select id, key, label, kind from survey_checklist_items where survey_id = ${surveyId}`;
}

/**
 * Applies device edits to the survey's checklist, in the order given, inside the caller's
 * transaction. Each op is stored once (a replayed op id is a duplicate and changes nothing);
 * per item, the edit with the latest answeredAt holds the value, ties broken by the larger op
 * id so every server and replay order agrees. A losing edit stays in survey_checklist_answers
 * with is_applied = false. Values must already be validated against the item's kind.
 */
export async function applyChecklistAnswers(
  tx: Db,
  { surveyId, answeredBy, ops }: {
    surveyId: string;
    answeredBy: string;
    ops: (ChecklistAnswerInput & { itemId: string })[];
  },
): Promise<ChecklistOpResult[]> {
  const results: ChecklistOpResult[] = [];
  for (const op of ops) {
    // Lock the item so two requests racing on it serialise their comparison.
    const [item] = await tx<{ answeredAt: Date | null; opId: string | null }[]>`
      select i.answered_at,
        (select a.op_id from survey_checklist_answers a
          where a.item_id = i.id and a.is_applied
          order by a.answered_at desc, a.op_id desc limit 1)::text as op_id
      from survey_checklist_items i
      where i.id = ${op.itemId} and i.survey_id = ${surveyId}
      for update of i`;
    if (!item) throw new ChecklistAnswerError("Checklist item not found", op.opId);
    const current = item.answeredAt ? new Date(item.answeredAt).getTime() : null;
    const mine = op.answeredAt.getTime();
    const wins = current === null || mine > current ||
      (mine === current && (item.opId === null || op.opId.toLowerCase() > item.opId));
    const inserted = await tx`
      insert into survey_checklist_answers
        (item_id, op_id, value, answered_by, answered_at, is_applied)
      values (${op.itemId}, ${op.opId}, ${op.value === null ? null : tx.json(op.value)},
        ${answeredBy}, ${op.answeredAt}, ${wins})
      on conflict (op_id) do nothing
      returning id`;
    if (inserted.length === 0) {
      results.push({ opId: op.opId, outcome: "duplicate", itemId: op.itemId });
      continue;
    }
    if (wins) {
      await tx`
        update survey_checklist_answers set is_applied = false
        where item_id = ${op.itemId} and is_applied and op_id <> ${op.opId}`;
      await tx`
        update survey_checklist_items
        set value = ${op.value === null ? null : tx.json(op.value)},
          answered_by = ${answeredBy}, answered_at = ${op.answeredAt}
        where id = ${op.itemId}`;
    }
    results.push({ opId: op.opId, outcome: wins ? "applied" : "superseded", itemId: op.itemId });
  }
  return results;
}

/** The survey's items with their answers (after applying edits). */
export async function listChecklistItems(
  db: Db,
  { surveyId }: { surveyId: string },
): Promise<ChecklistItemView[]> {
  return await listItems(db, { surveyId });
}

/** Edits received for one item, newest device time first (its history, losers included). */
export async function listItemHistory(db: Db, { itemId }: { itemId: string }) {
  return await db<{
    opId: string;
    value: ChecklistValue;
    answeredByName: string | null;
    answeredAt: Date;
    receivedAt: Date;
    isApplied: boolean;
  }[]>`
    select a.op_id, a.value, u.full_name as answered_by_name, a.answered_at, a.received_at,
      a.is_applied
    from survey_checklist_answers a
    left join users u on u.id = a.answered_by
    where a.item_id = ${itemId}
    order by a.answered_at desc, a.op_id desc`;
}

/**
 * Which of `fileIds` are photos of the survey `surveyId` (survey_files, kind photo). A photo
 * of another survey, a deliverable or an unknown id is left out.
 */
export async function listOwnPhotoIds(
  db: Db,
  { surveyId, fileIds }: { surveyId: string; fileIds: string[] },
): Promise<Set<string>> {
  if (fileIds.length === 0) return new Set();
  const rows = await db<{ id: string }[]>`
    select id from survey_files
    where survey_id = ${surveyId} and kind = 'photo' and id = any(${db.array(fileIds)}::uuid[])`;
  return new Set(rows.map((row) => row.id));
}
