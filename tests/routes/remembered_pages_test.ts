/**
 * A remembered page's whole answer (routes/_remembered_pages.ts): the client dashboard reloaded
 * with nothing changed is sent as the bytes sent last. What a user must notice is only that
 * nothing is ever stale and nothing is another's: a new request, a new notification, a new name,
 * an admin viewing as the client, another page or another client is a page rendered anew.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, createUser, sessionFor, signInAs } from "../_auth.ts";
import { addLead, addMarketSurveyor } from "../_lead_fixtures.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { submitSurvey } from "../_fixtures.ts";
import { gunzipSync, inflateSync } from "node:zlib";
import { insertNotification } from "../../db/notifications.ts";
import { observeRememberedPages, rememberedPages } from "../../routes/_remembered_pages.ts";
import { approximateHeapBytes } from "../../lib/heap_size.ts";

/** Loads `path` and says whether the remembered bytes were sent (true) or it was rendered. */
async function load(t: TestApp, path: string, cookie: string) {
  const reused: boolean[] = [];
  observeRememberedPages((_, wasReused) => reused.push(wasReused));
  try {
    const page = await loadPage(t, path, cookie);
    assertEquals(page.res.status, 200);
    assertEquals(reused.length, 1, `${path} is a remembered page`);
    return { html: page.html, reused: reused[0] };
  } finally {
    observeRememberedPages(undefined);
  }
}

test("[remembered pages] a reloaded dashboard is the same whole page, sent again without a render", async () => {
  const t = await createTestApp();
  const { cookie } = await createSignedInUser(t, { role: "client", fullName: "Rae Reload" });
  const first = await load(t, "/client-dashboard", cookie);
  assertStringIncludes(first.html, "No survey requests yet");
  assert(first.html.endsWith("</html>"), "the page is whole");
  for (let i = 0; i < 4; i++) {
    const again = await load(t, "/client-dashboard", cookie);
    assert(again.reused, "nothing changed: the kept page is sent");
    assertEquals(
      again.html,
      first.html,
      "every time the same whole page, none emptied by the last",
    );
  }
  t.close();
});

test("[remembered pages] a new request, a notification and a new name show at the next load", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "client", fullName: "Sam Before" });
  await load(t, "/client-dashboard", cookie);
  assert((await load(t, "/client-dashboard", cookie)).reused);

  const survey = await submitSurvey(t, cookie);
  const withRequest = await load(t, "/client-dashboard", cookie);
  assert(!withRequest.reused);
  assertStringIncludes(withRequest.html, `/survey/${survey.id}`);
  assert(!withRequest.html.includes("No survey requests yet"));
  const unreadBefore = islandProps<{ initialUnread: number }>(
    withRequest.html,
    "NotificationsBell",
  ).initialUnread;

  // Notifications are not the dashboard's data: only the bell's count changes.
  await insertNotification(t.sql, {
    userId: user.id,
    kind: "survey_status_changed",
    title: "Your survey moved",
    body: "A surveyor was found.",
    link: `/survey/${survey.id}`,
  });
  const notified = await load(t, "/client-dashboard", cookie);
  assert(!notified.reused, "the shell changed: rendered anew");
  assertEquals(
    islandProps<{ initialUnread: number }>(notified.html, "NotificationsBell").initialUnread,
    unreadBefore + 1,
  );

  await t.sql`update users set full_name = 'Sam After' where id = ${user.id}`;
  const renamed = await load(t, "/client-dashboard", cookie);
  assertStringIncludes(renamed.html, "Sam After");
  assert(!renamed.html.includes("Sam Before"));
  t.close();
});

test("[remembered pages] an admin viewing as the client gets the banner, the client never does", async () => {
  const t = await createTestApp();
  const admin = await createUser(t.sql, { role: "admin" });
  const { user, cookie } = await createSignedInUser(t, { role: "client", fullName: "Vi Viewed" });
  const viewedAs = await sessionFor(t, user, { impersonatorId: admin.id });
  for (let round = 0; round < 2; round++) {
    const own = await load(t, "/client-dashboard", cookie);
    assert(!own.html.includes('data-island="ImpersonationBanner"'), "the client's own view");
    const asAdmin = await load(t, "/client-dashboard", viewedAs);
    assertStringIncludes(asAdmin.html, 'data-island="ImpersonationBanner"');
    assertStringIncludes(asAdmin.html, "Viewing as <!-- -->Vi Viewed");
  }
  t.close();
});

