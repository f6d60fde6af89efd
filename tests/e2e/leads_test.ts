import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { axeViolations } from "./_axe.ts";
import { createUser, sessionFor } from "../_auth.ts";
import { surveyRequest } from "../_fixtures.ts";
import { addMarketSurveyor } from "../_lead_fixtures.ts";
import { insertLead } from "../../db/leads.ts";
import { getActivePricingConfig } from "../../db/pricing.ts";
import { priceLead } from "../../lib/lead_pricing.ts";

/** Sideways scroll and axe findings at phone and desktop widths. */
async function layoutProblems(page: Page, where: string): Promise<string[]> {
  const problems: string[] = [];
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    if (scrollWidth > width) {
      problems.push(`${where} ${width}px: scrolls sideways (${scrollWidth})`);
    }
    problems.push(...(await axeViolations(page)).map((v) => `${where} ${width}px: ${v}`));
  }
  return problems;
}

e2e(
  "leads: a surveyor sees a lead on the list and the map, opens it, buys it after the confirmation and lands on the purchased lead",
  async ({ t, baseUrl, browser, consoleErrors }) => {
    // ---- A client's boundary request in Austin, priced as a lead.
    const client = await createUser(t.sql, { role: "client", fullName: "Zebediah Quartermaine" });
    const res = await t.request("POST", "/api/surveys", {
      cookie: await sessionFor(t, client),
      body: surveyRequest({ contactName: "Zebediah Quartermaine" }),
      headers: { origin: baseUrl },
    });
    const { survey } = await res.json();
    assertEquals(res.status, 201);
    const { version, config } = await getActivePricingConfig(t.sql);
    const price = priceLead(config.lead, survey);
    const lead = await insertLead(t.sql, {
      surveyId: survey.id,
      priceCents: price.priceCents,
      pricing: { ...price.inputs, configVersion: version },
      maxBuyers: 3,
      expiryDays: 7,
    });
    const dollars = `$${(lead.priceCents / 100).toFixed(2)}`;
    const after = `$${((100_00 - lead.priceCents) / 100).toFixed(2)}`;

    // ---- A verified surveyor 5 miles away with $100 on their balance (a ledger top-up).
    const { cookie } = await addMarketSurveyor(t, "Barton Creek Surveying", {
      balanceCents: 100_00,
    });
    const context = await browser.newContext({ baseURL: baseUrl });
    const [name, value] = cookie.split("=");
    await context.addCookies([{ name, value, url: baseUrl }]);
    const page = await context.newPage();
    page.on("pageerror", (err) => consoleErrors.push(`${page.url()}: ${err.message}`));
    page.on("console", (msg) => {
      if (msg.type() === "error") consoleErrors.push(`${page.url()}: ${msg.text()}`);
    });
    const problems: string[] = [];
    try {
      // ---- The list: the lead's card and its star on the map, no client name anywhere.
      await page.goto("/leads");
      await page.locator(".available-leads[data-hydrated]").waitFor();
      const card = page.locator(`[data-lead-id="${lead.id}"]`);
      assertMatch(await card.innerText(), /Boundary Survey in Austin, TX 78704/);
      assertMatch(await card.innerText(), /0 of 3 bought/);
      assertEquals(await card.getByTestId("lead-price").innerText(), dollars);
      const map = page.locator('svg.us-map__svg[role="img"]');
      assertEquals(await map.locator(".us-map__mark--property use").count(), 1);
      assertEquals(await map.locator(".us-map__mark--office use").count(), 1);
      assertEquals(await map.locator(".us-map__mark--in_network use").count(), 0);
      assert(!(await page.content()).includes("Quartermaine"), "no client name on the list");
      problems.push(...(await layoutProblems(page, "/leads")));

      // ---- The lead's page, then Buy with its confirmation.
      await page.setViewportSize({ width: 1280, height: 800 });
      await card.getByRole("link", { name: /Boundary Survey in Austin/ }).click();
      await page.waitForURL(`**/surveyor/leads/${lead.id}`);
      await page.locator(".lead-actions[data-hydrated]").waitFor();
      assert(!(await page.content()).includes("Quartermaine"), "no client name before buying");
      problems.push(...(await layoutProblems(page, "/surveyor/leads/{id}")));
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole("button", { name: `Buy lead · ${dollars}` }).click();
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      assertEquals(
        await dialog.getByRole("heading").innerText(),
        `Buy this lead for ${dollars}?`,
      );
      assertMatch(await dialog.innerText(), new RegExp(`Your balance after: \\${after}\\.`));
      problems.push(...(await axeViolations(page)).map((v) => `buy dialog: ${v}`));
      await dialog.getByRole("button", { name: "Buy lead" }).click();
      await page.waitForURL(`**/surveyor/purchased-leads/${lead.id}`);
      const [{ balance }] = await t.sql<{ balance: string }[]>`
        select balance_cents as balance from surveyors where company_name = 'Barton Creek Surveying'`;
      assertEquals(Number(balance), 100_00 - lead.priceCents);
    } finally {
      await context.close();
    }
    assertEquals(problems, []);
    assertEquals(consoleErrors, []);
  },
);
