import { assertEquals, assertMatch } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { createUser, sessionFor } from "../_auth.ts";
import { getSurveyor, insertSurveyor, listContactHistory } from "../../db/surveyors.ts";

e2e(
  "an admin filters the directory, opens a surveyor, adds a contact and logs a call",
  async ({ newPage, t, baseUrl, consoleErrors }) => {
    const admin = await createUser(t.sql, { role: "admin", fullName: "Ada Admin" });
    const austin = await insertSurveyor(t.sql, {
      companyName: "Austin Land Surveying",
      city: "Austin",
      state: "TX",
      lat: 30.27,
      lng: -97.74,
      inNetwork: true,
      status: "active",
      surveyTypes: ["boundary"],
    });
    await insertSurveyor(t.sql, { companyName: "Dallas Prospect Co", city: "Dallas", state: "TX" });
    await insertSurveyor(t.sql, { companyName: "Fresno Field Crew", city: "Fresno", state: "CA" });

    const page = await newPage();
    const [name, value] = (await sessionFor(t, admin)).split("=");
    await page.context().addCookies([{ name, value, url: baseUrl }]);

    // The directory: the map, then a filter by state and in-network, kept in the address.
    await page.goto("/surveyors");
    await page.locator(".surveyor-directory[data-hydrated]").waitFor();
    await page.getByRole("heading", { name: "Coverage map" }).waitFor();
    const rows = page.locator(".surveyor-table tbody tr");
    assertEquals(await rows.count(), 3);
    await page.getByLabel("State", { exact: true }).selectOption("TX");
    await page.waitForURL((url) => url.search === "?state=TX");
    await page.getByRole("status").filter({ hasText: "2 surveyors match these filters" })
      .waitFor();
    await page.getByLabel("In network only").check();
    await page.waitForURL((url) => url.search === "?state=TX&inNetworkOnly=true");
    await page.getByRole("status").filter({ hasText: "1 surveyor match these filters" })
      .waitFor();
    assertEquals(await rows.count(), 1);
    // Search by name, from the keyboard.
    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.waitForURL((url) => url.search === "");
    await page.getByLabel("Search", { exact: true }).fill("fresno");
    await page.getByLabel("Search", { exact: true }).press("Enter");
    await page.waitForURL((url) => url.search === "?q=fresno");
    await page.getByRole("status").filter({ hasText: "1 surveyor match" }).waitFor();
    assertEquals(await rows.first().locator("th a").innerText(), "Fresno Field Crew");

    // A bookmarked filter renders the same on the server.
    await page.goto("/surveyors?state=TX&inNetworkOnly=true");
    await page.locator(".surveyor-directory[data-hydrated]").waitFor();
    assertEquals(await rows.count(), 1);
    await page.getByRole("link", { name: "Austin Land Surveying" }).first().click();
    await page.waitForURL((url) => url.pathname === `/surveyor-detail/${austin.id}`);
    await page.locator(".surveyor-detail[data-hydrated]").waitFor();
    await page.getByRole("heading", { level: 1, name: "Austin Land Surveying" }).waitFor();

    // Add a contact.
    await page.getByRole("button", { name: "Add a contact" }).click();
    const form = page.locator(".surveyor-contact--new");
    await form.getByLabel("Name", { exact: true }).fill("Pat Primary");
    await form.getByLabel("Email (optional)").fill("pat@example.test");
    await form.getByLabel("Primary contact").check();
    await form.getByRole("button", { name: "Add contact" }).click();
    await page.getByRole("status").filter({ hasText: "Contact added" }).first().waitFor();
    await page.locator(".surveyor-contact[data-contact-index='0'] strong", {
      hasText: "Pat Primary",
    }).waitFor();

    // Log a call.
    await page.getByLabel("Channel").selectOption("call");
    await page.getByLabel("Summary").fill("Called about joining the network");
    await page.getByLabel("Outcome (optional)").fill("Interested");
    await page.getByRole("button", { name: "Log contact" }).click();
    const entry = page.locator(".surveyor-history__entry").first();
    await entry.getByText("Called about joining the network").waitFor();
    assertMatch(await entry.innerText(), /Call[\s\S]*Ada Admin/);

    const stored = await getSurveyor(t.sql, { id: austin.id });
    assertEquals(stored?.contacts.map((c) => [c.name, c.isPrimary]), [["Pat Primary", true]]);
    const history = await listContactHistory(t.sql, { surveyorId: austin.id });
    assertEquals(history.map((h) => [h.channel, h.summary, h.outcome]), [
      ["call", "Called about joining the network", "Interested"],
    ]);
    assertEquals(consoleErrors, []);
  },
);
