import { assertEquals } from "../_assert.ts";
import { type FieldMemory, newerStatus, withNewerAnswers } from "../../islands/_field_memory.ts";
import type { ChecklistItemView } from "../../lib/checklist_types.ts";

const STARTED: FieldMemory = {
  status: { status: "in_fieldwork", surveyedDate: null, at: "2026-11-28T10:42:07.000Z" },
  touched: 1,
};

Deno.test("[field memory] a status the device got after the copy was rendered replaces it", () => {
  // The copy was rendered before "Start fieldwork" (same second counts: at worst it repeats).
  for (const renderedAt of ["2026-11-28T10:30:00.000Z", "2026-11-28T10:42:07.900Z"]) {
    assertEquals(
      newerStatus(STARTED, { status: "scheduled", renderedAt })?.status,
      "in_fieldwork",
      renderedAt,
    );
  }
});

Deno.test("[field memory] a newer copy, a later status or a job no longer in the field wins", () => {
  // Rendered after the device's change: the server's page is the latest (an admin may have
  // moved the job back since).
  assertEquals(
    newerStatus(STARTED, { status: "scheduled", renderedAt: "2026-11-28T10:43:00.000Z" }),
    undefined,
  );
  // Never backwards, never over a cancelled or reassigned job.
  for (const status of ["in_fieldwork", "surveyed", "completed", "cancelled"] as const) {
    assertEquals(
      newerStatus(STARTED, { status, renderedAt: "2026-11-28T10:00:00.000Z" }),
      undefined,
      status,
    );
  }
  assertEquals(
    newerStatus({ touched: 0 }, { status: "scheduled", renderedAt: "2026-11-28T10:00:00Z" }),
    undefined,
  );
});

function item(id: string, value: ChecklistItemView["value"], answeredAt: string | null) {
  return {
    id,
    key: id,
    label: id,
    kind: "check",
    unit: null,
    help: null,
    isRequired: true,
    value,
    answeredByName: answeredAt ? "Toni Tech" : null,
    answeredAt,
  } satisfies ChecklistItemView;
}

Deno.test("[field memory] each confirmed answer newer than the copy's is shown, by its own clock", () => {
  const page = [
    item("deed", null, null),
    item("plat", true, "2026-11-28T10:50:00.000Z"),
    item("control", true, "2026-11-28T09:00:00.000Z"),
  ];
  const memory: FieldMemory = {
    touched: 1,
    answers: {
      deed: { value: true, answeredByName: "Toni Tech", answeredAt: "2026-11-28T10:40:00.000Z" },
      plat: { value: null, answeredByName: "Toni Tech", answeredAt: "2026-11-28T10:45:00.000Z" },
      control: { value: null, answeredByName: "Sam", answeredAt: "2026-11-28T10:00:00.000Z" },
    },
  };
  assertEquals(withNewerAnswers(page, memory).map((i) => [i.id, i.value]), [
    ["deed", true],
    ["plat", true],
    ["control", null],
  ]);
  assertEquals(withNewerAnswers(page, { touched: 0 }), page, "nothing remembered: the copy");
});

Deno.test("[field memory] a status change is remembered at the answer's own time, not its Date header's", async () => {
  const { stubFetch } = await import("./_fetch.ts");
  const { changeStatus } = await import("../../islands/_field_status.ts");
  const survey = { status: "in_fieldwork", surveyedDate: null, completedDate: null };
  // A busy server's Date header can be a second behind its clock (Deno refreshes it on a timer).
  const headers = { "content-type": "application/json", date: "Sat, 28 Nov 2026 10:42:04 GMT" };
  const precise = "2026-11-28T10:42:05.321Z";
  const stub = stubFetch({
    "PATCH /api/surveys/s1/status": new Response(
      JSON.stringify({ message: "Updated", survey, answeredAt: precise }),
      { headers },
    ),
    "PATCH /api/surveys/s2/status": new Response(
      JSON.stringify({ message: "Updated", survey }),
      { headers },
    ),
  });
  try {
    assertEquals((await changeStatus("s1", { status: "in_fieldwork" })).answeredAt, precise);
    // An answer without its own time (an older server) falls back to the header.
    assertEquals(
      (await changeStatus("s2", { status: "in_fieldwork" })).answeredAt,
      "2026-11-28T10:42:04.000Z",
    );
  } finally {
    stub.restore();
  }
  // Kept at the precise time, the status reads as newer than a copy rendered 0.2 s before it.
  const memory: FieldMemory = {
    touched: 0,
    status: { status: "in_fieldwork", surveyedDate: null, at: precise },
  };
  assertEquals(
    newerStatus(memory, { status: "scheduled", renderedAt: "2026-11-28T10:42:05.100Z" })?.status,
    "in_fieldwork",
  );
});
