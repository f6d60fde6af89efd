import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createSignedInUser, createUser, sessionFor, signInAs } from "../_auth.ts";
import { DASHBOARDS, ROLES } from "../_fixtures.ts";
import {
  assertForbiddenPage,
  assertHtml,
  assertRedirect,
  assertRedirectsToAuth,
  getPage,
  islandProps,
  loadPage,
  pageText,
} from "../_pages.ts";
import type { Role } from "../../lib/roles.ts";
import { ROLE_NAV } from "../../components/AppLayout.tsx";
import { insertNotification, markAllNotificationsRead } from "../../db/notifications.ts";
import { TEMPLATE_IDS } from "../../lib/mail/render.tsx";

const SOME_UUID = "0b6c1f8e-2f43-4c8a-9d1e-5a7b3c2d1e0f";

/** Each page owned here, the one role allowed on it, and a text its 200 page shows. */
const PAGES: { path: string; role: Role; text: string; status?: number }[] = [
  // A surveyor without a linked record (routes/surveyor_dashboard.tsx, tested there).
  {
    path: "/surveyor-dashboard",
    role: "surveyor",
    text: "Your surveyor profile is not set up yet.",
  },
  // A surveyor without a linked record: routes/lead_pages.tsx says so (tested there).
  { path: "/leads", role: "surveyor", text: "Your surveyor profile is being set up" },
  { path: "/surveyor/purchased-leads", role: "surveyor", text: "No purchased leads yet" },
  {
    path: `/surveyor/purchased-leads/${SOME_UUID}`,
    role: "surveyor",
    text: "Lead not found",
    status: 404,
  },
  { path: "/technician-dashboard", role: "technician", text: "No jobs assigned yet" },
  // /technician-survey-detail/{id} admits three roles (the technician, the surveyor doing the
  // job, admins): tests/routes/technician_survey_pages_test.ts.
  { path: "/admin/email-templates", role: "admin", text: "Password reset" },
  { path: "/admin/technicians", role: "admin", text: "Meridian staff" },
  // The directory itself is tested in surveyor_pages_test.ts.
  { path: "/surveyors", role: "admin", text: "The surveyor network" },
];

test("[app] signed-out visitors of every signed-in page go to /auth with returnTo", async () => {
  const t = await createTestApp();
  for (const path of ["/dashboard", "/admin", ...PAGES.map((p) => p.path), "/surveyors?page=2"]) {
    await assertRedirectsToAuth(await getPage(t, path), path);
  }
  t.close();
});

test("[app] /dashboard sends each role to its own dashboard", async () => {
  const t = await createTestApp();
  for (const role of ROLES) {
    assertRedirect(await getPage(t, "/dashboard", await signInAs(t, role)), DASHBOARDS[role], role);
  }
  t.close();
});

test("[app] every page answers the wrong role with the 403 page, on the server", async () => {
  const t = await createTestApp();
  const cookies = Object.fromEntries(
    await Promise.all(ROLES.map(async (r) => [r, await signInAs(t, r)] as const)),
  ) as Record<Role, string>;
  for (const page of [...PAGES, { path: "/admin", role: "admin" as Role, text: "" }]) {
    for (const role of ROLES.filter((r) => r !== page.role)) {
      const body = await assertForbiddenPage(
        await getPage(t, page.path, cookies[role]),
        `${role} ${page.path}`,
      );
      if (page.text) assert(!body.includes(page.text), `${role} sees nothing of ${page.path}`);
    }
  }
  t.close();
});

