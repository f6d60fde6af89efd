/**
 * Scoped change records (migration 0056, db/snapshot_cache.ts `SnapshotRead.scopes`): each write
 * records the scopes of the rows it wrote, in their old and new versions; a remembered page that
 * depends on some scopes stays remembered across writes to its tables elsewhere (another
 * client's request, a lead in a state the surveyor does not serve, another surveyor's dismissal,
 * a sign-in), and is read again after a write in its own. Writes from other tests' databases
 * move every snapshot but record nothing here, so no check below needs a quiet moment.
 */
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { testEachCheck } from "../_snapshot_checks.ts";
import { createSignedInUser } from "../_auth.ts";
import { addLead, addMarketSurveyor } from "../_lead_fixtures.ts";
import { dismissLead, getSurveyorWithAvailableLeads } from "../../db/lead_market.ts";
import { getSurveyPageDataWithViewer, listClientSurveysWithEvents } from "../../db/surveys.ts";
import { RECORDED_SCOPES } from "../../db/snapshot_cache.ts";

/** The scopes (`table scope`, '' left out) that `write` recorded. */
async function recordedBy(t: TestApp, write: () => Promise<unknown>): Promise<string[]> {
  const [{ snapshot }] = await t.sql`select pg_current_snapshot()::text as snapshot`;
  await write();
  const rows = await t.sql<{ tbl: string; scope: string }[]>`
    select tbl, scope from snapshot_changes
    where scope <> '' and xid >= pg_snapshot_xmin(${snapshot}::text::pg_snapshot)
      and not pg_visible_in_snapshot(xid, ${snapshot}::text::pg_snapshot)`;
  return rows.map((r) => `${r.tbl} ${r.scope}`).sort();
}

/** The first page of the surveyor's available leads, as /leads reads it. */
function leadsOf(t: TestApp, userId: string) {
  return getSurveyorWithAvailableLeads(t.sql, { userId, withViewer: true, page: 1, pageSize: 20 });
}

async function setup() {
  const t = await createTestApp();
  const dana = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  const omar = await createSignedInUser(t, { role: "client", fullName: "Omar Client" });
  const barton = await addMarketSurveyor(t, "Barton Surveying", { balanceCents: 100_00 });
  const { lead } = await addLead(t, dana.cookie);
  return { t, dana, omar, barton, lead };
}

