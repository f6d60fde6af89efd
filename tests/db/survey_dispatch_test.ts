/**
 * The admin's dispatch card on /survey/{id} reads its state, buyers and open assignment with
 * the survey (`getSurveyPageData`, then `surveyDispatchCard`); it must return exactly what the
 * separate reads it replaces return (`getSurveyDispatch`, `listSurveyBuyers`, `getOpenAssignment`, as the
 * dispatch API and the page read them before), in every state a request goes through.
 */
import { assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { addLeadTo, addSurveyor, clientWithSurvey } from "../_assignment_fixtures.ts";
import { getOpenAssignment, listSurveyBuyers } from "../../db/assignments.ts";
import { saveNearbySurveyors } from "../../db/leads.ts";
import { getSurveyPageData } from "../../db/surveys.ts";
import { getSurveyDispatch, surveyDispatchCard } from "../../lib/dispatch.ts";
import type { NearbySurveyorInfo } from "../../lib/surveyor_schema.ts";

async function separately(t: TestApp, surveyId: string) {
  const state = await getSurveyDispatch({ sql: t.sql }, { surveyId });
  if (!state) return undefined;
  return {
    state,
    buyers: await listSurveyBuyers(t.sql, { surveyId }),
    assignment: await getOpenAssignment(t.sql, { surveyId }),
  };
}

function match(id: string | null, name: string, place?: string): NearbySurveyorInfo {
  return {
    surveyorId: id,
    name,
    lat: 30.3,
    lng: -97.75,
    distanceMiles: 2.5,
    score: 80,
    source: id ? "database" : "places",
    notified: false,
    inNetwork: id !== null,
    status: id ? "active" : "prospect",
    place: place ? { placeId: place, address: "1 Main St", phone: null, website: null } : null,
  } as unknown as NearbySurveyorInfo;
}

test("[dispatch] the dispatch card's one read equals the separate reads in every state", async () => {
  const t = await createTestApp();
  const { survey } = await clientWithSurvey(t);
  const admin = { id: "00000000-0000-4000-8000-0000000000ad", role: "admin" as const };
  // As the page reads it, with the survey.
  const card = async () => {
    const page = await getSurveyPageData(t.sql, { id: survey.id, user: admin });
    return page && await surveyDispatchCard({ sql: t.sql }, page.dispatch!);
  };

  // Before any search or lead.
  const before = await card();
  assertEquals(before, await separately(t, survey.id));
  assertEquals(before?.state.lead, null);
  assertEquals(before?.buyers, []);

  // Stored matches, one of them a place converted to a record since, then a lead offered to
  // two of them, bought by one (later refunded) and claimed by another, and an open
  // assignment with a visit day.
  const a = await addSurveyor(t, "Alpha Surveying");
  const b = await addSurveyor(t, "Bravo & O'Neil Land", { withUser: false });
  await addSurveyor(t, "Charlie Survey Co", { placeId: "place-charlie" });
  await saveNearbySurveyors(t.sql, {
    surveyId: survey.id,
    surveyors: [
      match(a.surveyor.id, "Alpha Surveying"),
      match(b.surveyor.id, "Bravo & O'Neil Land"),
      match(null, "Charlie (from places)", "place-charlie"),
      match(null, "Delta (from places)", "place-delta"),
    ],
  });
  assertEquals(await card(), await separately(t, survey.id));

  const leadId = await addLeadTo(t, survey);
  await t.sql`insert into lead_recipients (lead_id, surveyor_id, kind)
    values (${leadId}, ${a.surveyor.id}, 'notified'), (${leadId}, ${b.surveyor.id}, 'invited')`;
  await t.sql`insert into lead_purchases (lead_id, surveyor_id, kind, charged_cents, created_at,
      refunded_at)
    values (${leadId}, ${a.surveyor.id}, 'buy', 4500, '2026-03-01T10:00:00.123456Z',
      '2026-03-02T11:00:00Z'),
      (${leadId}, ${b.surveyor.id}, 'claim', 0, '2026-03-01T09:00:00.5Z', null)`;
  const offered = await card();
  assertEquals(offered, await separately(t, survey.id));
  assertEquals(offered?.buyers.map((x) => [x.companyName, x.isRefunded, x.purchasedAt]), [
    ["Bravo & O'Neil Land", false, "2026-03-01T09:00:00.500Z"],
    ["Alpha Surveying", true, "2026-03-01T10:00:00.123Z"],
  ]);
  assertEquals(
    offered?.state.surveyors.map((s) => [s.name, s.notified]),
    [
      ["Alpha Surveying", true],
      ["Bravo & O'Neil Land", true],
      ["Charlie Survey Co", false],
      ["Delta (from places)", false],
    ],
  );
  assertEquals(offered?.assignment, undefined);

  await t.sql`insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, status,
      source, scheduled_date, created_at, updated_at)
    values (${survey.id}, ${a.surveyor.id}, 125000, 'declined', 'admin', null,
      '2026-03-03T08:00:00.999999Z', '2026-03-03T08:30:00Z'),
      (${survey.id}, ${b.surveyor.id}, 98000, 'scheduled', 'claim', '2026-04-01',
      '2026-03-04T08:00:00.000001Z', '2026-03-05T08:30:00.25Z')`;
  const assigned = await card();
  assertEquals(assigned, await separately(t, survey.id));
  assertEquals(assigned?.assignment?.companyName, "Bravo & O'Neil Land");
  assertEquals(assigned?.assignment?.scheduledDate, "2026-04-01");
  assertEquals(assigned?.assignment?.createdAt, "2026-03-04T08:00:00.000Z");

  // The client's page reads no dispatch data at all.
  const own = await getSurveyPageData(t.sql, {
    id: survey.id,
    user: { id: survey.clientId, role: "client" },
  });
  assertEquals(own?.dispatch, undefined);
  assertEquals(own?.survey.id, survey.id);

  // Closed: the open assignment is gone, the rest stays.
  await t.sql`update survey_assignments set status = 'completed' where survey_id = ${survey.id}`;
  await t.sql`update leads set status = 'closed' where id = ${leadId}`;
  assertEquals(await card(), await separately(t, survey.id));
  t.close();
});
