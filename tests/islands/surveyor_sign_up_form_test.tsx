import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { insertSurveyor } from "../../db/surveyors.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: SurveyorSignUpForm } = await import("../../islands/SurveyorSignUpForm.tsx");
const { default: Toaster } = await import("../../islands/Toaster.tsx");
const { dismissToast } = await import("../../islands/_toast.ts");
const { setNavigateHandler } = await import("../../islands/_nav.ts");

/** /for-surveyors' sign-up, its requests going to the real app (signed out). */
async function openSignUp(t: TestApp) {
  dismissToast();
  const { html } = await loadPage(t, "/for-surveyors");
  const props = islandProps<Record<string, never>>(html, "SurveyorSignUpForm");
  const api = useAppFetch(t);
  const visits: string[] = [];
  const restoreNav = setNavigateHandler((url) => visits.push(url));
  render(
    <>
      <SurveyorSignUpForm {...props} />
      <Toaster />
    </>,
  );
  return {
    api,
    visits,
    type(label: string, value: string) {
      act(() => void fireEvent.change(screen.getByLabelText(label), { target: { value } }));
    },
    click(name: string) {
      act(() => void fireEvent.click(screen.getByRole("button", { name })));
    },
    done() {
      cleanup();
      api.restore();
      restoreNav();
      dismissToast();
      sessionStorage.clear();
      t.close();
    },
  };
}

test("[sign-up form] finds the firm's listing, claims it and lands on the dashboard", async () => {
  const t = await createTestApp();
  const prospect = await insertSurveyor(t.sql, {
    companyName: "Hill Country Surveyors",
    city: "Dripping Springs",
    state: "TX",
    licenseStates: ["TX"],
    surveyTypes: ["boundary"],
  });
  const ui = await openSignUp(t);
  try {
    ui.type("Company name, licence number or town", "hill country");
    ui.click("Find my firm");
    await waitFor(() => assert(screen.getByText("Hill Country Surveyors")));
    ui.click("This is my firm");
    assertEquals(
      (screen.getByLabelText("Company name") as HTMLInputElement).value,
      "Hill Country Surveyors",
    );
    assert((screen.getByLabelText("TX") as HTMLInputElement).checked);
    ui.type("Your full name", "Hana Hill");
    ui.type("Licence number", "RPLS 3030");
    ui.type("Office address", "500 Congress Ave, Austin, TX 78701, USA");
    ui.type("Email", "hana@hill.example");
    ui.type("Password", "secret1");
    ui.type("Confirm password", "secret1");
    ui.click("Create my surveyor account");
    await waitFor(() => {
      if (ui.visits.length === 0) throw new Error("no navigation yet");
    });
    assertEquals(ui.visits, ["/surveyor-dashboard"]);
    assert(ui.api.cookie(), "signed in");
    const join = ui.api.calls.find((c) => c.path === "/api/surveyors/join");
    assertEquals((join?.body as Record<string, unknown>).surveyorId, prospect.id);
    const [row] = await t.sql<{ status: string; userId: string | null }[]>`
      select status, user_id from surveyors where id = ${prospect.id}`;
    assertEquals(row.status, "pending");
    assert(row.userId);
  } finally {
    ui.done();
  }
});

test("[sign-up form] checks the fields before sending anything", async () => {
  const t = await createTestApp();
  const ui = await openSignUp(t);
  try {
    ui.type("Password", "five5");
    ui.click("Create my surveyor account");
    await waitFor(() => assert(screen.getByText("Password must be at least 6 characters")));
    assert(screen.getByText("Licence number is required"));
    assert(screen.getByText("Enter your email address"));
    assertEquals(ui.api.calls.length, 0);
    assertEquals(ui.visits, []);
  } finally {
    ui.done();
  }
});
