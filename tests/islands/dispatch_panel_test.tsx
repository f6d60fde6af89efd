import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { signInAs } from "../_auth.ts";
import { putSurveyInStatus, submitSurvey } from "../_fixtures.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { insertSurveyor } from "../../db/surveyors.ts";
import type { NearbySurveyorInfo, Place } from "../../lib/surveyor_schema.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: DispatchPanel } = await import("../../islands/DispatchPanel.tsx");
type DispatchPanelProps = import("../../islands/DispatchPanel.tsx").DispatchPanelProps;
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");

/** Two active in-network surveyors a few miles from the fixture's Austin property. */
async function network(t: TestApp) {
  const common = {
    licenseStates: ["TX" as const],
    surveyTypes: ["boundary" as const],
    inNetwork: true,
    status: "active" as const,
    serviceRadiusMiles: 50,
  };
  const near = await insertSurveyor(t.sql, {
    ...common,
    companyName: "Barton Creek Surveying",
    email: "office@barton-creek.example.test",
    lat: 30.28,
    lng: -97.74,
  });
  const far = await insertSurveyor(t.sql, {
    ...common,
    companyName: "Round Rock Land Services",
    email: "hello@round-rock.example.test",
    lat: 30.51,
    lng: -97.68,
  });
  return { near, far };
}

/** An admin, a client's request near the network, and the panel as /survey/{id} renders it. */
async function mount(t: TestApp, { withNetwork = true } = {}) {
  const admin = await signInAs(t, "admin");
  const survey = await submitSurvey(t, await signInAs(t, "client"));
  const surveyors = withNetwork ? await network(t) : null;
  const api = useAppFetch(t, { cookie: admin });
  async function show() {
    cleanup();
    const { res, html } = await loadPage(t, `/survey/${survey.id}`, admin);
    assertEquals(res.status, 200);
    const props = islandProps<DispatchPanelProps>(html, "DispatchPanel");
    render(<DispatchPanel {...props} />);
    // Hydrated: the actions are enabled once the island runs.
    await waitFor(() => assert(document.querySelector(".dispatch[data-hydrated]")));
    return { html, props };
  }
  return {
    admin,
    survey,
    surveyors,
    api,
    show,
    done() {
      cleanup();
      api.restore();
      dismissToast();
      t.close();
    },
  };
}

function button(name: string | RegExp): HTMLButtonElement {
  return screen.getByRole("button", { name }) as HTMLButtonElement;
}

async function press(name: string | RegExp) {
  await act(() => void fireEvent.click(button(name)));
}

function lastToast() {
  const [shown] = getToasts();
  return shown
    ? { title: shown.title, description: shown.description, variant: shown.variant }
    : undefined;
}

function rowNames(): string[] {
  return [...document.querySelectorAll(".dispatch__table tbody tr td:first-child")].map((td) =>
    td.textContent ?? ""
  );
}

test("[dispatch panel] before any search, Notify is disabled with the reason shown", async () => {
  const t = await createTestApp();
  const m = await mount(t);
  try {
    const { props } = await m.show();
    assertEquals(props.initial.foundAt, null);
    assertEquals(props.initial.surveyors, []);
    const notify = button("Notify surveyors");
    assertEquals(notify.disabled, true);
    const reason = document.getElementById(notify.getAttribute("aria-describedby")!);
    assertEquals(reason?.textContent, "Find surveyors first: nobody has been matched yet.");
    assertEquals(button("Find surveyors").disabled, false);
    assertEquals(rowNames(), ["Nobody matched yet. Use Find surveyors."]);
  } finally {
    m.done();
  }
});

test("[dispatch panel] Find shows the matches and 'Surveyors found'; again, 'Using existing surveyors'; Refresh searches anew", async () => {
  const t = await createTestApp();
  const m = await mount(t);
  try {
    await m.show();
    await press("Find surveyors");
    await waitFor(() => assertEquals(lastToast()?.title, "Surveyors found"));
    assertEquals(lastToast(), {
      title: "Surveyors found",
      description: "Found 2 nearby surveyor(s).",
      variant: "default",
    });
    assertEquals(rowNames(), ["Barton Creek Surveying", "Round Rock Land Services"]);
    const link = screen.getByRole("link", { name: "Barton Creek Surveying" });
    assertEquals(link.getAttribute("href"), `/surveyor-detail/${m.surveyors!.near.id}`);
    const first = document.querySelector(".dispatch__table tbody tr")!;
    assertMatch(first.textContent ?? "", /\d+(\.\d)? mi/);
    assertMatch(first.textContent ?? "", /In network/);
    assertEquals(first.querySelector('[data-label="Notified"]')?.textContent, "No");
    assertEquals(button("Notify surveyors").disabled, false);
    assertEquals(
      m.api.calls.map((c) => `${c.method} ${c.path}`),
      [`POST /api/surveys/${m.survey.id}/find-surveyors`],
    );

    dismissToast();
    await press("Find surveyors");
    await waitFor(() => assertEquals(lastToast()?.title, "Using existing surveyors"));
    assertEquals(
      lastToast()?.description,
      "2 nearby surveyor(s) from the last search. Use Refresh to search again.",
    );

    // A third surveyor joins; only Refresh finds them.
    await insertSurveyor(t.sql, {
      companyName: "Zilker Geomatics",
      licenseStates: ["TX"],
      surveyTypes: ["boundary"],
      inNetwork: true,
      status: "active",
      lat: 30.266,
      lng: -97.77,
    });
    dismissToast();
    await press(/^Refresh/);
    await waitFor(() => assertEquals(lastToast()?.title, "Surveyors found"));
    assertEquals(lastToast()?.description, "Found 3 nearby surveyor(s).");
    assertEquals(rowNames().length, 3);
    assertEquals(
      m.api.calls.map((c) => c.path).at(-1),
      `/api/surveys/${m.survey.id}/find-surveyors?refresh=true`,
    );
  } finally {
    m.done();
  }
});

