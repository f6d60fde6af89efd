/**
 * db/snapshot_cache.ts, as the available leads use it (db/lead_market.ts): a page read again
 * while nothing committed is the page remembered, and anything that commits, or the first
 * lead's expiry, reads it again; each page's test runs with each way of checking (the gate in
 * the page's statement, a statement of its own, and each by turns: `setSnapshotCheck`) on either
 * database.
 * On Postgres, transaction ids are the cluster's: a write from
 * any other database also starts a read again, so the checks that something was *not* read
 * again run in a moment when the snapshot did not move (`quietly`).
 */
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp, testDatabase } from "../_helpers.ts";
import { testEachCheck } from "../_snapshot_checks.ts";
import { createSignedInUser } from "../_auth.ts";
import { addLead, addMarketSurveyor } from "../_lead_fixtures.ts";
import { dismissLead, getSurveyorWithAvailableLeads } from "../../db/lead_market.ts";
import {
  getAdminDashboard,
  getSurveyPageDataWithViewer,
  listClientSurveysWithEvents,
} from "../../db/surveys.ts";
import { listSurveyorDirectory } from "../../db/surveyors.ts";
import { getAdminConsoleUsers } from "../../db/admin_console.ts";
import { SurveyorListQuerySchema } from "../../lib/surveyor_schema.ts";
import {
  observeSnapshotChecks,
  pruneSnapshotChanges,
  setSnapshotCheck,
  SnapshotCache,
  unchangedSince,
} from "../../db/snapshot_cache.ts";
import { type Db, openDatabase } from "../../db/client.ts";
import { startJobWorker } from "../../lib/jobs.ts";
import { countRows } from "../_fixtures.ts";

async function snapshotOf(db: Db): Promise<string> {
  const [{ snapshot }] = await db`select pg_current_snapshot()::text as snapshot`;
  return snapshot;
}

/** Whether `unchangedSince` holds, read through `db`, for a page of `cache` read in `snapshot`. */
async function isUnchanged(
  db: Db,
  cache: SnapshotCache<unknown>,
  snapshot: string,
  validUntil: string | null = null,
): Promise<boolean> {
  const [{ unchanged }] = await db`
    select ${unchangedSince(db, { snapshot, validUntil, value: null }, cache)} as unchanged`;
  return unchanged;
}

/** `work`'s result from a run during which nothing committed anywhere on the database server. */
async function quietly<T>(t: TestApp, work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const before = await snapshotOf(t.sql);
    const result = await work();
    if (await snapshotOf(t.sql) === before) return result;
  }
  throw new Error("something committed during each of 50 attempts: no quiet moment to test in");
}

/**
 * Sets `leadId` to expire 300 ms from now and views the page before (`before` checks it) and
 * after that, until both views happen in a moment when nothing committed: the second view is
 * then read again because of the expiry alone. Returns what it showed.
 */
async function acrossExpiry<T>(
  t: TestApp,
  leadId: string,
  view: () => Promise<T>,
  before: (page: T) => void,
): Promise<T> {
  for (let attempt = 0;; attempt++) {
    await t.sql`update leads set expires_at = now() + interval '300 milliseconds'
      where id = ${leadId}`;
    const snapshot = await snapshotOf(t.sql);
    before(await view());
    await new Promise((resolve) => setTimeout(resolve, 400));
    const after = await view();
    if (await snapshotOf(t.sql) === snapshot) return after;
    assert(attempt < 20, "something committed during each of 20 attempts");
  }
}

async function setup() {
  const t = await createTestApp();
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  const fixture = await addMarketSurveyor(t, "Barton Surveying", { balanceCents: 100_00 });
  const { lead } = await addLead(t, client.cookie);
  const view = (db: Db = t.sql) =>
    getSurveyorWithAvailableLeads(db, {
      userId: fixture.userId!,
      withViewer: true,
      page: 1,
      pageSize: 20,
    });
  return { t, client, surveyor: fixture.surveyor, userId: fixture.userId!, lead, view };
}

