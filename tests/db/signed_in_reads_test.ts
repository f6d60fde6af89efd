/**
 * The reads that make a signed-in page cheap (issue 9) return exactly what the separate reads
 * they replace return, so the pages render the same HTML: `listClientSurveysWithEvents` equals
 * `listSurveys` + `listSurveyEventsForSurveys` + `listProposalsForSurveys`, and `getUserWithUnreadCount` equals
 * `getUserById` + `countUnreadNotifications`.
 */
import { assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createSignedInUser, createUser } from "../_auth.ts";
import { submitSurvey } from "../_fixtures.ts";
import {
  insertSurveyEvent,
  listClientSurveysWithEvents,
  listSurveyEventsForSurveys,
  listSurveys,
} from "../../db/surveys.ts";
import { getUserById, getUserWithUnreadCount, toSessionUser } from "../../db/users.ts";
import { countUnreadNotifications, insertNotification } from "../../db/notifications.ts";
import type { Sql } from "../../db/client.ts";
import { leadExpiredAtColumn, listProposalsForSurveys } from "../../db/proposals.ts";
import type { SessionUser } from "../../lib/roles.ts";
import type { DashboardSurvey } from "../../lib/survey_schema.ts";

async function separateReads(
  sql: Sql,
  { user, page, pageSize }: { user: SessionUser; page: number; pageSize: number },
) {
  const { surveys, total } = await listSurveys(sql, { clientId: user.id, page, pageSize });
  const events = await listSurveyEventsForSurveys(sql, {
    surveyIds: surveys.map((s) => s.id),
    viewer: user,
  });
  // The dashboard renders `events.get(id) ?? []`: a survey without events reads as [].
  for (const s of surveys) if (!events.has(s.id)) events.set(s.id, []);
  // And its proposals the same way (tests/routes/proposal_pages_test.ts renders some).
  const proposals = await listProposalsForSurveys(sql, { surveyIds: surveys.map((s) => s.id) });
  for (const s of surveys) if (!proposals.has(s.id)) proposals.set(s.id, []);
  // When each one's lead ran out unsold, one survey at a time.
  const leadExpiredAt = new Map<string, string | null>();
  for (const s of surveys) {
    const [row] = await sql<{ leadExpiredAt: Date | null }[]>`
      select ${leadExpiredAtColumn(sql)} as lead_expired_at from surveys s where s.id = ${s.id}`;
    leadExpiredAt.set(s.id, row.leadExpiredAt ? row.leadExpiredAt.toISOString() : null);
  }
  // The dashboard reads only what its cards show of each survey.
  const shown = surveys.map((s): DashboardSurvey => ({
    id: s.id,
    status: s.status,
    surveyType: s.surveyType,
    address: s.address,
    formattedAddress: s.formattedAddress,
    quotedPriceCents: s.quotedPriceCents,
    quote: s.quote,
    scheduledDate: s.scheduledDate,
    createdAt: s.createdAt,
    assignedSurveyor: s.assignedSurveyor,
  }));
  return { surveys: shown, total, events, proposals, leadExpiredAt };
}