test("[dispatch panel] the matches and their time come back on reload (server-rendered)", async () => {
  const t = await createTestApp();
  const m = await mount(t);
  try {
    await m.show();
    await press("Find surveyors");
    await waitFor(() => assertEquals(lastToast()?.title, "Surveyors found"));
    const { props, html } = await m.show();
    assertEquals(props.initial.surveyors.map((s) => s.name), [
      "Barton Creek Surveying",
      "Round Rock Land Services",
    ]);
    assert(props.initial.foundAt);
    // The server-drawn map beside the panel shows both, and the property.
    assertMatch(html, /In-network surveyors<span class="muted"> \(2\)<\/span>/);
    assertMatch(html, /Property<\/td>/);
    assertEquals(rowNames(), ["Barton Creek Surveying", "Round Rock Land Services"]);
  } finally {
    m.done();
  }
});

test("[dispatch panel] Notify offers the lead: 'Surveyors notified' with the count and price, the lead and the notified marks", async () => {
  const t = await createTestApp();
  const m = await mount(t);
  try {
    await m.show();
    await press("Find surveyors");
    await waitFor(() => assertEquals(lastToast()?.title, "Surveyors found"));
    dismissToast();
    await press("Notify surveyors");
    await waitFor(() => assertEquals(lastToast()?.title, "Surveyors notified"));
    await act(() => m.api.idle());
    const [lead] = await t.sql<{ priceCents: number; maxBuyers: number }[]>`
      select price_cents, max_buyers from leads where survey_id = ${m.survey.id}`;
    assert(lead, "the lead exists");
    const dollars = (lead.priceCents / 100).toFixed(2);
    // No mail server (the default): the toast says the lead emails stayed in the outbox.
    assertEquals(lastToast(), {
      title: "Surveyors notified",
      description:
        `Notified 2 surveyors · lead price $${dollars}. No mail server is configured, so the lead emails were not sent; surveyors with an account see the lead in the app.`,
      variant: "default",
    });
    assertEquals(getToasts()[0].link, { label: "Open in Emails", href: "/admin/email-outbox" });
    await waitFor(() => assert(document.querySelector('[data-testid="lead-price"]')));
    assertEquals(document.querySelector('[data-testid="lead-price"]')?.textContent, `$${dollars}`);
    assertMatch(document.querySelector(".dispatch__lead")?.textContent ?? "", /At most 3/);
    assertEquals(
      [...document.querySelectorAll('.dispatch__table [data-label="Notified"]')].map((td) =>
        td.textContent
      ),
      ["Yes", "Yes"],
    );

    // Again: nobody is notified twice, and the toast says so.
    dismissToast();
    await press("Notify surveyors");
    await waitFor(() => assertEquals(lastToast()?.title, "Surveyors notified"));
    await act(() => m.api.idle());
    assertEquals(lastToast()?.description, `Notified 0 surveyors · lead price $${dollars}`);
    const [{ n }] = await t.sql<{ n: number }[]>`
      select count(*)::int as n from lead_recipients r join leads l on l.id = r.lead_id
      where l.survey_id = ${m.survey.id}`;
    assertEquals(n, 2);
  } finally {
    m.done();
  }
});

