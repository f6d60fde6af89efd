/**
 * What a signed-in page costs per request (issue 9): the client dashboard reads the session
 * once from KV and runs two SQL statements (the user with the bell's unread count, then the
 * page of surveys with its total and timelines), at any number of requests. Nothing is cached
 * between requests, so a disabled account, a revoked session, a role change or a new
 * notification shows on the very next request.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp, testDatabase } from "../_helpers.ts";
import { createSignedInUser, createUser, sessionFor } from "../_auth.ts";
import { submitSurvey } from "../_fixtures.ts";
import {
  assertForbiddenPage,
  assertRedirectsToAuth,
  getPage,
  islandProps,
  loadPage,
} from "../_pages.ts";
import type { Sql } from "../../db/client.ts";
import { insertNotification } from "../../db/notifications.ts";
import { insertSurveyor } from "../../db/surveyors.ts";
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

test("[signed-in pages] the client dashboard costs one KV read and two statements, at any size", async () => {
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
    assertEquals(counter.statements(), 2, `${requests} requests: SQL statements`);
    assertEquals(kv.reads(), 1, `${requests} requests: KV reads`);
    assertEquals(kv.writes(), 0, `${requests} requests: KV writes`);
  }
  t.close();
});

test("[signed-in pages] an API call reads the user without the unread count, a page with it", async () => {
  const { t, counter } = await countingApp();
  const { user, cookie } = await createSignedInUser(t, { role: "client" });
  await insertNotification(t.sql, {
    userId: user.id,
    kind: "survey_status_changed",
    title: "Survey scheduled",
    body: "Your boundary survey is scheduled.",
    link: "/client-dashboard",
  });
  await t.request("GET", "/api/user", { cookie }); // touch
  counter.reset();
  const res = await t.request("GET", "/api/user", { cookie });
  assertEquals(res.status, 200);
  assertEquals(counter.statements(), 1, "GET /api/user: the user only");
  const html = await dashboard(t, cookie);
  assertEquals(islandProps(html, "NotificationsBell"), { initialUnread: 1 });
  t.close();
});

test("[signed-in pages] the bell's count on a page is the count at that request", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "client" });
  const other = await createUser(t.sql, { role: "client" });
  assertEquals(islandProps(await dashboard(t, cookie), "NotificationsBell"), { initialUnread: 0 });
  for (const userId of [user.id, user.id, other.id]) {
    await insertNotification(t.sql, {
      userId,
      kind: "survey_status_changed",
      title: "Survey scheduled",
      body: "Your boundary survey is scheduled.",
      link: "/client-dashboard",
    });
  }
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

test("[signed-in pages] the surveyor directory is two statements, its counts and total right for any filter and page", async () => {
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
    assertEquals(statements, 2, path);
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
