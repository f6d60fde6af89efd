import { assert, assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { setupDom } from "./_dom.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { renderToString } = await import("react-dom/server");
const { default: Toaster, TOAST_VIEWPORT_MAX_WIDTH_PX } = await import(
  "../../islands/Toaster.tsx"
);
const toasts = await import("../../islands/_toast.ts");
const {
  dismissToast,
  getToasts,
  startNextPageForTests,
  toast,
  toastAfterNavigation,
  TOAST_DURATION_MS,
  TOAST_LIMIT,
} = toasts;

function mount() {
  dismissToast();
  return render(<Toaster />);
}

/**
 * Fails unless no element shows `text`. Throws a plain Error: node:assert's AssertionError
 * misbehaves under happy-dom (it sets off network requests), and waitFor throws many.
 */
function assertGone(text: string) {
  if (screen.queryByText(text) !== null) throw new Error(`"${text}" is still shown`);
}

function done() {
  cleanup();
  dismissToast();
  sessionStorage.clear();
}

test("[toaster] the spec's constants: one toast, 5000 ms, 50 px swipe, F8, 420px", () => {
  assertEquals(TOAST_LIMIT, 1);
  assertEquals(TOAST_DURATION_MS, 5000);
  assertEquals(toasts.TOAST_SWIPE_THRESHOLD_PX, 50);
  assertEquals(toasts.TOAST_HOTKEY, "F8");
  assertEquals(TOAST_VIEWPORT_MAX_WIDTH_PX, 420);
  const html = renderToString(<Toaster />);
  assert(html.includes("max-width:420px"), html);
  assert(html.includes('aria-label="Notifications (F8)"'), html);
});

test("[toaster] shows a toast with its title and description in a status live region", () => {
  mount();
  act(() => void toast({ title: "Login successful", description: "Welcome back, Pat!" }));
  const status = screen.getByRole("status");
  assertEquals(status.getAttribute("aria-live"), "polite");
  assert(status.textContent?.includes("Login successful"));
  assert(status.textContent?.includes("Welcome back, Pat!"));
  assertEquals(getToasts()[0].duration, TOAST_DURATION_MS);
  done();
});

test("[toaster] a description that only repeats the title is shown once", () => {
  mount();
  act(() => void toast({ title: "Survey deleted", description: "Survey deleted" }));
  assertEquals(getToasts()[0].description, undefined);
  const text = screen.getByRole("status").textContent ?? "";
  assertEquals(text.split("Survey deleted").length - 1, 1, text);
  act(() => void toast({ title: "File deleted", description: "File deleted." }));
  assertEquals(getToasts()[0].description, undefined);
  act(() => void toast({ title: "Survey deleted", description: "2 surveys deleted" }));
  assertEquals(getToasts()[0].description, "2 surveys deleted");
  done();
});

test("[toaster] a destructive toast is an alert", () => {
  mount();
  act(() =>
    void toast({
      title: "Login failed",
      description: "Invalid credentials",
      variant: "destructive",
    })
  );
  const alert = screen.getByRole("alert");
  assert(alert.className.includes("toast--destructive"));
  assert(alert.textContent?.includes("Invalid credentials"));
  done();
});

test("[toaster] only one toast shows at a time: the newest replaces the last", () => {
  mount();
  act(() => void toast({ title: "First" }));
  act(() => void toast({ title: "Second" }));
  assertEquals(screen.getAllByRole("status").length, 1);
  assertGone("First");
  assert(screen.getByText("Second"));
  done();
});

test("[toaster] a toast closes by itself after its duration", async () => {
  mount();
  act(() => void toast({ title: "Brief", duration: 30 }));
  assert(screen.getByText("Brief"));
  await waitFor(() => assertGone("Brief"));
  assertEquals(getToasts().length, 0);
  done();
});

test("[toaster] the close button dismisses the toast", () => {
  mount();
  act(() => void toast({ title: "Closable" }));
  act(() => void fireEvent.click(screen.getByRole("button", { name: "Close" })));
  assertGone("Closable");
  done();
});

test("[toaster] swiping right past 50 px dismisses; a shorter swipe snaps back", () => {
  mount();
  act(() => void toast({ title: "Swipe me" }));
  const item = screen.getByRole("status");
  act(() => void fireEvent.pointerDown(item, { clientX: 100, pointerId: 1 }));
  act(() => void fireEvent.pointerMove(item, { clientX: 140, pointerId: 1 }));
  assertEquals(item.style.transform, "translateX(40px)");
  act(() => void fireEvent.pointerUp(item, { clientX: 140, pointerId: 1 }));
  assert(screen.getByText("Swipe me"), "40 px is not enough");
  assertEquals(item.style.transform, "");
  // Leftward drags never move it.
  act(() => void fireEvent.pointerDown(item, { clientX: 100, pointerId: 1 }));
  act(() => void fireEvent.pointerMove(item, { clientX: 20, pointerId: 1 }));
  assertEquals(item.style.transform, "");
  act(() => void fireEvent.pointerUp(item, { clientX: 20, pointerId: 1 }));
  assert(screen.getByText("Swipe me"));
  act(() => void fireEvent.pointerDown(item, { clientX: 100, pointerId: 1 }));
  act(() => void fireEvent.pointerMove(item, { clientX: 151, pointerId: 1 }));
  act(() => void fireEvent.pointerUp(item, { clientX: 151, pointerId: 1 }));
  assertGone("Swipe me");
  done();
});

test("[toaster] F8 moves focus to the toast viewport", () => {
  const { container } = mount();
  const viewport = container.querySelector("ol")!;
  assert(document.activeElement !== viewport);
  act(() => void fireEvent.keyDown(document.body, { key: "F8" }));
  assert(document.activeElement === viewport, "the viewport has focus");
  done();
});

test("[toaster] another key, or F8 with a modifier, leaves focus alone", () => {
  const { container } = mount();
  const viewport = container.querySelector("ol")!;
  act(() => void fireEvent.keyDown(document.body, { key: "F7" }));
  act(() => void fireEvent.keyDown(document.body, { key: "F8", ctrlKey: true }));
  assert(document.activeElement !== viewport);
  done();
});

test("[toaster] a toast raised before a navigation shows again on the next page", () => {
  dismissToast();
  toastAfterNavigation({
    title: "Admin Restored",
    description: "You have returned to your admin account.",
  });
  // The next page: a fresh store and a fresh Toaster.
  startNextPageForTests();
  dismissToast();
  render(<Toaster />);
  assert(screen.getByText("Admin Restored"));
  assertEquals(sessionStorage.getItem("meridian:pending-toast"), null, "shown once only");
  done();
});

test("[toaster] a Toaster that hydrates after its own page queued a toast leaves it for the next page", () => {
  // Sign out pressed before the page's islands were live: the press is replayed, the toast
  // queued, and this page's Toaster arrives while the next page loads.
  dismissToast();
  toastAfterNavigation({
    title: "Logged out",
    description: "You have been logged out successfully.",
  });
  render(<Toaster />);
  assert(screen.getByText("Logged out"), "shown on this page too");
  cleanup();
  startNextPageForTests();
  dismissToast();
  render(<Toaster />);
  assert(screen.getByText("Logged out"), "and on the page it was queued for");
  assertEquals(sessionStorage.getItem("meridian:pending-toast"), null, "shown once only there");
  done();
});

test("[toaster] toasts raised before the Toaster mounted are shown", () => {
  dismissToast();
  toast({ title: "Early" });
  render(<Toaster />);
  assert(screen.getByText("Early"));
  done();
});