test("[app] every page renders for its role inside the app layout", async () => {
  const t = await createTestApp();
  for (const page of PAGES) {
    const { user, cookie } = await createSignedInUser(t, { role: page.role });
    const res = await getPage(t, page.path, cookie);
    assertEquals(res.status, page.status ?? 200, page.path);
    assertHtml(res);
    assertEquals(res.headers.get("cache-control"), "private, no-store", page.path);
    const body = await pageText(res);
    assertStringIncludes(body, page.text, page.path);
    assertStringIncludes(body, 'class="app-header"', page.path);
    assertStringIncludes(body, user.fullName, page.path);
    assertStringIncludes(body, 'data-island="NotificationsBell"', page.path);
    assertStringIncludes(body, 'data-island="SignOutButton"', page.path);
    assertStringIncludes(body, 'data-island="Toaster"', page.path);
    assert(!body.includes('data-island="ImpersonationBanner"'), page.path);
    for (const item of ROLE_NAV[page.role]) {
      assertStringIncludes(body, `href="${item.href}"`, `${page.path} nav ${item.label}`);
    }
  }
  t.close();
});

test("[app] the bell shows the unread count in the first HTML, before it loads", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "surveyor" });
  const other = await createUser(t.sql, { role: "surveyor" });
  for (const userId of [user.id, user.id, user.id, other.id]) {
    await insertNotification(t.sql, {
      userId,
      kind: "survey_status_changed",
      title: "Update",
      body: "Something happened",
      link: null,
    });
  }
  const { html } = await loadPage(t, "/leads", cookie);
  assertEquals(islandProps(html, "NotificationsBell"), { initialUnread: 3 });
  assertStringIncludes(html, 'aria-label="Notifications, 3 unread"');
  await markAllNotificationsRead(t.sql, { userId: user.id });
  const read = await loadPage(t, "/profile", cookie);
  assertEquals(islandProps(read.html, "NotificationsBell"), { initialUnread: 0 });
  assert(!read.html.includes("unread"), "no badge once everything is read");
  t.close();
});

test("[app] the current page is marked in the navigation", async () => {
  const t = await createTestApp();
  const body = await (await getPage(t, "/leads", await signInAs(t, "surveyor"))).text();
  assertMatch(body, /href="\/leads" aria-current="page">Available leads</);
  assert(!/href="\/surveyor-dashboard" aria-current/.test(body));
  t.close();
});

test("[app] /admin is the admin console (routes/admin_pages.tsx), no longer a redirect", async () => {
  const t = await createTestApp();
  const res = await getPage(t, "/admin", await signInAs(t, "admin"));
  assertEquals(res.status, 200);
  assertStringIncludes(await pageText(res), "<h1>Admin console</h1>");
  t.close();
});

test("[app] the email templates page previews each template in a sandboxed frame read from its own address", async () => {
  const t = await createTestApp();
  try {
    const admin = await signInAs(t, "admin");
    const { res, html: body } = await loadPage(t, "/admin/email-templates", admin);
    for (
      const name of [
        "Password reset",
        "Password changed",
        "Survey request confirmation",
        "New survey request (admin)",
        "Surveyor invitation",
      ]
    ) assertStringIncludes(body, name);
    // The page itself may not be framed.
    assertEquals(res.headers.get("x-frame-options"), "DENY");
    assertStringIncludes(res.headers.get("content-security-policy")!, "frame-ancestors 'none'");
    const frames = body.match(/<iframe[^>]*>/g) ?? [];
    assertEquals(frames.length, TEMPLATE_IDS.length);
    for (const [i, frame] of frames.entries()) {
      assertStringIncludes(frame, 'sandbox=""');
      assertStringIncludes(frame, 'loading="lazy"');
      assert(!/srcdoc/i.test(frame), "the email's HTML is not inlined");
      assertStringIncludes(frame, `src="/admin/email-templates/${TEMPLATE_IDS[i]}/preview"`);
    }
    // Each frame's address answers that email's HTML, framable by this site only, sandboxed.
    const preview = await getPage(t, "/admin/email-templates/password_reset/preview", admin);
    assertEquals(preview.status, 200);
    assertHtml(preview);
    const html = await preview.text();
    assertMatch(html, /^<!DOCTYPE html/i);
    assertStringIncludes(html, "Reset your password");
    assertEquals(preview.headers.get("x-frame-options"), "SAMEORIGIN");
    const policy = preview.headers.get("content-security-policy")!;
    assertStringIncludes(policy, "frame-ancestors 'self'");
    assertStringIncludes(policy, "default-src 'none'");
    assertMatch(policy, /(^|; )sandbox($|;)/);
    assertStringIncludes(preview.headers.get("cache-control")!, "no-store");
    // Not a template: the 404 page. Another role: refused, like the editor.
    assertEquals(
      (await getPage(t, "/admin/email-templates/nope/preview", admin)).status,
      404,
    );
    assertEquals(
      (await getPage(
        t,
        "/admin/email-templates/password_reset/preview",
        await signInAs(t, "client"),
      ))
        .status,
      403,
    );
  } finally {
    t.close();
  }
});