test("[dispatch panel] a request deleted meanwhile: 'Error finding surveyors' with the server's message", async () => {
  const t = await createTestApp();
  const m = await mount(t);
  try {
    await m.show();
    const res = await t.request("DELETE", `/api/surveys/${m.survey.id}`, { cookie: m.admin });
    assertEquals(res.status, 200, await res.text());
    let serverMessage = "";
    m.api.restore();
    const api = useAppFetch(t, {
      cookie: m.admin,
      canned: {
        // The real answer, read on the way past to know the server's words.
        [`POST /api/surveys/${m.survey.id}/find-surveyors`]: async (_call, app) => {
          const answer = await app();
          serverMessage = (await answer.clone().json()).message;
          return answer;
        },
      },
    });
    try {
      await press("Find surveyors");
      await waitFor(() => assertEquals(lastToast()?.title, "Error finding surveyors"));
      assert(serverMessage, "the server said why");
      assertEquals(lastToast(), {
        title: "Error finding surveyors",
        description: serverMessage,
        variant: "destructive",
      });
    } finally {
      api.restore();
    }
  } finally {
    m.done();
  }
});

test("[dispatch panel] a request cancelled after the search: 'Error notifying surveyors' with the server's message, nothing offered", async () => {
  const t = await createTestApp();
  const m = await mount(t);
  try {
    await m.show();
    await press("Find surveyors");
    await waitFor(() => assertEquals(lastToast()?.title, "Surveyors found"));
    await putSurveyInStatus(t, m.survey.id, "cancelled");
    dismissToast();
    await press("Notify surveyors");
    await waitFor(() => assertEquals(lastToast()?.title, "Error notifying surveyors"));
    const toast = lastToast()!;
    assertEquals(toast.variant, "destructive");
    assert(toast.description && !/^\d{3}:/.test(toast.description), toast.description);
    assert(!/try again/i.test(toast.description!), "the server's reason, not the fallback");
    const [{ n }] = await t.sql<{ n: number }[]>`select count(*)::int as n from lead_recipients`;
    assertEquals(n, 0);
  } finally {
    m.done();
  }
});

test("[dispatch panel] a cancelled request: both actions disabled, the reason shown", async () => {
  const t = await createTestApp();
  const m = await mount(t);
  try {
    await putSurveyInStatus(t, m.survey.id, "cancelled");
    await m.show();
    assertEquals(button("Find surveyors").disabled, true);
    assertEquals(button("Notify surveyors").disabled, true);
    assertEquals(
      document.getElementById(button("Notify surveyors").getAttribute("aria-describedby")!)
        ?.textContent,
      "This request was cancelled: there is nobody to notify.",
    );
  } finally {
    m.done();
  }
});

test("[dispatch panel] a network failure: 'Error finding surveyors' with the fallback", async () => {
  const t = await createTestApp();
  const m = await mount(t, { withNetwork: false });
  try {
    await m.show();
    m.api.restore();
    // A network failure is something the app cannot be made to produce.
    const api = useAppFetch(t, {
      cookie: m.admin,
      canned: {
        [`POST /api/surveys/${m.survey.id}/find-surveyors`]: () => {
          throw new TypeError("Failed to fetch");
        },
      },
    });
    try {
      await press("Find surveyors");
      await waitFor(() => assertEquals(lastToast()?.title, "Error finding surveyors"));
      assertEquals(lastToast()?.description, "Could not find surveyors. Please try again.");
    } finally {
      api.restore();
    }
  } finally {
    m.done();
  }
});

/** A business from the places provider, stored on the survey as find-surveyors stores it. */
async function storePlaceMatch(t: TestApp, surveyId: string): Promise<Place> {
  const place: Place = {
    placeId: "places/ChIJ-test-zilker",
    name: "Zilker Park Surveyors",
    address: "2100 Barton Springs Rd, Austin, TX 78746",
    city: "Austin",
    state: "TX",
    zip: "78746",
    lat: 30.267,
    lng: -97.772,
    phone: "(512) 555-0199",
    website: "https://zilker-surveyors.example.test",
    rating: 4.6,
    reviewCount: 31,
  };
  const match: NearbySurveyorInfo = {
    surveyorId: null,
    name: place.name,
    distanceMiles: 0.8,
    score: 40,
    inNetwork: false,
    source: "place",
    status: null,
    lat: place.lat,
    lng: place.lng,
    place,
    notified: false,
  };
  await t.sql`
    update surveys set nearby_surveyors = ${t.sql.json([match] as never)},
      nearby_surveyors_found_at = now()
    where id = ${surveyId}`;
  return place;
}

test("[dispatch panel] Convert turns a place into a prospect record and the row into its link", async () => {
  const t = await createTestApp();
  const m = await mount(t, { withNetwork: false });
  try {
    await storePlaceMatch(t, m.survey.id);
    await m.show();
    assertEquals(rowNames(), ["Zilker Park Surveyors"]);
    assertMatch(document.querySelector(".dispatch__table tbody tr")!.textContent!, /Prospect/);
    await press(/^Convert/);
    await waitFor(() => assert(screen.queryByRole("link", { name: "Zilker Park Surveyors" })));
    const [record] = await t.sql<{ id: string; status: string; source: string }[]>`
      select id, status, source from surveyors where place_id = 'places/ChIJ-test-zilker'`;
    assertEquals([record.status, record.source], ["prospect", "place"]);
    assertEquals(
      screen.getByRole("link", { name: "Zilker Park Surveyors" }).getAttribute("href"),
      `/surveyor-detail/${record.id}`,
    );
    assertEquals(screen.queryByRole("button", { name: /^Convert/ }), null);
    assertEquals(lastToast()?.variant, "default");
  } finally {
    m.done();
  }
});

