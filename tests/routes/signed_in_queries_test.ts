/**
 * What a signed-in page costs per request (issues 9 and 23): the client dashboard reads the
 * session once from KV and runs one SQL statement (the user with the bell's unread count, the
 * page of surveys with its total and timelines: routes/_auth.ts `ownViewerPage`), at any number
 * of requests; a page that does not read its own user runs that user's statement first. Nothing is cached
 * between requests, so a disabled account, a revoked session, a role change or a new
 * notification shows on the very next request.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp, testDatabase } from "../_helpers.ts";
import { createSignedInUser, createUser, sessionFor, signInAs } from "../_auth.ts";
import { expectJson, notifyUnread, submitSurvey } from "../_fixtures.ts";
import { checklistJob } from "../_checklist_fixtures.ts";
import { addLead, addMarketSurveyor } from "../_lead_fixtures.ts";
import {
  assertForbiddenPage,
  assertRedirectsToAuth,
  getPage,
  islandProps,
  loadPage,
} from "../_pages.ts";
import type { Sql } from "../../db/client.ts";
import type { Role } from "../../lib/roles.ts";
import { insertSurveyor } from "../../db/surveyors.ts";
import { postLedgerEntry } from "../../db/ledger.ts";
import { insertClaimRequest } from "../../db/surveyor_self_join.ts";
import { insertReview } from "../../db/reviews.ts";
import { revokeUserSessions } from "../../lib/sessions.ts";

/**
 * `sql` that counts the statements sent to the database. A tagged call builds a query (or a
 * fragment spliced into another one); only a query that is awaited runs, so the count goes up
 * when `then` is first called on it.
 */
function countingSql(sql: Sql): { sql: Sql; statements: () => number; reset(): void } {
  let count = 0;
  const proxy = new Proxy(sql, {
    apply(target, thisArg, args) {
      const query = Reflect.apply(target, thisArg, args);
      const isTemplate = Array.isArray(args[0]) && "raw" in args[0];
      if (isTemplate && query && typeof query.then === "function") {
        const then = query.then;
        let isCounted = false;
        query.then = function (...a: unknown[]) {
          if (!isCounted) count++;
          isCounted = true;
          return then.apply(this, a);
        };
      }
      return query;
    },
  });
  return { sql: proxy, statements: () => count, reset: () => (count = 0) };
}

/** `kv` whose reads (`get`, `getMany`, `list`) and atomic commits are counted. */
function countingKv(kv: Deno.Kv): { reads: () => number; writes: () => number; reset(): void } {
  let reads = 0;
  let writes = 0;
  const get = kv.get.bind(kv);
  const getMany = kv.getMany.bind(kv);
  const list = kv.list.bind(kv);
  const atomic = kv.atomic.bind(kv);
  Object.assign(kv, {
    get: (...a: Parameters<Deno.Kv["get"]>) => (reads++, get(...a)),
    getMany: (...a: Parameters<Deno.Kv["getMany"]>) => (reads++, getMany(...a)),
    list: (...a: Parameters<Deno.Kv["list"]>) => (reads++, list(...a)),
    atomic: () => {
      const op = atomic();
      const commit = op.commit.bind(op);
      op.commit = () => (writes++, commit());
      return op;
    },
  });
  return { reads: () => reads, writes: () => writes, reset: () => (reads = writes = 0) };
}

// The app's queries go through the counting `sql`; the test's own (t.sql) do not.
async function countingApp() {
  const counter = countingSql((await testDatabase()).sql);
  const t = await createTestApp({ deps: { sql: counter.sql } });
  return { t, counter, kv: countingKv(t.kv) };
}

/** The page at `path` for `cookie` (200), and how many statements that request ran. */
async function counted(
  t: TestApp,
  counter: ReturnType<typeof countingSql>,
  path: string,
  cookie: string,
) {
  await loadPage(t, path, cookie); // the session's once-a-minute touch is not in the count
  counter.reset();
  const { res, html } = await loadPage(t, path, cookie);
  assertEquals(res.status, 200, `${path}: ${html.slice(0, 300)}`);
  return { html, statements: counter.statements() };
}