test("[db] listClientSurveysWithEvents reads what listSurveys and the timelines read, page by page", async () => {
  const t = await createTestApp();
  const { user: client, cookie } = await createSignedInUser(t, {
    role: "client",
    fullName: "Casey Client",
  });
  const other = await createSignedInUser(t, { role: "client" });
  const admin = await createUser(t.sql, { role: "admin", fullName: "Avery Admin" });
  const mine = [];
  for (let i = 0; i < 5; i++) {
    mine.push(await submitSurvey(t, cookie, { address: `${10 + i} Main St, Austin, TX 78701` }));
  }
  await submitSurvey(t, other.cookie);
  // Two surveys created at the same instant: the order falls back to the id.
  await t.sql`update surveys set created_at = ${new Date("2024-03-01T10:00:00.123456Z")}
    where id in (${mine[1].id}, ${mine[2].id})`;
  // Timelines as a client must see them: internal notes hidden, staff named as support, the
  // client's own change named; two events at one instant (ordered by id); microseconds.
  await insertSurveyEvent(t.sql, {
    surveyId: mine[0].id,
    actorId: admin.id,
    fromStatus: "requested",
    toStatus: "surveyors_notified",
    note: "Internal: call the county first",
  });
  await insertSurveyEvent(t.sql, {
    surveyId: mine[0].id,
    actorId: admin.id,
    fromStatus: "surveyors_notified",
    toStatus: "scheduled",
    note: "See you Tuesday",
    isNoteVisibleToClient: true,
  });
  await insertSurveyEvent(t.sql, {
    surveyId: mine[3].id,
    actorId: client.id,
    fromStatus: "requested",
    toStatus: "cancelled",
  });
  await t.sql`update survey_events
    set created_at = (date_trunc('day', now() at time zone 'UTC')
      + interval '2 days 09:30:00.654321') at time zone 'UTC'
    where survey_id = ${mine[0].id} and from_status is not null`;
  // A survey with no events at all.
  await t.sql`delete from survey_events where survey_id = ${mine[4].id}`;

  const viewer = toSessionUser(client);
  for (const pageSize of [2, 10]) {
    for (const page of [1, 2, 3, 4]) {
      const merged = await listClientSurveysWithEvents(t.sql, {
        clientId: client.id,
        viewer,
        page,
        pageSize,
      });
      const expected = await separateReads(t.sql, { user: viewer, page, pageSize });
      assertEquals(merged, expected, `page ${page} of ${pageSize}`);
      assertEquals(merged.total, 5);
    }
  }
  const first = await listClientSurveysWithEvents(t.sql, {
    clientId: client.id,
    viewer,
    page: 1,
    pageSize: 10,
  });
  const timeline = first.events.get(mine[0].id)!;
  // The creation first; the two changes at one instant in id order, whichever that is.
  assertEquals(timeline[0].note, null);
  assertEquals(timeline.map((e) => e.note).sort(), ["See you Tuesday", null, null]);
  assertEquals(timeline.slice(1).map((e) => e.id), timeline.slice(1).map((e) => e.id).sort());
  assertEquals(timeline.at(-1)!.createdAt.slice(10), "T09:30:00.654Z");
  assertEquals(first.events.get(mine[4].id), []);
  assertEquals(first.events.get(mine[3].id)!.at(-1)!.actorName, "Casey Client");
  t.close();
});

test("[db] listClientSurveysWithEvents for a client without surveys: none, total 0", async () => {
  const t = await createTestApp();
  const client = await createUser(t.sql, { role: "client" });
  const other = await createSignedInUser(t, { role: "client" });
  await submitSurvey(t, other.cookie);
  for (const page of [1, 2]) {
    const merged = await listClientSurveysWithEvents(t.sql, {
      clientId: client.id,
      viewer: toSessionUser(client),
      page,
      pageSize: 10,
    });
    assertEquals(merged, {
      surveys: [],
      total: 0,
      events: new Map(),
      proposals: new Map(),
      leadExpiredAt: new Map(),
    });
  }
  t.close();
});

test("[db] getUserWithUnreadCount is the user and their unread count", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "surveyor" });
  const other = await createUser(t.sql, { role: "client" });
  const notify = (userId: string) =>
    insertNotification(t.sql, {
      userId,
      kind: "survey_status_changed",
      title: "Survey scheduled",
      body: "Scheduled.",
      link: "/client-dashboard",
    });
  assertEquals(await getUserWithUnreadCount(t.sql, user.id), {
    ...(await getUserById(t.sql, user.id))!,
    unreadNotifications: 0,
  });
  await notify(user.id);
  await notify(user.id);
  await notify(user.id);
  await notify(other.id);
  await t.sql`update notifications set is_read = true, read_at = now()
    where id = (select id from notifications where user_id = ${user.id} limit 1)`;
  const read = await getUserWithUnreadCount(t.sql, user.id);
  assertEquals(read?.unreadNotifications, 2);
  assertEquals(
    read?.unreadNotifications,
    await countUnreadNotifications(t.sql, { userId: user.id }),
  );
  assertEquals(await getUserWithUnreadCount(t.sql, crypto.randomUUID()), undefined);
  assertEquals(await getUserWithUnreadCount(t.sql, "not-a-uuid"), undefined);
  t.close();
});
