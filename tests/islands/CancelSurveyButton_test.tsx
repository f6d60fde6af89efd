import { assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { setupDom } from "./_dom.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen } = await import("@testing-library/react");
const { default: CancelSurveyButton } = await import("../../islands/CancelSurveyButton.tsx");
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");
const { setNavigateHandler } = await import("../../islands/_nav.ts");

const ID = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa";

function stubDelete(res: () => Response) {
  const calls: string[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
    calls.push(`${init?.method ?? "GET"} ${String(input)}`);
    return Promise.resolve(res());
  }) as typeof fetch;
  return { calls, restore: () => (globalThis.fetch = original) };
}

async function confirmCancel() {
  render(<CancelSurveyButton surveyId={ID} description="Boundary Survey at 1 Elm St" />);
  await act(() => void fireEvent.click(screen.getByRole("button", { name: "Cancel request" })));
  const buttons = screen.getAllByRole("button", { name: "Cancel request", hidden: true });
  await act(() => void fireEvent.click(buttons[buttons.length - 1]));
  await act(() => new Promise<void>((resolve) => setTimeout(resolve, 10)));
}

test("[cancel survey] confirming cancels through DELETE and reloads with a toast", async () => {
  const visits: string[] = [];
  const restoreNav = setNavigateHandler((url) => visits.push(url));
  const { calls, restore } = stubDelete(() =>
    Response.json({ message: "Survey request cancelled" })
  );
  try {
    await confirmCancel();
    assertEquals(calls, [`DELETE /api/surveys/${ID}`]);
    assertEquals(visits.length, 1);
    assertEquals(
      JSON.parse(sessionStorage.getItem("meridian:pending-toast") ?? "{}").title,
      "Survey request cancelled",
    );
  } finally {
    restoreNav();
    restore();
    cleanup();
    sessionStorage.clear();
  }
});

test("[cancel survey] 'Keep request' closes the dialog without a request", async () => {
  const { calls, restore } = stubDelete(() => Response.json({}));
  try {
    render(<CancelSurveyButton surveyId={ID} description="Boundary Survey at 1 Elm St" />);
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Cancel request" })));
    assertEquals(document.querySelector("dialog")!.open, true, "the dialog asks first");
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Keep request", hidden: true }))
    );
    assertEquals(calls, []);
    assertEquals(document.querySelector("dialog")!.open, false);
  } finally {
    restore();
    cleanup();
  }
});

test("[cancel survey] a refusal toasts 'Error deleting survey' with the server's reason", async () => {
  const { restore } = stubDelete(() =>
    Response.json({
      message: "This request can no longer be cancelled because a surveyor has been assigned.",
    }, { status: 409 })
  );
  try {
    await confirmCancel();
    assertEquals(getToasts()[0]?.title, "Error deleting survey");
    assertEquals(
      getToasts()[0]?.description,
      "This request can no longer be cancelled because a surveyor has been assigned.",
    );
  } finally {
    restore();
    cleanup();
    dismissToast();
  }
});
