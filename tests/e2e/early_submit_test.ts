/**
 * A form pressed before any of the page's JavaScript has run (islands/_early.ts): the boot
 * script and every island chunk are held back, the visitor types and presses Sign in, and the
 * press is held (the form marked as waiting) instead of being submitted natively to the page's
 * own address, which has no POST and answered "Page not found" with what was typed gone. Once
 * the scripts arrive the island hydrates and signs in, once. And with JavaScript off the form
 * lands on a page that says it needs JavaScript and links back, with nothing typed echoed.
 */
import type { Page, Request, Response } from "playwright-core";
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { createUser } from "../_auth.ts";

const PASSWORD = "before-any-script-12";

/** Holds every built script but the early one until `release` is called. */
async function holdScripts(page: Page) {
  const released = Promise.withResolvers<void>();
  const held: string[] = [];
  await page.route("**/static/build/*.js", async (route) => {
    if (!/\/_early-[^/]+\.js$/.test(route.request().url())) {
      held.push(route.request().url());
      await released.promise;
    }
    await route.continue().catch(() => {});
  });
  return { held, release: () => released.resolve() };
}

/** Every request and answer the page makes, to count sign-ins and look for a 404. */
function traffic(page: Page) {
  const requests: Request[] = [];
  const responses: Response[] = [];
  page.on("request", (r) => requests.push(r));
  page.on("response", (r) => responses.push(r));
  return {
    logins: () => requests.filter((r) => r.method() === "POST" && r.url().endsWith("/api/login")),
    nativePosts: () =>
      requests.filter((r) => r.method() === "POST" && r.isNavigationRequest()).map((r) => r.url()),
    notFound: () => responses.filter((r) => r.status() === 404).map((r) => r.url()),
  };
}

for (const how of ["button", "Enter"] as const) {
  e2e(
    `sign-in pressed (${how}) before the boot script has run: held, then sent once the island hydrates, never a 404`,
    async ({ t, newPage, consoleErrors }) => {
      const user = await createUser(t.sql, { role: "client", password: PASSWORD });
      const page = await newPage();
      const scripts = await holdScripts(page);
      const seen = traffic(page);
      const res = await page.goto("/auth", { waitUntil: "commit" });
      assertEquals(res?.status(), 200);
      await page.getByLabel("Email or Username").fill(user.email);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      if (how === "button") await page.getByRole("button", { name: "Sign in" }).click();
      else await page.getByLabel("Password", { exact: true }).press("Enter");
      // Held: the form waits, marked, on its own page, and the runtime has not run.
      const form = page.locator("form[data-early-submit]");
      await form.waitFor();
      assertEquals(await form.count(), 1);
      assert(scripts.held.some((u) => /\/_boot-/.test(u)), "the boot script was held back");
      assertEquals(new URL(page.url()).pathname, "/auth");
      assertEquals(seen.nativePosts(), []);
      assertEquals(seen.logins().length, 0);

      scripts.release();
      await page.waitForURL((url) => url.pathname === "/client-dashboard");
      assertEquals(seen.logins().length, 1, "signed in exactly once");
      assertEquals(seen.nativePosts(), []);
      assertEquals(seen.notFound(), []);
      assertEquals(consoleErrors, []);
    },
  );
}

e2e(
  "with JavaScript off, the sign-in form answers a page saying it needs JavaScript, with a way back and no password in it",
  async ({ t, browser, baseUrl }) => {
    const user = await createUser(t.sql, { role: "client", password: PASSWORD });
    const context = await browser.newContext({ baseURL: baseUrl, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto("/auth");
      await page.getByLabel("Email or Username").fill(user.email);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST"),
        page.getByRole("button", { name: "Sign in" }).click(),
      ]);
      await page.waitForLoadState();
      assertEquals(answer.status(), 400);
      assertEquals(new URL(answer.url()).pathname, "/needs-javascript");
      assertEquals(
        await page.getByRole("heading", { level: 1 }).textContent(),
        "This form needs JavaScript",
      );
      const html = await page.content();
      assert(!html.includes(PASSWORD), "the password is not echoed");
      assert(!html.includes("Page Not Found"));
      assertStringIncludes(
        await page.locator("main, body").first().textContent() ?? "",
        "Nothing you typed was sent",
      );
      const back = page.getByRole("link", { name: "Go back to the form" });
      assertEquals(await back.getAttribute("href"), "/auth");
      await back.click();
      await page.waitForURL((url) => url.pathname === "/auth");
    } finally {
      await context.close();
    }
  },
);
