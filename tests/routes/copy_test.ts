import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { submitSurvey } from "../_fixtures.ts";
import { getPage, loadPage, pageText } from "../_pages.ts";
import { PUBLIC_PAGES } from "../../lib/public_pages.ts";
import { renderEmail, TEMPLATE_IDS, TEMPLATES } from "../../lib/mail/render.tsx";
import type { Role } from "../../lib/roles.ts";
import { makeOlder } from "../_row_order.ts";

/** Visible text of an HTML page: no tags, attributes, scripts or styles. */
function visibleText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

/** "spec", "spec's", "the spec" as a word; not "special", "specify", "inspect"… */
const SPEC_WORD = /\bspecs?\b/i;

function assertNoSpec(text: string, where: string) {
  const match = text.match(SPEC_WORD);
  assert(
    !match,
    `${where} mentions the spec: …${
      match ? text.slice(Math.max(0, match.index! - 60), match.index! + 60) : ""
    }…`,
  );
}

async function signedInPages(t: TestApp): Promise<[string, string][]> {
  const admin = await signInAs(t, "admin");
  const client = await signInAs(t, "client");
  const survey = await submitSurvey(t, client);
  const pages: [string, string][] = [
    ["/client-dashboard", client],
    [`/survey/${survey.id}`, client],
    ["/create-survey", client],
    ["/profile", client],
  ];
  for (
    const path of [
      "/admin-dashboard",
      "/admin",
      "/pricing-algorithm",
      "/admin/email-templates",
      "/regrid-api-test",
      "/surveyors",
    ]
  ) pages.push([path, admin]);
  for (const role of ["surveyor", "technician"] as const) {
    const cookie = await signInAs(t, role);
    pages.push([`/${role}-dashboard`, cookie], ["/profile", cookie]);
  }
  return pages;
}

test("[copy] no page a visitor or user can open mentions the spec", async () => {
  const t = await createTestApp();
  const pages: [string, string | undefined][] = [
    ...PUBLIC_PAGES.map((p): [string, undefined] => [p, undefined]),
    ["/auth", undefined],
    ["/forgot-password", undefined],
    ["/create-survey", undefined],
    ...await signedInPages(t),
  ];
  for (const [path, cookie] of pages) {
    const { res, html } = await loadPage(t, path, cookie);
    assertEquals(res.status, 200, path);
    assertNoSpec(visibleText(html.replaceAll("<!-- -->", "")), path);
  }
  t.close();
});

test("[copy] no email mentions the spec", async () => {
  for (const id of TEMPLATE_IDS) {
    // deno-lint-ignore no-explicit-any
    const email = await renderEmail(id, TEMPLATES[id].sample as any);
    assertNoSpec(email.subject, `${id} subject`);
    assertNoSpec(email.text, `${id} text`);
  }
});

test("[copy] the profile page says who uses each role's contact details", async () => {
  const t = await createTestApp();
  const expected: Record<Role, string> = {
    client: "so your surveyor and our team can reach you.",
    surveyor: "so clients and our team can reach you.",
    technician: "so the surveyors you work with and our team can reach you.",
    admin: "Keep your contact details up to date.",
  };
  for (const [role, text] of Object.entries(expected) as [Role, string][]) {
    const { cookie } = await createSignedInUser(t, { role });
    const res = await getPage(t, "/profile", cookie);
    assertEquals(res.status, 200, role);
    const page = await pageText(res);
    assertStringIncludes(page, text, role);
    if (role !== "client") assert(!page.includes("so surveyors and our team"), role);
  }
  t.close();
});

test("[copy] a client's status notifications read as sentences about their request", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const cookie = await signInAs(t, "client");
  const survey = await submitSurvey(t, cookie);
  const res = await t.request("PATCH", `/api/surveys/${survey.id}/status`, {
    cookie: admin,
    body: { status: "scheduled", scheduledDate: "2099-03-01" },
  });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  // A minute older: two notifications in a row can share a timestamp (ties go by id).
  await makeOlder(t.sql, "notifications");
  const cancelled = await t.request("PATCH", `/api/surveys/${survey.id}/status`, {
    cookie: admin,
    body: { status: "cancelled" },
  });
  assertEquals(cancelled.status, 200);
  await cancelled.body?.cancel();
  const list = await (await t.request("GET", "/api/notifications", { cookie })).json();
  assertEquals(
    list.notifications.map((n: { title: string }) => n.title),
    ["Your request was cancelled", "Your survey visit is scheduled"],
  );
  assertEquals(list.notifications.every((n: { link: string }) => n.link.includes(survey.id)), true);
  t.close();
});
