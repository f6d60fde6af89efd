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
