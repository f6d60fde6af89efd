/**
 * Pages whose address carries a secret (issue 20): `/reset-password?token=…`,
 * `/surveyor/claim?token=…` and `/lead/{id}?token=…` load no third-party script (analytics,
 * chat) even when both are configured, while other pages still do.
 */
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { expectJson, submitSurvey } from "../_fixtures.ts";
import { insertSurveyor } from "../../db/surveyors.ts";

const THIRD_PARTY = {
  ANALYTICS_SCRIPT_URL: "https://stats.example.net/script.js",
  ANALYTICS_SITE_ID: "meridian.example",
  CHAT_WIDGET_APP_ID: "abc123",
};

function thirdPartyScripts(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>/g)]
    .map((m) => m[0])
    .filter((tag) => tag.includes("stats.example.net") || tag.includes("chat-widget.js"));
}

async function page(t: TestApp, path: string): Promise<string> {
  const res = await t.request("GET", path);
  assertEquals(res.status, 200, path);
  assertMatch(res.headers.get("content-type") ?? "", /^text\/html/);
  return await res.text();
}

/** A prospect invited to a lead: the emailed lead and join links, as they are clicked. */
async function invitationLinks(t: TestApp) {
  const admin = await createSignedInUser(t, { role: "admin" });
  const client = await createSignedInUser(t, { role: "client" });
  const survey = await submitSurvey(t, client.cookie);
  await insertSurveyor(t.sql, {
    companyName: "Prospect Land Surveys",
    email: "office@prospect-surveys.example",
    lat: 30.3,
    lng: -97.76,
    licenseStates: ["TX"],
    surveyTypes: ["boundary"],
    source: "place",
    placeId: "place-prospect-1",
  });
  const res = await t.request("POST", `/api/surveys/${survey.id}/notify-surveyors`, {
    cookie: admin.cookie,
  });
  assertEquals((await expectJson(res, 200)).invited, 1);
  const [email] = await t.sql<{ html: string }[]>`
    select html from email_outbox where template = 'lead_invitation'`;
  const lead = email.html.match(/href="http:\/\/localhost(\/lead\/[^"?]+\?token=[\w-]{43})"/);
  const claim = email.html.match(/href="http:\/\/localhost(\/surveyor\/claim\?token=[\w-]{43})"/);
  assert(lead && claim, "the invitation carries a lead link and a join link");
  return { lead: lead[1], claim: claim[1] };
}

test("[secret urls] pages carrying a token load no analytics or chat script; other pages still do", async () => {
  const t = await createTestApp({ env: THIRD_PARTY });
  try {
    // Configured, so the ordinary pages load both (the lead page without a token too).
    const links = await invitationLinks(t);
    assertEquals(thirdPartyScripts(await page(t, "/")).length, 2);
    assertEquals(thirdPartyScripts(await page(t, links.lead.split("?")[0])).length, 2);

    for (
      const path of [
        `/reset-password?token=${"A".repeat(43)}`,
        links.claim,
        links.lead,
      ]
    ) {
      const html = await page(t, path);
      assertEquals(thirdPartyScripts(html), [], path);
    }
  } finally {
    t.close();
  }
});

test("[secret urls] the emailed lead page takes its token out of the address bar, and loads no third-party script", async () => {
  const t = await createTestApp({ env: THIRD_PARTY });
  try {
    const links = await invitationLinks(t);
    const island = /<div data-island="ForgetUrlToken"[^>]*data-hydrate="load"/;
    const withToken = await page(t, links.lead);
    assertMatch(withToken, island);
    assertEquals(thirdPartyScripts(withToken), []);
    // The join link keeps the token: the page's own link is how it is used.
    assert(withToken.includes(`/surveyor/claim?token=${links.lead.split("token=")[1]}`));
    // Its chunk is in the page's scripts (the boot runtime loads it from the manifest).
    assert(withToken.includes(t.deps.assets.islands.ForgetUrlToken.src), "island chunk linked");

    // A closed or unknown lead opened from the link: the same.
    const unknown = await t.request(
      "GET",
      `/lead/00000000-0000-4000-8000-000000000000?token=${"A".repeat(43)}`,
    );
    assertEquals(unknown.status, 404);
    const unknownHtml = await unknown.text();
    assertMatch(unknownHtml, island);
    assertEquals(thirdPartyScripts(unknownHtml), []);

    // Without a token there is nothing to take away.
    const plain = await page(t, links.lead.split("?")[0]);
    assert(!plain.includes("ForgetUrlToken"));
  } finally {
    t.close();
  }
});
