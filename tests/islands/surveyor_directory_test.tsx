import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { signInAs } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";
import { insertSurveyor, type InsertSurveyorInput } from "../../db/surveyors.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen } = await import("@testing-library/react");
const { default: SurveyorDirectory, surveyorQuery } = await import(
  "../../islands/SurveyorDirectory.tsx"
);
type SurveyorDirectoryProps = import("../../islands/SurveyorDirectory.tsx").SurveyorDirectoryProps;
const shared = await import("../../islands/_surveyor_shared.ts");
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");
const { setNavigateHandler } = await import("../../islands/_nav.ts");

function surveyor(t: TestApp, input: Partial<InsertSurveyorInput> & { companyName: string }) {
  return insertSurveyor(t.sql, input as InsertSurveyorInput);
}

async function network(t: TestApp) {
  await surveyor(t, {
    companyName: "Austin Land Surveying",
    city: "Austin",
    state: "TX",
    inNetwork: true,
    status: "active",
  });
  await surveyor(t, { companyName: "Dallas Prospect Co", city: "Dallas", state: "TX" });
  await surveyor(t, {
    companyName: "Fresno Field Crew",
    city: "Fresno",
    state: "CA",
    status: "paused",
  });
}

/** /surveyors (at `path`) as the server renders it for `admin`, fetch reaching the app. */
async function mount(t: TestApp, admin: string, path = "/surveyors") {
  const { html } = await loadPage(t, path, admin);
  history.replaceState(null, "", path);
  const api = useAppFetch(t, { cookie: admin });
  const navigations: string[] = [];
  const restoreNavigate = setNavigateHandler((url) => navigations.push(url));
  // The page's props leave the first page's rows out (they are its HTML only); these tests
  // drive the island's own rendering, so they pass the same rows in as the list API gives them.
  const props = islandProps<SurveyorDirectoryProps>(html, "SurveyorDirectory");
  const { listSurveyors } = await import("../../db/surveyors.ts");
  const { filters } = props;
  const given = await listSurveyors(
    t.sql,
    {
      q: filters.q || undefined,
      state: filters.state || undefined,
      surveyType: filters.surveyType || undefined,
      status: filters.status || undefined,
      inNetworkOnly: filters.inNetworkOnly === "true",
      page: props.initial.page,
      pageSize: props.initial.pageSize,
    } as Parameters<typeof listSurveyors>[1],
  );
  render(
    <SurveyorDirectory
      {...props}
      initial={{ ...props.initial, rows: given.surveyors.map(shared.toSurveyorRow) }}
    />,
  );
  return {
    api,
    navigations,
    done() {
      cleanup();
      api.restore();
      restoreNavigate();
      dismissToast();
      history.replaceState(null, "", "/");
      t.close();
    },
  };
}

function companies(): string[] {
  return [...document.querySelectorAll(".surveyor-table tbody th a")].map((a) =>
    a.textContent ?? ""
  );
}

test("[surveyor directory] surveyorQuery leaves out empty filters and page 1", () => {
  assertEquals(surveyorQuery(shared.NO_FILTERS, 1), "");
  assertEquals(
    surveyorQuery({ ...shared.NO_FILTERS, state: "TX", q: " austin ", inNetworkOnly: "true" }, 3),
    "q=austin&state=TX&inNetworkOnly=true&page=3",
  );
});

