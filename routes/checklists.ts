import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { requireRole, requireUser } from "./_auth.ts";
import { getFieldworkAccess } from "../db/survey_access.ts";
import {
  applyChecklistAnswers,
  getChecklist,
  insertTemplateVersion,
  listCurrentTemplates,
  listItemKinds,
  listOwnPhotoIds,
} from "../db/checklists.ts";
import {
  ChecklistAnswersSchema,
  ChecklistTemplateSchema,
  parseAnswerValue,
} from "../lib/checklists.ts";
import { type ChecklistValue, progressOf } from "../lib/checklist_types.ts";
import { SURVEY_TYPES } from "../lib/survey_types.ts";
import type { SurveyStatus } from "../lib/survey_status.ts";

/**
 * Survey statuses in which the crew may answer the checklist. From the technician's
 * assignment (assigned or scheduled: deed and plat research happen before the visit) through
 * the field visit, and while surveyed: edits a device made offline before "Mark surveyed" must
 * still land, and the office corrects notes before delivering. A completed or cancelled
 * survey's checklist is the record of what was done and stays as it is.
 */
export const CHECKLIST_EDITABLE_STATUSES: readonly SurveyStatus[] = [
  "assigned",
  "scheduled",
  "in_fieldwork",
  "surveyed",
];

const SurveyParam = z.object({ id: z.string().max(100) });
const TypeParam = z.object({
  surveyType: z.enum(SURVEY_TYPES, { error: "Unknown survey type" }),
});

/**
 * Survey checklist API:
 *
 * - `GET /api/surveys/{id}/checklist` (anyone getFieldworkAccess lets in; others 404): the
 *   admin, working surveyor and assigned technician get `{surveyId, templateVersion,
 *   progress, items}`; the owning client gets `{surveyId, progress}` only, never answers or
 *   notes. `progress` is null and `items` empty before a technician is assigned.
 * - `POST /api/surveys/{id}/checklist/answers` (the assigned technician, the working surveyor,
 *   admins) `{ops: [{opId, itemKey | itemId, value, answeredAt}]}` (1 to 100): each value is
 *   checked against its item's kind (check: boolean; number: finite; text: at most 2000
 *   characters; photo: ids of this survey's photos; null clears). Applied in order in one
 *   transaction: an opId seen before is not stored again, per item the latest answeredAt wins
 *   (ties: the larger opId), a losing edit is kept in the item's history. answeredAt later than
 *   the server's clock counts as now. → `{message: "Checklist saved", results, progress,
 *   items}`. Refused with 409 when the survey is not in CHECKLIST_EDITABLE_STATUSES or has no
 *   checklist; bad input is a 400 and stores nothing.
 * - `GET /api/checklist-templates` (admins): the current version of every type.
 * - `POST /api/checklist-templates/{surveyType}` (admins) `{items}`: saves version n + 1
 *   (who and when recorded) → 201 `{message: "Checklist template saved", template}`.
 *   Checklists already instantiated keep their copy.
 */