test("[remembered pages] each client and each page number is a page of its own", async () => {
  const t = await createTestApp();
  const a = await createSignedInUser(t, { role: "client", fullName: "Ann Apple" });
  const b = await createSignedInUser(t, { role: "client", fullName: "Ben Berry" });
  const survey = await submitSurvey(t, a.cookie);
  for (let round = 0; round < 2; round++) {
    const pageA = (await load(t, "/client-dashboard", a.cookie)).html;
    const pageB = (await load(t, "/client-dashboard", b.cookie)).html;
    assertStringIncludes(pageA, `/survey/${survey.id}`);
    assertStringIncludes(pageA, "Ann Apple");
    assert(!pageB.includes(`/survey/${survey.id}`), "not another client's request");
    assertStringIncludes(pageB, "Ben Berry");
    assert(!pageB.includes("Ann Apple"));
    const second = (await load(t, "/client-dashboard?page=2", a.cookie)).html;
    assert(!second.includes(`/survey/${survey.id}`), "page 2 is past the one request");
  }
  t.close();
});

test("[remembered pages] the admin's pages: reused on reload, each filter and each admin a page of its own", async () => {
  const t = await createTestApp();
  const ada = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const bo = await createSignedInUser(t, { role: "admin", fullName: "Bo Boss" });
  const client = await createSignedInUser(t, { role: "client", fullName: "Cy Client" });
  const survey = await submitSurvey(t, client.cookie);
  const pages = [
    ["/admin-dashboard", "/admin-dashboard?status=completed"],
    ["/admin?tab=users", "/admin?tab=users&role=surveyor"],
    ["/surveyors", "/surveyors?q=nobody-by-this-name"],
  ];
  for (const [plain, filtered] of pages) {
    for (const admin of [ada, bo]) await load(t, plain, admin.cookie);
    for (const [admin, other] of [[ada, bo], [bo, ada]]) {
      const again = await load(t, plain, admin.cookie);
      assert(again.reused, `${plain}: nothing changed`);
      // The header names the admin who asked, whoever loaded the page before.
      assertStringIncludes(again.html, `app-header__name">${admin.user.fullName}<`);
      assert(!again.html.includes(`app-header__name">${other.user.fullName}<`), plain);
      const other2 = await load(t, filtered, admin.cookie);
      assert(other2.html !== again.html, `${filtered} is not ${plain}`);
    }
  }
  // The request shows on the plain dashboard, not under a status it does not have.
  assertStringIncludes((await load(t, "/admin-dashboard", ada.cookie)).html, survey.id);
  assert(
    !(await load(t, "/admin-dashboard?status=completed", ada.cookie)).html.includes(survey.id),
  );
  t.close();
});

test("[remembered pages] a request's page: the client's and the admin's each reused, a new status shown to both", async () => {
  const t = await createTestApp();
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const client = await createSignedInUser(t, { role: "client", fullName: "Cy Client" });
  const survey = await submitSurvey(t, client.cookie);
  const path = `/survey/${survey.id}`;
  for (const who of [client, admin]) await load(t, path, who.cookie);
  for (const who of [client, admin]) {
    const again = await load(t, path, who.cookie);
    assert(again.reused, `${who.user.fullName}: nothing changed`);
    assertStringIncludes(again.html, `app-header__name">${who.user.fullName}<`);
  }
  // Loaded one after the other, each gets their own page, never the other's.
  assertStringIncludes((await load(t, path, admin.cookie)).html, 'data-island="DispatchPanel"');
  assert(
    !(await load(t, path, client.cookie)).html.includes('data-island="DispatchPanel"'),
    "the client never gets the admin's page",
  );
  const res = await t.request("PATCH", `/api/surveys/${survey.id}/status`, {
    cookie: admin.cookie,
    body: { status: "scheduled", scheduledDate: "2099-03-01" },
  });
  assertEquals(res.status, 200);
  for (const who of [client, admin]) {
    const after = await load(t, path, who.cookie);
    assert(!after.reused);
    assertStringIncludes(after.html, "Scheduled");
  }
  t.close();
});

test("[remembered pages] a dashboard read again with nothing it shows changed is sent as kept, and a change is shown", async () => {
  const t = await createTestApp();
  const client = await createSignedInUser(t, { role: "client", fullName: "Ro Reread" });
  const survey = await submitSurvey(t, client.cookie);
  const first = await load(t, "/client-dashboard", client.cookie);
  assertStringIncludes(first.html, `/survey/${survey.id}`);
  // Moving the change records' horizon (as a prune does: db/migrations/0056) makes every page
  // remembered by snapshot read its data again, as new objects holding the same values (the
  // requests' timelines come in a Map).
  const moveHorizon = () =>
    t.sql`update snapshot_prune
      set pruned_below = (pg_current_xact_id()::text::bigint + 1)::text::xid8`;
  for (let i = 0; i < 2; i++) {
    await moveHorizon();
    const again = await load(t, "/client-dashboard", client.cookie);
    assert(again.reused, "read again, the same data: the kept page is sent");
    assertEquals(again.html, first.html);
  }
  const admin = await createSignedInUser(t, { role: "admin" });
  const res = await t.request("PATCH", `/api/surveys/${survey.id}/status`, {
    cookie: admin.cookie,
    body: { status: "scheduled", scheduledDate: "2099-03-01" },
  });
  assertEquals(res.status, 200);
  await moveHorizon();
  const after = await load(t, "/client-dashboard", client.cookie);
  assert(!after.reused, "a new status is a new page");
  assertStringIncludes(after.html, "Scheduled");
  t.close();
});