test("[surveyor directory] filters reload the list from the API and the address follows them", async () => {
  const t = await createTestApp();
  await network(t);
  const admin = await signInAs(t, "admin");
  const ui = await mount(t, admin);
  try {
    assertEquals(companies(), [
      "Austin Land Surveying",
      "Dallas Prospect Co",
      "Fresno Field Crew",
    ]);
    await act(() =>
      void fireEvent.change(screen.getByLabelText("State"), { target: { value: "TX" } })
    );
    await act(() => ui.api.idle());
    assertEquals(companies(), ["Austin Land Surveying", "Dallas Prospect Co"]);
    assertEquals(ui.api.calls.at(-1)?.path, "/api/surveyors?state=TX&pageSize=25");
    assertEquals(location.search, "?state=TX");

    await act(() => void fireEvent.click(screen.getByLabelText("In network only")));
    await act(() => ui.api.idle());
    assertEquals(companies(), ["Austin Land Surveying"]);
    assertEquals(location.search, "?state=TX&inNetworkOnly=true");
    assertStringIncludes(
      screen.getByRole("status").textContent ?? "",
      "1 surveyor match these filters",
    );

    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Clear filters" })));
    await act(() => ui.api.idle());
    assertEquals(companies().length, 3);
    assertEquals(location.search, "");

    // Search by city, submitted with the form.
    const search = screen.getByLabelText("Search");
    await act(() => void fireEvent.change(search, { target: { value: "fresno" } }));
    await act(() => void fireEvent.submit(search.closest("form")!));
    await act(() => ui.api.idle());
    assertEquals(companies(), ["Fresno Field Crew"]);
    assertEquals(location.search, "?q=fresno");

    // A count is a quick filter too.
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Clear filters" })));
    await act(() => ui.api.idle());
    const paused = screen.getByRole("button", { name: /Paused/ });
    await act(() => void fireEvent.click(paused));
    await act(() => ui.api.idle());
    assertEquals(companies(), ["Fresno Field Crew"]);
    assertEquals(paused.getAttribute("aria-pressed"), "true");
    assertEquals(location.search, "?status=paused");
  } finally {
    ui.done();
  }
});

test("[surveyor directory] a bookmarked filtered view pages on with the same filters", async () => {
  const t = await createTestApp();
  for (let i = 0; i < 27; i++) {
    await surveyor(t, { companyName: `Ohio Firm ${String(i).padStart(2, "0")}`, state: "OH" });
  }
  await surveyor(t, { companyName: "Texas Firm", state: "TX" });
  const admin = await signInAs(t, "admin");
  const ui = await mount(t, admin, "/surveyors?state=OH");
  try {
    assertEquals(companies().length, 25);
    assertEquals((screen.getByLabelText("State") as HTMLSelectElement).value, "OH");
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Next" })));
    await act(() => ui.api.idle());
    assertEquals(companies(), ["Ohio Firm 25", "Ohio Firm 26"]);
    assertEquals(location.search, "?state=OH&page=2");
    assertStringIncludes(document.body.textContent ?? "", "Page 2 of 2");
  } finally {
    ui.done();
  }
});

test("[surveyor directory] 'Add surveyor' creates the record and opens its page", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const ui = await mount(t, admin);
  try {
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Add surveyor" })));
    await act(() =>
      void fireEvent.change(screen.getByLabelText("Company name"), {
        target: { value: "  Hill Country Surveying  " },
      })
    );
    await act(() =>
      void fireEvent.change(screen.getByLabelText("City (optional)"), {
        target: { value: "Austin" },
      })
    );
    await act(() =>
      void fireEvent.change(screen.getByLabelText("State (optional)"), {
        target: { value: "TX" },
      })
    );
    await act(() => void fireEvent.click(screen.getByLabelText(/^In network \(receives/)));
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Create surveyor" })));
    await act(() => ui.api.idle());
    const [row] = await t.sql<
      { id: string; companyName: string; state: string; inNetwork: boolean; status: string }[]
    >`select id, company_name, state, in_network, status from surveyors`;
    assertEquals(
      [row?.companyName, row?.state, row?.inNetwork, row?.status],
      ["Hill Country Surveying", "TX", true, "prospect"],
    );
    assertEquals(ui.navigations, [`/surveyor-detail/${row.id}`]);
    assertEquals(getToasts()[0]?.title, "Surveyor created");
  } finally {
    ui.done();
  }
});

