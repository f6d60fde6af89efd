/**
 * First contact (issue 19): the server started the way a newcomer starts it — `deno run -A
 * main.ts` as `deno task start` runs it, with no PUBLIC_URL, here on PORT=0 — and used in
 * Chromium at the URL it prints, then at the other loopback spelling of that URL.
 */
import { chromium, type Page, type Response } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { CHROMIUM_PATH, waitForIsland } from "./_browser.ts";
import { startServer } from "../platform/_server.ts";
import { loadConfig } from "../../lib/config.ts";
import { commandPublicUrl } from "../../lib/public_url.ts";

const hasBrowser = (() => {
  try {
    return Deno.statSync(CHROMIUM_PATH).isFile;
  } catch {
    return false;
  }
})();

/** Records every 4xx/5xx answer a page gets, for the failure message. */
function recordFailures(page: Page, into: string[]) {
  page.on("response", (res: Response) => {
    if (res.status() >= 400) {
      into.push(`${res.request().method()} ${res.url()} → ${res.status()}`);
    }
  });
}

async function continueStep(page: Page, nextHeading: RegExp) {
  await page.locator('button[form="cs-form"]').click();
  await page.locator("#cs-heading", { hasText: nextHeading }).waitFor();
}

Deno.test({
  name: "[e2e] a newcomer's server works at the URL it prints and at its other loopback spelling",
  ignore: !hasBrowser && Deno.env.get("REQUIRE_E2E") !== "1",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    if (!hasBrowser) throw new Error(`REQUIRE_E2E=1 but no browser at ${CHROMIUM_PATH}`);
    // As `deno task start` runs it: production, no PUBLIC_URL, default HOST; PORT=0 so the
    // real port is only known once it listens. Its own DATA_DIR (or the run's DATABASE_URL).
    const dataDir = await Deno.makeTempDir({ prefix: "meridian-first-contact-" });
    const server = await startServer({
      DATA_DIR: dataDir,
      PORT: "0",
      PUBLIC_URL: "",
      HOST: "",
      NODE_ENV: "production",
    }, { startTimeoutMs: 180_000 });
    const failures: string[] = [];
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    try {
      const printed = server.output().match(/Meridian listening on (http:\/\/\S+)/)?.[1];
      assert(printed, `no URL in the server's output:\n${server.output()}`);
      const url = new URL(printed);
      assertEquals(url.hostname, "127.0.0.1", "the default HOST");
      assert(Number(url.port) > 0, `the real port, not 0: ${printed}`);
      assertEquals(url.pathname, "/");
      if (!Deno.env.get("DATABASE_URL")) {
        // `deno task seed` beside it, with the same environment, prints the same URL.
        const env = { DATA_DIR: dataDir, PORT: "0" };
        assertEquals(await commandPublicUrl(loadConfig(env)), printed);
      }

      // ---- At the printed URL: register inline while asking for a quote, and submit it.
      const email = `newcomer-${crypto.randomUUID().slice(0, 8)}@example.test`;
      const context = await browser.newContext({ baseURL: printed });
      const page = await context.newPage();
      recordFailures(page, failures);
      page.setDefaultTimeout(20_000);
      const address = "123 Main St, Austin, TX 78701";
      await page.goto(`/create-survey?address=${encodeURIComponent(address)}`);
      await page.locator(".cs-confirm").waitFor();
      await continueStep(page, /Survey type/);
      await page.getByRole("button", { name: "Selling the property" }).click();
      await continueStep(page, /Property details/);
      await page.locator("#cs-propertyType").selectOption("residential");
      await page.locator("#cs-acreage").fill("0.5");
      await page.locator('input[name="cs-terrain"][value="rolling"]').check();
      await page.locator('input[name="cs-vegetation"][value="light"]').check();
      await page.locator("#cs-cornersToSet").fill("2");
      await page.locator('input[name="cs-cornersKnown"][value="no"]').check();
      await continueStep(page, /Your quote/);
      await page.getByTestId("quote-total").waitFor();
      await continueStep(page, /Contact/);
      await page.locator("#cs-contactName").fill("Noa Newcomer");
      await page.locator("#cs-contactPhone").fill("(512) 555-0190");
      await page.locator("#cs-register-email").fill(email);
      await page.locator("#cs-register-fullName").fill("Noa Newcomer");
      await page.locator("#cs-register-password").fill("first-try-pass");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.locator("#cs-heading", { hasText: /Review/ }).waitFor();
      await Promise.all([
        page.waitForURL(/\/client-dashboard$/),
        page.getByRole("button", { name: "Submit request" }).click(),
      ]);
      await page.locator(".toast", { hasText: "Survey request submitted" }).first().waitFor();
      const card = page.locator(".survey-card").first();
      await card.waitFor();
      assertMatch(await card.innerText(), /123 Main St/);

      // ---- The same server as http://localhost:<port>: signing in there works too.
      const other = `http://localhost:${url.port}`;
      const otherContext = await browser.newContext({ baseURL: other });
      const otherPage = await otherContext.newPage();
      recordFailures(otherPage, failures);
      otherPage.setDefaultTimeout(20_000);
      // Filled once the form's island has hydrated (as in accounts_test.ts).
      await otherPage.goto("/auth");
      const identifier = otherPage.getByLabel("Email or Username");
      await waitForIsland(identifier);
      await identifier.fill(email);
      await otherPage.getByLabel("Password", { exact: true }).fill("first-try-pass");
      await otherPage.getByRole("button", { name: "Sign in" }).click();
      await otherPage.waitForURL((u) => u.pathname === "/client-dashboard");
      await otherPage.locator(".survey-card").first().waitFor();
      assertMatch(await otherPage.locator(".survey-card").first().innerText(), /123 Main St/);
      assertEquals(failures, []);
    } catch (err) {
      if (err instanceof Error) {
        err.message += `\nfailed requests: ${failures.join("; ") || "none"}` +
          `\nserver output:\n${server.output().slice(-3000)}`;
      }
      throw err;
    } finally {
      await browser.close();
      await server.cleanUp();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
