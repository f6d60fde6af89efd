import { assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { signInAs } from "../_auth.ts";
import { putSurveyInStatus, submitSurvey } from "../_fixtures.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: CancelSurveyButton } = await import("../../islands/CancelSurveyButton.tsx");
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");
const { setNavigateHandler } = await import("../../islands/_nav.ts");

/** A client's fresh request, and a fetch that reaches the app as that client. */
async function clientWithRequest(t: TestApp) {
  const cookie = await signInAs(t, "client");
  const survey = await submitSurvey(t, cookie);
  return { survey, api: useAppFetch(t, { cookie }) };
}

async function statusOf(t: TestApp, id: string) {
  const [row] = await t.sql<{ status: string }[]>`select status from surveys where id = ${id}`;
  return row.status;
}

async function confirmCancel(id: string) {
  render(<CancelSurveyButton surveyId={id} description="Boundary Survey at 1 Elm St" />);
  await act(() => void fireEvent.click(screen.getByRole("button", { name: "Cancel request" })));
  const buttons = screen.getAllByRole("button", { name: "Cancel request", hidden: true });
  await act(() => void fireEvent.click(buttons[buttons.length - 1]));
}

test("[cancel survey] confirming cancels through DELETE and reloads with a toast", async () => {
  const t = await createTestApp();
  const { survey, api } = await clientWithRequest(t);
  const visits: string[] = [];
  const restoreNav = setNavigateHandler((url) => visits.push(url));
  try {
    await confirmCancel(survey.id);
    await waitFor(() => assertEquals(visits.length, 1));
    assertEquals(api.calls.map((c) => `${c.method} ${c.path}`), [
      `DELETE /api/surveys/${survey.id}`,
    ]);
    assertEquals(visits.length, 1);
    assertEquals(
      JSON.parse(sessionStorage.getItem("meridian:pending-toast") ?? "{}").toast?.title,
      "Survey request cancelled",
    );
    assertEquals(await statusOf(t, survey.id), "cancelled");
  } finally {
    restoreNav();
    api.restore();
    cleanup();
    sessionStorage.clear();
    t.close();
  }
});

test("[cancel survey] 'Keep request' closes the dialog without a request", async () => {
  const t = await createTestApp();
  const { survey, api } = await clientWithRequest(t);
  try {
    render(<CancelSurveyButton surveyId={survey.id} description="Boundary Survey at 1 Elm St" />);
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Cancel request" })));
    assertEquals(document.querySelector("dialog")!.open, true, "the dialog asks first");
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Keep request", hidden: true }))
    );
    assertEquals(api.calls, []);
    assertEquals(document.querySelector("dialog")!.open, false);
    assertEquals(await statusOf(t, survey.id), "requested");
  } finally {
    api.restore();
    cleanup();
    t.close();
  }
});

test("[cancel survey] a refusal toasts 'Error deleting survey' with the server's reason", async () => {
  const t = await createTestApp();
  const { survey, api } = await clientWithRequest(t);
  // A surveyor took the job after the page was rendered.
  await putSurveyInStatus(t, survey.id, "assigned");
  try {
    await confirmCancel(survey.id);
    await waitFor(() => assertEquals(getToasts()[0]?.title, "Error deleting survey"));
    assertEquals(
      getToasts()[0]?.description,
      "This request can no longer be cancelled because a surveyor has been assigned.",
    );
    assertEquals(await statusOf(t, survey.id), "assigned");
  } finally {
    api.restore();
    cleanup();
    dismissToast();
    t.close();
  }
});