test("[remembered pages] /leads: reused on reload, each surveyor's own, and a card's age moves with the clock", async () => {
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  const near = await addMarketSurveyor(t, "Near Surveying", { miles: 5, balanceCents: 50_00 });
  const far = await addMarketSurveyor(t, "Far Surveying", { miles: 30, balanceCents: 70_00 });
  const { lead } = await addLead(t, client);
  for (const s of [near, far]) await load(t, "/leads", s.cookie);
  for (const [s, miles, balance] of [[near, "5", "$50.00"], [far, "30", "$70.00"]] as const) {
    const again = await load(t, "/leads", s.cookie);
    assert(again.reused, "nothing changed");
    assertStringIncludes(again.html, `data-lead-id="${lead.id}"`);
    assertStringIncludes(again.html, `About ${miles} mi from your office`);
    assertStringIncludes(again.html, `data-testid="balance">${balance}<`);
    assertEquals(islandProps(again.html, "AvailableLeads").now, undefined, "no clock in the props");
  }
  // No write at all, only time passing: the card's "just now" becomes "1 minute ago".
  for (let attempt = 0;; attempt++) {
    await t.sql`update leads set created_at = now() - interval '59 seconds' where id = ${lead.id}`;
    const fresh = await load(t, "/leads", near.cookie);
    const kept = await load(t, "/leads", near.cookie);
    if (!kept.html.includes("just now") && attempt < 3) continue; // this machine was too slow
    assertStringIncludes(fresh.html, "just now");
    assert(kept.reused);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const later = await load(t, "/leads", near.cookie);
    assert(!later.reused, "a time shown changed: rendered anew");
    assertStringIncludes(later.html, "1 minute ago");
    assert(!later.html.includes("just now"));
    break;
  }
  t.close();
});

test("[remembered pages] /surveyor/purchased-leads: reused on reload, each surveyor's own, a change shown at once", async () => {
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  const mine = await addMarketSurveyor(t, "Kept Surveying", { miles: 5 });
  const other = await addMarketSurveyor(t, "Other Surveying", { miles: 8 });
  const { lead, survey } = await addLead(t, client, { overrides: { contactName: "Pat Kept" } });
  await t.sql`
    insert into lead_purchases (lead_id, surveyor_id, kind, charged_cents, pipeline_status)
    values (${lead.id}, ${mine.surveyor.id}, 'claim', 0, 'new')`;
  const path = "/surveyor/purchased-leads";
  const first = await load(t, path, mine.cookie);
  assertStringIncludes(first.html, "Pat Kept");
  const again = await load(t, path, mine.cookie);
  assert(again.reused, "nothing changed: the kept page is sent");
  assertEquals(again.html, first.html);
  const theirs = await load(t, path, other.cookie);
  assert(!theirs.reused, "another surveyor's page is their own");
  assert(!theirs.html.includes("Pat Kept"), "another surveyor never sees this purchase");
  // The surveyor's pipeline and the client's details change: shown at the next load.
  await t.sql`update lead_purchases set pipeline_status = 'won' where lead_id = ${lead.id}`;
  await t.sql`update surveys set contact_name = 'Pat Renamed' where id = ${survey.id}`;
  const changed = await load(t, path, mine.cookie);
  assert(!changed.reused, "rendered anew");
  assertStringIncludes(changed.html, "Pat Renamed");
  assert(!changed.html.includes("Pat Kept"));
  const won = await load(t, `${path}?status=won`, mine.cookie);
  assertStringIncludes(won.html, "Pat Renamed");
  assertStringIncludes(won.html, "1 lead marked won");
  t.close();
});

