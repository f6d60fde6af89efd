import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { countRows, expectJson, putSurveyInStatus } from "../_fixtures.ts";
import { addSurveyor } from "../_assignment_fixtures.ts";
import { answerRows, checklistJob, itemRows } from "../_checklist_fixtures.ts";

const ANSWERS = (id: string) => `/api/surveys/${id}/checklist/answers`;
const CHECKLIST = (id: string) => `/api/surveys/${id}/checklist`;

function op(itemKey: string, value: unknown, answeredAt = "2024-06-01T10:00:00.000Z") {
  return { opId: crypto.randomUUID(), itemKey, value, answeredAt };
}

async function insertPhoto(t: TestApp, surveyId: string, kind = "photo"): Promise<string> {
  const [row] = await t.sql<{ id: string }[]>`
    insert into survey_files (survey_id, kind, file_name, content_type, size_bytes, sha256,
      storage, storage_key)
    values (${surveyId}, ${kind}, 'corner.jpg', 'image/jpeg', 10, ${"a".repeat(64)},
      'postgres', ${crypto.randomUUID()})
    returning id`;
  return row.id;
}

test("[checklists] the technician, the working surveyor and an admin answer; each answer records who", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
    const res = await t.request("POST", ANSWERS(job.survey.id), {
      cookie: job.technicianCookie,
      body: { ops: [op("deed_research", true), op("monuments_found", 3)] },
    });
    const body = await expectJson(res, 200);
    assertEquals(body.message, "Checklist saved");
    assertEquals(body.results.map((r: { outcome: string }) => r.outcome), ["applied", "applied"]);
    const deed = body.items.find((i: { key: string }) => i.key === "deed_research");
    assertEquals([deed.value, deed.answeredByName, deed.answeredAt], [
      true,
      "Toni Tech",
      "2024-06-01T10:00:00.000Z",
    ]);
    assertEquals(body.progress.requiredDone, 2);

    await expectJson(
      await t.request("POST", ANSWERS(job.survey.id), {
        cookie: job.surveyorCookie,
        body: { ops: [op("monuments_set", 0)] },
      }),
      200,
    );
    await expectJson(
      await t.request("POST", ANSWERS(job.survey.id), {
        cookie: admin.cookie,
        body: { ops: [op("field_notes", "  Neighbour says the NE pin was moved.  ")] },
      }),
      200,
    );
    const items = await itemRows(t, job.survey.id);
    assertEquals(items.get("deed_research")!.answeredBy, job.technician.id);
    assertEquals(items.get("monuments_set")!.value, 0);
    assertEquals(items.get("monuments_set")!.answeredBy, job.surveyorUser.id);
    assertEquals(items.get("field_notes")!.value, "Neighbour says the NE pin was moved.");
    assertEquals(items.get("field_notes")!.answeredBy, admin.user.id);
  } finally {
    t.close();
  }
});

test("[checklists] a device time in the future counts as now", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const before = Date.now();
    const res = await t.request("POST", ANSWERS(job.survey.id), {
      cookie: job.technicianCookie,
      body: { ops: [op("deed_research", true, "2999-01-01T00:00:00Z")] },
    });
    const body = await expectJson(res, 200);
    const at = Date.parse(
      body.items.find((i: { key: string }) => i.key === "deed_research").answeredAt,
    );
    assert(at >= before - 1000 && at <= Date.now() + 1000, `clamped to now, got ${at}`);
  } finally {
    t.close();
  }
});

