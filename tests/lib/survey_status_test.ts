import { assert, assertEquals } from "../_assert.ts";
import {
  canTransition,
  CLIENT_CANCELLABLE,
  deliveryBlockers,
  isSurveyStatus,
  isTerminal,
  LIFECYCLE,
  lifecycleIndex,
  nextStatuses,
  requiredDateField,
  STATUS_INFO,
  SURVEY_STATUSES,
  type SurveyStatus,
  transitionError,
} from "../../lib/survey_status.ts";
import type { Role } from "../../lib/roles.ts";

const ROLES: Role[] = ["admin", "client", "surveyor", "technician"];

Deno.test("[survey status] the lifecycle runs requested to completed, with cancelled aside", () => {
  assertEquals(LIFECYCLE, [
    "requested",
    "surveyors_notified",
    "assigned",
    "scheduled",
    "in_fieldwork",
    "surveyed",
    "completed",
  ]);
  assertEquals(SURVEY_STATUSES.length, 8);
  assertEquals(lifecycleIndex("requested"), 0);
  assertEquals(lifecycleIndex("completed"), 6);
  assertEquals(lifecycleIndex("cancelled"), -1);
  assert(isTerminal("completed") && isTerminal("cancelled") && !isTerminal("surveyed"));
  assert(isSurveyStatus("in_fieldwork") && !isSurveyStatus("done") && !isSurveyStatus(3));
});

Deno.test("[survey status] every status has a label and a description for the tracker", () => {
  for (const status of SURVEY_STATUSES) {
    assert(STATUS_INFO[status].label.length > 0, status);
    assert(STATUS_INFO[status].description.endsWith("."), status);
  }
  assertEquals(STATUS_INFO.surveyors_notified.label, "Surveyors notified");
});

// The full table, spelled out: [role, from, allowed targets].
const LEGAL: [Role, SurveyStatus, SurveyStatus[]][] = [
  // Never to surveyors_notified (Notify surveyors does that) or assigned (an assignment).
  ["admin", "requested", ["scheduled", "in_fieldwork", "surveyed", "completed", "cancelled"]],
  ["admin", "surveyors_notified", [
    "scheduled",
    "in_fieldwork",
    "surveyed",
    "completed",
    "cancelled",
  ]],
  ["admin", "assigned", ["scheduled", "in_fieldwork", "surveyed", "completed", "cancelled"]],
  ["admin", "scheduled", ["in_fieldwork", "surveyed", "completed", "cancelled"]],
  ["admin", "in_fieldwork", ["surveyed", "completed", "cancelled"]],
  ["admin", "surveyed", ["completed", "cancelled"]],
  ["admin", "completed", []],
  ["admin", "cancelled", []],
  ["client", "requested", ["cancelled"]],
  ["client", "surveyors_notified", ["cancelled"]],
  ["client", "assigned", []],
  ["client", "scheduled", []],
  ["client", "in_fieldwork", []],
  ["client", "surveyed", []],
  ["client", "completed", []],
  ["client", "cancelled", []],
];

Deno.test("[survey status] admins move forward or cancel but never notify or assign by hand; clients only cancel before assignment", () => {
  for (const [role, from, allowed] of LEGAL) {
    assertEquals(nextStatuses(role, from), allowed, `${role} from ${from}`);
    for (const to of SURVEY_STATUSES) {
      assertEquals(canTransition(role, from, to), allowed.includes(to), `${role} ${from}→${to}`);
    }
  }
  assertEquals(CLIENT_CANCELLABLE, ["requested", "surveyors_notified"]);
});

Deno.test("[survey status] the crew makes the field moves one step at a time", () => {
  const moves = (role: "surveyor" | "technician") =>
    SURVEY_STATUSES.flatMap((from) => nextStatuses(role, from).map((to) => `${from}>${to}`));
  assertEquals(moves("technician"), ["scheduled>in_fieldwork", "in_fieldwork>surveyed"]);
  assertEquals(moves("surveyor"), [
    "scheduled>in_fieldwork",
    "in_fieldwork>surveyed",
    "surveyed>completed",
  ]);
});

