import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { answerRows, checklistJob, itemRows } from "../_checklist_fixtures.ts";
import {
  applyChecklistAnswers,
  countMissingRequired,
  getChecklist,
  getChecklistProgress,
  getCurrentTemplate,
  insertTemplateVersion,
  instantiateChecklist,
  listCurrentTemplates,
  listItemHistory,
} from "../../db/checklists.ts";
import { SURVEY_TYPES } from "../../lib/survey_types.ts";
import { DEFAULT_CHECKLIST_TEMPLATES } from "../../lib/checklists.ts";

test("[checklists] every survey type has a seeded version 1 with required items", async () => {
  const t = await createTestApp();
  try {
    const templates = await listCurrentTemplates(t.sql);
    assertEquals(templates.map((x) => x.surveyType).sort(), [...SURVEY_TYPES].sort());
    for (const template of templates) {
      assertEquals(template.version, 1);
      assertEquals(template.createdByName, null);
      assert(template.items.some((item) => item.isRequired), template.surveyType);
      assert(template.items.some((item) => item.kind === "photo"), template.surveyType);
      const keys = template.items.map((item) => item.key);
      assertEquals(new Set(keys).size, keys.length, `${template.surveyType} keys are unique`);
    }
    const elevation = await getCurrentTemplate(t.sql, { surveyType: "elevation_certificate" });
    const byKey = new Map(elevation!.items.map((item) => [item.key, item]));
    assertEquals(byKey.get("lowest_adjacent_grade")?.unit, "ft");
    assertEquals(byKey.get("lowest_floor")?.kind, "number");
    assertEquals(byKey.get("machinery")?.unit, "ft");
    const boundary = await getCurrentTemplate(t.sql, { surveyType: "boundary" });
    assert(boundary!.items.some((item) => item.key === "corner_photos" && item.kind === "photo"));
  } finally {
    t.close();
  }
});

test("[checklists] instantiating copies the current version once; later edits leave it alone", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const admin = job.client.id; // any user id works as the author here
    const before = await getChecklist(t.sql, { surveyId: job.survey.id });
    const boundary = await getCurrentTemplate(t.sql, { surveyType: "boundary" });
    assertEquals(before!.templateVersion, 1);
    assertEquals(before!.items.map((item) => item.key), boundary!.items.map((item) => item.key));
    assertEquals(before!.items.every((item) => item.value === null), true);

    const saved = await t.sql.begin((tx) =>
      insertTemplateVersion(tx, {
        surveyType: "boundary",
        items: [{ key: "only_item", label: "Only item", kind: "check", isRequired: true }],
        createdBy: admin,
      })
    );
    assertEquals(saved.version, 2);
    assertEquals(saved.createdByName, "Dana Client");
    // Idempotent: the existing checklist is not replaced by version 2.
    await t.sql.begin((tx) => instantiateChecklist(tx, { surveyId: job.survey.id }));
    const after = await getChecklist(t.sql, { surveyId: job.survey.id });
    assertEquals(after, before);

    // A survey instantiated now gets version 2.
    const other = await checklistJob(t);
    const fresh = await getChecklist(t.sql, { surveyId: other.survey.id });
    assertEquals(fresh!.templateVersion, 2);
    assertEquals(fresh!.items.map((item) => item.key), ["only_item"]);
  } finally {
    t.close();
  }
});

test("[checklists] an ALTA checklist gets one required check per Table A item of the request", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t, {
      overrides: { surveyType: "alta", propertyType: "commercial", altaItems: ["4", "11a"] },
    });
    const checklist = await getChecklist(t.sql, { surveyId: job.survey.id });
    const table = checklist!.items.filter((item) => item.key.startsWith("alta_table_a_"));
    assertEquals(table.map((item) => [item.key, item.label, item.kind, item.isRequired]), [
      ["alta_table_a_4", "Table A item 4: Gross land area", "check", true],
      [
        "alta_table_a_11a",
        "Table A item 11a: Utilities from plans and 811 markings",
        "check",
        true,
      ],
    ]);
    assert(checklist!.items.some((item) => item.key === "title_commitment"));
  } finally {
    t.close();
  }
});

test("[checklists] last writer wins by device time; the loser stays in the history", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const items = await itemRows(t, job.survey.id);
    const itemId = items.get("encroachments")!.id;
    const late = crypto.randomUUID();
    const early = crypto.randomUUID();
    const at = (s: string) => new Date(`2030-01-01T10:00:${s}Z`);
    // The later edit arrives first (the earlier device was offline longer).
    const first = await t.sql.begin((tx) =>
      applyChecklistAnswers(tx, {
        surveyId: job.survey.id,
        answeredBy: job.technician.id,
        ops: [{
          opId: late,
          itemId,
          value: "Fence 0.4 ft over the east line",
          answeredAt: at("30"),
        }],
      })
    );
    const second = await t.sql.begin((tx) =>
      applyChecklistAnswers(tx, {
        surveyId: job.survey.id,
        answeredBy: job.surveyorUser.id,
        ops: [{ opId: early, itemId, value: "None observed", answeredAt: at("10") }],
      })
    );
    assertEquals(first[0].outcome, "applied");
    assertEquals(second[0].outcome, "superseded");
    const after = await itemRows(t, job.survey.id);
    assertEquals(after.get("encroachments")!.value, "Fence 0.4 ft over the east line");
    assertEquals(after.get("encroachments")!.answeredBy, job.technician.id);
    const history = await listItemHistory(t.sql, { itemId });
    assertEquals(history.map((h) => [h.value, h.isApplied, h.answeredByName]), [
      ["Fence 0.4 ft over the east line", true, "Toni Tech"],
      ["None observed", false, "Level Line Surveying Owner"],
    ]);

    // A newer edit takes over and the old winner is marked as no longer applied.
    const newest = crypto.randomUUID();
    await t.sql.begin((tx) =>
      applyChecklistAnswers(tx, {
        surveyId: job.survey.id,
        answeredBy: job.surveyorUser.id,
        ops: [{ opId: newest, itemId, value: null, answeredAt: at("50") }],
      })
    );
    assertEquals((await itemRows(t, job.survey.id)).get("encroachments")!.value, null);
    assertEquals((await answerRows(t, job.survey.id)).map((a) => [a.opId, a.isApplied]), [
      [early, false],
      [late, false],
      [newest, true],
    ]);
  } finally {
    t.close();
  }
});