test("[snapshot scopes] each kind of table records its rows' scopes, old and new", async () => {
  const { t, dana, omar, barton, lead } = await setup();
  const a = dana.user.id;
  const b = omar.user.id;
  const s = barton.surveyor.id;
  // A request: its client and its state.
  assertEquals(
    await recordedBy(t, () => t.sql`update surveys set notes = 'Gate' where id = ${lead.surveyId}`),
    // Austin (30.26, -97.76): Texas's cell 30, -98.
    ["surveys area:TX:30:-98", `surveys client:${a}`, "surveys state:TX"],
  );
  // Moved to another client and state: both versions.
  assertEquals(
    await recordedBy(
      t,
      () => t.sql`update surveys set client_id = ${b}, state = 'OK' where id = ${lead.surveyId}`,
    ),
    [
      "surveys area:OK:30:-98",
      "surveys area:TX:30:-98",
      `surveys client:${a}`,
      `surveys client:${b}`,
      "surveys state:OK",
      "surveys state:TX",
    ].sort(),
  );
  await t.sql`update surveys set client_id = ${a}, state = 'TX' where id = ${lead.surveyId}`;
  // Moved across a cell's line (Austin to Houston): both cells; located nowhere: none.
  const [{ lat, lng }] = await t.sql`select lat, lng from surveys where id = ${lead.surveyId}`;
  assertEquals(
    await recordedBy(
      t,
      () => t.sql`update surveys set lat = 29.76, lng = -95.37 where id = ${lead.surveyId}`,
    ),
    ["surveys area:TX:29:-96", "surveys area:TX:30:-98", `surveys client:${a}`, "surveys state:TX"],
  );
  await t.sql`update surveys set lat = null, lng = null where id = ${lead.surveyId}`;
  assertEquals(
    await recordedBy(
      t,
      () => t.sql`update surveys set notes = 'Nowhere' where id = ${lead.surveyId}`,
    ),
    [`surveys client:${a}`, "surveys state:TX"],
  );
  await t.sql`update surveys set lat = ${lat}, lng = ${lng} where id = ${lead.surveyId}`;
  // A lead, through its request.
  assertEquals(
    await recordedBy(t, () => t.sql`update leads set buyers_count = 1 where id = ${lead.id}`),
    ["leads area:TX:30:-98", `leads client:${a}`, "leads state:TX"],
  );
  // A lead's part, through the lead's request.
  assertEquals(
    await recordedBy(
      t,
      () =>
        t.sql`insert into lead_recipients (lead_id, surveyor_id, kind)
          values (${lead.id}, ${s}, 'notified')`,
    ),
    ["lead_recipients area:TX:30:-98", `lead_recipients client:${a}`, "lead_recipients state:TX"],
  );
  // A request's part, deleted: its old version's client.
  assertEquals(
    await recordedBy(t, () => t.sql`delete from survey_events where survey_id = ${lead.surveyId}`),
    [`survey_events client:${a}`],
  );
  // A firm, and a firm's part.
  assertEquals(
    await recordedBy(t, () => t.sql`update surveyors set company_name = 'Barton' where id = ${s}`),
    [`surveyors surveyor:${s}`],
  );
  assertEquals(
    await recordedBy(t, () => dismissLead(t.sql, { leadId: lead.id, surveyorId: s })),
    // Declining also marks the offer (the row inserted above): the lead's part.
    [
      `lead_dismissals surveyor:${s}`,
      "lead_recipients area:TX:30:-98",
      `lead_recipients client:${a}`,
      "lead_recipients state:TX",
    ],
  );
  // Users: a sign-in records no scope; any other change, the user's and `profile`.
  assertEquals(
    await recordedBy(t, () => t.sql`update users set last_login = now() where id = ${a}`),
    [],
  );
  assertEquals(
    await recordedBy(t, () => t.sql`update users set full_name = 'Dana C.' where id = ${a}`),
    ["users profile", `users user:${a}`],
  );
  let newcomer = "";
  assertEquals(
    (await recordedBy(t, async () => {
      newcomer = (await createSignedInUser(t, { role: "client", fullName: "New" })).user.id;
    })).filter((r) => r.startsWith("users")),
    ["users profile", `users user:${newcomer}`],
  );
  assertEquals(
    await recordedBy(t, () => t.sql`delete from users where id = ${newcomer}`),
    ["users profile", `users user:${newcomer}`],
  );
  // A statement that writes no row records no scope (the table's '' record still comes).
  assertEquals(
    await recordedBy(t, () => t.sql`update surveys set notes = notes where false`),
    [],
  );
  // A truncate has no rows to tell: it moves the records' horizon past itself, so a page
  // remembered before it, whatever its scopes, is read again.
  const [{ snapshot }] = await t.sql`select pg_current_snapshot()::text as snapshot`;
  assertEquals(await recordedBy(t, () => t.sql`truncate lead_dismissals`), []);
  const [{ past }] = await t.sql`
    select pg_snapshot_xmin(${snapshot}::text::pg_snapshot) < pruned_below as past
    from snapshot_prune`;
  assert(past, "a snapshot from before the truncate is older than the horizon");
  t.close();
});

test("[snapshot scopes] every table with scopes has the triggers that record them", async () => {
  const t = await createTestApp();
  const kinds: Record<string, string[]> = {
    survey: ["client", "state", "area"],
    lead: ["client", "state", "area"],
    lead_part: ["client", "state", "area"],
    survey_part: ["client"],
    surveyor: ["surveyor"],
    surveyor_part: ["surveyor"],
    users: ["profile", "user"],
  };
  const rows = await t.sql<{ table: string; event: string; fn: string; kind: string | null }[]>`
    select c.relname as table, g.tgname as event, p.proname as fn,
      nullif(encode(g.tgargs, 'escape'), '') as kind
    from pg_trigger g join pg_class c on c.oid = g.tgrelid join pg_proc p on p.oid = g.tgfoid
    where g.tgname like '%\_snapshot\_scopes\_%' and not g.tgisinternal`;
  for (const [table, scopes] of Object.entries(RECORDED_SCOPES)) {
    const mine = rows.filter((r) => r.table === table);
    assertEquals(
      mine.map((r) => r.event.slice(table.length + "_snapshot_scopes_".length)).sort(),
      ["delete", "insert", "truncate", "update"],
      table,
    );
    for (const row of mine.filter((r) => r.fn !== "snapshot_truncate_note")) {
      const kind = row.fn === "snapshot_users_note" ? "users" : row.kind!.split("\\000")[0];
      assertEquals(kinds[kind], [...scopes], `${table} records what RECORDED_SCOPES says`);
    }
  }
  assertEquals(new Set(rows.map((r) => r.table)).size, Object.keys(RECORDED_SCOPES).length);
  t.close();
});