test("[checklists] a replayed batch is stored once and a stale edit loses but is kept", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const batch = {
      ops: [op("encroachments", "Shed 1.2 ft over the north line", "2024-06-01T10:05:00Z")],
    };
    for (let i = 0; i < 3; i++) {
      await expectJson(
        await t.request("POST", ANSWERS(job.survey.id), {
          cookie: job.technicianCookie,
          body: batch,
        }),
        200,
      );
    }
    // The surveyor's edit made earlier on a device that was offline arrives last.
    const res = await t.request("POST", ANSWERS(job.survey.id), {
      cookie: job.surveyorCookie,
      body: { ops: [op("encroachments", "None observed", "2024-06-01T10:00:00Z")] },
    });
    const body = await expectJson(res, 200);
    assertEquals(body.results[0].outcome, "superseded");
    const item = body.items.find((i: { key: string }) => i.key === "encroachments");
    assertEquals(item.value, "Shed 1.2 ft over the north line");
    assertEquals((await answerRows(t, job.survey.id)).map((a) => [a.value, a.isApplied]), [
      ["None observed", false],
      ["Shed 1.2 ft over the north line", true],
    ]);
  } finally {
    t.close();
  }
});

test("[checklists] photos must be this survey's photos", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const other = await checklistJob(t);
    const own = await insertPhoto(t, job.survey.id);
    const foreign = await insertPhoto(t, other.survey.id);
    const deliverable = await insertPhoto(t, job.survey.id, "deliverable");
    for (const ids of [[foreign], [deliverable], [own, foreign], [crypto.randomUUID()], ["x"]]) {
      const res = await t.request("POST", ANSWERS(job.survey.id), {
        cookie: job.technicianCookie,
        body: { ops: [op("corner_photos", ids)] },
      });
      const body = await expectJson(res, 400);
      assertStringIncludes(body.message, "Photos of each corner");
    }
    assertEquals(await countRows(t, "survey_checklist_answers"), 0);
    const ok = await t.request("POST", ANSWERS(job.survey.id), {
      cookie: job.technicianCookie,
      body: { ops: [op("corner_photos", [own.toUpperCase()])] },
    });
    const body = await expectJson(ok, 200);
    assertEquals(body.items.find((i: { key: string }) => i.key === "corner_photos").value, [own]);
  } finally {
    t.close();
  }
});

test("[checklists] values must fit the item's kind; a bad op stores nothing of its batch", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const cases: [unknown, string][] = [
      [[op("deed_research", "yes")], '"Deed of record'],
      [[op("monuments_found", "4")], "takes a number"],
      [[op("monuments_found", true)], "takes a number"],
      [[op("encroachments", 12)], "takes text"],
      [[op("encroachments", "x".repeat(2001))], "2000"],
      [[op("encroachments", "nul\u0000byte")], "not allowed"],
      [[op("corner_photos", "abc")], "list of photos"],
      [[op("no_such_item", true)], "Checklist item not found"],
      [
        [{ ...op("deed_research", true), itemId: crypto.randomUUID(), itemKey: undefined }],
        "not found",
      ],
      [[{ ...op("deed_research", true), itemId: crypto.randomUUID() }], "either itemKey or itemId"],
      [[{ ...op("deed_research", true), opId: "not-a-uuid" }], "opId must be a uuid"],
      [[op("deed_research", true, "yesterday")], "answeredAt"],
      [[op("deed_research", true, "2024-06-01T10:00:00")], "time zone"],
      [[op("deed_research", true, "1970-01-01T00:00:00Z")], "too far in the past"],
      [[op("deed_research", { a: 1 })], "Answer must be"],
      [[], "at least one"],
      [Array.from({ length: 101 }, () => op("deed_research", true)), "at most 100"],
      [[op("monuments_set", 1), op("monuments_found", "three")], "takes a number"],
    ];
    const dup = op("deed_research", true);
    cases.push([[dup, { ...dup }], "its own opId"]);
    for (const [ops, message] of cases) {
      const res = await t.request("POST", ANSWERS(job.survey.id), {
        cookie: job.technicianCookie,
        body: { ops },
      });
      const body = await expectJson(res, 400);
      assertStringIncludes(body.message, message);
    }
    assertEquals(await countRows(t, "survey_checklist_answers"), 0);
    const items = await itemRows(t, job.survey.id);
    assertEquals([...items.values()].every((item) => item.value === null), true);
  } finally {
    t.close();
  }
});

