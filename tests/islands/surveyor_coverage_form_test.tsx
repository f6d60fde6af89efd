import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { getSurveyor, insertSurveyor, type InsertSurveyorInput } from "../../db/surveyors.ts";
import type { Surveyor } from "../../lib/surveyor_schema.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor, within } = await import(
  "@testing-library/react"
);
const { default: SurveyorCoverageForm } = await import("../../islands/SurveyorCoverageForm.tsx");
const { default: Toaster } = await import("../../islands/Toaster.tsx");
const { dismissToast } = await import("../../islands/_toast.ts");
const { ADDRESS_AUTOCOMPLETE } = await import("../../islands/AddressAutocomplete.tsx");
type Props = import("../../islands/SurveyorCoverageForm.tsx").SurveyorCoverageFormProps;

function shown(text: string | RegExp) {
  return waitFor(() => {
    if (!screen.queryByText(text)) throw new Error(`"${text}" not shown`);
  });
}

function type(label: string, value: string) {
  act(() => void fireEvent.change(screen.getByLabelText(label), { target: { value } }));
}

function click(element: HTMLElement) {
  act(() => void fireEvent.click(element));
}

function wait(ms: number) {
  return act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
}

/**
 * A signed-in surveyor with a record, the coverage island rendered with the props the
 * profile page gave it, and its requests going to the real app.
 */
async function openCoverage(
  t: TestApp,
  { path = "/profile", record: extra = {} }: {
    path?: string;
    record?: Partial<InsertSurveyorInput>;
  } = {},
) {
  dismissToast();
  const { user, cookie } = await createSignedInUser(t, { role: "surveyor" });
  const record = await insertSurveyor(t.sql, {
    companyName: "Ortiz Land Surveying",
    principalName: "Sam Ortiz",
    email: "sam@ortiz.example",
    licenseStates: ["TX"],
    surveyTypes: ["boundary"],
    serviceRadiusMiles: 50,
    notes: "Admin-only note",
    userId: user.id,
    ...extra,
  });
  const { html } = await loadPage(t, path, cookie);
  const props = islandProps<Props>(html, "SurveyorCoverageForm");
  const api = useAppFetch(t, { cookie });
  render(
    <>
      <SurveyorCoverageForm {...props} />
      <Toaster />
    </>,
  );
  return {
    record,
    props,
    api,
    html,
    done() {
      api.restore();
      cleanup();
      t.close();
    },
  };
}

const save = () => screen.getByRole("button", { name: "Save coverage" });

test("[coverage form] the page gives the island the surveyor's own record, without admin notes", async () => {
  const t = await createTestApp();
  const ui = await openCoverage(t);
  try {
    assertEquals(ui.props.profile.id, ui.record.id);
    assert(!ui.html.includes("Admin-only note"), "admin notes never reach the page");
    assert(!("notes" in ui.props.profile));
    // Every field is labelled.
    for (
      const label of [
        "Company name",
        "Principal surveyor (optional)",
        "Licence number (optional)",
        "Office phone (optional)",
        "Website (optional)",
        "Office address",
        "City (optional)",
        "State (optional)",
        "ZIP code (optional)",
        "Service radius (miles)",
        "Boundary Survey",
        "TX",
      ]
    ) assert(screen.getByLabelText(label), label);
    assertEquals((screen.getByLabelText("Service radius (miles)") as HTMLInputElement).value, "50");
    assert((screen.getByLabelText("Boundary Survey") as HTMLInputElement).checked);
    assert((save() as HTMLButtonElement).disabled, "nothing to save yet");
  } finally {
    ui.done();
  }
});

