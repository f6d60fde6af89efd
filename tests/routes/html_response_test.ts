import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { signInAs } from "../_auth.ts";

// Rendered pages go out as UTF-8 bytes (routes/_html_response.ts): what the browser decodes is
// the page as rendered, accented letters included, labelled as UTF-8 HTML.

test("[html response] a signed-in page, the 403 and the 404 pages are UTF-8 HTML with every character intact", async () => {
  const t = await createTestApp();
  // Characters past ASCII, each two bytes in UTF-8 and one in Latin-1.
  const name = "Zoë Ångström-Núñez";
  const cookie = await signInAs(t, { role: "client", fullName: name });
  const page = await t.request("GET", "/client-dashboard", { cookie });
  assertEquals(page.status, 200);
  assertEquals(page.headers.get("content-type"), "text/html; charset=UTF-8");
  assertEquals(page.headers.get("cache-control"), "private, no-store");
  const bytes = new Uint8Array(await page.arrayBuffer());
  const html = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  assert(html.startsWith("<!DOCTYPE html>"), "a whole page");
  assert(html.includes(name), "the name as typed, not mangled");
  const denied = await t.request("GET", "/admin-dashboard", { cookie });
  assertEquals(denied.status, 403);
  assertEquals(denied.headers.get("content-type"), "text/html; charset=UTF-8");
  assert((await denied.text()).includes("Access denied"));
  const missing = await t.request("GET", "/no-such-page-é", {
    cookie,
    headers: { accept: "text/html" },
  });
  assertEquals(missing.status, 404);
  assertEquals(missing.headers.get("content-type"), "text/html; charset=UTF-8");
  assert((await missing.text()).includes("Page not found"));
  t.close();
});