test("[surveyor directory] a refused new surveyor toasts 'Failed to create surveyor' with the server's message", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const ui = await mount(t, admin);
  try {
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Add surveyor" })));
    // Nothing sent without a company name.
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Create surveyor" })));
    assertEquals(ui.api.calls.filter((c) => c.method === "POST").length, 0);
    assertStringIncludes(document.body.textContent ?? "", "Enter the company name");

    await act(() =>
      void fireEvent.change(screen.getByLabelText("Company name"), {
        target: { value: "Bad Email Surveying" },
      })
    );
    await act(() =>
      void fireEvent.change(screen.getByLabelText("Email (optional)"), {
        target: { value: "not-an-email" },
      })
    );
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Create surveyor" })));
    await act(() => ui.api.idle());
    const post = ui.api.calls.find((c) => c.method === "POST");
    const expected = await (await t.request("POST", "/api/surveyors", {
      cookie: admin,
      body: post?.body,
    })).json();
    const toast = getToasts()[0];
    assertEquals(toast?.title, "Failed to create surveyor");
    assertEquals(toast?.variant, "destructive");
    assertEquals(toast?.description, expected.message);
    assertEquals(
      screen.getByLabelText("Email (optional)").getAttribute("aria-invalid"),
      "true",
      "the field the server named is marked",
    );
    assertEquals(ui.navigations, []);
    const [{ n }] = await t.sql<{ n: number }[]>`select count(*)::int as n from surveyors`;
    assertEquals(n, 0);
  } finally {
    ui.done();
  }
});

test("[surveyor directory] a network failure while creating still says 'Failed to create surveyor'", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const { html } = await loadPage(t, "/surveyors", admin);
  // Canned: a dropped connection is the one answer the app cannot give.
  const api = useAppFetch(t, {
    cookie: admin,
    canned: {
      "POST /api/surveyors": () => {
        throw new TypeError("Failed to fetch");
      },
    },
  });
  // The page's props leave the first page's rows out (they are its HTML only); these tests
  // drive the island's own rendering, so they pass the same rows in as the list API gives them.
  const props = islandProps<SurveyorDirectoryProps>(html, "SurveyorDirectory");
  const { listSurveyors } = await import("../../db/surveyors.ts");
  const { filters } = props;
  const given = await listSurveyors(
    t.sql,
    {
      q: filters.q || undefined,
      state: filters.state || undefined,
      surveyType: filters.surveyType || undefined,
      status: filters.status || undefined,
      inNetworkOnly: filters.inNetworkOnly === "true",
      page: props.initial.page,
      pageSize: props.initial.pageSize,
    } as Parameters<typeof listSurveyors>[1],
  );
  render(
    <SurveyorDirectory
      {...props}
      initial={{ ...props.initial, rows: given.surveyors.map(shared.toSurveyorRow) }}
    />,
  );
  try {
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Add surveyor" })));
    await act(() =>
      void fireEvent.change(screen.getByLabelText("Company name"), {
        target: { value: "Offline Surveying" },
      })
    );
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Create surveyor" })));
    await act(() => api.idle());
    assertEquals(getToasts()[0]?.title, "Failed to create surveyor");
    assertEquals(
      getToasts()[0]?.description,
      "Could not create the surveyor. Please try again.",
    );
    assert(
      !(screen.getByRole("button", { name: "Create surveyor" }) as HTMLButtonElement).disabled,
      "the form can be sent again",
    );
  } finally {
    cleanup();
    api.restore();
    dismissToast();
    t.close();
  }
});

test("[surveyor directory] surveyors waiting for the licence check have their count, and it filters", async () => {
  const t = await createTestApp();
  await network(t);
  for (const [companyName, city] of [["Tulsa Joiner LLC", "Tulsa"], ["Waco Joiner", "Waco"]]) {
    await surveyor(t, { companyName, city, state: "TX", status: "pending", source: "signup" });
  }
  const admin = await signInAs(t, "admin");
  const ui = await mount(t, admin);
  try {
    const pending = screen.getByRole("button", { name: /Licence check/ });
    assertEquals(pending.querySelector(".surveyor-counts__count")?.textContent, "2");
    await act(() => void fireEvent.click(pending));
    await act(() => ui.api.idle());
    assertEquals(companies(), ["Tulsa Joiner LLC", "Waco Joiner"]);
    assertEquals(pending.getAttribute("aria-pressed"), "true");
    assertEquals(location.search, "?status=pending");
    // A search counts its own matches, the pending one among them.
    const search = screen.getByLabelText("Search");
    await act(() => void fireEvent.change(search, { target: { value: "waco" } }));
    await act(() => void fireEvent.submit(search.closest("form")!));
    await act(() => ui.api.idle());
    assertEquals(companies(), ["Waco Joiner"]);
    assertEquals(
      screen.getByRole("button", { name: /Licence check/ })
        .querySelector(".surveyor-counts__count")?.textContent,
      "1",
    );
  } finally {
    ui.done();
  }
});