test("[app] an impersonated session shows the banner with 'Return to admin'", async () => {
  const t = await createTestApp();
  const admin = await createUser(t.sql, { role: "admin" });
  const surveyor = await createUser(t.sql, { role: "surveyor", fullName: "Sam Surveyor" });
  const cookie = await sessionFor(t, surveyor, { impersonatorId: admin.id });
  const body = await (await getPage(t, "/surveyor-dashboard", cookie)).text();
  assertStringIncludes(body, 'data-island="ImpersonationBanner"');
  assertStringIncludes(body, "Return to admin");
  assertStringIncludes(body, "Welcome, Sam");
  t.close();
});

/** The attributes of the chat-widget script tag in a page, or null when there is none. */
function chatTag(page: string): Record<string, string> | null {
  const tag = /<script defer src="\/static\/chat-widget\.js"([^>]*)><\/script>/.exec(page);
  if (!tag) return null;
  return Object.fromEntries(
    [...tag[1].matchAll(/ (data-[a-z-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
  );
}

test("[chat] no chat widget unless CHAT_WIDGET_APP_ID is set", async () => {
  const t = await createTestApp();
  assertEquals(chatTag(await (await getPage(t, "/auth")).text()), null);
  assertEquals(
    chatTag(await (await getPage(t, "/profile", await signInAs(t, "client"))).text()),
    null,
  );
  t.close();
});

test("[chat] the widget identifies a signed-in user with role, company, phone and dates", async () => {
  const t = await createTestApp({ env: { CHAT_WIDGET_APP_ID: "abc123" } });
  const { user, cookie } = await createSignedInUser(t, {
    role: "surveyor",
    fullName: 'Sam "The Level" Surveyor',
    companyName: "Acme & Sons",
    phone: "555-0100",
  });
  const res = await getPage(t, "/surveyor-dashboard", cookie);
  assertStringIncludes(res.headers.get("content-security-policy") ?? "", "widget.intercom.io");
  assertEquals(chatTag(await res.text()), {
    "data-app-id": "abc123",
    "data-user-id": user.id,
    "data-email": user.email,
    "data-name": "Sam &quot;The Level&quot; Surveyor",
    "data-role": "surveyor",
    "data-company": "Acme &amp; Sons",
    "data-phone": "555-0100",
    "data-created-at": user.createdAt,
  });
  t.close();
});

test("[chat] signed-out visitors and impersonating admins get an anonymous widget", async () => {
  const t = await createTestApp({ env: { CHAT_WIDGET_APP_ID: "abc123" } });
  assertEquals(chatTag(await (await getPage(t, "/auth")).text()), { "data-app-id": "abc123" });
  const admin = await createUser(t.sql, { role: "admin" });
  const client = await createUser(t.sql, { role: "client" });
  const cookie = await sessionFor(t, client, { impersonatorId: admin.id });
  assertEquals(chatTag(await (await getPage(t, "/profile", cookie)).text()), {
    "data-app-id": "abc123",
  });
  t.close();
});