export const checklists = new Hono<AppEnv>()
  .get(
    "/api/surveys/:id/checklist",
    requireUser,
    zValidator("param", SurveyParam, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const db = c.var.db;
      const access = await getFieldworkAccess(db, { surveyId: id, user: c.var.user! });
      if (!access) throw new HTTPException(404, { message: "Survey not found" });
      const checklist = await getChecklist(db, { surveyId: access.survey.id });
      const progress = checklist ? progressOf(checklist.items) : null;
      if (access.as === "client") return c.json({ surveyId: access.survey.id, progress });
      return c.json({
        surveyId: access.survey.id,
        templateVersion: checklist?.templateVersion ?? null,
        progress,
        items: checklist?.items ?? [],
      });
    },
  )
  .post(
    "/api/surveys/:id/checklist/answers",
    requireRole("admin", "surveyor", "technician"),
    zValidator("param", SurveyParam, onInvalid),
    zValidator("json", ChecklistAnswersSchema, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const { ops } = c.req.valid("json");
      const user = c.var.user!;
      // Impersonating admins answer as themselves, as for every other recorded action.
      const answeredBy = c.var.session?.impersonatorId ?? user.id;
      const now = Date.now();
      const result = await c.var.db.begin(async (tx) => {
        // The lock orders this batch after a concurrent status change ("Mark surveyed").
        const access = await getFieldworkAccess(tx, { surveyId: id, user, lock: true });
        if (!access || access.as === "client") {
          throw new HTTPException(404, { message: "Survey not found" });
        }
        const surveyId = access.survey.id;
        if (!CHECKLIST_EDITABLE_STATUSES.includes(access.survey.status)) {
          throw new HTTPException(409, {
            message: "The checklist can no longer be changed: the survey is " +
              access.survey.status.replace("_", " "),
          });
        }
        const kinds = await listItemKinds(tx, { surveyId });
        if (kinds.length === 0) {
          throw new HTTPException(409, { message: "This survey has no checklist yet" });
        }
        const byId = new Map(kinds.map((item) => [item.id, item]));
        const byKey = new Map(kinds.map((item) => [item.key, item]));
        const resolved = ops.map((op, index) => {
          const item = op.itemId !== undefined
            ? byId.get(op.itemId.toLowerCase())
            : byKey.get(op.itemKey!);
          if (!item) badOp(index, "itemKey", "Checklist item not found");
          const parsed = parseAnswerValue(item.kind, item.label, op.value);
          if ("error" in parsed) badOp(index, "value", parsed.error);
          return {
            opId: op.opId.toLowerCase(),
            itemId: item.id,
            value: parsed.value,
            answeredAt: new Date(Math.min(Date.parse(op.answeredAt), now)),
          };
        });
        await checkPhotos(tx, surveyId, resolved, byId);
        const results = await applyChecklistAnswers(tx, { surveyId, answeredBy, ops: resolved });
        const checklist = await getChecklist(tx, { surveyId });
        return { results, items: checklist!.items };
      });
      return c.json({
        message: "Checklist saved",
        results: result.results,
        progress: progressOf(result.items),
        items: result.items,
      });
    },
  )
  .get("/api/checklist-templates", requireRole("admin"), async (c) => {
    return c.json({ templates: await listCurrentTemplates(c.var.db) });
  })
  .post(
    "/api/checklist-templates/:surveyType",
    requireRole("admin"),
    zValidator("param", TypeParam, onInvalid),
    zValidator("json", ChecklistTemplateSchema, onInvalid),
    async (c) => {
      const { surveyType } = c.req.valid("param");
      const { items } = c.req.valid("json");
      const createdBy = c.var.session?.impersonatorId ?? c.var.user!.id;
      const template = await c.var.db.begin((tx) =>
        insertTemplateVersion(tx, { surveyType, items, createdBy })
      );
      return c.json({ message: "Checklist template saved", template }, 201);
    },
  );

function badOp(index: number, field: string, message: string): never {
  throw new HTTPException(400, {
    res: Response.json(
      { message, errors: { [`ops.${index}.${field}`]: message } },
      { status: 400 },
    ),
  });
}

// Every photo id an op names must be a photo uploaded to this very survey.
async function checkPhotos(
  tx: Parameters<typeof listOwnPhotoIds>[0],
  surveyId: string,
  ops: { itemId: string; value: ChecklistValue }[],
  items: Map<string, { label: string }>,
) {
  const ids = ops.flatMap((op) => Array.isArray(op.value) ? op.value : []);
  if (ids.length === 0) return;
  const own = await listOwnPhotoIds(tx, { surveyId, fileIds: [...new Set(ids)] });
  ops.forEach((op, index) => {
    if (Array.isArray(op.value) && op.value.some((fileId) => !own.has(fileId))) {
      badOp(index, "value", `"${items.get(op.itemId)!.label}": unknown photo`);
    }
  });
}
