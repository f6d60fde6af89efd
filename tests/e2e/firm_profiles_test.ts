/**
 * Public firm profiles (issue 22) in the browser: a visitor reads an active firm's profile
 * (coverage map, reviews by first name and town) at 390–1440 px with no sideways scroll and
 * nothing for axe to report; the firm's own account answers a review with the keyboard only,
 * and the reply shows under it.
 */
import { assertEquals } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { checkLayout } from "./_axe.ts";
import { createSignedInUser, sessionFor } from "../_auth.ts";
import { submitSurvey } from "../_fixtures.ts";
import { addSurveyor } from "../_assignment_fixtures.ts";
import { firmProfilePath } from "../../lib/firm_slug.ts";

e2e("a visitor reads a firm's profile and the firm answers a review, keyboard only", async (
  { t, baseUrl, newPage, consoleErrors },
) => {
  const firm = await addSurveyor(t, "Ortiz Land Surveying", {
    city: "Austin",
    state: "TX",
    licenseStates: ["TX", "NM"],
    surveyTypes: ["boundary", "topographic", "alta"],
  });
  const { cookie } = await createSignedInUser(t, {
    role: "client",
    fullName: "Dana Quillfeather",
  });
  const survey = await submitSurvey(t, cookie);
  await t.sql`
    insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, status, source)
    values (${survey.id}, ${firm.surveyor.id}, 128500, 'completed', 'admin')`;
  await t.sql`update surveys set status = 'completed', completed_date = '2030-05-02'
    where id = ${survey.id}`;
  const res = await t.request("POST", `/api/surveys/${survey.id}/review`, {
    cookie,
    body: { rating: 5, text: `Every corner staked. ${"Very clear plat. ".repeat(30)}` },
  });
  assertEquals(res.status, 201);
  await res.body?.cancel();
  const path = firmProfilePath("Ortiz Land Surveying", firm.surveyor.id);

  const visitor = await newPage();
  await visitor.goto(path);
  await visitor.getByRole("heading", { level: 1, name: "Ortiz Land Surveying" }).waitFor();
  await visitor.locator(".review-list__head", { hasText: "Dana in Austin, TX" }).waitFor();
  await checkLayout(visitor, "a firm's public profile");

  const page = await newPage();
  const [name, value] = (await sessionFor(t, firm.user!)).split("=");
  await page.context().addCookies([{ name, value, url: baseUrl }]);
  await page.goto(path);
  const box = page.getByLabel(/Reply publicly/);
  // Focus scrolls the form into view, which hydrates it (hydrate="visible").
  await box.focus();
  await page.locator("form.review-list__reply-form button:not([disabled])").waitFor();
  await page.keyboard.type("Thank you, Dana: glad the plat helped.");
  await page.keyboard.press("Tab");
  assertEquals(await page.evaluate(() => document.activeElement?.textContent), "Post reply");
  await page.keyboard.press("Enter");
  await page.locator("[data-testid=review-reply]", { hasText: "glad the plat helped" }).waitFor();
  await checkLayout(page, "the firm's profile after its reply");

  await page.reload();
  await page.locator(".review-list__reply", { hasText: "Reply from Ortiz Land Surveying" })
    .waitFor();
  assertEquals(await page.locator("form.review-list__reply-form").count(), 0, "one reply only");
  assertEquals(consoleErrors, []);
});
