import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { insertNotification } from "../../db/notifications.ts";
import type { Notification } from "../../lib/survey_schema.ts";

let clock = 0;

/** Notifies `userId`; each call is one second later than the last, so order is certain. */
async function notify(t: TestApp, userId: string, title: string) {
  await insertNotification(t.sql, {
    userId,
    kind: "survey_status_changed",
    title,
    body: `${title} body`,
    link: "/client-dashboard",
  });
  clock++;
  await t.sql`update notifications
    set created_at = now() - interval '1 day' + make_interval(secs => ${clock})
    where user_id = ${userId} and title = ${title}`;
}

async function list(t: TestApp, cookie: string, query = "") {
  const res = await t.request("GET", `/api/notifications${query}`, { cookie });
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
  return await res.json();
}

test("[notifications] signed-out callers get 401 from every endpoint", async () => {
  const t = await createTestApp();
  for (
    const [method, path] of [
      ["GET", "/api/notifications"],
      ["PATCH", `/api/notifications/${crypto.randomUUID()}/read`],
      ["PATCH", "/api/notifications/mark-all-read"],
    ]
  ) {
    const res = await t.request(method, path);
    assertEquals(res.status, 401, path);
    assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
    assert((await res.json()).message);
  }
  t.close();
});

test("[notifications] a user sees only their own notifications, newest first, with the unread count", async () => {
  const t = await createTestApp();
  const me = await createSignedInUser(t, { role: "client" });
  const other = await createSignedInUser(t, { role: "admin" });
  await notify(t, me.user.id, "First");
  await notify(t, other.user.id, "Not yours");
  await notify(t, me.user.id, "Second");
  const body = await list(t, me.cookie);
  assertEquals(body.notifications.map((n: Notification) => n.title), ["Second", "First"]);
  assertEquals(body.unreadCount, 2);
  assertEquals(body.hasMore, false);
  const [first] = body.notifications;
  assertEquals(Object.keys(first).sort(), [
    "body",
    "createdAt",
    "id",
    "isRead",
    "kind",
    "link",
    "readAt",
    "title",
  ]);
  assertEquals(first.isRead, false);
  assertEquals(first.link, "/client-dashboard");
  t.close();
});

test("[notifications] the list is paginated", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "client" });
  for (let i = 1; i <= 25; i++) await notify(t, user.id, `N${i}`);
  const page1 = await list(t, cookie);
  assertEquals(page1.notifications.length, 20);
  assertEquals(page1.notifications[0].title, "N25");
  assertEquals([page1.page, page1.pageSize, page1.hasMore, page1.unreadCount], [1, 20, true, 25]);
  const page2 = await list(t, cookie, "?page=2");
  assertEquals(page2.notifications.map((n: Notification) => n.title), [
    "N5",
    "N4",
    "N3",
    "N2",
    "N1",
  ]);
  assertEquals(page2.hasMore, false);
  for (const q of ["?page=0", "?page=x", "?page=-1"]) {
    const res = await t.request("GET", `/api/notifications${q}`, { cookie });
    assertEquals(res.status, 400, q);
  }
  t.close();
});

test("[notifications] marking one read changes only that one", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "client" });
  await notify(t, user.id, "A");
  await notify(t, user.id, "B");
  const [b, a] = (await list(t, cookie)).notifications;
  const res = await t.request("PATCH", `/api/notifications/${a.id}/read`, { cookie });
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
  assertEquals(await res.json(), { message: "Notification marked as read", unreadCount: 1 });
  const after = await list(t, cookie);
  assertEquals(after.unreadCount, 1);
  const byId = new Map(after.notifications.map((n: Notification) => [n.id, n]));
  assertEquals((byId.get(a.id) as Notification).isRead, true);
  assert((byId.get(a.id) as Notification).readAt);
  assertEquals((byId.get(b.id) as Notification).isRead, false);
  // Again is harmless.
  const again = await t.request("PATCH", `/api/notifications/${a.id}/read`, { cookie });
  assertEquals(again.status, 200);
  t.close();
});

test("[notifications] another user's notification, an unknown or a malformed id is a 404", async () => {
  const t = await createTestApp();
  const owner = await createSignedInUser(t, { role: "admin" });
  await notify(t, owner.user.id, "Private");
  const [theirs] = (await list(t, owner.cookie)).notifications;
  const stranger = await signInAs(t, "client");
  for (const id of [theirs.id, crypto.randomUUID(), "not-a-uuid"]) {
    const res = await t.request("PATCH", `/api/notifications/${id}/read`, { cookie: stranger });
    assertEquals(res.status, 404, id);
    assertEquals(await res.json(), { message: "Notification not found" });
  }
  assertEquals((await list(t, owner.cookie)).unreadCount, 1);
  t.close();
});

test("[notifications] mark all read clears only the caller's unread ones", async () => {
  const t = await createTestApp();
  const me = await createSignedInUser(t, { role: "client" });
  const other = await createSignedInUser(t, { role: "client" });
  for (const title of ["A", "B", "C"]) await notify(t, me.user.id, title);
  await notify(t, other.user.id, "Theirs");
  const res = await t.request("PATCH", "/api/notifications/mark-all-read", { cookie: me.cookie });
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("content-type") ?? "", /application\/json/);
  assertEquals(await res.json(), {
    message: "All notifications marked as read",
    updated: 3,
    unreadCount: 0,
  });
  const mine = await list(t, me.cookie);
  assertEquals(mine.unreadCount, 0);
  assert(mine.notifications.every((n: Notification) => n.isRead));
  assertEquals((await list(t, other.cookie)).unreadCount, 1);
  t.close();
});

test("[notifications] a status change reaches the client's list and a new request the admins'", async () => {
  const t = await createTestApp();
  const admin = await createSignedInUser(t, { role: "admin" });
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  const res = await t.request("POST", "/api/surveys", {
    cookie: client.cookie,
    body: {
      requestId: crypto.randomUUID(),
      address: "5 Lake Shore Dr, Chicago, IL 60601",
      surveyType: "boundary",
      propertyType: "residential",
      acreage: 0.3,
      terrain: "flat",
      vegetation: "clear",
      state: "IL",
      purpose: "fence",
      contactName: "Dana Client",
      contactPhone: "312-555-0100",
    },
  });
  assertEquals(res.status, 201);
  const { survey } = await res.json();
  const adminList = await list(t, admin.cookie);
  assertEquals(adminList.unreadCount, 1);
  assertEquals(adminList.notifications[0].title, "New survey request");
  assertMatch(adminList.notifications[0].body, /Dana Client requested a Boundary Survey/);
  assertEquals(adminList.notifications[0].link, `/survey/${survey.id}`);
  assertEquals((await list(t, client.cookie)).unreadCount, 0);

  await t.request("PATCH", `/api/surveys/${survey.id}/status`, {
    cookie: admin.cookie,
    body: { status: "scheduled", scheduledDate: "2099-03-01" },
  });
  const clientList = await list(t, client.cookie);
  assertEquals(clientList.unreadCount, 1);
  assertEquals(clientList.notifications[0].kind, "survey_status_changed");
  // The visit's day, as the admin set it: "Scheduled" alone left the client asking when.
  assertMatch(
    clientList.notifications[0].body,
    /is now: Scheduled, for Sunday, March 1, 2099\.$/,
  );
  assertEquals(clientList.notifications[0].link, `/survey/${survey.id}`);
  t.close();
});
