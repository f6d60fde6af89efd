import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { ROLES, submitSurvey } from "../_fixtures.ts";
import {
  assertForbiddenPage,
  assertHtml,
  assertRedirectsToAuth,
  getPage,
  islandProps,
  loadPage,
  pageText,
} from "../_pages.ts";
import { insertSurveyor, type InsertSurveyorInput } from "../../db/surveyors.ts";
import type { SurveyorDirectoryProps } from "../../islands/SurveyorDirectory.tsx";
import type { SurveyorDetailProps } from "../../islands/SurveyorDetail.tsx";

const SOME_UUID = "0b6c1f8e-2f43-4c8a-9d1e-5a7b3c2d1e0f";

function surveyor(t: TestApp, input: Partial<InsertSurveyorInput> & { companyName: string }) {
  return insertSurveyor(t.sql, input as InsertSurveyorInput);
}

/** Three records: in network in Austin, a Texas prospect, and one in California. */
async function network(t: TestApp) {
  const austin = await surveyor(t, {
    companyName: "Austin Land Surveying",
    city: "Austin",
    state: "TX",
    lat: 30.27,
    lng: -97.74,
    inNetwork: true,
    status: "active",
    surveyTypes: ["boundary", "topographic"],
    contacts: [{ name: "Pat Primary", isPrimary: true }, { name: "Sam Second" }],
  });
  const dallas = await surveyor(t, {
    companyName: "Dallas Prospect Co",
    city: "Dallas",
    state: "TX",
    lat: 32.78,
    lng: -96.8,
    status: "prospect",
    surveyTypes: ["alta"],
  });
  const fresno = await surveyor(t, {
    companyName: "Fresno Field Crew",
    city: "Fresno",
    state: "CA",
    status: "paused",
  });
  return { austin, dallas, fresno };
}

