import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { signInAs } from "../_auth.ts";
import { loadPage } from "../_pages.ts";
import { countRows } from "../_fixtures.ts";
import { addLead, addMarketSurveyor, north } from "../_lead_fixtures.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";
import { hydrateIsland } from "./_hydrate.ts";
import { makeOlder } from "../_row_order.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, screen, waitFor, within } = await import(
  "@testing-library/react"
);
const { default: AvailableLeads, leadQuery, NO_LEAD_FILTERS } = await import(
  "../../islands/AvailableLeads.tsx"
);
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");

/**
 * A surveyor offering boundary and topographic surveys 5 miles north of the fixture site, a
 * boundary request at the site (5 miles away) and a topographic one 40 miles north (35 away).
 */
async function market(t: TestApp) {
  const client = await signInAs(t, "client");
  const surveyor = await addMarketSurveyor(t, "Barton Creek Surveying", {
    balanceCents: 100_00,
    surveyTypes: ["boundary", "topographic"],
  });
  const { lead: near } = await addLead(t, client);
  // A minute older than the next (leads made back to back can share a timestamp).
  await makeOlder(t.sql, "leads");
  const { lead: far } = await addLead(t, client, {
    overrides: {
      surveyType: "topographic",
      address: "100 Main St, Georgetown, TX 78626",
      formattedAddress: "100 Main St, Georgetown, TX 78626, USA",
      ...north(40),
    },
  });
  return { client, surveyor, near, far };
}

/** /leads (at `path`) as the server renders it for the surveyor, fetch reaching the app. */
async function mount(t: TestApp, cookie: string, path = "/leads") {
  const { html } = await loadPage(t, path, cookie);
  history.replaceState(null, "", path);
  const api = useAppFetch(t, { cookie });
  // Over the server's HTML, as in the browser: the first page's cards are that HTML only.
  const island = await hydrateIsland(html, "AvailableLeads", AvailableLeads);
  await waitFor(() => assert(document.querySelector(".available-leads[data-hydrated]")));
  return {
    api,
    done() {
      island.unmount();
      cleanup();
      api.restore();
      dismissToast();
      history.replaceState(null, "", "/");
      t.close();
    },
  };
}

function titles(): string[] {
  return [...document.querySelectorAll(".lead-card__title")].map((h) => h.textContent ?? "");
}

function select(label: string): HTMLSelectElement {
  return screen.getByLabelText(label) as HTMLSelectElement;
}

async function choose(label: string, value: string) {
  await act(() => void fireEvent.change(select(label), { target: { value } }));
}

test("[available leads] leadQuery leaves out empty filters and page 1", () => {
  assertEquals(leadQuery(NO_LEAD_FILTERS, 1), "");
  assertEquals(
    leadQuery({ surveyType: "alta", maxDistance: "25" }, 3),
    "surveyType=alta&maxDistance=25&page=3",
  );
});

test("[available leads] changing the type or the distance reloads the list from the API; the address follows", async () => {
  const t = await createTestApp();
  const { surveyor } = await market(t);
  const m = await mount(t, surveyor.cookie);
  try {
    assertEquals(titles(), [
      "Topographic Survey in Georgetown, TX 78626",
      "Boundary Survey in Austin, TX 78704",
    ]);
    assertEquals(screen.getByRole("status").textContent, "2 open leads, newest first");

    await choose("Survey type", "topographic");
    await waitFor(() => assertEquals(titles(), ["Topographic Survey in Georgetown, TX 78626"]));
    assertEquals(location.search, "?surveyType=topographic");
    assertEquals(
      screen.getByRole("status").textContent,
      "1 open lead matches these filters, newest first",
    );

    await choose("Survey type", "");
    await waitFor(() => assertEquals(titles().length, 2));
    await choose("Distance", "10");
    await waitFor(() => assertEquals(titles(), ["Boundary Survey in Austin, TX 78704"]));
    assertEquals(location.search, "?maxDistance=10");

    // Nothing within 10 miles of that type: say so, and offer to clear the filters.
    await choose("Survey type", "topographic");
    await waitFor(() => screen.getByRole("heading", { name: "No leads match these filters" }));
    await act(() =>
      void fireEvent.click(screen.getAllByRole("button", { name: "Clear filters" })[0])
    );
    await waitFor(() => assertEquals(titles().length, 2));
    assertEquals(location.search, "");
    assertEquals(select("Survey type").value, "");
    assertEquals(select("Distance").value, "");

    assertEquals(m.api.calls.map((c) => `${c.method} ${c.path}`), [
      "GET /api/leads?surveyType=topographic",
      "GET /api/leads",
      "GET /api/leads?maxDistance=10",
      "GET /api/leads?surveyType=topographic&maxDistance=10",
      "GET /api/leads",
    ]);
  } finally {
    m.done();
  }
});

