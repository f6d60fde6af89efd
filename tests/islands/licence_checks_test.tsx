/**
 * The admins' licence check queue (islands/LicenceChecks) hydrated on happy-dom, its requests
 * answered by the real app (tests/islands/_fetch.ts): Verify and Reject record the decision,
 * the item leaves the list and the toast says what happened.
 */
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { addMarketSurveyor } from "../_lead_fixtures.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { cleanup, fireEvent, render, screen, waitFor } = await import("@testing-library/react");
const { default: LicenceChecks, NO_LICENCE_CHECKS } = await import(
  "../../islands/LicenceChecks.tsx"
);
type LicenceChecksProps = import("../../islands/LicenceChecks.tsx").LicenceChecksProps;
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");

test("[licence queue] Verify and Reject record the admin's decision and clear the queue", async () => {
  const t = await createTestApp();
  dismissToast();
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const firm = await addMarketSurveyor(t, "Border Surveying", { licenseNumber: "RPLS 1000" });
  await t.request("PATCH", "/api/surveyor/profile", {
    cookie: firm.cookie,
    body: { licenseStates: ["NM", "OK", "TX"] },
  });
  const { html } = await loadPage(t, "/admin?tab=licences", admin.cookie);
  const props = islandProps<LicenceChecksProps>(html, "LicenceChecks");
  const api = useAppFetch(t, { cookie: admin.cookie });
  render(<LicenceChecks {...props} />);
  try {
    fireEvent.click(screen.getByRole("button", { name: "Verify New Mexico" }));
    await waitFor(() => assert(!screen.queryByRole("button", { name: "Verify New Mexico" })));
    assert(
      getToasts().some((toast) =>
        toast.title ===
          "Border Surveying's New Mexico licence is verified: leads there are open to them."
      ),
      JSON.stringify(getToasts()),
    );
    fireEvent.click(screen.getByRole("button", { name: "Reject Oklahoma" }));
    await waitFor(() => screen.getByText(NO_LICENCE_CHECKS));
    await api.idle();
    const rows = await t.sql<{ state: string; status: string }[]>`
      select state, status from surveyor_licence_states
      where surveyor_id = ${firm.surveyor.id} order by state`;
    assertEquals(rows.map((r) => `${r.state} ${r.status}`), [
      "NM verified",
      "OK rejected",
      "TX verified",
    ]);
  } finally {
    cleanup();
    api.restore();
    dismissToast();
    t.close();
  }
});

test("[licence queue] a firm that joined by itself: Verify licence and Reject licence decide its first check", async () => {
  const t = await createTestApp();
  dismissToast();
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const join = (companyName: string, email: string, licenseNumber: string) =>
    t.request("POST", "/api/surveyors/join", {
      body: {
        companyName,
        principalName: "Sam Surveyor",
        email,
        password: "secret1",
        confirmPassword: "secret1",
        licenseNumber,
        licenseStates: ["TX"],
        address: "500 Congress Ave, Austin, TX 78701, USA",
        city: "Austin",
        state: "TX",
        zip: "78701",
        lat: 30.2682,
        lng: -97.7429,
        serviceRadiusMiles: 60,
        surveyTypes: ["boundary"],
      },
    });
  assertEquals((await join("Lone Star Surveying", "sam@lonestar.example", "RPLS 1")).status, 201);
  assertEquals((await join("Hill Country Surveying", "kim@hill.example", "RPLS 2")).status, 201);
  const { html } = await loadPage(t, "/admin?tab=licences", admin.cookie);
  const props = islandProps<LicenceChecksProps>(html, "LicenceChecks");
  const api = useAppFetch(t, { cookie: admin.cookie });
  render(<LicenceChecks {...props} />);
  try {
    assertEquals(screen.getAllByText("New firm").length, 2);
    fireEvent.click(screen.getByRole("button", { name: "Verify licence of Lone Star Surveying" }));
    await waitFor(() =>
      assert(!screen.queryByRole("button", { name: "Verify licence of Lone Star Surveying" }))
    );
    // No mail server in tests: the toast says the email was queued but not sent.
    const verified = getToasts().find((toast) =>
      toast.title === "Licence verified — Lone Star Surveying can now buy leads"
    );
    assert(verified, JSON.stringify(getToasts()));
    assert(verified.description?.includes("it was not sent"), verified.description);
    fireEvent.click(
      screen.getByRole("button", { name: "Reject licence of Hill Country Surveying" }),
    );
    await waitFor(() => screen.getByText(NO_LICENCE_CHECKS));
    await api.idle();
    const rows = await t.sql<{ companyName: string; status: string }[]>`
      select company_name, status from surveyors order by company_name`;
    assertEquals(rows.map((r) => `${r.companyName} ${r.status}`), [
      "Hill Country Surveying paused",
      "Lone Star Surveying active",
    ]);
  } finally {
    cleanup();
    api.restore();
    dismissToast();
    t.close();
  }
});