testEachCheck(
  "snapshot cache",
  "/leads read again while nothing committed is the page remembered, with its viewer read anew",
  async () => {
    const { t, userId, lead, view } = await setup();
    const [first, second] = await quietly(t, async () => [await view(), await view()]);
    assertEquals(first.leads.map((l) => l.id), [lead.id]);
    // The same objects: the lead search did not run again.
    assert(second.leads === first.leads && second.surveyor === first.surveyor);
    assertEquals(second.viewer?.id, userId);
    assertEquals(second.viewer, first.viewer);
    t.close();
  },
);

testEachCheck(
  "snapshot cache",
  "every kind of write shows at the next read of /leads",
  async () => {
    const { t, client, surveyor, userId, lead, view } = await setup();
    await view();
    // The lead changes.
    await t.sql`update leads set buyers_count = 1 where id = ${lead.id}`;
    assertEquals((await view()).leads[0].buyersCount, 1);
    // The surveyor's record changes.
    await t.sql`update surveyors set balance_cents = 4321 where id = ${surveyor.id}`;
    assertEquals((await view()).surveyor?.balanceCents, 4321);
    // The viewer gets a notification: the unread count is read with every view.
    const unread = (await view()).viewer!.unreadNotifications;
    await t.sql`insert into notifications (user_id, kind, title, body)
    values (${userId}, 'survey_requested', 'New lead', 'A lead near you')`;
    assertEquals((await view()).viewer!.unreadNotifications, unread + 1);
    // A new lead.
    const { lead: second } = await addLead(t, client.cookie);
    const both = await view();
    assertEquals(both.total, 2);
    assertEquals(new Set(both.leads.map((l) => l.id)), new Set([lead.id, second.id]));
    // Not interested.
    await dismissLead(t.sql, { leadId: second.id, surveyorId: surveyor.id });
    assertEquals((await view()).leads.map((l) => l.id), [lead.id]);
    // The survey leaves the market.
    await t.sql`update surveys set status = 'cancelled' where id = ${lead.surveyId}`;
    const gone = await view();
    assertEquals([gone.leads, gone.total], [[], 0]);
    // A write that rolls back: the page reads as before.
    await t.sql.begin(async (tx) => {
      await tx`update surveys set status = 'requested' where id = ${lead.surveyId}`;
      throw new Error("rolled back");
    }).catch(() => {});
    assertEquals((await view()).total, 0);
    t.close();
  },
);

testEachCheck(
  "snapshot cache",
  "a lead leaves /leads when it expires, with nothing written in between",
  async () => {
    const { t, lead, view } = await setup();
    const expired = await acrossExpiry(t, lead.id, view, (page) => assertEquals(page.total, 1));
    assertEquals([expired.leads, expired.total], [[], 0]);
    t.close();
  },
);

testEachCheck(
  "snapshot cache",
  "the client dashboard: remembered while nothing commits, read again after a write or its lead's expiry",
  async () => {
    const { t, client, lead } = await setup();
    const view = () =>
      listClientSurveysWithEvents(t.sql, {
        clientId: client.user.id,
        viewer: { id: client.user.id, role: "client" },
        page: 1,
        pageSize: 10,
        withClient: true,
      });
    const [first, second] = await quietly(t, async () => [await view(), await view()]);
    assertEquals(first.surveys.map((s) => s.id), [lead.surveyId]);
    assert(second.surveys === first.surveys && second.events === first.events);
    assertEquals(second.client?.id, client.user.id);
    await t.sql`update surveys set status = 'cancelled' where id = ${lead.surveyId}`;
    assertEquals((await view()).surveys[0].status, "cancelled");
    const after = await acrossExpiry(
      t,
      lead.id,
      view,
      (page) => assertEquals(page.leadExpiredAt.get(lead.surveyId), null),
    );
    assert(after.leadExpiredAt.get(lead.surveyId), "the lead's expiry shows once it has passed");
    t.close();
  },
);

