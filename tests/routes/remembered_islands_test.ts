/**
 * The admin's heavy tables are pure islands (components/Island.tsx `isPure`): a reload with
 * nothing changed reuses their server HTML, remembered by everything they render with. What a
 * user must notice is only that nothing is ever stale and nothing is another admin's: a change
 * shows at the next load, and each admin sees their own view.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { loadPage } from "../_pages.ts";
import { submitSurvey } from "../_fixtures.ts";
import { addSurveyor } from "../_assignment_fixtures.ts";

/** The table row of the element carrying `marker` (its `<tr …>` to its `</tr>`). */
function rowOf(html: string, marker: string): string {
  const at = html.indexOf(marker);
  assert(at >= 0, `${marker} is on the page`);
  const start = html.lastIndexOf("<tr", at);
  return html.slice(start, html.indexOf("</tr>", at));
}

test("[remembered islands] the admin dashboard shows a request's new status and address at the next load", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const client = await signInAs(t, "client");
  const survey = await submitSurvey(t, client);
  const before = await loadPage(t, "/admin-dashboard", admin);
  assertEquals(before.res.status, 200);
  assertEquals((await loadPage(t, "/admin-dashboard", admin)).html.length, before.html.length);
  const res = await t.request("PATCH", `/api/surveys/${survey.id}/status`, {
    cookie: admin,
    body: { status: "scheduled", scheduledDate: "2099-03-01" },
  });
  assertEquals(res.status, 200);
  const renamed = "77 Renamed Lane, Austin, TX 78701";
  await t.sql`update surveys set address = ${renamed}, formatted_address = ${renamed}
    where id = ${survey.id}`;
  const after = (await loadPage(t, "/admin-dashboard", admin)).html;
  const row = rowOf(after, "77 Renamed Lane");
  assertStringIncludes(row, "Scheduled");
  assert(!row.includes(">Requested<"), row);
  t.close();
});

test("[remembered islands] the users tab marks each admin's own row, and shows a renamed user at the next load", async () => {
  const t = await createTestApp();
  const first = await createSignedInUser(t, { role: "admin", fullName: "Ada First" });
  const second = await createSignedInUser(t, { role: "admin", fullName: "Bo Second" });
  const client = await createSignedInUser(t, { role: "client", fullName: "Cy Client" });
  for (let round = 0; round < 2; round++) {
    for (const [admin, other] of [[first, second], [second, first]]) {
      const html = (await loadPage(t, "/admin", admin.cookie)).html;
      assertStringIncludes(rowOf(html, `data-user-id="${admin.user.id}"`), "(you)");
      assert(!rowOf(html, `data-user-id="${other.user.id}"`).includes("(you)"));
    }
  }
  await t.sql`update users set full_name = 'Cy Renamed' where id = ${client.user.id}`;
  const row = rowOf(
    (await loadPage(t, "/admin", first.cookie)).html,
    `data-user-id="${client.user.id}"`,
  );
  assertStringIncludes(row, "Cy Renamed");
  assert(!row.includes("Cy Client"), row);
  t.close();
});

test("[remembered islands] the surveyor directory and its map show a renamed firm, then its new status, at the next load", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const { surveyor } = await addSurveyor(t, "Lone Star Lines", { withUser: false });
  const link = `href="/surveyor-detail/${surveyor.id}"`;
  const before = (await loadPage(t, "/surveyors", admin)).html;
  assertStringIncludes(rowOf(before, link), "Lone Star Lines");
  // The coverage map's dot (its points are remembered too: db/surveyors.ts `locationsOf`).
  assertStringIncludes(before, "<title>Lone Star Lines (In-network surveyor)</title>");
  assertEquals((await loadPage(t, "/surveyors", admin)).html.length, before.length);
  // A new name changes the rows alone (server-only props), not the counts.
  await t.sql`update surveyors set company_name = 'Hill Country Lines' where id = ${surveyor.id}`;
  const renamedPage = (await loadPage(t, "/surveyors", admin)).html;
  const renamed = rowOf(renamedPage, link);
  assertStringIncludes(renamed, ">Hill Country Lines<");
  assert(!renamed.includes(">Lone Star Lines<"), renamed);
  assertStringIncludes(renamedPage, "<title>Hill Country Lines (In-network surveyor)</title>");
  assert(!renamedPage.includes("<title>Lone Star Lines"));
  await t.sql`update surveyors set status = 'paused' where id = ${surveyor.id}`;
  await t.sql`update surveyors set in_network = false where id = ${surveyor.id}`;
  const pausedPage = (await loadPage(t, "/surveyors", admin)).html;
  const paused = rowOf(pausedPage, link);
  assertStringIncludes(paused, ">Paused<");
  assert(!paused.includes(">Active<"), paused);
  assertStringIncludes(pausedPage, "<title>Hill Country Lines (Out-of-network surveyor)</title>");
  t.close();
});

test("[remembered islands] a request's dispatch panel is closed at the next load once the request is cancelled", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const client = await signInAs(t, "client");
  const survey = await submitSurvey(t, client);
  const panel = (html: string) => {
    const start = html.indexOf('data-island="DispatchPanel"');
    assert(start >= 0, "the dispatch panel is on the page");
    return html.slice(start, html.indexOf("</script>", start));
  };
  const open = panel((await loadPage(t, `/survey/${survey.id}`, admin)).html);
  assertEquals(panel((await loadPage(t, `/survey/${survey.id}`, admin)).html), open);
  const cancelled = "This request was cancelled: there is nobody to notify.";
  assert(!open.includes(cancelled), open);
  const res = await t.request("PATCH", `/api/surveys/${survey.id}/status`, {
    cookie: admin,
    body: { status: "cancelled" },
  });
  assertEquals(res.status, 200);
  const closed = panel((await loadPage(t, `/survey/${survey.id}`, admin)).html);
  assertStringIncludes(closed, cancelled);
  t.close();
});
