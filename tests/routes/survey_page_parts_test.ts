/**
 * A request page's progress, request and quote cards are rendered once and remembered by
 * everything they show (routes/survey_pages.tsx, `cachedSurveyPageParts`). What a user must
 * notice is only that nothing is ever stale and nothing is another viewer's: a change shows at
 * the next load, and the client never sees what only admins see.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { loadPage } from "../_pages.ts";
import { submitSurvey } from "../_fixtures.ts";

/** The card labelled by the heading `id` (its `<section …>` to its `</section>`). */
function cardOf(html: string, id: string): string {
  const at = html.indexOf(`aria-labelledby="${id}"`);
  assert(at >= 0, `the ${id} card is on the page`);
  const start = html.lastIndexOf("<section", at);
  return html.slice(start, html.indexOf("</section>", at));
}

test("[survey page] the progress, request and quote cards show a change at the next load, to each viewer as theirs", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const client = await createSignedInUser(t, { role: "client", fullName: "Dee Owner" });
  const survey = await submitSurvey(t, client.cookie);
  const path = `/survey/${survey.id}`;
  for (let round = 0; round < 2; round++) {
    const own = (await loadPage(t, path, client.cookie)).html;
    assertStringIncludes(cardOf(own, "progress-title"), "Not yet");
    assert(!cardOf(own, "request-title").includes("Client: "), "no client line for the client");
    const staff = (await loadPage(t, path, admin)).html;
    assertStringIncludes(cardOf(staff, "request-title"), "Client: Dee Owner");
  }

  const res = await t.request("PATCH", `/api/surveys/${survey.id}/status`, {
    cookie: admin,
    body: { status: "scheduled", scheduledDate: "2099-03-01" },
  });
  assertEquals(res.status, 200);
  await t.sql`update users set full_name = 'Dee Renamed' where id = ${client.user.id}`;
  await t.sql`update surveys set quoted_price_cents = 123456 where id = ${survey.id}`;

  const own = (await loadPage(t, path, client.cookie)).html;
  const progress = cardOf(own, "progress-title");
  assertStringIncludes(progress, "Mar 1, 2099");
  assert(!progress.includes("Not yet"), progress);
  assertStringIncludes(cardOf(own, "quote-title"), "$1,234.56");
  assert(!cardOf(own, "request-title").includes("Client: "), "still no client line");
  const staff = cardOf((await loadPage(t, path, admin)).html, "request-title");
  assertStringIncludes(staff, "Client: Dee Renamed");
  assert(!staff.includes("Dee Owner"), staff);
  t.close();
});
