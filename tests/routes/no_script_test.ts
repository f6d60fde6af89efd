/**
 * POST /needs-javascript (routes/no_script.tsx): where an island form lands when it is
 * submitted without JavaScript. A 400 page that says so and links back to the form's page,
 * never to another site, with nothing of the body in it.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { backPath } from "../../routes/no_script.tsx";

const FORM = "login-identifier=someone%40example.test&login-password=hunter2-secret-99";

test("[no script] a form sent without JavaScript gets a 400 page saying so, a link back, and nothing it sent", async () => {
  const t = await createTestApp();
  const origin = new URL(t.deps.config.PUBLIC_URL).origin;
  const res = await t.request("POST", "/needs-javascript", {
    body: FORM,
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      accept: "text/html",
      referer: `${origin}/auth?next=%2Fprofile`,
    },
  });
  assertEquals(res.status, 400);
  assertMatch(res.headers.get("content-type") ?? "", /^text\/html/);
  assertEquals(res.headers.get("cache-control"), "no-store");
  const html = await res.text();
  assertStringIncludes(html, "<h1>This form needs JavaScript</h1>");
  assertStringIncludes(html, `href="/auth?next=%2Fprofile"`);
  assert(!html.includes("hunter2"), "the password is not echoed");
  assert(!html.includes("someone@example.test") && !html.includes("someone%40"));
  assert(!html.includes("Page Not Found"));
  t.close();
});

test("[no script] the link back leads only within the site", () => {
  const origins = new Set(["https://meridian.example"]);
  assertEquals(backPath(undefined, origins), "/");
  assertEquals(backPath("not a url", origins), "/");
  assertEquals(backPath("https://evil.example/auth", origins), "/");
  assertEquals(backPath("https://meridian.example//evil.example/x", origins), "/evil.example/x");
  assertEquals(backPath("https://meridian.example/needs-javascript", origins), "/");
  assertEquals(backPath("https://meridian.example/contact?x=1", origins), "/contact?x=1");
});

test("[no script] a cross-site post is refused before it", async () => {
  const t = await createTestApp();
  const res = await t.request("POST", "/needs-javascript", {
    body: FORM,
    headers: {
      origin: "https://evil.example",
      "content-type": "application/x-www-form-urlencoded",
    },
  });
  assertEquals(res.status, 403);
  t.close();
});