async function dashboard(t: TestApp, cookie: string) {
  const { res, html } = await loadPage(t, "/client-dashboard", cookie);
  assertEquals(res.status, 200, html.slice(0, 300));
  return html;
}

test("[signed-in pages] the client dashboard costs one KV read and one statement, at any size", async () => {
  const { t, counter, kv } = await countingApp();
  const { cookie } = await createSignedInUser(t, { role: "client" });
  for (const requests of [0, 1, 3]) {
    while ((await t.sql`select count(*)::int as n from surveys`)[0].n < requests) {
      await submitSurvey(t, cookie);
    }
    await dashboard(t, cookie); // the session's once-a-minute touch is not in the count
    counter.reset();
    kv.reset();
    const html = await dashboard(t, cookie);
    assertEquals(html.match(/data-survey-id=/g)?.length ?? 0, requests);
    assertEquals(counter.statements(), 1, `${requests} requests: SQL statements`);
    assertEquals(kv.reads(), 1, `${requests} requests: KV reads`);
    assertEquals(kv.writes(), 0, `${requests} requests: KV writes`);
  }
  t.close();
});

test("[signed-in pages] an API call reads the user without the unread count, a page with it", async () => {
  const { t, counter } = await countingApp();
  const { user, cookie } = await createSignedInUser(t, { role: "client" });
  await notifyUnread(t.sql, user.id);
  await t.request("GET", "/api/user", { cookie }); // touch
  counter.reset();
  const res = await t.request("GET", "/api/user", { cookie });
  assertEquals(res.status, 200);
  assertEquals(counter.statements(), 1, "GET /api/user: the user only");
  const html = await dashboard(t, cookie);
  assertEquals(islandProps(html, "NotificationsBell"), { initialUnread: 1 });
  t.close();
});

test("[signed-in pages] the pages that read their own user are one statement; the console's tabs with a list of their own, two", async () => {
  const { t, counter, kv } = await countingApp();
  const cases: [string, Role, number][] = [
    ["/client-dashboard", "client", 1],
    ["/admin-dashboard", "admin", 1],
    ["/admin-dashboard?status=requested&page=2", "admin", 1],
    ["/admin", "admin", 1],
    ["/admin?role=client&page=2", "admin", 1],
    // The tab's list is another module's statement, pipelined beside the counts and the user.
    ["/admin?tab=returns", "admin", 2],
    ["/admin?tab=licences", "admin", 2],
    ["/admin?tab=messages", "admin", 2],
    ["/surveyors", "admin", 1],
    ["/leads", "surveyor", 1],
    ["/surveyor/available-leads", "surveyor", 1],
    ["/admin/email-templates", "admin", 1],
    ["/admin/checklists/boundary", "admin", 1],
    ["/technician-dashboard", "technician", 1],
    // For comparison: a page that reads its user first.
    ["/profile", "client", 2],
  ];
  for (const [path, role, expected] of cases) {
    const { cookie } = await createSignedInUser(t, { role });
    const { statements } = await counted(t, counter, path, cookie);
    assertEquals(statements, expected, path);
    kv.reset();
    await loadPage(t, path, cookie);
    assertEquals(kv.reads(), 1, `${path}: KV reads`);
  }
  t.close();
});

