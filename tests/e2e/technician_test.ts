/**
 * Technicians in the browser: the surveyor invites a technician from the dashboard's "Your
 * crew" card, assigns them on the job page ('Technician assigned'), and the technician, on a
 * phone-sized screen, finds the job on their dashboard with the maps and phone links. No
 * sideways scroll and axe-clean at 390/1024/1280/1440 px on the three pages and on the
 * admin's /admin/technicians.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { checkLayout } from "./_axe.ts";
import { createSignedInUser, sessionFor } from "../_auth.ts";
import { surveyRequest } from "../_fixtures.ts";
import { addSurveyor } from "../_assignment_fixtures.ts";
import { acceptJob } from "../_technician_fixtures.ts";
import { localToday } from "../../lib/technicians.ts";

async function toast(page: Page, title: string) {
  await page.locator(".toast", { hasText: title }).first().waitFor();
}

e2e("a surveyor invites and assigns a technician, who finds the job on their phone", async (
  { t, baseUrl, newPage, consoleErrors },
) => {
  const client = await createSignedInUser(t, { role: "client" });
  const submitted = await fetch(`${baseUrl}/api/surveys`, {
    method: "POST",
    headers: { origin: baseUrl, cookie: client.cookie, "content-type": "application/json" },
    body: JSON.stringify(surveyRequest()),
  });
  assertEquals(submitted.status, 201);
  const { survey } = await submitted.json();
  const ortiz = await addSurveyor(t, "Ortiz Surveying");
  await acceptJob(t, survey.id, ortiz.surveyor.id, {
    status: "scheduled",
    scheduledDate: localToday("TX"),
  });

  const page = await newPage();
  const [name, value] = (await sessionFor(t, ortiz.user!)).split("=");
  await page.context().addCookies([{ name, value, url: baseUrl }]);
  // The crew has its own page, linked from the dashboard.
  await page.goto("/surveyor-dashboard");
  await page.locator("main").getByRole("link", { name: "Your crew" }).click();
  await page.waitForURL("**/surveyor/crew");
  const crew = page.locator(".technician-team[data-hydrated]");
  await crew.waitFor();
  await crew.getByLabel("Full name").fill("Jamie Field");
  await crew.getByLabel("Email").fill("jamie@crew.test");
  await crew.getByLabel("Phone (optional)").fill("(512) 555-0190");
  await crew.getByRole("button", { name: "Send invitation" }).click();
  await toast(page, "Invitation not emailed");
  await crew.getByText("Jamie Field").waitFor();
  await checkLayout(page, "the surveyor dashboard with the crew card");

  await page.goto(`/surveyor/jobs/${survey.id}`);
  const form = page.locator(".assign-technician[data-hydrated]");
  await form.waitFor();
  await form.getByRole("radio", { name: "Jamie Field" }).check();
  await form.getByLabel(/Notes for the crew/).fill("Gate code 1234");
  await checkLayout(page, "the job page with the crew form");
  await form.getByRole("button", { name: "Assign technician" }).click();
  await toast(page, "Technician assigned");
  await form.getByText("Assigned: Jamie Field").waitFor();
  const [row] = await t.sql<{ id: string }[]>`
    select assigned_technician_id as id from surveys where id = ${survey.id}`;
  assert(row.id, "the survey has its technician");

  // The technician (their invitation used: a session is opened for them directly).
  const tech = await newPage();
  const [techName, techValue] = (await sessionFor(t, { id: row.id, role: "technician" }))
    .split("=");
  await tech.context().addCookies([{ name: techName, value: techValue, url: baseUrl }]);
  await tech.setViewportSize({ width: 390, height: 844 });
  await tech.goto("/technician-dashboard");
  const card = tech.locator(`[data-job="${survey.id}"]`);
  await card.waitFor();
  assertEquals(
    await card.locator(".tech-job__address a").getAttribute("href"),
    "https://www.google.com/maps/search/?api=1&query=1200%20Barton%20Springs%20Rd%2C%20Austin%2C%20TX%2078704%2C%20USA",
  );
  assertEquals(await card.locator('a[href^="tel:"]').getAttribute("href"), "tel:5125550100");
  assert((await tech.locator("#today-title").textContent())?.includes("Today"));
  await checkLayout(tech, "the technician dashboard");

  // The admin's page of Meridian staff and the firms' crews.
  const admin = await createSignedInUser(t, { role: "admin" });
  const adminPage = await newPage();
  const [adminName, adminValue] = admin.cookie.split("=");
  await adminPage.context().addCookies([{ name: adminName, value: adminValue, url: baseUrl }]);
  await adminPage.goto("/admin/technicians");
  await adminPage.locator(".technician-team[data-hydrated]").waitFor();
  await adminPage.getByText("Jamie Field").waitFor();
  await checkLayout(adminPage, "the admin's technicians page");
  assertEquals(consoleErrors, []);
});