test("[checklists] equal device times resolve the same way in either arrival order", async () => {
  const t = await createTestApp();
  try {
    const at = new Date("2030-01-01T10:00:00Z");
    const low = "00000000-0000-4000-8000-000000000001";
    const high = "ffffffff-0000-4000-8000-000000000001";
    const winners: unknown[] = [];
    for (const order of [[low, high], [high, low]]) {
      const job = await checklistJob(t);
      const itemId = (await itemRows(t, job.survey.id)).get("field_notes")!.id;
      for (const opId of order) {
        await t.sql.begin((tx) =>
          applyChecklistAnswers(tx, {
            surveyId: job.survey.id,
            answeredBy: job.technician.id,
            ops: [{ opId, itemId, value: `note ${opId.slice(0, 4)}`, answeredAt: at }],
          })
        );
      }
      winners.push((await itemRows(t, job.survey.id)).get("field_notes")!.value);
      await t.sql`delete from survey_checklist_answers`;
    }
    assertEquals(winners, ["note ffff", "note ffff"]);
  } finally {
    t.close();
  }
});

test("[checklists] a replayed op id is stored once and changes nothing", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const itemId = (await itemRows(t, job.survey.id)).get("monuments_found")!.id;
    const opId = crypto.randomUUID();
    const op = { opId, itemId, value: 4, answeredAt: new Date("2030-01-01T10:00:00Z") };
    const apply = () =>
      t.sql.begin((tx) =>
        applyChecklistAnswers(tx, {
          surveyId: job.survey.id,
          answeredBy: job.technician.id,
          ops: [op],
        })
      );
    assertEquals((await apply())[0].outcome, "applied");
    // A later edit, then the first one replayed after a lost response.
    await t.sql.begin((tx) =>
      applyChecklistAnswers(tx, {
        surveyId: job.survey.id,
        answeredBy: job.technician.id,
        ops: [{
          ...op,
          opId: crypto.randomUUID(),
          value: 5,
          answeredAt: new Date("2030-01-01T11:00:00Z"),
        }],
      })
    );
    assertEquals((await apply())[0].outcome, "duplicate");
    assertEquals((await itemRows(t, job.survey.id)).get("monuments_found")!.value, 5);
    assertEquals((await answerRows(t, job.survey.id)).length, 2);
  } finally {
    t.close();
  }
});

test("[checklists] progress and missing required items count only done answers", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const bare = await checklistJob(t, { instantiate: false });
    const items = await itemRows(t, job.survey.id);
    const template = await getCurrentTemplate(t.sql, { surveyType: "boundary" });
    const required = template!.items.filter((item) => item.isRequired).length;
    const before = await getChecklistProgress(t.sql, {
      surveyIds: [job.survey.id, bare.survey.id],
    });
    assertEquals(before.get(job.survey.id), {
      total: template!.items.length,
      done: 0,
      requiredTotal: required,
      requiredDone: 0,
    });
    assertEquals(before.has(bare.survey.id), false);
    assertEquals(await countMissingRequired(t.sql, { surveyId: job.survey.id }), required);
    assertEquals(await countMissingRequired(t.sql, { surveyId: bare.survey.id }), 0);

    const at = new Date("2030-01-01T10:00:00Z");
    const answer = (key: string, value: unknown) => ({
      opId: crypto.randomUUID(),
      itemId: items.get(key)!.id,
      value: value as never,
      answeredAt: at,
    });
    await t.sql.begin((tx) =>
      applyChecklistAnswers(tx, {
        surveyId: job.survey.id,
        answeredBy: job.technician.id,
        ops: [
          answer("deed_research", true), // done
          answer("plat_research", false), // unticked: not done
          answer("monuments_set", 0), // zero is an answer
          answer("encroachments", "   "), // blank: not done
          answer("field_notes", "Hot day"), // optional, done
        ],
      })
    );
    const after = await getChecklistProgress(t.sql, { surveyIds: [job.survey.id] });
    assertEquals(after.get(job.survey.id), {
      total: template!.items.length,
      done: 3,
      requiredTotal: required,
      requiredDone: 2,
    });
    assertEquals(await countMissingRequired(t.sql, { surveyId: job.survey.id }), required - 2);
  } finally {
    t.close();
  }
});

test("[checklists] migration 0018 seeds exactly the defaults of lib/checklists.ts", async () => {
  const t = await createTestApp();
  try {
    await t.sql`delete from checklist_templates`;
    const seed = await Deno.readTextFile(
      new URL("../../db/migrations/0018_checklist_defaults.sql", import.meta.url),
    );
    await t.sql.unsafe(seed);
    const rows = await t.sql<{ surveyType: string; version: number; items: unknown }[]>`
      select survey_type, version, items from checklist_templates order by survey_type`;
    assertEquals(
      Object.fromEntries(rows.map((row) => [row.surveyType, row.items])),
      DEFAULT_CHECKLIST_TEMPLATES,
    );
    assertEquals(rows.map((row) => row.version), [1, 1, 1, 1, 1, 1]);
  } finally {
    t.close();
  }
});