test("[signed-in pages] the surveyor dashboard is two statements side by side (the user, the firm and its leads; the figures and the crew's size), a lead's page three", async () => {
  const { t, counter, kv } = await countingApp();
  const me = await addMarketSurveyor(t, "Ortiz Land Surveying", { balanceCents: 12_345 });
  const tech = await createUser(t.sql, { role: "technician", fullName: "Tess Tech" });
  await t
    .sql`insert into technicians (user_id, surveyor_id) values (${tech.id}, ${me.surveyor.id})`;
  const { html, statements } = await counted(t, counter, "/surveyor-dashboard", me.cookie);
  assertEquals(statements, 2);
  assertStringIncludes(html, "$123.45");
  assertStringIncludes(html, "1 technician.");
  kv.reset();
  await loadPage(t, "/surveyor-dashboard", me.cookie);
  assertEquals(kv.reads(), 1, "KV reads");
  // Sent as it was rendered last only while nothing on it changed.
  await t.sql`update surveyors set balance_cents = 6789 where id = ${me.surveyor.id}`;
  assertStringIncludes((await loadPage(t, "/surveyor-dashboard", me.cookie)).html, "$67.89");

  // A lead in full: the user with the firm's record, then the lead and its quote side by side.
  const { lead } = await addLead(t, await signInAs(t, "client"));
  const leadPage = await counted(t, counter, `/surveyor/leads/${lead.id}`, me.cookie);
  assertEquals(leadPage.statements, 3);
  assertStringIncludes(leadPage.html, "Take this lead");
  // Sent as it was rendered last only while nothing on it changed: the firm's balance changed
  // since shows at the next view, and an expired lead is no longer theirs to see.
  await t.sql`update surveyors set balance_cents = 54321 where id = ${me.surveyor.id}`;
  assertStringIncludes(
    (await loadPage(t, `/surveyor/leads/${lead.id}`, me.cookie)).html,
    "$543.21",
  );
  await t.sql`update leads set expires_at = now() - interval '1 minute' where id = ${lead.id}`;
  assertEquals((await getPage(t, `/surveyor/leads/${lead.id}`, me.cookie)).status, 404);
  // An account without a firm record reads its user and gets the 404 page.
  const noFirm = await signInAs(t, "surveyor");
  assertEquals((await getPage(t, `/surveyor/leads/${lead.id}`, noFirm)).status, 404);
  t.close();
});

test("[signed-in pages] a surveyor's job page is one statement: the user, the job, its access, crew, crew's choices, files and conversation", async () => {
  const { t, counter } = await countingApp();
  const job = await checklistJob(t);
  const path = `/surveyor/jobs/${job.survey.id}`;
  const sent = await t.request("POST", `/api/surveys/${job.survey.id}/messages`, {
    cookie: job.clientCookie,
    body: { body: "The gate code is 4410." },
  });
  assertEquals(sent.status, 201, await sent.text());
  const { html, statements } = await counted(t, counter, path, job.surveyorCookie);
  assertStringIncludes(html, "The gate code is 4410.");
  assertStringIncludes(html, "Field crew");
  assertStringIncludes(html, "Toni Tech");
  // The user with the job (the firm found by the account in it), the fieldwork access (read
  // once: the delivery and the crew both use it), the current crew, the crew's choices, the
  // deliverables (their count too) and the conversation: one statement. It was ten, one after
  // another.
  assertEquals(statements, 1);
  const choices = islandProps<{ technicians: { id: string; name: string }[] }>(
    html,
    "AssignTechnician",
  );
  assertEquals(choices.technicians.map((c) => c.name), ["Toni Tech"]);
  // Sent as it was rendered last only while nothing on it changed: a renamed technician shows.
  await t.sql`update users set full_name = 'Toni Renamed' where id = ${job.technician.id}`;
  const again = await counted(t, counter, path, job.surveyorCookie);
  assertStringIncludes(again.html, "Toni Renamed");
  assert(!again.html.includes("Toni Tech"), "the old name is gone");
  t.close();
});

test("[signed-in pages] a technician's job page is one statement", async () => {
  const { t, counter } = await countingApp();
  const job = await checklistJob(t);
  const path = `/technician-survey-detail/${job.survey.id}`;
  const { html, statements } = await counted(t, counter, path, job.technicianCookie);
  assertStringIncludes(html, "Notes for the crew");
  assertStringIncludes(html, "Checklist");
  assertStringIncludes(html, "Messages");
  // The user, the survey, the access to it, the checklist, the crew and the technician's
  // conversation with its newest messages: one statement. It was seven.
  assertEquals(statements, 1);
  t.close();
});