test("[remembered pages] compressed as the browser asks, the same page as plain, and the new page once it changes", async () => {
  const t = await createTestApp();
  const { cookie } = await createSignedInUser(t, { role: "client", fullName: "Gia Gzip" });
  async function fetchAs(accept: string | undefined) {
    const res = await t.request("GET", "/client-dashboard", {
      cookie,
      headers: accept ? { "accept-encoding": accept } : {},
    });
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("vary"), "Accept-Encoding");
    assertEquals(res.headers.get("cache-control"), "private, no-store");
    const bytes = new Uint8Array(await res.arrayBuffer());
    const encoding = res.headers.get("content-encoding");
    const html = new TextDecoder().decode(
      encoding === "gzip" ? gunzipSync(bytes) : encoding === "deflate" ? inflateSync(bytes) : bytes,
    );
    return { encoding, html };
  }
  const plain = (await fetchAs(undefined)).html;
  assertStringIncludes(plain, "No survey requests yet");
  for (let i = 0; i < 3; i++) {
    for (const [accept, encoding] of [["gzip, br", "gzip"], ["deflate", "deflate"]]) {
      const got = await fetchAs(accept);
      assertEquals(got.encoding, encoding);
      assertEquals(got.html, plain, `${accept}, view ${i + 1}`);
    }
  }
  const head = await t.request("HEAD", "/client-dashboard", {
    cookie,
    headers: { "accept-encoding": "gzip" },
  });
  assertEquals(head.status, 200);
  assertEquals(head.headers.get("content-encoding"), null);
  await head.body?.cancel();
  const survey = await submitSurvey(t, cookie);
  const changed = await fetchAs("gzip");
  assertStringIncludes(changed.html, `/survey/${survey.id}`);
  assertEquals(changed.html, (await fetchAs(undefined)).html);
  t.close();
});

test("[remembered pages] the store sends kept bytes only for the same shell and data, within its bounds", () => {
  const pages = rememberedPages(2, 1_000);
  let renders = 0;
  const render = (text: string) => () => {
    renders++;
    return new TextEncoder().encode(text);
  };
  const user = () => ({ id: "u1", fullName: "Ada", role: "client", lastLogin: null });
  const data = { surveys: [], events: new Map() };
  pages("a", [user(), 0], data, render("first"));
  // The shell is read afresh at each request: equal values are the same page.
  assertEquals(new TextDecoder().decode(pages("a", [user(), 0], data, render("x"))), "first");
  assertEquals(renders, 1);
  // Any value of the shell changed is another page.
  assertEquals(
    new TextDecoder().decode(pages("a", [{ ...user(), fullName: "Bo" }, 0], data, render("bo"))),
    "bo",
  );
  assertEquals(new TextDecoder().decode(pages("a", [user(), 1], data, render("one"))), "one");
  // The data read again, as new objects with the same values, is the same page…
  assertEquals(
    new TextDecoder().decode(
      pages("a", [user(), 1], { surveys: [], events: new Map() }, render("x")),
    ),
    "one",
  );
  assertEquals(renders, 3);
  // …and one value changed, in a Map too, is another.
  const reread = { surveys: [], events: new Map([["s1", []]]) };
  assertEquals(new TextDecoder().decode(pages("a", [user(), 1], reread, render("new"))), "new");
  assertEquals(renders, 4);
  // At most two slots: the least recently used goes; a page over the budget is not kept.
  pages("b", [], data, render("b"));
  pages("c", [], data, render("c"));
  pages("a", [user(), 1], reread, render("a again"));
  assertEquals(renders, 7);
  pages("big", [], data, render("x".repeat(1_001)));
  pages("big", [], data, render("x".repeat(1_001)));
  assertEquals(renders, 9);
  pages("c", [], data, render("c again"));
  assertEquals(renders, 9, "c was kept");
});

test("[remembered pages] the data a page was drawn from counts in the store's budget with its bytes", () => {
  const pages = rememberedPages(10, 1_000);
  let renders = 0;
  const render = () => {
    renders++;
    return new TextEncoder().encode("<p>a short page</p>");
  };
  const rows = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ id: `row-${i}`, title: "Boundary survey" }));
  // A short page drawn from a little data is kept.
  const small = { rows: rows(1) };
  pages("small", [], small, render);
  pages("small", [], small, render);
  assertEquals(renders, 1);
  // A short page whose data alone is over the budget is sent, never kept.
  const huge = { rows: rows(40) };
  assert(approximateHeapBytes(huge) > 1_000);
  pages("huge", [], huge, render);
  pages("huge", [], huge, render);
  assertEquals(renders, 3);
  // Two short pages whose data fills the budget: the least recently used others go.
  const half = { rows: rows(4) };
  const other = { rows: rows(4) };
  assert(approximateHeapBytes(half) > 450 && approximateHeapBytes(half) < 550);
  pages("half", [], half, render);
  pages("other", [], other, render);
  assertEquals(renders, 5);
  pages("other", [], other, render);
  assertEquals(renders, 5, "the newest page is kept");
  pages("small", [], small, render);
  assertEquals(renders, 6, "the older pages were dropped for the newest page's data");
  pages("half", [], half, render);
  assertEquals(renders, 7);
});
