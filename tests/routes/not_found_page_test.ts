/**
 * The 404 page's header knows who is looking, like every public page (issue 21: a signed-in
 * user was offered "Login / Register" there).
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { signInAs } from "../_auth.ts";

test("[404 page] a signed-in user sees 'My Dashboard', a visitor 'Login / Register'", async () => {
  const t = await createTestApp();
  try {
    const cookie = await signInAs(t, "client");
    const paths = ["/no-such-page", "/survey/not-a-survey-id"];
    for (const path of paths) {
      const res = await t.request("GET", path, { cookie, headers: { accept: "text/html" } });
      assertEquals(res.status, 404, path);
      const html = await res.text();
      assertStringIncludes(html, "404 Page Not Found");
      assertStringIncludes(html, "My Dashboard", path);
      assert(!html.includes("Login / Register"), `${path}: not offered sign-in`);
      assertEquals(res.headers.get("cache-control"), "private, no-store", path);
    }
    const res = await t.request("GET", "/no-such-page", { headers: { accept: "text/html" } });
    assertEquals(res.status, 404);
    const html = await res.text();
    assertStringIncludes(html, "Login / Register");
    assert(!html.includes("My Dashboard"));
  } finally {
    t.close();
  }
});