/** The company names in the directory's table, as the page shows them. */
function tableCompanies(html: string): string[] {
  return [...html.matchAll(/<tr><th scope="row"><a href="\/surveyor-detail\/[^"]+">([^<]+)<\/a>/g)]
    .map((m) => m[1]);
}

test("[surveyor pages] signed-out visitors go to /auth with the page as returnTo", async () => {
  const t = await createTestApp();
  const { austin } = await network(t);
  for (
    const path of ["/surveyors", "/surveyors?state=TX&page=2", `/surveyor-detail/${austin.id}`]
  ) {
    await assertRedirectsToAuth(await getPage(t, path), path);
  }
  t.close();
});

test("[surveyor pages] other roles get the 403 page with nothing of the directory or a record", async () => {
  const t = await createTestApp();
  const { austin } = await network(t);
  for (const role of ROLES.filter((r) => r !== "admin")) {
    const cookie = await signInAs(t, role);
    for (const path of ["/surveyors", `/surveyor-detail/${austin.id}`]) {
      const html = await assertForbiddenPage(await getPage(t, path, cookie), `${role} ${path}`);
      assert(!html.includes("Austin Land Surveying"), `${role} ${path} shows no record`);
      assert(!html.includes("Pat Primary"), `${role} ${path} shows no contact`);
      assert(!html.includes('data-island="Surveyor'), `${role} ${path} has no surveyor island`);
    }
  }
  t.close();
});

test("[surveyor pages] the directory renders the filters in the address, with counts and the map", async () => {
  const t = await createTestApp();
  const { austin, dallas } = await network(t);
  const { user, cookie } = await createSignedInUser(t, { role: "admin" });
  const res = await getPage(t, "/surveyors?state=TX&inNetworkOnly=true", cookie);
  assertEquals(res.status, 200);
  assertHtml(res);
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  const html = await pageText(res);
  assertStringIncludes(html, user.fullName, "inside the app layout");
  const props = islandProps<SurveyorDirectoryProps>(html, "SurveyorDirectory");
  assertEquals(props.filters, {
    q: "",
    state: "TX",
    surveyType: "",
    status: "",
    inNetworkOnly: "true",
  });
  assertEquals(tableCompanies(html), ["Austin Land Surveying"]);
  // The rows reach the browser once, as the table: not again in the island's props.
  assertEquals(props.initial.rows, undefined);
  assertEquals(props.initial.total, 1);
  // Counts cover the search, state and type filters (both Texas records), not in-network.
  assertEquals(props.initial.counts.total, 2);
  assertEquals(props.initial.counts.inNetwork, 1);
  assertEquals(props.initial.counts.byStatus.prospect, 1);
  // Its contacts: the primary one, and how many more.
  assertMatch(
    html,
    /<td data-label="Contacts">Pat Primary<span class="surveyor-table__sub">\+1 more<\/span><\/td>/,
  );
  // The server-rendered table links each record.
  assertStringIncludes(html, `href="/surveyor-detail/${austin.id}"`);
  assert(!html.includes(`href="/surveyor-detail/${dallas.id}"`), "filtered out");
  // The coverage map draws what the filters select, and says so.
  assertStringIncludes(html, "Coverage map");
  assertMatch(html, /<svg[^>]*us-map__svg/);
  // The states outline is the build's cached file, not path data in the page.
  const outline = t.deps.assets.mapOutline;
  assertStringIncludes(html, `<use class="us-map__land" href="${outline}#land"></use>`);
  assertStringIncludes(html, `<use class="us-map__borders" href="${outline}#borders"></use>`);
  assert(!html.includes('<path class="us-map__land"'), "no inline outline");
  assertStringIncludes(html, "Drawn for in network, in Texas as the page loaded: all 1 surveyor.");
  t.close();
});

test("[surveyor pages] the map's table is a link that keeps the filters, to a page listing the same firms (works without JavaScript)", async () => {
  const t = await createTestApp();
  const { austin, dallas, fresno } = await network(t);
  const { cookie } = await createSignedInUser(t, { role: "admin" });
  const directory = await pageText(await getPage(t, "/surveyors?state=TX", cookie));
  assertStringIncludes(
    directory,
    `<a href="/surveyors/map-table?state=TX">Show the map&#x27;s data as a table</a>`,
  );
  assert(!directory.includes("<summary>Show the map"), "the table is not in the page");

  const res = await getPage(t, "/surveyors/map-table?state=TX", cookie);
  assertEquals(res.status, 200);
  assertHtml(res);
  const html = await pageText(res);
  assertStringIncludes(html, "Surveyor offices on the map");
  assertStringIncludes(html, `<a href="/surveyors?state=TX">← Back to surveyors</a>`);
  assertMatch(html, /<table[^>]*>[\s\S]*Austin Land Surveying[\s\S]*Dallas Prospect Co/);
  assertStringIncludes(html, `href="/surveyor-detail/${austin.id}"`);
  assertStringIncludes(html, `href="/surveyor-detail/${dallas.id}"`);
  assert(!html.includes(fresno.id), "another state's firm is not listed");
  assertStringIncludes(html, "Prospect");

  // Admins only, like the directory.
  for (const role of ROLES.filter((r) => r !== "admin")) {
    const other = await signInAs(t, role);
    const page = await assertForbiddenPage(
      await getPage(t, "/surveyors/map-table", other),
      `${role} map table`,
    );
    assert(!page.includes("Austin Land Surveying"));
  }
  await assertRedirectsToAuth(await getPage(t, "/surveyors/map-table"), "/surveyors/map-table");
  t.close();
});

test("[surveyor pages] search, type and status filters narrow the first page", async () => {
  const t = await createTestApp();
  await network(t);
  const admin = await signInAs(t, "admin");
  const rows = async (query: string) =>
    tableCompanies((await loadPage(t, `/surveyors?${query}`, admin)).html);
  assertEquals(await rows("q=fresno"), ["Fresno Field Crew"]);
  assertEquals(await rows("q=DALLAS"), ["Dallas Prospect Co"]);
  assertEquals(await rows("surveyType=alta"), ["Dallas Prospect Co"]);
  assertEquals(await rows("status=paused"), ["Fresno Field Crew"]);
  assertEquals(await rows(""), [
    "Austin Land Surveying",
    "Dallas Prospect Co",
    "Fresno Field Crew",
  ]);
  t.close();
});

test("[surveyor pages] odd filters in the address are dropped, never a 400 page", async () => {
  const t = await createTestApp();
  await network(t);
  const admin = await signInAs(t, "admin");
  for (
    const query of [
      "state=ZZ",
      "status=gone",
      "surveyType=moon",
      "inNetworkOnly=maybe",
      "page=abc",
      "page=-1",
      `q=${"x".repeat(10_000)}`,
    ]
  ) {
    const { res, html } = await loadPage(t, `/surveyors?${query}`, admin);
    assertEquals(res.status, 200, query.slice(0, 30));
    const props = islandProps<SurveyorDirectoryProps>(html, "SurveyorDirectory");
    assertEquals(props.initial.total, 3, query.slice(0, 30));
  }
  t.close();
});

test("[surveyor pages] the directory pages through records 25 at a time", async () => {
  const t = await createTestApp();
  for (let i = 0; i < 27; i++) {
    await surveyor(t, { companyName: `Firm ${String(i).padStart(2, "0")}`, state: "OH" });
  }
  const admin = await signInAs(t, "admin");
  const firstHtml = (await loadPage(t, "/surveyors", admin)).html;
  const first = islandProps<SurveyorDirectoryProps>(firstHtml, "SurveyorDirectory");
  assertEquals(tableCompanies(firstHtml).length, 25);
  assertEquals(tableCompanies(firstHtml)[0], "Firm 00");
  assertEquals(first.initial.total, 27);
  const { html } = await loadPage(t, "/surveyors?page=2", admin);
  const second = islandProps<SurveyorDirectoryProps>(html, "SurveyorDirectory");
  assertEquals(second.initial.page, 2);
  assertEquals(tableCompanies(html), ["Firm 25", "Firm 26"]);
  // The map draws the first 100 matches whatever page the table is on; these have no office.
  assertStringIncludes(
    html,
    "all 27 surveyors; 27 without an office location are not drawn.",
  );
  t.close();
});

test("[surveyor pages] a record's page has its editors, history, leads and surveys", async () => {
  const t = await createTestApp();
  const { austin } = await network(t);
  const { user: admin, cookie } = await createSignedInUser(t, {
    role: "admin",
    fullName: "Ada Admin",
  });
  const logged = await t.request("POST", `/api/surveyors/${austin.id}/contact-history`, {
    cookie,
    body: { channel: "call", summary: "Agreed to join the network", nextFollowUp: "2031-05-04" },
  });
  assertEquals(logged.status, 201, await logged.text());
  // A request the surveyor was offered as a lead and is assigned to.
  const survey = await submitSurvey(t, await signInAs(t, "client"), {
    contactName: "Dana Client",
    contactEmail: "dana.private@example.test",
  });
  const [lead] = await t.sql<{ id: string }[]>`
    insert into leads (survey_id, price_cents, pricing, expires_at)
    values (${survey.id}, 3850, ${t.sql.json({ version: 1 })}, now() + interval '3 days')
    returning id`;
  await t.sql`
    insert into lead_recipients (lead_id, surveyor_id, kind, outcome, distance_miles)
    values (${lead.id}, ${austin.id}, 'notified', 'purchased', 4.2)`;
  await t.sql`update surveys set assigned_surveyor_id = ${austin.id} where id = ${survey.id}`;

  const res = await getPage(t, `/surveyor-detail/${austin.id}`, cookie);
  assertEquals(res.status, 200);
  assertHtml(res);
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  const html = await pageText(res);
  assertStringIncludes(html, "<h1>Austin Land Surveying</h1>");
  const props = islandProps<SurveyorDetailProps>(html, "SurveyorDetail");
  assertEquals(props.surveyor.id, austin.id);
  assertEquals(props.surveyor.contacts.map((c) => c.name), ["Pat Primary", "Sam Second"]);
  assertEquals(props.history.map((h) => [h.summary, h.authorName, h.nextFollowUp]), [
    ["Agreed to join the network", admin.fullName, "2031-05-04"],
  ]);
  // Server-rendered editors: the form, the contacts and the log.
  assertStringIncludes(html, 'value="Austin Land Surveying"');
  assertStringIncludes(html, "Pat Primary");
  assertStringIncludes(html, "Agreed to join the network");
  // Leads sent, with price and outcome, and the assigned survey, each linking to the survey.
  assertStringIncludes(html, "Leads sent");
  assertStringIncludes(html, "$38.50");
  assertStringIncludes(html, "Purchased");
  assertStringIncludes(html, "4.2 mi away");
  assertEquals(html.split(`href="/survey/${survey.id}"`).length - 1, 2);
  assertStringIncludes(html, "Austin, TX");
  // The account panel says no account is linked.
  assertStringIncludes(html, "No account yet.");
  // Never the client's personal details.
  assert(!html.includes("dana.private@example.test"), "no client email");
  assert(!html.includes("Dana Client"), "no client name");
  assert(!html.includes("Barton Springs"), "no street address");
  t.close();
});

test("[surveyor pages] an unknown or malformed id is the 404 page", async () => {
  const t = await createTestApp();
  await network(t);
  const admin = await signInAs(t, "admin");
  const client = await createSignedInUser(t, { role: "client" });
  for (const id of [SOME_UUID, client.user.id, "not-a-uuid", "x".repeat(10_000)]) {
    const res = await getPage(t, `/surveyor-detail/${id}`, admin);
    assertEquals(res.status, 404, id.slice(0, 40));
    assertHtml(res);
    assertStringIncludes(await res.text(), "404 Page Not Found");
  }
  t.close();
});

test("[surveyor pages] the directory with no records says how to add one", async () => {
  const t = await createTestApp();
  const html = await pageText(await getPage(t, "/surveyors", await signInAs(t, "admin")));
  assertStringIncludes(html, "No surveyors yet.");
  assertStringIncludes(html, "Add surveyor");
  // Its dialog is drawn when it is first opened, not sent with the page.
  assert(!html.includes("new-surveyor-company"), "no closed form in the page");
  const props = islandProps<SurveyorDirectoryProps>(html, "SurveyorDirectory");
  assertEquals(props.initial.total, 0);
  t.close();
});