test("[signed-in pages] an admin's record of a surveyor is one statement, with every card's data", async () => {
  const { t, counter } = await countingApp();
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const verifier = await createUser(t.sql, { role: "admin", fullName: "Vera Verifier" });
  const owner = await createUser(t.sql, {
    role: "surveyor",
    fullName: "Rory Owner",
    email: "rory.owner@example.test",
  });
  const claimant = await createUser(t.sql, { role: "surveyor", fullName: "Cass Claimant" });
  const firm = await insertSurveyor(t.sql, {
    companyName: "Record Geomatics",
    state: "TX",
    status: "active",
    inNetwork: true,
    verifiedBy: verifier.id,
  });
  await t.sql`update surveyors set user_id = ${owner.id} where id = ${firm.id}`;
  for (let i = 1; i <= 11; i++) {
    await t.sql.begin((tx) =>
      postLedgerEntry(tx, {
        surveyorId: firm.id,
        kind: "adjustment",
        amountCents: 100,
        note: `Credit number ${i}.`,
        actorId: admin.user.id,
      })
    );
  }
  await t.sql`
    insert into surveyor_contact_history (surveyor_id, channel, summary, author_id)
    values (${firm.id}, 'call', 'Talked about coverage', ${admin.user.id})`;
  await insertClaimRequest(t.sql, {
    surveyorId: firm.id,
    userId: claimant.id,
    reason: "company_state",
    details: { companyName: "Record Geomatics" },
  });
  const client = await createSignedInUser(t, { role: "client" });
  const survey = await submitSurvey(t, client.cookie);
  await t.sql`update surveys set assigned_surveyor_id = ${firm.id} where id = ${survey.id}`;
  await t.sql.begin((tx) =>
    insertReview(tx, {
      surveyId: survey.id,
      surveyorId: firm.id,
      clientId: client.user.id,
      rating: 5,
      comment: "Clear stakes, on time.",
    })
  );

  const { html, statements } = await counted(
    t,
    counter,
    `/surveyor-detail/${firm.id}`,
    admin.cookie,
  );
  // The admin, the record, its history, work, account, licence check, reviews, claim requests,
  // balance and ledger: one statement. It was thirteen, in three round trips.
  assertEquals(statements, 1);
  assertStringIncludes(html, "<h1>Record Geomatics</h1>");
  assertStringIncludes(html, "Talked about coverage");
  assertStringIncludes(html, "rory.owner@example.test");
  assertStringIncludes(html, "Vera Verifier");
  assertStringIncludes(html, "Cass Claimant");
  assertStringIncludes(html, "Clear stakes, on time.");
  // The assigned survey and the review link to it.
  assertEquals(html.split(`href="/survey/${survey.id}"`).length - 1, 2);
  const balance = islandProps<{
    balanceCents: number;
    entries: { note: string; actorName: string }[];
    nextBefore: string | null;
  }>(html, "BalanceAdjustment");
  assertEquals(balance.balanceCents, 1100);
  // The ten newest, and a link to the older one.
  assertEquals(balance.entries.length, 10);
  assertEquals(balance.entries[0].note, "Credit number 11.");
  assertEquals(balance.entries[0].actorName, "Ada Admin");
  assert(balance.nextBefore !== null, "older entries exist");
  // The page is sent as it was rendered last only while nothing on it changed.
  await t.sql.begin((tx) =>
    postLedgerEntry(tx, { surveyorId: firm.id, kind: "adjustment", amountCents: -250 })
  );
  await t.sql`update users set full_name = 'Rory Renamed' where id = ${owner.id}`;
  const again = await counted(t, counter, `/surveyor-detail/${firm.id}`, admin.cookie);
  assertEquals(
    islandProps<{ balanceCents: number }>(again.html, "BalanceAdjustment").balanceCents,
    850,
  );
  assertStringIncludes(again.html, "Rory Renamed");
  t.close();
});

