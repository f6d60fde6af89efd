import { assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { formatLeadPrice } from "../../lib/lead_pricing.ts";
import { formatCents } from "../../lib/quote_text.ts";
import { formatDollars } from "../../lib/survey_types.ts";
import { signedCents } from "../../islands/_billing.ts";

// A balance below zero read "$-65.80": every money formatter writes "−$65.80" (U+2212 minus,
// before the dollar sign), the way a person writes a negative amount.
test("[money] negative amounts read −$65.80 in every formatter", () => {
  assertEquals(formatLeadPrice(-6_580), "\u2212$65.80");
  assertEquals(formatLeadPrice(-1_234_500), "\u2212$12,345.00");
  assertEquals(formatLeadPrice(6_580), "$65.80");
  assertEquals(formatLeadPrice(0), "$0.00");
  assertEquals(formatCents(-6_580), "\u2212$65.80");
  assertEquals(formatDollars(-20), "\u2212$20");
  assertEquals(formatDollars(1_285), "$1,285");
  assertEquals(signedCents(-6_580), "\u2212$65.80");
  assertEquals(signedCents(6_580), "+$65.80");
  for (const text of [formatLeadPrice(-1), formatCents(-1), formatDollars(-1)]) {
    assertEquals(text.includes("$-"), false, text);
  }
});
