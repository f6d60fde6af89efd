import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, createUser } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { getSurveyor, insertSurveyor, type InsertSurveyorInput } from "../../db/surveyors.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: SurveyorAccountPanel, NO_EMAIL_REASON } = await import(
  "../../islands/SurveyorAccountPanel.tsx"
);
const { default: Toaster } = await import("../../islands/Toaster.tsx");
const { dismissToast } = await import("../../islands/_toast.ts");
type Props = import("../../islands/SurveyorAccountPanel.tsx").SurveyorAccountPanelProps;

function shown(text: string | RegExp) {
  return waitFor(() => {
    if (!screen.queryByText(text)) throw new Error(`"${text}" not shown`);
  });
}

function click(name: string) {
  act(() => void fireEvent.click(screen.getByRole("button", { name })));
}

/** An admin on /surveyor-detail/{id}, the panel rendered with the props the page gave it. */
async function openRecord(t: TestApp, record: Partial<InsertSurveyorInput> = {}) {
  dismissToast();
  const { cookie } = await createSignedInUser(t, { role: "admin" });
  const surveyor = await insertSurveyor(t.sql, {
    companyName: "Ortiz Land Surveying",
    email: "sam@ortiz.example",
    ...record,
  });
  const { html } = await loadPage(t, `/surveyor-detail/${surveyor.id}`, cookie);
  const props = islandProps<Props>(html, "SurveyorAccountPanel");
  const api = useAppFetch(t, { cookie });
  render(
    <>
      <SurveyorAccountPanel {...props} />
      <Toaster />
    </>,
  );
  return {
    surveyor,
    props,
    done() {
      api.restore();
      cleanup();
      t.close();
    },
  };
}

test("[account panel] sending the invitation shows the new account and offers to resend", async () => {
  const t = await createTestApp();
  const ui = await openRecord(t);
  try {
    assertEquals(ui.props.account, null);
    assert(screen.getByText("No account yet."));
    click("Send invitation");
    await shown("Invitation not emailed");
    await shown(
      "The invitation to sam@ortiz.example is queued. No mail server is configured, so it was not sent; open it in Emails to read it and copy its links.",
    );
    assert(screen.getByRole("link", { name: "Open in Emails" }));
    await shown("Never (the invitation has not been used yet)");
    assert(screen.getByRole("button", { name: "Resend invitation" }));
    const stored = await getSurveyor(t.sql, { id: ui.surveyor.id });
    assert(stored?.userId, "the record is linked");
    assertEquals(stored.status, "invited");
  } finally {
    ui.done();
  }
});

test("[account panel] without an email the invitation is unavailable and says why", async () => {
  const t = await createTestApp();
  const ui = await openRecord(t, { email: null });
  try {
    const button = screen.getByRole("button", { name: "Send invitation" }) as HTMLButtonElement;
    assert(button.disabled);
    assertEquals(
      document.getElementById(button.getAttribute("aria-describedby")!)?.textContent,
      NO_EMAIL_REASON,
    );
  } finally {
    ui.done();
  }
});

test("[account panel] linking by email shows the server's refusal, then links and unlinks", async () => {
  const t = await createTestApp();
  const ui = await openRecord(t);
  try {
    await createUser(t.sql, { role: "client", email: "client@example.test" });
    await createUser(t.sql, { role: "surveyor", email: "pat@survey.example", fullName: "Pat Lee" });
    const field = screen.getByLabelText("Link an existing surveyor account");
    act(() => void fireEvent.change(field, { target: { value: "client@example.test" } }));
    click("Link account");
    await shown("Could not link the account");
    assert(screen.getByText("This account is not a surveyor account"));

    act(() => void fireEvent.change(field, { target: { value: "pat@survey.example" } }));
    click("Link account");
    await shown("Account linked");
    assert(screen.getByText("Pat Lee"));

    click("Unlink account");
    assert(screen.getByText(/^Unlink pat@survey\.example from this record\?/));
    click("Unlink account");
    await shown("Account unlinked");
    assert(screen.getByText("No account yet."));
    assertEquals((await getSurveyor(t.sql, { id: ui.surveyor.id }))?.userId, null);
  } finally {
    ui.done();
  }
});
