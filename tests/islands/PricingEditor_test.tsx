import { assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { signInAs } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: PricingEditor } = await import("../../islands/PricingEditor.tsx");
type PricingEditorProps = import("../../islands/PricingEditor.tsx").PricingEditorProps;
const { dismissToast } = await import("../../islands/_toast.ts");

/** /pricing-algorithm's editor as the server renders it for an admin, fetch reaching the app. */
async function mount(t: TestApp) {
  dismissToast();
  const cookie = await signInAs(t, "admin");
  const { html } = await loadPage(t, "/pricing-algorithm", cookie);
  const api = useAppFetch(t, { cookie });
  render(<PricingEditor {...islandProps<PricingEditorProps>(html, "PricingEditor")} />);
  return {
    api,
    done() {
      cleanup();
      api.restore();
      dismissToast();
      t.close();
    },
  };
}

function input(id: string) {
  return document.getElementById(id) as HTMLInputElement;
}

function change(id: string, value: string) {
  act(() => void fireEvent.change(input(id), { target: { value } }));
}

test("[pricing editor] a discount code with bad fields is flagged next to each field and not sent", async () => {
  const ui = await mount(await createTestApp());
  assertEquals(input("dc-from").labels?.[0].textContent, "Valid from (optional)");
  change("dc-code", "x");
  change("dc-max", "0");
  act(() => void fireEvent.click(screen.getByRole("button", { name: "Create code" })));
  assertEquals(input("dc-code").getAttribute("aria-invalid"), "true");
  assertEquals(input("dc-code").getAttribute("aria-describedby"), "dc-code-hint dc-code-error");
  assertEquals(
    document.getElementById("dc-code-error")?.textContent,
    "Codes are 3 to 40 letters, numbers, dashes or underscores",
  );
  assertEquals(
    document.getElementById("dc-value-error")?.textContent,
    "Value must be greater than 0",
  );
  assertEquals(
    document.getElementById("dc-max-error")?.textContent,
    "Maximum uses must be at least 1",
  );
  assertEquals(ui.api.calls.length, 0);
  ui.done();
});

test("[pricing editor] a fixed-amount code is sent in cents, stored and listed", async () => {
  const t = await createTestApp();
  const ui = await mount(t);
  change("dc-code", "SAVE25");
  change("dc-kind", "fixed");
  assertEquals(document.querySelector('label[for="dc-value"]')?.textContent, "Amount ($)");
  change("dc-value", "25");
  change("dc-note", "Spring mailer");
  act(() => void fireEvent.click(screen.getByRole("button", { name: "Create code" })));
  await waitFor(() => {
    if (!document.querySelector("tbody code")) throw new Error("code not listed yet");
  });
  assertEquals(ui.api.calls[0].body, {
    code: "SAVE25",
    kind: "fixed",
    value: 2500,
    validFrom: null,
    validUntil: null,
    maxUses: null,
    oncePerClient: true,
    note: "Spring mailer",
  });
  const [stored] = await t.sql<{ code: string; kind: string; value: number }[]>`
    select code, kind, value from discount_codes`;
  assertEquals({ ...stored }, { code: "SAVE25", kind: "fixed", value: 2500 });
  ui.done();
});

test("[pricing editor] a pricing factor that is not a number shows the schema's message", async () => {
  const ui = await mount(await createTestApp());
  change("pf-includedAcres", "abc");
  const error = document.getElementById("pf-includedAcres-error");
  assertEquals(input("pf-includedAcres").getAttribute("aria-invalid"), "true");
  assertEquals(
    input("pf-includedAcres").getAttribute("aria-describedby"),
    "pf-includedAcres-error",
  );
  assertEquals(error !== null && error.textContent !== "", true);
  ui.done();
});

test("[pricing editor] no field is offered for a factor the survey type's price ignores", async () => {
  const ui = await mount(await createTestApp());
  // Elevation certificates are not priced by acreage, boundary surveys not by structures,
  // and only boundary and ALTA surveys research corners (SURVEY_TYPE_FACTORS).
  for (
    const id of [
      "pf-acreageWeight-elevation_certificate",
      "pf-structures-boundary-centsEach",
      "pf-cornerSearchCents-topographic",
    ]
  ) {
    assertEquals(input(id), null, id);
  }
  for (
    const id of [
      "pf-acreageWeight-boundary",
      "pf-structures-elevation_certificate-centsEach",
      "pf-cornerSearchCents-alta",
    ]
  ) {
    assertEquals(input(id)?.tagName, "INPUT", id);
  }
  ui.done();
});

test("[pricing editor] changing one price saves a new version that keeps the hidden factors", async () => {
  const t = await createTestApp();
  const ui = await mount(t);
  // The factors the form hides are still in the configuration it validates and saves.
  assertEquals(document.body.textContent?.includes("attention"), false);
  change("pf-basePriceCents-boundary", "400");
  const save = screen.getByRole("button", { name: /Save as version/ }) as HTMLButtonElement;
  assertEquals(save.disabled, false);
  act(() => void fireEvent.click(save));
  await waitFor(() => screen.getByRole("button", { name: /Save as version 3/ }));
  await ui.api.idle();
  const [row] = await t.sql`
    select config from pricing_configs order by version desc limit 1`;
  const config = typeof row.config === "string" ? JSON.parse(row.config) : row.config;
  assertEquals(config.basePriceCents.boundary, 40000);
  // Not offered on the form, yet kept from the version it was loaded from.
  assertEquals(typeof config.acreageWeight.elevation_certificate, "number");
  ui.done();
});

