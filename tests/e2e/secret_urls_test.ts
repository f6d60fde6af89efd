/**
 * The emailed lead link `/lead/{id}?token=…` (issue 20): in a real browser the token leaves the
 * address bar once the page has loaded, and the join link on the page still carries it.
 */
import { assertEquals } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { createUser, sessionFor } from "../_auth.ts";
import { surveyRequest } from "../_fixtures.ts";
import { insertLead } from "../../db/leads.ts";
import { getActivePricingConfig } from "../../db/pricing.ts";
import { priceLead } from "../../lib/lead_pricing.ts";

e2e(
  "secret urls: the lead page opened from an email takes the token out of the address bar",
  async ({ t, baseUrl, newPage, consoleErrors }) => {
    const client = await createUser(t.sql, { role: "client" });
    const res = await t.request("POST", "/api/surveys", {
      cookie: await sessionFor(t, client),
      body: surveyRequest(),
      headers: { origin: baseUrl },
    });
    assertEquals(res.status, 201);
    const { survey } = await res.json();
    const { version, config } = await getActivePricingConfig(t.sql);
    const price = priceLead(config.lead, survey);
    const lead = await insertLead(t.sql, {
      surveyId: survey.id,
      priceCents: price.priceCents,
      pricing: { ...price.inputs, configVersion: version },
      maxBuyers: 3,
      expiryDays: 7,
    });

    const page = await newPage();
    await page.goto(`/lead/${lead.id}?token=${"A".repeat(43)}&utm_source=email#join`);
    await page.waitForFunction(() => !location.search.includes("token="));
    const url = new URL(page.url());
    assertEquals(url.pathname + url.search + url.hash, `/lead/${lead.id}?utm_source=email#join`);
    assertEquals(await page.locator("h1").count(), 1);
    assertEquals(consoleErrors, []);
  },
);
