import { assertEquals, assertStringIncludes } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { setupDom } from "./_dom.ts";

setupDom();
const { act } = await import("@testing-library/react");
const { renderToString } = await import("react-dom/server");
const { hydrateRoot } = await import("react-dom/client");
const { default: LocalTime, formatLocalDateTime } = await import("../../islands/LocalTime.tsx");

const ISO = "2026-11-21T15:04:00.000Z";

/** Runs `fn` with the process (and so Intl's default) time zone set to `zone`. */
async function inZone(zone: string, fn: () => void | Promise<void>) {
  const saved = Deno.env.get("TZ");
  Deno.env.set("TZ", zone);
  try {
    await fn();
  } finally {
    if (saved === undefined) Deno.env.delete("TZ");
    else Deno.env.set("TZ", saved);
  }
}

test("[local time] the server renders the time in UTC and says so", () => {
  const html = renderToString(<LocalTime iso={ISO} />);
  assertEquals(html, `<time dateTime="${ISO}">Nov 21, 2026, 3:04 PM UTC</time>`);
});

test("[local time] in the browser it switches to the viewer's zone without a hydration error", async () => {
  await inZone("America/Chicago", async () => {
    // The server's HTML does not depend on where it runs.
    const html = renderToString(<LocalTime iso={ISO} />);
    assertStringIncludes(html, "3:04 PM UTC");
    const container = document.createElement("div");
    container.innerHTML = html;
    document.body.append(container);
    const errors: unknown[] = [];
    const root = await act(() =>
      hydrateRoot(container, <LocalTime iso={ISO} />, {
        onRecoverableError: (err) => errors.push(err),
      })
    );
    try {
      assertEquals(container.querySelector("time")?.textContent, "Nov 21, 2026, 9:04 AM CST");
      assertEquals(container.querySelector("time")?.getAttribute("datetime"), ISO);
      assertEquals(errors, []);
    } finally {
      act(() => root.unmount());
      container.remove();
    }
  });
});

test("[local time] the local format follows the zone and shows '—' for a bad timestamp", async () => {
  await inZone("Asia/Tokyo", () => {
    assertEquals(formatLocalDateTime(ISO), "Nov 22, 2026, 12:04 AM GMT+9");
  });
  assertEquals(formatLocalDateTime("not a date"), "—");
});
