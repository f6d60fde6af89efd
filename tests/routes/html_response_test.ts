import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { addSurveyor } from "../_assignment_fixtures.ts";
import { firmProfilePath } from "../../lib/firm_slug.ts";
import { assertFrontDoorHeaders } from "../_front_door_headers.ts";

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

// A page answer is finished by its route with every header the middleware gives any answer
// (routes/_finished_response.ts); one whose request set a header on the context (here the
// cookie of a stale session, cleared) is built as any other answer and given them after.
test("[html response] a page carries each of the middleware's headers once, finished by its route or not", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, { role: "client" });
  const gzip = { "accept-encoding": "gzip" };
  const finished = await t.request("GET", "/client-dashboard", { cookie, headers: gzip });
  const stale = await t.request("GET", "/create-survey", {
    cookie: "meridian_session=stale",
    headers: gzip,
  });
  assertEquals(finished.headers.getSetCookie(), []);
  assertEquals(stale.headers.getSetCookie().length, 1, "the stale cookie is cleared");
  for (const [label, res] of [["finished", finished], ["stale", stale]] as const) {
    assertEquals(res.status, 200, label);
    const headers = assertFrontDoorHeaders(res, label);
    assertEquals(headers["vary"], "Accept-Encoding", label);
    assertEquals(headers["content-encoding"], "gzip", label);
    const html = await new Response(res.body!.pipeThrough(new DecompressionStream("gzip")))
      .text();
    assert(html.startsWith("<!DOCTYPE html>"), `${label}: a whole page, gzipped`);
  }
  // Without gzip asked for: the same page as it is, still varying on what was asked.
  const plain = await t.request("GET", "/client-dashboard", { cookie });
  assertEquals(plain.headers.get("content-encoding"), null);
  assertEquals(plain.headers.get("vary"), "Accept-Encoding");
  assert((await plain.text()).startsWith("<!DOCTYPE html>"));
  t.close();
});

// A page whose route varies on the cookie (a firm's profile: public to a visitor, with a reply
// form for the firm) keeps that when it is compressed: a browser that cached the visitor's copy
// must not show it once the firm signs in.
test("[html response] a compressed page keeps its route's own Vary", async () => {
  const t = await createTestApp();
  const firm = await addSurveyor(t, "Ortiz Land Surveying", { city: "Austin", state: "TX" });
  const path = firmProfilePath("Ortiz Land Surveying", firm.surveyor.id);
  const { cookie } = await createSignedInUser(t, { role: "client" });
  for (const [label, asked] of [["visitor", {}], ["signed in", { cookie }]] as const) {
    for (const encoding of ["gzip", "identity"]) {
      const res = await t.request("GET", path, {
        ...asked,
        headers: { "accept-encoding": encoding },
      });
      assertEquals(res.status, 200, `${label}, ${encoding}`);
      assertEquals(res.headers.get("vary"), "Cookie, Accept-Encoding", `${label}, ${encoding}`);
      assertEquals(
        res.headers.get("content-encoding"),
        encoding === "gzip" ? "gzip" : null,
        `${label}, ${encoding}`,
      );
      await res.body?.cancel();
    }
  }
  t.close();
});
