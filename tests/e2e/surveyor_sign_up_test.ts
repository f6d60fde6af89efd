/**
 * Firms that join by themselves end to end (issue 22), keyboard only: a surveyor reaches
 * /for-surveyors from the header, finds their firm's listing, claims it, fills in the sign-up
 * and lands on the dashboard saying the licence is being checked. The page at every supported
 * width with axe reporting nothing, before and after a search.
 */
import { assertEquals, assertStringIncludes } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { checkLayout } from "./_axe.ts";
import { insertSurveyor } from "../../db/surveyors.ts";

e2e("sign-up: find the listing, claim it and land on the dashboard, keyboard only", async (ctx) => {
  const { t } = ctx;
  await insertSurveyor(t.sql, {
    companyName: "Hill Country Surveyors",
    city: "Dripping Springs",
    state: "TX",
    licenseStates: ["TX"],
    surveyTypes: ["boundary"],
  });
  const page = await ctx.newPage();
  await page.goto("/");
  await page.locator('header a[href="/for-surveyors"]').first().click();
  await page.waitForURL((url) => url.pathname === "/for-surveyors");
  await checkLayout(page, "/for-surveyors");
  // The form hydrates when it comes into view: the hero's link takes the visitor there.
  await page.getByRole("link", { name: "Join as a surveyor" }).focus();
  await page.keyboard.press("Enter");
  await page.locator('[data-island="SurveyorSignUpForm"][data-hydrated]')
    .waitFor({ state: "attached" });

  await page.getByLabel("Company name, licence number or town").focus();
  await page.keyboard.type("hill country");
  await page.keyboard.press("Enter");
  const pick = page.getByRole("button", { name: "This is my firm" });
  await pick.waitFor();
  await checkLayout(page, "/for-surveyors with a match");
  await pick.focus();
  await page.keyboard.press("Enter");
  await page.getByText("You are claiming the listing of Hill Country Surveyors").waitFor();

  const fill = async (label: string, value: string) => {
    await page.getByLabel(label, { exact: true }).focus();
    await page.keyboard.type(value);
  };
  await fill("Your full name", "Hana Hill");
  await fill("Licence number", "RPLS 3030");
  await fill("Office address", "500 Congress Ave, Austin, TX 78701, USA");
  await page.keyboard.press("Escape");
  await fill("Email", "hana@hill.example");
  await fill("Password", "secret1");
  await fill("Confirm password", "secret1");
  await page.getByRole("button", { name: "Create my surveyor account" }).focus();
  await page.keyboard.press("Enter");
  await page.waitForURL((url) => url.pathname === "/surveyor-dashboard");
  assertStringIncludes(await page.locator("main").innerText(), "Your licence is being checked.");
  assertEquals(ctx.consoleErrors, []);
});