testEachCheck(
  "snapshot cache",
  "a request's page: remembered while nothing commits, read again after a write or its lead's expiry",
  async () => {
    const { t, client, lead } = await setup();
    const view = async () => {
      const { viewer, data } = await getSurveyPageDataWithViewer(t.sql, {
        id: lead.surveyId,
        user: { id: client.user.id, role: "client" },
        viewerId: client.user.id,
      });
      assertEquals(viewer?.id, client.user.id);
      return data!;
    };
    const [first, second] = await quietly(t, async () => [await view(), await view()]);
    assertEquals(first.survey.id, lead.surveyId);
    assert(second.survey === first.survey && second.events === first.events);
    await t.sql`update surveys set notes = 'Gate code changed' where id = ${lead.surveyId}`;
    assertEquals((await view()).survey.notes, "Gate code changed");
    const after = await acrossExpiry(
      t,
      lead.id,
      view,
      (page) => assertEquals(page.leadExpiredAt, null),
    );
    assert(after.leadExpiredAt, "the lead's expiry shows once it has passed");
    // Someone else's request is not found, every time.
    const other = await createSignedInUser(t, { role: "client", fullName: "Other Client" });
    for (let i = 0; i < 2; i++) {
      const { viewer, data } = await getSurveyPageDataWithViewer(t.sql, {
        id: lead.surveyId,
        user: { id: other.user.id, role: "client" },
        viewerId: other.user.id,
      });
      assertEquals([viewer?.id, data], [other.user.id, undefined]);
    }
    t.close();
  },
);

testEachCheck(
  "snapshot cache",
  "the surveyor directory: remembered while nothing commits, read again after a write",
  async () => {
    const { t, surveyor } = await setup();
    const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
    const query = SurveyorListQuerySchema.parse({});
    const view = () => listSurveyorDirectory(t.sql, query, 100, { viewerId: admin.user.id });
    const [first, second] = await quietly(t, async () => [await view(), await view()]);
    assertEquals(first.rows.map((r) => r.companyName), ["Barton Surveying"]);
    assert(second.rows === first.rows && second.located === first.located);
    assertEquals(second.viewer?.id, admin.user.id);
    await t.sql`update surveyors set company_name = 'Barton Lines' where id = ${surveyor.id}`;
    const renamed = await view();
    assertEquals(renamed.rows.map((r) => r.companyName), ["Barton Lines"]);
    assertEquals(renamed.located.map((l) => l.companyName), ["Barton Lines"]);
    assertEquals(renamed.total, 1);
    t.close();
  },
);

testEachCheck(
  "snapshot cache",
  "the admin dashboard: remembered while nothing commits, read again after a write",
  async () => {
    const { t, client, lead } = await setup();
    const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
    const view = () =>
      getAdminDashboard(t.sql, { page: 1, pageSize: 20 }, { viewerId: admin.user.id });
    const [first, second] = await quietly(t, async () => [await view(), await view()]);
    assertEquals(first.rows.map((r) => r.id), [lead.surveyId]);
    assert(second.rows === first.rows && second.counts === first.counts);
    assertEquals(second.viewer?.id, admin.user.id);
    // A new request: in the table, the total and the counts by status.
    const { lead: next } = await addLead(t, client.cookie);
    const after = await view();
    assertEquals(new Set(after.rows.map((r) => r.id)), new Set([lead.surveyId, next.surveyId]));
    assertEquals(after.total, 2);
    await t.sql`update surveys set status = 'cancelled' where id = ${next.surveyId}`;
    const cancelled = await view();
    assertEquals(cancelled.rows.find((r) => r.id === next.surveyId)?.status, "cancelled");
    assertEquals(cancelled.counts.cancelled, 1);
    // Filtered by status, a key of its own.
    const filtered = await getAdminDashboard(
      t.sql,
      { status: "cancelled", page: 1, pageSize: 20 },
      {
        viewerId: admin.user.id,
      },
    );
    assertEquals([filtered.rows.map((r) => r.id), filtered.total], [[next.surveyId], 1]);
    t.close();
  },
);