Deno.test("[survey status] delivery rules: required items before surveyed, a deliverable to complete", () => {
  const ok = { missingRequired: 0, deliverables: 1 };
  assertEquals(deliveryBlockers("in_fieldwork", "surveyed", ok), []);
  assertEquals(deliveryBlockers("surveyed", "completed", ok), []);
  assertEquals(deliveryBlockers("in_fieldwork", "surveyed", { ...ok, missingRequired: 1 }), [
    "1 required checklist item is not done yet; complete the checklist before marking the survey surveyed.",
  ]);
  assertEquals(deliveryBlockers("surveyed", "completed", { ...ok, deliverables: 0 }), [
    "Upload at least one deliverable (the plat, certificate, drawing or point file) before completing the survey.",
  ]);
  // Already surveyed: the checklist no longer matters for completing.
  assertEquals(
    deliveryBlockers("surveyed", "completed", { missingRequired: 3, deliverables: 1 }),
    [],
  );
  // Skipping past surveyed breaks both rules at once.
  assertEquals(
    deliveryBlockers("scheduled", "completed", { missingRequired: 2, deliverables: 0 }).length,
    2,
  );
  assertEquals(
    deliveryBlockers("scheduled", "in_fieldwork", { missingRequired: 9, deliverables: 0 }),
    [],
  );
  assertEquals(
    deliveryBlockers("scheduled", "cancelled", { missingRequired: 9, deliverables: 0 }),
    [],
  );
});

Deno.test("[survey status] nobody stays put, goes back or leaves a finished survey", () => {
  for (const role of ROLES) {
    for (const from of SURVEY_STATUSES) {
      assert(!canTransition(role, from, from), `${role} ${from}→${from}`);
      for (const to of LIFECYCLE.slice(0, Math.max(0, lifecycleIndex(from)))) {
        assert(!canTransition(role, from, to), `${role} ${from}→${to}`);
      }
    }
    for (const to of SURVEY_STATUSES) {
      assert(!canTransition(role, "completed", to) && !canTransition(role, "cancelled", to));
    }
  }
});

Deno.test("[survey status] scheduled, surveyed and completed each need their date", () => {
  assertEquals(requiredDateField("scheduled"), "scheduledDate");
  assertEquals(requiredDateField("surveyed"), "surveyedDate");
  assertEquals(requiredDateField("completed"), "completedDate");
  const dated = ["scheduled", "surveyed", "completed"];
  for (const status of SURVEY_STATUSES.filter((s) => !dated.includes(s))) {
    assertEquals(requiredDateField(status), undefined, status);
  }
});

Deno.test("[survey status] refusals explain themselves", () => {
  assertEquals(
    transitionError("client", "assigned", "cancelled"),
    "This request can no longer be cancelled because a surveyor has been assigned.",
  );
  assertEquals(
    transitionError("client", "requested", "assigned"),
    "You can only cancel your request.",
  );
  assertEquals(
    transitionError("admin", "scheduled", "assigned"),
    "A survey cannot go back from Scheduled to Surveyor assigned.",
  );
  assertEquals(
    transitionError("admin", "requested", "assigned"),
    "A surveyor is assigned when they claim the lead or an admin assigns one.",
  );
  assertEquals(
    transitionError("admin", "surveyors_notified", "assigned"),
    "A surveyor is assigned when they claim the lead or an admin assigns one.",
  );
  assertEquals(
    transitionError("admin", "requested", "surveyors_notified"),
    "Use Notify surveyors to offer the lead.",
  );
  assertEquals(
    transitionError("admin", "completed", "cancelled"),
    "This survey is completed; its status can no longer change.",
  );
  assertEquals(
    transitionError("admin", "scheduled", "scheduled"),
    "This survey is already scheduled.",
  );
  assertEquals(
    transitionError("surveyor", "assigned", "scheduled"),
    "You do not have permission to change this survey's status.",
  );
  assertEquals(
    transitionError("technician", "surveyed", "completed"),
    "The surveyor completes the survey once the deliverables are uploaded.",
  );
  assertEquals(
    transitionError("surveyor", "in_fieldwork", "completed"),
    "Mark the survey surveyed before completing it.",
  );
  assertEquals(
    transitionError("technician", "assigned", "in_fieldwork"),
    "Fieldwork starts once the visit is scheduled.",
  );
  assertEquals(
    transitionError("surveyor", "scheduled", "surveyed"),
    "Start fieldwork before marking the survey surveyed.",
  );
  assertEquals(
    transitionError("technician", "scheduled", "cancelled"),
    "Ask Meridian support to cancel this survey.",
  );
});
