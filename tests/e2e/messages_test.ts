/**
 * Messages on the job (issue 22) in the browser: the client opens their request's page, moves
 * between the firms' tabs and writes with the keyboard only; the buyer's open lead page shows
 * the message without a reload and its answer reaches the client the same way. A `<script>`
 * message stays text, a long link wraps. No sideways scroll and axe-clean at 390–1440 px.
 */
import { assertEquals } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { checkLayout } from "./_axe.ts";
import { createSignedInUser, sessionFor } from "../_auth.ts";
import { addBuyer, addPurchase, addSurveyWithLead } from "../_refund_fixtures.ts";
import type { Page } from "playwright-core";

async function signedIn(page: Page, baseUrl: string, cookie: string) {
  const [name, value] = cookie.split("=");
  await page.context().addCookies([{ name, value, url: baseUrl }]);
}

e2e(
  "the client and a buyer message each other on the request's page, keyboard only, without reloading",
  async (
    { t, baseUrl, newPage, consoleErrors },
  ) => {
    const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
    const { survey, lead } = await addSurveyWithLead(t, client.cookie);
    const able = await addBuyer(t, "Able Survey");
    const baker = await addBuyer(t, "Baker Survey");
    await addPurchase(t, lead, able);
    await addPurchase(t, lead, baker);
    const post = async (cookie: string, body: Record<string, unknown>) => {
      const res = await fetch(`${baseUrl}/api/surveys/${survey.id}/messages`, {
        method: "POST",
        headers: { origin: baseUrl, cookie, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      assertEquals(res.status, 201);
      await res.body?.cancel();
    };
    await post(able.cookie, {
      body: `<script>window.pwned = true</script> Plat: https://example.com/${
        "very-long-path-segment/".repeat(8)
      }plat.pdf`,
    });

    // The buyer keeps its lead page open.
    const surveyorPage = await newPage();
    await signedIn(surveyorPage, baseUrl, able.cookie);
    await surveyorPage.goto(`/surveyor/purchased-leads/${lead.id}#messages`);
    await surveyorPage.locator(".msg-thread[data-hydrated]").waitFor();
    await checkLayout(surveyorPage, "purchased lead page with messages");

    const page = await newPage();
    await signedIn(page, baseUrl, await sessionFor(t, client.user));
    await page.goto(`/survey/${survey.id}#messages`);
    await page.locator(".msg-thread[data-hydrated]").waitFor();
    assertEquals(await page.evaluate(() => (window as { pwned?: boolean }).pwned), undefined);
    await page.locator(".msg__body", { hasText: "<script>window.pwned = true</script>" }).waitFor();
    await checkLayout(page, "the client's request page with messages");

    // Keyboard only: the selected tab, arrows to the other firm and back, Tab to the composer.
    const selected = page.getByRole("tab", { selected: true });
    assertEquals(await selected.textContent(), "Able Survey", "the thread with the unread message");
    await selected.focus();
    await page.keyboard.press("ArrowRight");
    await page.getByRole("tab", { name: "Baker Survey", selected: true }).waitFor();
    await page.locator(".msg-empty").waitFor();
    await page.keyboard.press("ArrowLeft");
    await page.getByRole("tab", { name: "Able Survey", selected: true }).waitFor();
    // Tab on: the messages (a scrollable log), the link in one, then the composer.
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("name") ?? "");
    for (let i = 0; i < 3 && await focused() !== "body"; i++) await page.keyboard.press("Tab");
    assertEquals(await focused(), "body", "the composer is three Tabs away");
    await page.keyboard.type("Gate code is 1234.");
    await page.keyboard.press("Tab");
    assertEquals(await page.evaluate(() => document.activeElement?.textContent), "Send");
    await page.keyboard.press("Enter");
    await page.locator(".msg--mine .msg__body", { hasText: "Gate code is 1234." }).waitFor();

    // The buyer's open page shows it without a reload; the answer comes back the same way.
    await surveyorPage.locator(".msg__body", { hasText: "Gate code is 1234." }).waitFor({
      timeout: 60_000,
    });
    await surveyorPage.getByLabel("Message to Dana Client").fill("Thanks, Tuesday at 9.");
    await surveyorPage.keyboard.press("Control+Enter");
    await page.locator(".msg__body", { hasText: "Thanks, Tuesday at 9." }).waitFor({
      timeout: 60_000,
    });
    await checkLayout(page, "the conversation after replies");
    assertEquals(consoleErrors, []);
  },
);