testEachCheck(
  "snapshot cache",
  "the admin console's users: remembered while nothing commits, read again after a write",
  async () => {
    const t = await createTestApp();
    const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
    const view = (role?: "client") =>
      getAdminConsoleUsers(t.sql, { role, limit: 25, offset: 0, viewerId: admin.user.id });
    const [first, second] = await quietly(t, async () => [await view(), await view()]);
    assertEquals(first.users.map((u) => u.id), [admin.user.id]);
    assert(second.users === first.users && second.counts === first.counts);
    assertEquals(second.viewer?.id, admin.user.id);
    const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
    const after = await view();
    assertEquals(after.users.map((u) => u.fullName).sort(), ["Ada Admin", "Dana Client"]);
    assertEquals(after.total, 2);
    // Another tab is a key of its own.
    assertEquals((await view("client")).users.map((u) => u.id), [client.user.id]);
    await t.sql`update users set full_name = 'Dana Clientson' where id = ${client.user.id}`;
    assertEquals((await view("client")).users[0].fullName, "Dana Clientson");
    t.close();
  },
);

test("[snapshot cache] the check: unchanged until a table it reads is written, or time runs out", async () => {
  const t = await createTestApp();
  const cache = new SnapshotCache<null>(1, ["leads", "surveys"]);
  const check = (entry: { snapshot: string; validUntil: string | null }, db: Db = t.sql) =>
    isUnchanged(db, cache, entry.snapshot, entry.validUntil);
  const [now, later, earlier] = await quietly(t, async () => {
    const snapshot = await snapshotOf(t.sql);
    return [
      await check({ snapshot, validUntil: null }),
      await check({ snapshot, validUntil: new Date(Date.now() + 60_000).toISOString() }),
      await check({ snapshot, validUntil: new Date(Date.now() - 1).toISOString() }),
    ];
  });
  assertEquals([now, later, earlier], [true, true, false]);
  const entry = { snapshot: await snapshotOf(t.sql), validUntil: null };
  // Commits to tables it does not read: still unchanged, in a snapshot that moved.
  await t.sql`select txid_current()`;
  await t.sql`update users set last_login = now() where false`;
  assert(await snapshotOf(t.sql) !== entry.snapshot);
  assertEquals(await check(entry), true);
  // A write to one of them that rolls back: unchanged.
  await t.sql.begin(async (tx) => {
    await tx`update surveys set notes = 'x' where false`;
    throw new Error("rolled back");
  }).catch(() => {});
  assertEquals(await check(entry), true);
  // A writer that had begun before the snapshot and commits after it: changed once it commits
  // (Postgres: the embedded database has one connection, so no writer runs beside a read).
  if ((await testDatabase()).kind === "postgres") {
    const writer = await t.sql.reserve();
    try {
      await writer`begin`;
      await writer`update leads set buyers_count = buyers_count where false`;
      const during = { snapshot: await snapshotOf(t.sql), validUntil: null };
      assertEquals(await check(during), true, "not committed yet: nothing to see");
      await writer`commit`;
      assertEquals(await check(during), false);
    } finally {
      writer.release();
    }
  } else await t.sql`update leads set buyers_count = buyers_count where false`;
  assertEquals(await check(entry), false);
  // A statement that changes no row still counts (the trigger is per statement): changed.
  const next = { snapshot: await snapshotOf(t.sql), validUntil: null };
  assertEquals(await check(next), true);
  await t.sql`delete from surveys where false`;
  assertEquals(await check(next), false);
  // Inside a transaction that wrote one of the tables, its own write is not in the snapshot
  // it reads: changed (rememberedRead never checks inside a transaction; the check agrees).
  const fresh = { snapshot: await snapshotOf(t.sql), validUntil: null };
  await t.sql.begin(async (tx) => {
    await tx`update leads set buyers_count = buyers_count where false`;
    assertEquals(await check(fresh, tx), true, "its own write is visible, not a change");
    throw new Error("rolled back");
  }).catch((err) => assertEquals(err.message, "rolled back"));
  t.close();
});

