/**
 * The technician pages' offline notice (islands/OfflineSupport.tsx): without signal it says
 * when the copy on screen was saved. A page sent as it was last rendered carries its first
 * render's time, so the notice takes the kept answer's Date when that is later.
 */
import { assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { setupDom } from "./_dom.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { cleanup, render, screen, waitFor } = await import("@testing-library/react");
const { default: OfflineSupport, offlineNotice, savedCopyTime } = await import(
  "../../islands/OfflineSupport.tsx"
);

/** Offline, with `kept` as the worker's copy of this page (undefined: none). */
function offlineWith(kept: Response | undefined) {
  const caches = { match: () => Promise.resolve(kept) };
  Object.defineProperty(globalThis, "caches", { value: caches, configurable: true });
  Object.defineProperty(navigator, "onLine", { value: false, configurable: true });
  return () => {
    Reflect.deleteProperty(navigator, "onLine");
    Reflect.deleteProperty(globalThis, "caches");
  };
}

const RENDERED = "2026-11-30T16:02:00.000Z";
const FETCHED = "Wed, 02 Dec 2026 20:30:00 GMT";

test("[offline support] a remembered page's copy is dated by the answer the worker kept, not its first render", async () => {
  const restore = offlineWith(new Response("<html></html>", { headers: { date: FETCHED } }));
  try {
    render(<OfflineSupport keep={[]} savedAt={RENDERED} />);
    const expected = offlineNotice(new Date(FETCHED).toISOString());
    await waitFor(() => assertEquals(screen.getByRole("status").textContent, expected));
  } finally {
    cleanup();
    restore();
  }
});

test("[offline support] with no kept copy, or one older than the page, the page's own time is said", async () => {
  for (
    const kept of [
      undefined,
      new Response("", { headers: { date: "Mon, 30 Nov 2026 09:00:00 GMT" } }),
      new Response("", { headers: { date: "not a date" } }),
    ]
  ) {
    const restore = offlineWith(kept);
    try {
      render(<OfflineSupport keep={[]} savedAt={RENDERED} />);
      // The lookup is asynchronous: let it answer before reading the notice.
      await new Promise((resolve) => setTimeout(resolve, 20));
      assertEquals(screen.getByRole("status").textContent, offlineNotice(RENDERED));
    } finally {
      cleanup();
      restore();
    }
  }
  assertEquals(savedCopyTime(RENDERED, null), RENDERED);
  assertEquals(savedCopyTime(RENDERED, FETCHED), "2026-12-02T20:30:00.000Z");
});