test("[dispatch panel] a failed convert toasts 'Failed to create surveyor' and keeps the row", async () => {
  const t = await createTestApp();
  const m = await mount(t, { withNetwork: false });
  try {
    await storePlaceMatch(t, m.survey.id);
    await m.show();
    m.api.restore();
    // A 500 is something the app cannot be made to produce on purpose.
    const api = useAppFetch(t, {
      cookie: m.admin,
      canned: {
        "POST /api/convert-place-to-surveyor": new Response(
          JSON.stringify({ message: "Internal Server Error", requestId: "r1" }),
          { status: 500, headers: { "content-type": "application/json" } },
        ),
      },
    });
    try {
      await press(/^Convert/);
      await waitFor(() => assertEquals(lastToast()?.title, "Failed to create surveyor"));
      assertEquals(lastToast()?.variant, "destructive");
      assertEquals(screen.queryByRole("link", { name: "Zilker Park Surveyors" }), null);
      assert(button(/^Convert/));
      const [{ n }] = await t.sql<{ n: number }[]>`select count(*)::int as n from surveyors`;
      assertEquals(n, 0);
    } finally {
      api.restore();
    }
  } finally {
    m.done();
  }
});

// Issue 21: after Find / Notify the assignment box had no surveyor list and the map showed
// the old matches until a reload.
test("[dispatch panel] Find and Notify update the assignment form's list and redraw the map in place", async () => {
  const t = await createTestApp();
  const m = await mount(t);
  try {
    const { default: AssignSurveyor } = await import("../../islands/AssignSurveyor.tsx");
    const { default: DispatchMapSync } = await import("../../islands/DispatchMapSync.tsx");
    type AssignProps = import("../../islands/AssignSurveyor.tsx").AssignSurveyorProps;
    const { html } = await loadPage(t, `/survey/${m.survey.id}`, m.admin);
    assert(html.includes(`data-dispatch-map="${m.survey.id}"`), "the map has its box");
    assert(html.includes('data-island="DispatchMapSync"'));
    render(
      <>
        <DispatchPanel {...islandProps<DispatchPanelProps>(html, "DispatchPanel")} />
        <AssignSurveyor {...islandProps<AssignProps>(html, "AssignSurveyor")} />
        <div data-dispatch-map={m.survey.id}>
          <p>The map as the page was served</p>
        </div>
        <DispatchMapSync surveyId={m.survey.id} />
      </>,
    );
    await waitFor(() => assert(document.querySelector(".dispatch[data-hydrated]")));
    await waitFor(() => assert(document.querySelector(".assign-surveyor[data-hydrated]")));
    assertMatch(document.querySelector(".assign-surveyor")!.textContent!, /Nobody to assign yet/);

    await press("Find surveyors");
    await waitFor(() => assertEquals(lastToast()?.title, "Surveyors found"));
    await act(() => m.api.idle());
    const options = () =>
      [...document.querySelectorAll(".assign-surveyor option")].map((o) => o.textContent ?? "");
    await waitFor(() => assertEquals(options().length, 3));
    assertMatch(options()[1], /^Barton Creek Surveying \(Matched, /);
    assertMatch(options()[2], /^Round Rock Land Services \(Matched, /);
    const map = () => document.querySelector(`[data-dispatch-map="${m.survey.id}"]`)!;
    await waitFor(() => assert(map().textContent!.includes("Barton Creek Surveying")));
    assert(!map().textContent!.includes("The map as the page was served"));
    assert(map().querySelector("svg"), "the server's SVG map");
    assertEquals(
      document.querySelector(".visually-hidden[role=status]")?.textContent,
      "Dispatch map redrawn.",
    );

    dismissToast();
    await press("Notify surveyors");
    await waitFor(() => assertEquals(lastToast()?.title, "Surveyors notified"));
    await act(() => m.api.idle());
    assertEquals(options().length, 3, "still both matches after Notify");
    assert(map().textContent!.includes("Round Rock Land Services"));
    // The redraw endpoint is the admins' only.
    const client = await signInAs(t, "client");
    const res = await t.app.request(`/api/surveys/${m.survey.id}/dispatch-map`, {
      headers: { cookie: client },
    });
    assertEquals(res.status, 403);
  } finally {
    m.done();
  }
});