test("[snapshot cache] pruning: records go only below a horizon taken earlier; older snapshots read again", async () => {
  const t = await createTestApp();
  const cache = new SnapshotCache<null>(1, ["surveys"]);
  const check = (snapshot: string) => isUnchanged(t.sql, cache, snapshot);
  const records = () => countRows(t, "snapshot_changes");
  // Not due yet (the horizon was just taken): nothing goes.
  await t.sql`update snapshot_prune set next_at = now()`;
  await t.sql`delete from surveys where false`;
  const before = await records();
  assert(before > 0);
  assertEquals(await pruneSnapshotChanges(t.sql), 0);
  assertEquals(await records(), before);
  const old = await snapshotOf(t.sql);
  await t.sql`delete from surveys where false`;
  assertEquals(await check(old), false);
  // Due: the horizon taken at migration moves to pruned_below, a new one is taken now.
  await t.sql`update snapshot_prune set next_at = now() - interval '1 hour'`;
  await pruneSnapshotChanges(t.sql);
  const midway = await snapshotOf(t.sql);
  assertEquals(await check(midway), true);
  // Due again: everything written before `midway`'s horizon goes, and `old` can no longer be
  // checked: its pages are read again; `midway`'s still can.
  await t.sql`update snapshot_prune set next_at = now() - interval '1 hour'`;
  assert(await pruneSnapshotChanges(t.sql) > 0);
  assertEquals(await records(), 0);
  assertEquals(await check(old), false);
  assertEquals(await check(midway), true);
  await t.sql`delete from surveys where false`;
  assertEquals(await check(midway), false);
  t.close();
});

