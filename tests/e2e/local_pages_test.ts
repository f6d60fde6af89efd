/**
 * Local pages (issue 24) in the browser: a visitor reads the state page, a town page and a
 * town × type page at 390–1440 px with no sideways scroll and nothing for axe to report, and
 * the town page's quote form starts with the town filled in.
 */
import { assertEquals } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { checkLayout } from "./_axe.ts";
import { addSurveyor } from "../_assignment_fixtures.ts";

e2e("a visitor reads the local pages of a town a verified firm covers", async (
  { t, newPage, consoleErrors },
) => {
  await addSurveyor(t, "Ortiz Land Surveying", {
    city: "Austin",
    state: "TX",
    lat: 30.27,
    lng: -97.74,
    licenseStates: ["TX"],
    surveyTypes: ["boundary", "topographic"],
    serviceRadiusMiles: 40,
  });
  const page = await newPage();
  await page.goto("/land-surveyors/tx");
  await page.getByRole("heading", { level: 1, name: "Land Surveyors in Texas" }).waitFor();
  await checkLayout(page, "the Texas page");

  await page.getByRole("link", { name: "Austin", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Land Surveyors in Austin, TX" }).waitFor();
  assertEquals(
    await page.getByRole("combobox", { name: "Property address" }).inputValue(),
    "Austin, TX",
  );
  await checkLayout(page, "the Austin page");

  await page.goto("/services/boundary-surveys/tx/austin");
  await page.getByRole("heading", { level: 1, name: /Boundary Survey in Austin, TX/ }).waitFor();
  await checkLayout(page, "the Austin boundary survey page");
  assertEquals(consoleErrors, []);
});