test("[checklists] only the crew of this survey may answer; others get 403 or 404", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const otherTech = await createSignedInUser(t, { role: "technician" });
    const otherFirm = await addSurveyor(t, "Other Firm");
    const body = { ops: [op("deed_research", true)] };
    for (const cookie of [otherTech.cookie, otherFirm.cookie]) {
      const res = await t.request("POST", ANSWERS(job.survey.id), { cookie, body });
      assertEquals((await expectJson(res, 404)).message, "Survey not found");
    }
    const asClient = await t.request("POST", ANSWERS(job.survey.id), {
      cookie: job.clientCookie,
      body,
    });
    await expectJson(asClient, 403);
    const signedOut = await t.request("POST", ANSWERS(job.survey.id), { body });
    await expectJson(signedOut, 401);
    const unknown = await t.request("POST", ANSWERS(crypto.randomUUID()), {
      cookie: job.technicianCookie,
      body,
    });
    await expectJson(unknown, 404);
    assertEquals(await countRows(t, "survey_checklist_answers"), 0);
  } finally {
    t.close();
  }
});

test("[checklists] answers are refused once the survey is completed or cancelled, or before a checklist exists", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const body = { ops: [op("deed_research", true)] };
    for (const status of ["completed", "cancelled"]) {
      await putSurveyInStatus(t, job.survey.id, status);
      const res = await t.request("POST", ANSWERS(job.survey.id), {
        cookie: job.surveyorCookie,
        body,
      });
      assertStringIncludes((await expectJson(res, 409)).message, "can no longer be changed");
    }
    for (const status of ["assigned", "in_fieldwork", "surveyed"]) {
      await putSurveyInStatus(t, job.survey.id, status);
      const res = await t.request("POST", ANSWERS(job.survey.id), {
        cookie: job.technicianCookie,
        body: { ops: [op("deed_research", status !== "surveyed")] },
      });
      await expectJson(res, 200);
    }
    const bare = await checklistJob(t, { instantiate: false });
    const res = await t.request("POST", ANSWERS(bare.survey.id), {
      cookie: bare.technicianCookie,
      body,
    });
    assertEquals((await expectJson(res, 409)).message, "This survey has no checklist yet");
  } finally {
    t.close();
  }
});

test("[checklists] the client sees progress only; the crew sees items, answers and notes", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    await t.request("POST", ANSWERS(job.survey.id), {
      cookie: job.technicianCookie,
      body: {
        ops: [op("deed_research", true), op("field_notes", "Client's dog bit the rod man")],
      },
    });
    const client = await t.request("GET", CHECKLIST(job.survey.id), { cookie: job.clientCookie });
    const text = await client.clone().text();
    const seen = await expectJson(client, 200);
    assertEquals(Object.keys(seen).sort(), ["progress", "surveyId"]);
    assertEquals(seen.progress.requiredDone, 1);
    assert(!text.includes("dog"), "notes never reach the client");
    assert(!text.includes("deed_research"), "no items reach the client");

    for (const cookie of [job.technicianCookie, job.surveyorCookie, await signInAs(t, "admin")]) {
      const res = await t.request("GET", CHECKLIST(job.survey.id), { cookie });
      const body = await expectJson(res, 200);
      assertEquals(body.templateVersion, 1);
      assertEquals(
        body.items.find((i: { key: string }) => i.key === "field_notes").value,
        "Client's dog bit the rod man",
      );
    }
    const stranger = await createSignedInUser(t, { role: "client" });
    await expectJson(
      await t.request("GET", CHECKLIST(job.survey.id), { cookie: stranger.cookie }),
      404,
    );
    await expectJson(
      await t.request("GET", CHECKLIST("not-a-uuid"), { cookie: job.clientCookie }),
      404,
    );
    const bare = await checklistJob(t, { instantiate: false });
    const none = await expectJson(
      await t.request("GET", CHECKLIST(bare.survey.id), { cookie: bare.technicianCookie }),
      200,
    );
    assertEquals([none.progress, none.items], [null, []]);
  } finally {
    t.close();
  }
});