test("[snapshot cache] the job worker prunes the records by itself", async () => {
  const t = await createTestApp();
  await t.sql`delete from surveys where false`;
  await t.sql`update snapshot_prune set next_at = now() - interval '1 hour',
    next_below = pg_snapshot_xmin(pg_current_snapshot())`;
  // The worker's own sweeps write too (closing expired leads): only what was before counts.
  const records = async () =>
    Number(
      (await t.sql`select count(*)::int as n from snapshot_changes
        where xid < (select next_below from snapshot_prune where next_at < now() - interval '1 minute')
          or xid < (select pruned_below from snapshot_prune)`)[0].n,
    );
  assert(await records() > 0);
  const stop = startJobWorker(t, { handlers: {}, intervalMs: 5 });
  // Wait for the condition (the worker's first tick), not for a fixed time.
  for (let i = 0; i < 2000 && await records() > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await stop();
  assertEquals(await records(), 0);
  const [{ due }] = await t.sql`select next_at > now() - interval '1 minute' as due
    from snapshot_prune`;
  assert(due, "the next horizon was taken now");
  t.close();
});

testEachCheck(
  "snapshot cache",
  "/leads stays remembered across commits to tables it does not read",
  async () => {
    const { t, userId, view } = await setup();
    const first = await view();
    const before = await snapshotOf(t.sql);
    await t.sql`insert into notifications (user_id, kind, title, body)
      values (${userId}, 'survey_requested', 'New lead', 'A lead near you')`;
    await t.sql`update users set last_login = now() where id = ${userId}`;
    assert(await snapshotOf(t.sql) !== before);
    const second = await view();
    assertEquals(second.viewer!.unreadNotifications, first.viewer!.unreadNotifications + 1);
    // users is not among /leads' tables: its statement did not run again.
    assert(second.leads === first.leads && second.surveyor === first.surveyor);
    t.close();
  },
);

testEachCheck(
  "snapshot cache",
  "a transaction sees its own writes on /leads, and leaves nothing for others",
  async () => {
    const { t, surveyor, lead, view } = await setup();
    const remembered = await view();
    assertEquals(remembered.total, 1);
    await t.sql.begin(async (tx) => {
      assertEquals((await view(tx)).total, 1);
      await dismissLead(tx, { leadId: lead.id, surveyorId: surveyor.id });
      // Only this transaction sees the dismissal, and nothing else committed: the snapshot reads
      // as it did for the view above, which must not be taken for this one.
      const inside = await view(tx);
      assertEquals(inside.total, 0);
      throw new Error("rolled back");
    }).catch((err) => assertEquals(err.message, "rolled back"));
    const after = await view();
    assertEquals(after.leads.map((l) => l.id), [lead.id]);
    t.close();
  },
);

test("[snapshot cache] entries are per pool and key, the most recently used kept", () => {
  const cache = new SnapshotCache<number>(2, ["leads"]);
  const poolA = { begin() {} } as unknown as Db;
  const poolB = { begin() {} } as unknown as Db;
  const transaction = { savepoint() {} } as unknown as Db;
  const entry = (value: number) => ({ snapshot: "1:1:", validUntil: null, value });
  cache.set(poolA, "x", entry(1));
  cache.set(poolB, "x", entry(2));
  cache.set(transaction, "x", entry(3));
  assertEquals(cache.get(poolA, "x")?.value, 1);
  assertEquals(cache.get(poolB, "x")?.value, 2);
  assertEquals(cache.get(transaction, "x"), undefined);
  cache.set(poolA, "y", entry(4));
  cache.get(poolA, "x");
  cache.set(poolA, "z", entry(5));
  assertEquals(cache.get(poolA, "y"), undefined, "the least recently used goes");
  assert(cache.get(poolA, "x") && cache.get(poolA, "z"));
  // An entry read in another snapshot: the others stay (each is checked by its tables).
  cache.set(poolA, "w", { snapshot: "2:2:", validUntil: null, value: 6 });
  assertEquals([cache.get(poolA, "z")?.value, cache.get(poolA, "w")?.value], [5, 6]);
  assertEquals(cache.get(poolA, "x"), undefined, "two at most");
});

test("[snapshot cache] the embedded database checks apart, Postgres as each page's last check found it", async () => {
  const db = await testDatabase();
  const check = setSnapshotCheck(db.sql, "gate");
  setSnapshotCheck(db.sql, check);
  assertEquals(check, db.kind === "pglite" ? "apart" : "adaptive");
});

test("[snapshot cache] SNAPSHOT_CHECK sets how a Postgres pool checks; the embedded database checks apart whatever it says", async () => {
  const url = Deno.env.get("DATABASE_URL");
  // Embedded: one is enough (each opens a new PGlite).
  for (const check of url ? ["apart", "gate", "adaptive"] as const : ["gate"] as const) {
    const db = await openDatabase(
      { DATABASE_URL: url, DATA_DIR: ".data/unused", SNAPSHOT_CHECK: check },
      { memory: true },
    );
    try {
      assertEquals(setSnapshotCheck(db.sql, "apart"), url ? check : "apart", check);
    } finally {
      await db.close();
    }
  }
});

test("[snapshot cache] checked as its last check found it: apart once found unchanged, by the gate once read anew", async () => {
  const { t, lead, view } = await setup();
  const was = setSnapshotCheck(t.sql, "adaptive");
  const checks: string[] = [];
  observeSnapshotChecks((way, unchanged) => checks.push(`${way} ${unchanged ? "same" : "new"}`));
  try {
    const first = await view();
    assertEquals(checks, [], "nothing to check at the first read");
    await quietly(t, async () => {
      assert((await view()).leads === first.leads);
      assert((await view()).leads === first.leads);
    });
    // A write: the check finds it, the page is read anew and shows it.
    await t.sql`update leads set buyers_count = 1 where id = ${lead.id}`;
    const changed = await view();
    assert(changed.leads !== first.leads);
    assertEquals(changed.leads[0].buyersCount, 1);
    await t.sql`update leads set buyers_count = 2 where id = ${lead.id}`;
    assertEquals((await view()).leads[0].buyersCount, 2);
    await quietly(t, async () => {
      await view();
      await view();
    });
    // (Something committing in the background can make `quietly` view again: the rule holds
    // for every check whatever the sequence.)
    assertEquals(checks[0], "gate same", "read anew, then checked by the gate");
    for (let i = 1; i < checks.length; i++) {
      const expected = checks[i - 1].endsWith("same") ? "apart" : "gate";
      assert(checks[i].startsWith(expected), `check ${i}: ${checks.join(", ")}`);
    }
    for (const seen of ["apart same", "apart new", "gate new"]) {
      assert(checks.includes(seen), `${seen} in ${checks.join(", ")}`);
    }
  } finally {
    observeSnapshotChecks(undefined);
    setSnapshotCheck(t.sql, was);
    t.close();
  }
});