test("[signed-in pages] the bell's count on a page is the count at that request", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "client" });
  const other = await createUser(t.sql, { role: "client" });
  assertEquals(islandProps(await dashboard(t, cookie), "NotificationsBell"), { initialUnread: 0 });
  for (const userId of [user.id, user.id, other.id]) await notifyUnread(t.sql, userId);
  assertEquals(islandProps(await dashboard(t, cookie), "NotificationsBell"), { initialUnread: 2 });
  await t.sql`update notifications set is_read = true, read_at = now() where user_id = ${user.id}`;
  assertEquals(islandProps(await dashboard(t, cookie), "NotificationsBell"), { initialUnread: 0 });
  t.close();
});

test("[signed-in pages] a disabled account is refused on the very next request", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "client" });
  await dashboard(t, cookie);
  // Disabled in the database only (no session revoked): the next request must still refuse it.
  await t.sql`update users set disabled_at = now() where id = ${user.id}`;
  await assertRedirectsToAuth(
    await t.request("GET", "/client-dashboard", { cookie, headers: { accept: "text/html" } }),
    "/client-dashboard",
  );
  const api = await t.request("GET", "/api/user", { cookie });
  assertEquals(api.status, 401);
  t.close();
});

test("[signed-in pages] a revoked session is refused on the very next request", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "client" });
  await dashboard(t, cookie);
  assertEquals(await revokeUserSessions(t.kv, user.id), 1);
  await assertRedirectsToAuth(
    await t.request("GET", "/client-dashboard", { cookie, headers: { accept: "text/html" } }),
    "/client-dashboard",
  );
  t.close();
});

test("[signed-in pages] a role change shows on the very next request", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "client", fullName: "Robin Role" });
  const cookie = await sessionFor(t, user);
  const before = await dashboard(t, cookie);
  assertStringIncludes(before, "Client navigation");
  await t.sql`update users set role = 'surveyor' where id = ${user.id}`;
  await assertForbiddenPage(await getPage(t, "/client-dashboard", cookie));
  const { res, html } = await loadPage(t, "/surveyor-dashboard", cookie);
  assertEquals(res.status, 200);
  assertStringIncludes(html, "Surveyor navigation");
  t.close();
});

