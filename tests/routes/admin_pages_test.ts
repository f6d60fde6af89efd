import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, createUser, signInAs } from "../_auth.ts";
import {
  assertForbiddenPage,
  assertHtml,
  assertRedirectsToAuth,
  getPage as get,
  islandProps,
  pageText,
} from "../_pages.ts";
import type { AdminUsersProps } from "../../islands/AdminUsers.tsx";
import type { AdminMessagesProps } from "../../islands/AdminMessages.tsx";
import { addBuyer, addPurchase, addSurveyWithLead } from "../_refund_fixtures.ts";

test("[admin console] signed-out visitors go to /auth with returnTo", async () => {
  const t = await createTestApp();
  for (const path of ["/admin", "/admin?tab=messages"]) {
    await assertRedirectsToAuth(await get(t, path), path);
  }
  t.close();
});

test("[admin console] clients, surveyors and technicians get the 403 page and no data", async () => {
  const t = await createTestApp();
  const secret = await createUser(t.sql, { role: "client", fullName: "Secret Person" });
  await t.sql`insert into contact_messages (name, email, topic, message)
    values ('Private Sender', 'p@example.com', 'other', 'Private message body')`;
  for (const role of ["client", "surveyor", "technician"] as const) {
    for (const path of ["/admin", "/admin?tab=messages"]) {
      const body = await assertForbiddenPage(
        await get(t, path, await signInAs(t, role)),
        `${role} ${path}`,
      );
      assert(!body.includes(secret.email), `${role} sees no user`);
      assert(!body.includes("Private Sender"), `${role} sees no message`);
      assert(!body.includes('data-island="AdminUsers"'), role);
    }
  }
  t.close();
});

test("[admin console] an admin sees the users tab with the first page and themselves marked", async () => {
  const t = await createTestApp();
  const { user: admin, cookie } = await createSignedInUser(t, {
    role: "admin",
    fullName: "Ada Admin",
  });
  const client = await createUser(t.sql, {
    role: "client",
    fullName: "Cleo Client",
    companyName: "Cleo Homes",
    phone: "512-555-0199",
  });
  const res = await get(t, "/admin", cookie);
  assertEquals(res.status, 200);
  assertHtml(res);
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  const body = await pageText(res);
  assertStringIncludes(body, "<h1>Admin console</h1>");
  assertStringIncludes(body, 'class="app-header"');
  assertMatch(body, /href="\/admin\?tab=users" aria-current="page">Admin console</);
  assertMatch(
    body,
    /class="admin-tabs__link" href="\/admin\?tab=users" aria-current="page">Users</,
  );
  assertMatch(body, /href="\/admin\?tab=messages">Contact messages</);
  assertStringIncludes(body, 'data-island="AdminUsers"');
  assert(!body.includes('data-island="AdminMessages"'), "only the open tab's island loads");
  // Server-rendered rows: no loading flash and readable before the script runs.
  assertStringIncludes(body, "Cleo Client");
  assertStringIncludes(body, "Cleo Homes");
  assertMatch(body, /Ada Admin <span class="muted">\(you\)<\/span>/);
  assertStringIncludes(body, `aria-label="View as Cleo Client"`);
  assert(!body.includes(`aria-label="View as Ada Admin"`), "no 'View as' for admins");
  assertStringIncludes(body, `aria-label="Role of Cleo Client"`);
  assertStringIncludes(body, `aria-label="Disable Cleo Client"`);
  assert(!body.includes(`aria-label="Role of Ada Admin"`), "no role change for yourself");
  assert(!body.includes(`aria-label="Disable Ada Admin"`), "no disabling yourself");
  assert(!body.includes("passwordHash") && !body.includes("$argon2"), "no password hash");

  const props = islandProps<AdminUsersProps>(body, "AdminUsers");
  assertEquals(props.currentUserId, admin.id);
  assertEquals(props.role, "");
  assertEquals(props.initial.total, 2);
  assertEquals(props.initial.page, 1);
  assertEquals(
    props.initial.users.map((u) => u.id).sort(),
    [admin.id, client.id].sort(),
  );
  t.close();
});

test("[admin console] the role filter and page come from the address; odd values fall back", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  await createUser(t.sql, { role: "surveyor", fullName: "Sam Surveyor" });
  await createUser(t.sql, { role: "client", fullName: "Cleo Client" });

  const filtered = await pageText(await get(t, "/admin?tab=users&role=surveyor", cookie));
  const props = islandProps<AdminUsersProps>(filtered, "AdminUsers");
  assertEquals(props.role, "surveyor");
  assertEquals(props.initial.total, 1);
  assertStringIncludes(filtered, "Sam Surveyor");
  assert(!filtered.includes("Cleo Client"), "the filter applies to the first page");

  for (
    const odd of [
      "?role=wizard",
      "?page=-3",
      "?page=abc",
      "?tab=nope",
      `?role=${"x".repeat(10_000)}`,
    ]
  ) {
    const res = await get(t, `/admin${odd}`, cookie);
    assertEquals(res.status, 200, odd.slice(0, 20));
    const p = islandProps<AdminUsersProps>(await pageText(res), "AdminUsers");
    assertEquals(p.role, "", odd.slice(0, 20));
    assertEquals(p.initial.page, 1, odd.slice(0, 20));
  }
  t.close();
});

