import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createUser } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { insertSurveyor } from "../../db/surveyors.ts";
import { insertClaimToken } from "../../db/claim_tokens.ts";
import { hashToken, randomToken } from "../../lib/sessions.ts";
import { EMAIL_TAKEN_MESSAGE } from "../../routes/surveyor_join.tsx";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: SurveyorJoinForm } = await import("../../islands/SurveyorJoinForm.tsx");
const { default: Toaster } = await import("../../islands/Toaster.tsx");
const { dismissToast } = await import("../../islands/_toast.ts");
const { setNavigateHandler } = await import("../../islands/_nav.ts");
type Props = import("../../islands/SurveyorJoinForm.tsx").SurveyorJoinFormProps;

const EMAIL = "office@ortiz-land.example";

/**
 * An invited prospect's join page: the island rendered with the props /surveyor/claim gave
 * it, its requests going to the real app (signed out), navigation recorded.
 */
async function openJoinPage(t: TestApp) {
  dismissToast();
  const record = await insertSurveyor(t.sql, {
    companyName: "Ortiz Land Surveying",
    principalName: "Sam Ortiz",
    email: EMAIL,
    licenseStates: ["TX"],
    surveyTypes: ["boundary"],
    serviceRadiusMiles: 40,
    notes: "Admin-only note about Ortiz",
  });
  const token = randomToken(32);
  await insertClaimToken(t.sql, {
    surveyorId: record.id,
    leadId: null,
    tokenHash: await hashToken(token),
  });
  const { html } = await loadPage(t, `/surveyor/claim?token=${token}`);
  assert(!html.includes("Admin-only note"), "admin notes never reach the page");
  const props = islandProps<Props>(html, "SurveyorJoinForm");
  const api = useAppFetch(t);
  const visits: string[] = [];
  const restoreNav = setNavigateHandler((url) => visits.push(url));
  render(
    <>
      <SurveyorJoinForm {...props} />
      <Toaster />
    </>,
  );
  return {
    record,
    props,
    api,
    visits,
    type(label: string, value: string) {
      act(() => void fireEvent.change(screen.getByLabelText(label), { target: { value } }));
    },
    submit() {
      act(() =>
        void fireEvent.click(screen.getByRole("button", { name: "Create my surveyor account" }))
      );
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

function shown(text: string) {
  return waitFor(() => {
    if (screen.queryAllByText(text).length === 0) throw new Error(`"${text}" not shown`);
  });
}

test("[join form] prefilled from the record, the email fixed; joining opens a session and goes to the dashboard", async () => {
  const t = await createTestApp();
  const ui = await openJoinPage(t);
  try {
    assertEquals(
      (screen.getByLabelText("Company name") as HTMLInputElement).value,
      "Ortiz Land Surveying",
    );
    assertEquals((screen.getByLabelText("Your full name") as HTMLInputElement).value, "Sam Ortiz");
    assertEquals((screen.getByLabelText("Service radius (miles)") as HTMLInputElement).value, "40");
    assert((screen.getByLabelText("TX") as HTMLInputElement).checked);
    assert((screen.getByLabelText("Boundary Survey") as HTMLInputElement).checked);
    const email = screen.getByLabelText("Email") as HTMLInputElement;
    assertEquals(email.value, EMAIL);
    assert(email.readOnly, "the invitation's address is the account's");
    assert(screen.getByText(/Your first claimed job has no claim fee/));

    ui.type("Licence number", "RPLS 5150");
    ui.type("Office address", "500 Congress Ave, Austin, TX 78701, USA");
    act(() => void fireEvent.click(screen.getByLabelText("Topographic Survey")));
    ui.type("Password", "secret1");
    ui.type("Confirm password", "secret1");
    ui.submit();
    await waitFor(() => {
      if (ui.visits.length === 0) throw new Error("no navigation yet");
    });
    assertEquals(ui.visits, ["/surveyor-dashboard"]);
    assert(ui.api.cookie(), "signed in");
    const [call] = ui.api.calls;
    assertEquals(call.method, "POST");
    assertEquals(call.path, "/api/surveyor/join");
    const body = call.body as Record<string, unknown>;
    assertEquals(body.token, ui.props.token);
    assertEquals(body.surveyTypes, ["boundary", "topographic"]);
    assert(!("email" in body), "the fixed email is the server's to set");
    const [row] = await t.sql<{ status: string; licenseNumber: string; userId: string }[]>`
      select status, license_number, user_id from surveyors where id = ${ui.record.id}`;
    assertEquals(row.status, "pending");
    assertEquals(row.licenseNumber, "RPLS 5150");
    assert(row.userId);
  } finally {
    ui.done();
  }
});

test("[join form] checks the spec's password rules and the licence before sending anything", async () => {
  const t = await createTestApp();
  const ui = await openJoinPage(t);
  try {
    ui.type("Password", "five5");
    ui.submit();
    await shown("Password must be at least 6 characters");
    // Both password fields say it: the confirmation is still empty.
    assertEquals(screen.getAllByText("Password must be at least 6 characters").length, 2);
    assert(screen.getByText("Licence number is required"));
    const licence = screen.getByLabelText("Licence number");
    await waitFor(() => assert(document.activeElement === licence, "focus on the first field"));
    ui.type("Licence number", "RPLS 5150");
    ui.type("Password", "secret1");
    ui.type("Confirm password", "secret2");
    ui.submit();
    await shown("Passwords don't match");
    assertEquals(ui.api.calls.length, 0);
    assertEquals(ui.visits, []);
  } finally {
    ui.done();
  }
});

test("[join form] an email that already has an account: the server's 409 by the email field, no navigation", async () => {
  const t = await createTestApp();
  const ui = await openJoinPage(t);
  try {
    await createUser(t.sql, { role: "client", email: EMAIL });
    ui.type("Licence number", "RPLS 5150");
    ui.type("Office address", "500 Congress Ave, Austin, TX 78701, USA");
    ui.type("Password", "secret1");
    ui.type("Confirm password", "secret1");
    ui.submit();
    await shown("Could not create your account");
    await waitFor(() => {
      if (screen.queryAllByText(EMAIL_TAKEN_MESSAGE).length < 2) {
        throw new Error("the message is not by the field and in the toast");
      }
    });
    assertEquals(ui.visits, []);
    assertEquals(ui.api.cookie(), undefined);
    assert(
      screen.getByRole("button", { name: "Create my surveyor account" }),
      "the button is back",
    );
  } finally {
    ui.done();
  }
});

test("[join form] the claim token leaves the address bar once read; joining still sends it", async () => {
  const t = await createTestApp();
  // The address as the invitation's link opened it (openJoinPage renders with a live token).
  history.replaceState(null, "", "/surveyor/claim?token=from-the-email");
  const ui = await openJoinPage(t);
  try {
    assertEquals(location.pathname + location.search, "/surveyor/claim");
    ui.type("Licence number", "RPLS 5150");
    ui.type("Office address", "500 Congress Ave, Austin, TX 78701, USA");
    ui.type("Password", "secret1");
    ui.type("Confirm password", "secret1");
    ui.submit();
    await waitFor(() => {
      if (ui.visits.length === 0) throw new Error("no navigation yet");
    });
    const body = ui.api.calls[0].body as Record<string, unknown>;
    assertEquals(body.token, ui.props.token);
  } finally {
    history.replaceState(null, "", "/");
    ui.done();
  }
});