test("[signed-in pages] a request's page is one statement for its client and an admin, with its files, rating, messages and notes as each may see them", async () => {
  const { t, counter } = await countingApp();
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin-Staff" });
  const job = await checklistJob(t, { status: "surveyed" });
  const id = job.survey.id;
  const internal = "Internal: waive the rush fee next time";
  await t.sql`
    insert into survey_files (survey_id, kind, file_name, content_type, size_bytes, sha256,
      storage, storage_key, uploaded_by)
    values (${id}, 'deliverable', 'boundary-plat.pdf', 'application/pdf', 2048,
      ${"c".repeat(64)}, 'postgres', ${crypto.randomUUID()}, ${job.surveyorUser.id})`;
  const sent = await t.request("POST", `/api/surveys/${id}/messages`, {
    cookie: job.clientCookie,
    body: { body: "Will you mark the back corners too?" },
  });
  await expectJson(sent, 201);
  await expectJson(
    await t.request("PATCH", `/api/surveys/${id}/status`, {
      cookie: admin.cookie,
      body: { status: "completed", completedDate: "2026-01-05", note: internal },
    }),
    200,
  );
  await expectJson(
    await t.request("POST", `/api/surveys/${id}/review`, {
      cookie: job.clientCookie,
      body: { rating: 4, comment: "Tidy plat" },
    }),
    201,
  );

  // The user, the survey, timeline, proposals, delivery, rating and messages: one statement,
  // also when the page asks for a thread.
  for (const path of [`/survey/${id}`, `/survey/${id}?thread=${job.surveyorId}`]) {
    const client = await counted(t, counter, path, job.clientCookie);
    assertEquals(client.statements, 1, `the client's ${path}`);
    assertStringIncludes(client.html, "boundary-plat.pdf");
    assertStringIncludes(client.html, "Will you mark the back corners too?");
    assertEquals(islandProps(client.html, "RateSurveyor").existing, {
      rating: 4,
      comment: "Tidy plat",
    });
    assert(!client.html.includes(internal), "a client's page never holds an internal note");
    assert(!client.html.includes("Ada Admin-Staff"), "nor the admin's name");

    const staff = await counted(t, counter, path, admin.cookie);
    assertEquals(staff.statements, 1, `the admin's ${path}`);
    assertStringIncludes(staff.html, "boundary-plat.pdf");
    assertStringIncludes(staff.html, "Will you mark the back corners too?");
    assertStringIncludes(staff.html, internal);
  }

  // While the crew may change, an admin's page also reads the firm's crew and the current
  // assignment for the form (the firm itself was read with the survey).
  const scheduled = await checklistJob(t, { status: "scheduled" });
  const crew = await counted(t, counter, `/survey/${scheduled.survey.id}`, admin.cookie);
  assertEquals(crew.statements, 3, "an admin's page with the crew form");
  const form = islandProps<{ current: { name: string } | null }>(crew.html, "AssignTechnician");
  assertEquals(form.current?.name, "Toni Tech");
  const own = await counted(t, counter, `/survey/${scheduled.survey.id}`, scheduled.clientCookie);
  assertEquals(own.statements, 1, "the client's page of a scheduled request");
  assert(!own.html.includes('data-island="AssignTechnician"'));
  t.close();
});

test("[signed-in pages] the surveyor directory is one statement, its counts and total right for any filter and page", async () => {
  const { t, counter } = await countingApp();
  const admin = await createSignedInUser(t, { role: "admin" });
  for (let i = 0; i < 60; i++) {
    await insertSurveyor(t.sql, {
      companyName: `Firm ${String(i).padStart(2, "0")}${i % 3 ? "" : " Geomatics"}`,
      state: i % 2 ? "TX" : "CO",
      status: i % 4 ? "active" : "prospect",
      inNetwork: i % 4 !== 0,
      lat: 30 + i / 10,
      lng: -97,
    });
  }
  type Directory = {
    initial: { total: number; page: number; counts: { total: number; inNetwork: number } };
  };
  const cases: [string, number, number, number, string | null][] = [
    // path, total, counts.total, counts.inNetwork, a firm on the page (null: none)
    ["/surveyors", 60, 60, 45, "Firm 00 Geomatics"],
    ["/surveyors?page=2", 60, 60, 45, "Firm 25"],
    ["/surveyors?page=3", 60, 60, 45, "Firm 59"],
    ["/surveyors?page=4", 60, 60, 45, null],
    ["/surveyors?state=TX&status=active&page=2", 30, 30, 30, "Firm 59"],
    ["/surveyors?q=geomatics&inNetworkOnly=true", 15, 20, 15, "Firm 03 Geomatics"],
    ["/surveyors?q=geomatics&page=9", 20, 20, 15, null],
  ];
  for (const [path, total, all, inNetwork, firm] of cases) {
    const { html, statements } = await counted(t, counter, path, admin.cookie);
    assertEquals(statements, 1, path);
    const { initial } = islandProps<Directory>(html, "SurveyorDirectory");
    assertEquals(
      [initial.total, initial.counts.total, initial.counts.inNetwork],
      [total, all, inNetwork],
      path,
    );
    if (firm) assertStringIncludes(html, firm, path);
    else assert(!/Firm \d\d/.test(html.split("Coverage map")[0]), `${path}: no rows`);
  }
  t.close();
});