test("[available leads] a filtered address renders filtered, and reloads as it was", async () => {
  const t = await createTestApp();
  const { surveyor } = await market(t);
  const m = await mount(t, surveyor.cookie, "/leads?surveyType=boundary&maxDistance=25");
  try {
    assertEquals(titles(), ["Boundary Survey in Austin, TX 78704"]);
    assertEquals(select("Survey type").value, "boundary");
    assertEquals(select("Distance").value, "25");
    assertEquals(m.api.calls, [], "the first page comes with the HTML");
  } finally {
    m.done();
  }
});

test("[available leads] Not interested asks first, hides the lead for good and charges nothing", async () => {
  const t = await createTestApp();
  const { surveyor, near, far } = await market(t);
  const m = await mount(t, surveyor.cookie);
  try {
    const card = document.querySelector(`[data-lead-id="${near.id}"]`) as HTMLElement;
    await act(() =>
      void fireEvent.click(within(card).getByRole("button", { name: /Not interested/ }))
    );
    const dialog = document.querySelector("dialog")!;
    assertEquals(dialog.open, true);
    assertMatch(
      dialog.textContent ?? "",
      /Boundary Survey in Austin, TX 78704 will no longer show/,
    );
    assertMatch(dialog.textContent ?? "", /Nothing is charged/);

    // "Keep it" closes without a request.
    await act(() => void fireEvent.click(within(dialog).getByRole("button", { name: "Keep it" })));
    assertEquals(dialog.open, false);
    assertEquals(m.api.calls, []);

    await act(() =>
      void fireEvent.click(within(card).getByRole("button", { name: /Not interested/ }))
    );
    await act(() =>
      void fireEvent.click(within(dialog).getByRole("button", { name: "Not interested" }))
    );
    await waitFor(() => assertEquals(titles(), ["Topographic Survey in Georgetown, TX 78626"]));
    assertEquals(dialog.open, false);
    assertEquals(getToasts()[0]?.title, "Lead hidden");
    assertEquals(m.api.calls.map((c) => `${c.method} ${c.path}`), [
      `POST /api/leads/${near.id}/dismiss`,
      "GET /api/leads",
    ]);
    assertEquals(await countRows(t, "lead_dismissals"), 1);
    assertEquals(await countRows(t, "surveyor_ledger"), 1, "only the fixture's top-up");
    // Gone on the next page load too.
    const { html } = await loadPage(t, "/leads", surveyor.cookie);
    assertEquals(html.includes(`data-lead-id="${near.id}"`), false);
    assert(html.includes(`data-lead-id="${far.id}"`));
  } finally {
    m.done();
  }
});

test("[available leads] more than a page: Next and Previous page through the API", async () => {
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  const surveyor = await addMarketSurveyor(t, "Barton Creek Surveying");
  const leads = [];
  for (let i = 0; i < 21; i++) leads.push((await addLead(t, client)).lead);
  // The first a minute older, so it is the oldest for certain (leads can share a timestamp).
  await makeOlder(t.sql, "leads", { where: t.sql`id = ${leads[0].id}` });
  const m = await mount(t, surveyor.cookie);
  try {
    assertEquals(document.querySelectorAll(".lead-card").length, 20);
    assertEquals(screen.getByText("Page 1 of 2").tagName, "SPAN");
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Next" })));
    await waitFor(() => screen.getByText("Page 2 of 2"));
    // The oldest is the only one on page 2.
    const cards = [...document.querySelectorAll(".lead-card")];
    assertEquals(cards.map((c) => c.getAttribute("data-lead-id")), [leads[0].id]);
    assertEquals(location.search, "?page=2");
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Previous" })));
    await waitFor(() => screen.getByText("Page 1 of 2"));
    assertEquals(location.search, "");
  } finally {
    m.done();
  }
});