testEachCheck(
  "snapshot scopes",
  "a client's dashboard and request page stay remembered across others' writes",
  async () => {
    const { t, dana, omar, lead } = await setup();
    const dashboard = () =>
      listClientSurveysWithEvents(t.sql, {
        clientId: dana.user.id,
        viewer: { id: dana.user.id, role: "client" },
        page: 1,
        pageSize: 10,
        withClient: true,
      });
    const page = async () =>
      (await getSurveyPageDataWithViewer(t.sql, {
        id: lead.surveyId,
        user: { id: dana.user.id, role: "client" },
        viewerId: dana.user.id,
      })).data!;
    const first = await dashboard();
    // Another client's new request and its lead (which also saves his phone: a user's write,
    // which the request's page reads again, as it shows several users' names).
    const { lead: omars } = await addLead(t, omar.cookie);
    const second = await dashboard();
    assert(second.surveys === first.surveys && second.events === first.events, "remembered");
    const firstPage = await page();
    // A note on his request; everyone signing in.
    await t.sql`update surveys set notes = 'Dog in yard' where id = ${omars.surveyId}`;
    await t.sql`update users set last_login = now()`;
    assert((await dashboard()).surveys === first.surveys, "still remembered");
    assert((await page()).survey === firstPage.survey, "the request's page is remembered");
    // Her own request changes: both read again.
    await t.sql`update surveys set notes = 'Gate code 1234' where id = ${lead.surveyId}`;
    const third = await dashboard();
    assert(third.surveys !== first.surveys);
    assertEquals((await page()).survey.notes, "Gate code 1234");
    // A new request of hers shows.
    await addLead(t, dana.cookie);
    assertEquals((await dashboard()).total, 2);
    // A name it shows changes (a user's, not a sign-in): read again.
    const before = await dashboard();
    await t.sql`update users set full_name = 'Dana Q. Client' where id = ${dana.user.id}`;
    assert((await dashboard()).surveys !== before.surveys);
    // Firms: only those it shows. Another firm's write leaves it; once Barton is assigned to her
    // request, his write reads it again.
    const barton = await addMarketSurveyor(t, "Barton Surveying");
    const hale = await addMarketSurveyor(t, "Hale Land Surveys");
    const unassigned = await dashboard();
    await t.sql`update surveyors set phone = '512-555-0199' where id = ${barton.surveyor.id}`;
    assert((await dashboard()).surveys === unassigned.surveys, "no firm shown: remembered");
    await t.sql`
      insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, source, status)
      values (${lead.surveyId}, ${barton.surveyor.id}, 120000, 'admin', 'accepted')`;
    const assigned = await dashboard();
    const card = () => assigned.surveys.find((s) => s.id === lead.surveyId)!;
    assertEquals(card().assignedSurveyor?.companyName, "Barton Surveying");
    const assignedPage = await page();
    assertEquals(assignedPage.survey.assignedSurveyor?.companyName, "Barton Surveying");
    await t.sql`update surveyors set phone = '512-555-0100' where id = ${hale.surveyor.id}`;
    assert((await dashboard()).surveys === assigned.surveys, "another firm: remembered");
    assert((await page()).survey === assignedPage.survey, "another firm: the page remembered");
    await t
      .sql`update surveyors set company_name = 'Barton Lines' where id = ${barton.surveyor.id}`;
    const renamed = (await dashboard()).surveys.find((s) => s.id === lead.surveyId)!;
    assertEquals(renamed.assignedSurveyor?.companyName, "Barton Lines");
    assertEquals((await page()).survey.assignedSurveyor?.companyName, "Barton Lines");
    // Hale buys the lead: a conversation with Hale on her page (and, for an admin, a buyer on
    // the dispatch card); Hale's new name shows on both.
    const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
    const adminPage = async () =>
      (await getSurveyPageDataWithViewer(t.sql, {
        id: lead.surveyId,
        user: { id: admin.user.id, role: "admin" },
        viewerId: admin.user.id,
      })).data!;
    await t.sql`insert into lead_purchases (lead_id, surveyor_id, kind, charged_cents)
      values (${lead.id}, ${hale.surveyor.id}, 'buy', 2500)`;
    const threads = async () => (await page()).messages?.threads.map((th) => th.companyName);
    assert((await threads())?.includes("Hale Land Surveys"));
    assertEquals((await adminPage()).dispatch?.buyers.map((b) => b.companyName), [
      "Hale Land Surveys",
    ]);
    await t.sql`update surveyors set company_name = 'Hale Lines' where id = ${hale.surveyor.id}`;
    assert((await threads())?.includes("Hale Lines"));
    assertEquals((await adminPage()).dispatch?.buyers.map((b) => b.companyName), ["Hale Lines"]);
    // Refunded, Hale has no conversation any more but stays on the dispatch card as a buyer.
    await t
      .sql`update lead_purchases set refunded_at = now() where surveyor_id = ${hale.surveyor.id}`;
    assert(!(await threads())?.includes("Hale Lines"));
    assertEquals((await adminPage()).dispatch?.buyers.map((b) => b.companyName), ["Hale Lines"]);
    await t.sql`update surveyors set company_name = 'Hale & Co' where id = ${hale.surveyor.id}`;
    assertEquals((await adminPage()).dispatch?.buyers.map((b) => b.companyName), ["Hale & Co"]);
    t.close();
  },
);

