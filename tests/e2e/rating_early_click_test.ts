/**
 * The client's first click on a rating star counts even when it lands before the rating island
 * has hydrated (islands/_boot.ts EarlyInput): on a slow connection the chunks arrive late, the
 * client clicks the fourth star as soon as it is on screen, and once the island is live the
 * fourth star is chosen, "4 of 5" is shown, and "Send rating" stores 4.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { createSignedInUser, sessionFor } from "../_auth.ts";
import { surveyRequest } from "../_fixtures.ts";
import { addSurveyor } from "../_assignment_fixtures.ts";
import { assignTechnicianInDb } from "../_checklist_fixtures.ts";

/**
 * Holds the island chunks back (the runtime too, the early and the boot scripts, when
 * `isBootSlow`), so the page is clicked before the island is live.
 */
async function slowChunks(page: Page, ms: number, isBootSlow: boolean) {
  await page.route("**/static/build/*.js", async (route) => {
    const isRuntime = /\/_(boot|early)-[^/]+\.js$/.test(route.request().url());
    if (!isBootSlow && isRuntime) return route.continue();
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue().catch(() => {});
  });
}

e2e(
  "a star clicked before the rating island hydrates is the rating chosen",
  async ({ t, baseUrl, newPage, consoleErrors }) => {
    const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
    const submitted = await fetch(`${baseUrl}/api/surveys`, {
      method: "POST",
      headers: { origin: baseUrl, cookie: client.cookie, "content-type": "application/json" },
      body: JSON.stringify(surveyRequest()),
    });
    assertEquals(submitted.status, 201);
    const { survey } = await submitted.json();
    const firm = await addSurveyor(t, "Level Line Surveying");
    const technician = await createSignedInUser(t, { role: "technician" });
    await assignTechnicianInDb(t, {
      surveyId: survey.id,
      surveyorId: firm.surveyor.id,
      technicianId: technician.user.id,
      status: "completed",
    });
    await t.sql`update survey_assignments set status = 'completed' where survey_id = ${survey.id}`;
    await t
      .sql`update surveys set surveyed_date = current_date - 2, completed_date = current_date - 1
      where id = ${survey.id}`;

    // Late enough for the click to land before hydration, then about when it happens.
    const cases = [[1500, false], [900, true], [120, false], [250, true]] as const;
    for (const [i, [delay, isBootSlow]] of cases.entries()) {
      if (i > 0) await t.sql`delete from surveyor_reviews where survey_id = ${survey.id}`;
      const page = await newPage();
      const [name, value] = (await sessionFor(t, client.user)).split("=");
      await page.context().addCookies([{ name, value, url: baseUrl }]);
      await page.setViewportSize({ width: 390, height: 844 });
      await slowChunks(page, delay, isBootSlow);
      await page.goto(`/survey/${survey.id}`, {
        waitUntil: isBootSlow ? "commit" : "domcontentloaded",
      });
      const star = page.locator(".rate-surveyor__star").nth(3);
      await star.scrollIntoViewIfNeeded();
      if (delay >= 900) {
        assertEquals(
          await page.locator('[data-island="RateSurveyor"][data-hydrated]').count(),
          0,
          "the click lands before hydration",
        );
      }
      await star.click();
      // Before the island is live the stars already show the choice: the first four lit, the
      // fifth not (the colour follows the radio's own checked state, not the island's).
      const colours = await page.locator(".rate-surveyor__glyph").evaluateAll((glyphs) =>
        glyphs.map((g) => getComputedStyle(g).color)
      );
      const isStillStatic =
        (await page.locator('[data-island="RateSurveyor"][data-hydrated]').count()) === 0;
      if (isStillStatic) {
        assertEquals(new Set(colours.slice(0, 4)).size, 1, "stars one to four look alike");
        assert(colours[3] !== colours[4], "the fourth star is lit and the fifth is not");
      }
      await page.locator('[data-island="RateSurveyor"][data-hydrated]').waitFor();
      await page.waitForLoadState("networkidle");
      const where = `chunks ${delay} ms late${isBootSlow ? ", boot script too" : ""}`;
      assert(
        await page.getByRole("radio", { name: "4 stars, Very good" }).isChecked(),
        `the fourth star is chosen (${where})`,
      );
      await page.locator(".rate-surveyor__chosen", { hasText: "4 of 5" }).waitFor();
      await page.getByRole("button", { name: "Send rating" }).click();
      await page.getByTestId("rating-given").waitFor();
      const [review] = await t.sql`select rating from surveyor_reviews
        where survey_id = ${survey.id}`;
      assertEquals(review.rating, 4, where);
      await page.close();
    }
    assertEquals(consoleErrors, []);
  },
);