test("[coverage form] picking the office address, radius, states and types saves them with a 'Coverage saved' toast", async () => {
  const t = await createTestApp();
  const ui = await openCoverage(t);
  try {
    const input = screen.getByLabelText("Office address");
    act(() => void fireEvent.change(input, { target: { value: "123 Main St Aus" } }));
    await wait(ADDRESS_AUTOCOMPLETE.debounceMs + 10);
    await act(() => ui.api.idle());
    const listbox = document.getElementById("coverage-address-listbox")!;
    const [first] = within(listbox).getAllByRole("option");
    click(first);
    await act(() => ui.api.idle());
    await shown(/^Office located in /);
    assertEquals(screen.queryByText(/Office located at -?\d/), null, "no coordinates");

    type("Service radius (miles)", "120");
    click(screen.getByLabelText("OK"));
    click(screen.getByLabelText("Topographic Survey"));
    click(screen.getByLabelText("Boundary Survey"));
    type("Licence number (optional)", "RPLS 6120");
    click(save());
    await shown("Coverage saved");
    await act(() => ui.api.idle());

    const patch = ui.api.calls.find((c) => c.method === "PATCH")!;
    assertEquals(patch.path, "/api/surveyor/profile");
    const body = patch.body as Record<string, unknown>;
    assertEquals(body.serviceRadiusMiles, 120);
    assertEquals(body.licenseStates, ["OK", "TX"]);
    assertEquals(body.surveyTypes, ["topographic"]);
    assert(!("status" in body) && !("inNetwork" in body), "never sends what Meridian sets");

    const stored = await getSurveyor(t.sql, { id: ui.record.id }) as Surveyor;
    assertEquals(stored.serviceRadiusMiles, 120);
    assertEquals(stored.licenseStates, ["OK", "TX"]);
    assertEquals(stored.surveyTypes, ["topographic"]);
    assertEquals(stored.licenseNumber, "RPLS 6120");
    assert(stored.lat !== null && stored.lng !== null, "the office is on the map");
    assertEquals(stored.address, body.address);
    assertEquals(stored.state, "TX");
    assertEquals(stored.city, body.city);
    assertEquals(stored.notes, "Admin-only note");
    assert((save() as HTMLButtonElement).disabled, "saved: nothing left to save");
  } finally {
    ui.done();
  }
});

test("[coverage form] the server's field errors are shown by their fields and nothing is stored", async () => {
  const t = await createTestApp();
  const ui = await openCoverage(t);
  try {
    type("Website (optional)", "ortiz.example");
    type("ZIP code (optional)", "787");
    click(save());
    // The toast repeats the server's message; the field shows it too.
    await shown("Could not save your coverage");
    assertEquals(
      document.getElementById("coverage-website-error")?.textContent,
      "Enter a website address starting with http:// or https://",
    );
    const website = screen.getByLabelText("Website (optional)");
    assertEquals(website.getAttribute("aria-invalid"), "true");
    assertMatch(website.getAttribute("aria-describedby") ?? "", /coverage-website-error/);
    // Focus moves after the error render commits; wait for it rather than race it.
    await waitFor(() =>
      assert(document.activeElement === website, "focus moves to the first field in error")
    );
    assertEquals(await getSurveyor(t.sql, { id: ui.record.id }), ui.record);
  } finally {
    ui.done();
  }
});

test("[coverage form] its own checks stop an empty company or a bad radius before anything is sent", async () => {
  const t = await createTestApp();
  const ui = await openCoverage(t, { path: "/profile" });
  try {
    type("Company name", "  ");
    type("Service radius (miles)", "0");
    click(save());
    assert(screen.getByText("Enter your company name"));
    assert(screen.getByText("Enter a whole number of miles from 1 to 300"));
    assertEquals(ui.api.calls.length, 0);
    click(screen.getByRole("button", { name: "Discard changes" }));
    assertEquals(
      (screen.getByLabelText("Company name") as HTMLInputElement).value,
      "Ortiz Land Surveying",
    );
    assertEquals(screen.queryByText("Enter your company name"), null);
  } finally {
    ui.done();
  }
});

test("[coverage form] a typed address that was not picked clears the location, and says so first", async () => {
  const t = await createTestApp();
  const ui = await openCoverage(t, {
    record: {
      address: "Old office",
      city: "Austin",
      state: "TX",
      zip: "78704",
      lat: 30.27,
      lng: -97.74,
    },
  });
  try {
    // The place, not raw coordinates (issue 21).
    assert(screen.getByText("Office located in Austin, TX 78704."));
    assertEquals(screen.queryByText(/30\.27|-97\.74/), null);
    type("Office address", "Somewhere new");
    assert(screen.getByText(/a typed address is saved without a location/));
    click(save());
    await shown("Coverage saved");
    const stored = await getSurveyor(t.sql, { id: ui.record.id });
    assertEquals(stored?.address, "Somewhere new");
    assertEquals([stored?.lat, stored?.lng], [null, null]);
    assert(screen.getByText(/^Not on the map yet/));
  } finally {
    ui.done();
  }
});
