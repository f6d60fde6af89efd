import { assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { setupDom } from "./_dom.ts";
import { stubFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: PricingEditor } = await import("../../islands/PricingEditor.tsx");
const { DEFAULT_PRICING_CONFIG } = await import("../../lib/pricing.ts");
const { dismissToast } = await import("../../islands/_toast.ts");

function mount() {
  dismissToast();
  render(
    <PricingEditor
      active={{ version: 1, config: DEFAULT_PRICING_CONFIG }}
      defaults={DEFAULT_PRICING_CONFIG}
      history={{ versions: [], total: 0, pageSize: 10 }}
      codes={{ codes: [], total: 0, pageSize: 10 }}
      renderedAt="2026-01-01T00:00:00.000Z"
    />,
  );
}

function input(id: string) {
  return document.getElementById(id) as HTMLInputElement;
}

function change(id: string, value: string) {
  act(() => void fireEvent.change(input(id), { target: { value } }));
}

test("[pricing editor] a discount code with bad fields is flagged next to each field and not sent", () => {
  const api = stubFetch({});
  mount();
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
  assertEquals(api.calls.length, 0);
  api.restore();
  cleanup();
});

test("[pricing editor] a fixed-amount code is sent in cents and listed", async () => {
  const api = stubFetch({
    "POST /api/admin/discount-codes": (call) =>
      Response.json({
        message: "Discount code created",
        code: {
          id: "c1",
          ...(call.body as object),
          uses: 0,
          active: true,
          createdAt: "2026-01-01T00:00:00.000Z",
        },
      }, { status: 201 }),
  });
  mount();
  change("dc-code", "SAVE25");
  change("dc-kind", "fixed");
  assertEquals(document.querySelector('label[for="dc-value"]')?.textContent, "Amount ($)");
  change("dc-value", "25");
  change("dc-note", "Spring mailer");
  act(() => void fireEvent.click(screen.getByRole("button", { name: "Create code" })));
  await waitFor(() => {
    if (!document.querySelector("tbody code")) throw new Error("code not listed yet");
  });
  assertEquals(api.calls[0].body, {
    code: "SAVE25",
    kind: "fixed",
    value: 2500,
    validFrom: null,
    validUntil: null,
    maxUses: null,
    oncePerClient: true,
    note: "Spring mailer",
  });
  api.restore();
  cleanup();
  dismissToast();
});

test("[pricing editor] a pricing factor that is not a number shows the schema's message", () => {
  mount();
  change("pf-includedAcres", "abc");
  const error = document.getElementById("pf-includedAcres-error");
  assertEquals(input("pf-includedAcres").getAttribute("aria-invalid"), "true");
  assertEquals(
    input("pf-includedAcres").getAttribute("aria-describedby"),
    "pf-includedAcres-error",
  );
  assertEquals(error !== null && error.textContent !== "", true);
  cleanup();
});

test("[pricing editor] no field is offered for a factor the survey type's price ignores", () => {
  const api = stubFetch({});
  mount();
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
  api.restore();
  cleanup();
});