// The badges of the Lead returns and Licence checks tabs ("" when a tab has none).
function tabBadges(html: string): { returns: string; licences: string } {
  const badge = (href: string, label: string) => {
    const tab = new RegExp(
      `href="${
        href.replace("?", "\\?")
      }"[^>]*>${label}(?:<span class="badge badge--warning admin-tabs__count"><span aria-hidden="true">(\\d+)</span>)?`,
    ).exec(html);
    assert(tab, `the ${label} tab`);
    return tab[1] ?? "";
  };
  return {
    returns: badge("/admin?tab=returns", "Lead returns"),
    licences: badge("/admin?tab=licences", "Licence checks"),
  };
}

// Two pending return requests (by two surveyors) and one firm waiting for a licence check.
async function addWaitingWork(t: TestApp) {
  const { lead } = await addSurveyWithLead(t, await signInAs(t, "client"));
  const buyers = [await addBuyer(t, "Alpha Surveying"), await addBuyer(t, "Beta Surveying")];
  for (const buyer of buyers) {
    const purchaseId = await addPurchase(t, lead, buyer);
    await t.sql`insert into lead_refund_requests (lead_purchase_id, reason, note)
      values (${purchaseId}, 'invalid_contact', 'The phone number is not in service')`;
  }
  await t.sql`update surveyors set pending_license_number = 'RPLS 4242',
    pending_license_number_at = now() where id = ${buyers[0].surveyorId}`;
}

test("[admin console] every tab counts the waiting returns and licence checks, the users tab also past its last page", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  await addWaitingWork(t);
  for (
    const path of [
      "/admin",
      "/admin?tab=users&role=surveyor",
      "/admin?tab=users&role=surveyor&page=99",
      "/admin?tab=returns",
      "/admin?tab=licences",
      "/admin?tab=messages",
    ]
  ) {
    const res = await get(t, path, cookie);
    assertEquals(res.status, 200, path);
    assertEquals(tabBadges(await pageText(res)), { returns: "2", licences: "1" }, path);
  }
  // Nothing waiting: no badge (the users tab's count and the others' agree).
  await t.sql`update lead_refund_requests set status = 'denied', decided_at = now()`;
  await t.sql`update surveyors set pending_license_number = null, pending_license_number_at = null`;
  for (const path of ["/admin?tab=users&page=99", "/admin?tab=messages"]) {
    const html = await pageText(await get(t, path, cookie));
    assertEquals(tabBadges(html), { returns: "", licences: "" }, path);
  }
  t.close();
});

test("[admin console] the users tab past the last page shows no one but the filter's total", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  await addWaitingWork(t); // two surveyor accounts, a client and the admin
  const html = await pageText(await get(t, "/admin?tab=users&role=surveyor&page=99", cookie));
  const props = islandProps<AdminUsersProps>(html, "AdminUsers");
  assertEquals(props.role, "surveyor");
  assertEquals(props.initial.users, []);
  assertEquals(props.initial.total, 2);
  assertEquals(props.initial.page, 99);
  const all = islandProps<AdminUsersProps>(
    await pageText(await get(t, "/admin?page=2", cookie)),
    "AdminUsers",
  );
  assertEquals(all.initial.users, []);
  assertEquals(all.initial.total, 4);
  t.close();
});

test("[admin console] the messages tab shows the newest messages with their unread state", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  await t.sql`insert into contact_messages (name, email, topic, message, created_at, read_at)
    values ('Old Reader', 'old@example.com', 'billing', 'An older message, already read',
      now() - interval '2 days', now() - interval '1 day')`;
  await t.sql`insert into contact_messages (name, email, topic, message)
    values ('New Sender', 'new@example.com', 'quote', 'A newer message, not yet read')`;
  const res = await get(t, "/admin?tab=messages", cookie);
  assertEquals(res.status, 200);
  const body = await pageText(res);
  assertMatch(body, /class="admin-tabs__link" href="\/admin\?tab=messages" aria-current="page"/);
  assertStringIncludes(body, 'data-island="AdminMessages"');
  assert(!body.includes('data-island="AdminUsers"'));
  const props = islandProps<AdminMessagesProps>(body, "AdminMessages");
  assertEquals(props.initial.messages.map((m) => m.name), [
    "New Sender",
    "Old Reader",
  ]);
  assertEquals(props.initial.messages[0].readAt, null);
  assertEquals(props.initial.nextCursor, null);
  assertMatch(body, /New Sender<\/span><span class="badge badge--info">New</);
  assertStringIncludes(body, "A quote or survey request");
  t.close();
});

test("[admin console] the admin nav links to the console from other admin pages, marking only it", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  const templates = await (await get(t, "/admin/email-templates", cookie)).text();
  assertStringIncludes(templates, 'href="/admin?tab=users"');
  assert(!/href="\/admin\?tab=users" aria-current/.test(templates), "not current elsewhere");
  t.close();
});