function leadSamples(): string[] {
  const heading = [...document.querySelectorAll("h3")].find((h) =>
    h.textContent === "Lead prices at each starting price"
  );
  return [...heading!.nextElementSibling!.querySelectorAll("li")].map((li) => li.textContent!);
}

test("[pricing editor] the lead price preview reads like the surveyors' formula and follows each edit", async () => {
  const ui = await mount(await createTestApp());
  assertEquals(leadSamples(), [
    "Boundary Survey: 10% of the $385.00 quote, at least $15, at most $150 = $38.50",
    "Elevation Certificate: 10% of the $285.00 quote, at least $15, at most $150 = $28.50",
    "Topographic Survey: 8% of the $485.00 quote, at least $15, at most $150 = $38.80",
    "ALTA/NSPS Survey: 6% of the $1,285.00 quote, at least $15, at most $150 = $77.10",
    "Construction Survey: 8% of the $685.00 quote, at least $15, at most $150 = $54.80",
    "Subdivision Survey: Flat price for a Subdivision Survey lead (quoted by hand) = $75.00",
  ]);
  change("pf-lead-sharePercent-alta", "7.5");
  change("pf-lead-floorCents", "40");
  assertEquals(
    leadSamples()[3],
    "ALTA/NSPS Survey: 7.5% of the $1,285.00 quote, at least $40, at most $150 = $96.38",
  );
  assertEquals(
    leadSamples()[1],
    "Elevation Certificate: 10% of the $285.00 quote, at least $40, at most $150 = $40.00",
  );
  // Any quote can be tried: the cap applies to a big ALTA job.
  const tried = () =>
    input("lead-try-quote").closest(".pricing-field")!.parentElement!.nextElementSibling!
      .textContent;
  assertEquals(tried(), "7.5% of the $2,400.00 quote, at least $40, at most $150 = $150.00");
  change("lead-try-type", "boundary");
  change("lead-try-quote", "1000.50");
  assertEquals(tried(), "10% of the $1,000.50 quote, at least $40, at most $150 = $100.05");
  change("lead-try-quote", "lots");
  assertEquals(
    document.getElementById("lead-try-quote-error")?.textContent,
    "Enter a quote in dollars, like 1285",
  );
  assertEquals(ui.api.calls.filter((c) => c.method !== "POST").length, 0, "nothing saved");
  ui.done();
});

test("[pricing editor] bad lead price fields show the schema's message and cannot be saved", async () => {
  const ui = await mount(await createTestApp());
  change("pf-lead-floorCents", "200");
  assertEquals(
    document.getElementById("pf-lead-floorCents-error")?.textContent,
    "The lowest lead price must not be above the highest",
  );
  assertEquals(input("pf-lead-floorCents").getAttribute("aria-invalid"), "true");
  assertEquals(leadSamples()[0], "Boundary Survey: Fix the lead price fields to see this.");
  change("pf-lead-floorCents", "15");
  change("pf-lead-sharePercent-boundary", "60");
  change("pf-lead-maxBuyers", "2.5");
  change("pf-lead-expiryDays", "");
  assertEquals(
    document.getElementById("pf-lead-sharePercent-boundary-error")?.textContent,
    "Lead share (boundary) must be 50% or less",
  );
  assertEquals(
    document.getElementById("pf-lead-maxBuyers-error")?.textContent,
    "Buyers per lead must be a whole number",
  );
  assertEquals(
    document.getElementById("pf-lead-expiryDays-error")?.textContent,
    "Lead expiry must be a number",
  );
  assertEquals(document.getElementById("pricing-status")?.textContent, "3 fields need attention.");
  const save = screen.getByRole("button", { name: /Save as version/ }) as HTMLButtonElement;
  assertEquals(save.disabled, true);
  assertEquals(ui.api.calls.filter((c) => c.method === "PUT").length, 0);
  ui.done();
});

test("[pricing editor] a lead price edit is saved in the new version with the rest of the configuration", async () => {
  const t = await createTestApp();
  const ui = await mount(t);
  change("pf-lead-sharePercent-alta", "7.5");
  change("pf-lead-capCents", "120");
  change("pf-lead-subdivisionFlatCents", "90.5");
  change("pf-lead-maxBuyers", "4");
  change("pf-lead-expiryDays", "10");
  act(() => void fireEvent.click(screen.getByRole("button", { name: /Save as version 2/ })));
  await waitFor(() => screen.getByRole("button", { name: /Save as version 3/ }));
  await ui.api.idle();
  const [row] = await t.sql`
    select version, config from pricing_configs order by version desc limit 1`;
  const config = typeof row.config === "string" ? JSON.parse(row.config) : row.config;
  assertEquals(row.version, 2);
  assertEquals(config.lead, {
    sharePercent: {
      boundary: 10,
      elevation_certificate: 10,
      topographic: 8,
      alta: 7.5,
      construction: 8,
    },
    floorCents: 1500,
    capCents: 12000,
    subdivisionFlatCents: 9050,
    maxBuyers: 4,
    expiryDays: 10,
    // Not on the form: kept from the version it was loaded from.
    claimFeeMultiple: 1.5,
  });
  assertEquals(config.basePriceCents.boundary, 38500, "the rest is unchanged");
  ui.done();
});