testEachCheck(
  "snapshot scopes",
  "/leads stays remembered across writes in other states and other firms' dismissals",
  async () => {
    const { t, omar, barton, lead } = await setup();
    const other = await addMarketSurveyor(t, "Hale Land Surveys", { balanceCents: 100_00 });
    const view = () => leadsOf(t, barton.userId!);
    // A request in a state Barton is not licensed in.
    const { lead: far } = await addLead(t, omar.cookie);
    await t.sql`update surveys set state = 'OK' where id = ${far.surveyId}`;
    const first = await view();
    assertEquals(first.leads.map((l) => l.id), [lead.id]);
    await t.sql`update leads set buyers_count = 1 where id = ${far.id}`;
    await t.sql`update surveys set notes = 'Far away' where id = ${far.surveyId}`;
    await dismissLead(t.sql, { leadId: lead.id, surveyorId: other.surveyor.id });
    await t.sql`update surveyors set company_name = 'Hale' where id = ${other.surveyor.id}`;
    const second = await view();
    assert(second.leads === first.leads && second.surveyor === first.surveyor, "remembered");
    // A lead in Texas changes: read again; so does his own record.
    await t.sql`update leads set buyers_count = 2 where id = ${lead.id}`;
    assertEquals((await view()).leads[0].buyersCount, 2);
    await t.sql`update surveyors set balance_cents = 777 where id = ${barton.surveyor.id}`;
    assertEquals((await view()).surveyor?.balanceCents, 777);
    // Licensed in Oklahoma too: the far lead shows, and its writes read the page again.
    await t.sql`update surveyors set license_states = '{TX,OK}' where id = ${barton.surveyor.id}`;
    assertEquals((await view()).total, 2);
    await t.sql`update leads set buyers_count = 2 where id = ${far.id}`;
    assertEquals(
      (await view()).leads.find((l) => l.id === far.id)?.buyersCount,
      2,
    );
    // Barton's dismissal of the far lead, then every dismissal truncated away: it shows again.
    await dismissLead(t.sql, { leadId: far.id, surveyorId: barton.surveyor.id });
    assertEquals((await view()).total, 1);
    await t.sql`truncate lead_dismissals`;
    assertEquals((await view()).total, 2);
    t.close();
  },
);

testEachCheck(
  "snapshot scopes",
  "/leads stays remembered across writes in its states beyond the cells its radius reaches",
  async () => {
    const { t, omar, barton, lead } = await setup();
    const view = () => leadsOf(t, barton.userId!);
    // Barton's office is 5 miles north of Austin, his radius 50 miles; a request in El Paso,
    // also in Texas, is beyond it (and the cells it reaches).
    await t.sql`update surveyors set service_radius_miles = 50 where id = ${barton.surveyor.id}`;
    const { lead: elPaso } = await addLead(t, omar.cookie);
    await t.sql`update surveys set lat = 31.76, lng = -106.44 where id = ${elPaso.surveyId}`;
    const first = await view();
    assertEquals(first.leads.map((l) => l.id), [lead.id]);
    await t.sql`update leads set buyers_count = 1 where id = ${elPaso.id}`;
    await t.sql`update surveys set notes = 'Far west' where id = ${elPaso.surveyId}`;
    await t.sql`insert into lead_recipients (lead_id, surveyor_id, kind)
      values (${elPaso.id}, ${barton.surveyor.id}, 'notified')`;
    const second = await view();
    assert(second.leads === first.leads && second.surveyor === first.surveyor, "remembered");
    // Moved within his radius (a corrected address), 42 miles south, in another cell than
    // Austin's: read again, and it shows.
    await t.sql`update surveys set lat = 29.75, lng = -97.95 where id = ${elPaso.surveyId}`;
    assertEquals((await view()).total, 2);
    // Its writes now read the page again.
    await t.sql`update leads set buyers_count = 2 where id = ${elPaso.id}`;
    assertEquals((await view()).leads.find((l) => l.id === elPaso.id)?.buyersCount, 2);
    // A wider radius reaches more cells: his own record reads it again, with El Paso's cell
    // still out of reach at 100 miles.
    await t.sql`update surveys set lat = 31.76, lng = -106.44 where id = ${elPaso.surveyId}`;
    await t.sql`update surveyors set service_radius_miles = 100 where id = ${barton.surveyor.id}`;
    const wide = await view();
    assertEquals(wide.total, 1);
    await t.sql`update leads set buyers_count = 1 where id = ${elPaso.id}`;
    assert((await view()).leads === wide.leads, "still remembered");
    t.close();
  },
);