test("[checklist templates] an admin saves a new version; instantiated checklists keep theirs", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
    const list = await expectJson(
      await t.request("GET", "/api/checklist-templates", { cookie: admin.cookie }),
      200,
    );
    assertEquals(list.templates.length, 6);
    const boundary = list.templates.find((x: { surveyType: string }) =>
      x.surveyType === "boundary"
    );
    const items = [
      { key: "pins_found", label: "Pins found", kind: "number", unit: "ea", isRequired: true },
      ...boundary.items.slice(0, 2),
    ];
    const res = await t.request("POST", "/api/checklist-templates/boundary", {
      cookie: admin.cookie,
      body: { items },
    });
    const saved = await expectJson(res, 201);
    assertEquals(saved.message, "Checklist template saved");
    assertEquals(saved.template.version, 2);
    assertEquals(saved.template.createdByName, "Ada Admin");
    assertEquals(saved.template.items[0], items[0]);
    const [row] = await t.sql<{ createdBy: string }[]>`
      select created_by from checklist_templates where survey_type = 'boundary' and version = 2`;
    assertEquals(row.createdBy, admin.user.id);

    // The job in progress keeps version 1.
    const checklist = await expectJson(
      await t.request("GET", CHECKLIST(job.survey.id), { cookie: job.technicianCookie }),
      200,
    );
    assertEquals(checklist.templateVersion, 1);
    assertEquals(checklist.items.length, boundary.items.length);
    assert(!checklist.items.some((i: { key: string }) => i.key === "pins_found"));
    const next = await checklistJob(t);
    const fresh = await expectJson(
      await t.request("GET", CHECKLIST(next.survey.id), { cookie: next.technicianCookie }),
      200,
    );
    assertEquals(fresh.items.map((i: { key: string }) => i.key), items.map((i) => i.key));
  } finally {
    t.close();
  }
});

test("[checklist templates] bad templates are refused and nothing is stored", async () => {
  const t = await createTestApp();
  try {
    const cookie = await signInAs(t, "admin");
    const good = { key: "a", label: "A", kind: "check", isRequired: true };
    const cases: [string, unknown, string][] = [
      ["boundary", { items: [] }, "at least one item"],
      ["boundary", { items: [{ ...good, key: "Bad Key" }] }, "lowercase"],
      ["boundary", { items: [good, good] }, "Two items have the key a"],
      ["boundary", { items: [{ ...good, kind: "video" }] }, "Kind must be"],
      ["boundary", { items: [{ ...good, unit: "ft" }] }, "Only number items"],
      ["boundary", { items: [{ ...good, label: "" }] }, "Label is required"],
      ["boundary", { items: [{ ...good, label: "x".repeat(201) }] }, "200"],
      ["boundary", { items: [{ ...good, isRequired: "yes" }] }, "Required must be"],
      ["alta", { items: [{ ...good, key: "alta_table_a_4" }] }, "Table A"],
      [
        "boundary",
        { items: Array.from({ length: 101 }, (_, i) => ({ ...good, key: `k${i}` })) },
        "at most 100",
      ],
      ["mining", { items: [good] }, "Unknown survey type"],
    ];
    for (const [type, body, message] of cases) {
      const res = await t.request("POST", `/api/checklist-templates/${type}`, { cookie, body });
      assertStringIncludes((await expectJson(res, 400)).message, message);
    }
    const [{ n }] = await t.sql<{ n: number }[]>`
      select count(*)::int as n from checklist_templates where version > 1`;
    assertEquals(n, 0);
    for (const role of ["client", "surveyor", "technician"] as const) {
      const res = await t.request("POST", "/api/checklist-templates/boundary", {
        cookie: await signInAs(t, role),
        body: { items: [good] },
      });
      await expectJson(res, 403);
    }
  } finally {
    t.close();
  }
});
