import { assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import {
  describeLeadPrice,
  formatLeadPrice,
  leadPriceDollars,
  priceLead,
} from "../../lib/lead_pricing.ts";
import {
  DEFAULT_LEAD_PRICING,
  DEFAULT_PRICING_CONFIG,
  type LeadPricingConfig,
  PricingConfigSchema,
} from "../../lib/pricing.ts";
import { foundToastText, notifiedToastText } from "../../lib/dispatch_text.ts";

const config: LeadPricingConfig = {
  ...DEFAULT_LEAD_PRICING,
  sharePercent: {
    boundary: 10,
    elevation_certificate: 7.5,
    topographic: 8,
    alta: 6,
    construction: 8,
  },
  floorCents: 1_500,
  capCents: 15_000,
  subdivisionFlatCents: 7_500,
};

test("[lead price] the issue's example: 6% of a $1,285 ALTA quote is $77.10, said in plain words", () => {
  const price = priceLead(config, { surveyType: "alta", quotedPriceCents: 128_500 });
  assertEquals(price.priceCents, 7_710);
  assertEquals(
    describeLeadPrice(price.inputs),
    "6% of the $1,285.00 quote, at least $15, at most $150 = $77.10",
  );
  assertEquals(price.inputs, {
    method: "share",
    surveyType: "alta",
    quoteCents: 128_500,
    sharePercent: 6,
    floorCents: 1_500,
    capCents: 15_000,
    shareCents: 7_710,
    priceCents: 7_710,
  });
  // Stored as JSON in leads.pricing and read back: the sentence is the same.
  assertEquals(
    describeLeadPrice(JSON.parse(JSON.stringify(price.inputs))),
    describeLeadPrice(price.inputs),
  );
});

test("[lead price] a small quote is raised to the floor, a large one cut to the cap", () => {
  const low = priceLead(config, { surveyType: "boundary", quotedPriceCents: 9_900 });
  assertEquals(low.priceCents, 1_500);
  assertEquals(
    describeLeadPrice(low.inputs),
    "10% of the $99.00 quote, at least $15, at most $150 = $15.00",
  );
  const high = priceLead(config, { surveyType: "construction", quotedPriceCents: 2_500_000 });
  assertEquals(high.priceCents, 15_000);
  assertEquals(
    describeLeadPrice(high.inputs),
    "8% of the $25,000.00 quote, at least $15, at most $150 = $150.00",
  );
  // Exactly at the limits: unchanged.
  assertEquals(
    priceLead(config, { surveyType: "boundary", quotedPriceCents: 15_000 }).priceCents,
    1_500,
  );
  assertEquals(
    priceLead(config, { surveyType: "boundary", quotedPriceCents: 150_000 }).priceCents,
    15_000,
  );
  // A quote discounted to nothing still costs the floor.
  assertEquals(
    priceLead(config, { surveyType: "boundary", quotedPriceCents: 0 }).priceCents,
    1_500,
  );
});

test("[lead price] shares round to the nearest cent, halves up, whatever binary floating point says", () => {
  // 7.5% of $385.10 = 2888.25 cents → 2888; of $385.30 = 2889.75 → 2890.
  assertEquals(
    priceLead(config, { surveyType: "elevation_certificate", quotedPriceCents: 38_510 }).priceCents,
    2_888,
  );
  assertEquals(
    priceLead(config, { surveyType: "elevation_certificate", quotedPriceCents: 38_530 }).priceCents,
    2_890,
  );
  // 7.5% of $385.00 = 2887.5 cents exactly → 2888 (a half goes up).
  assertEquals(
    priceLead(config, { surveyType: "elevation_certificate", quotedPriceCents: 38_500 }).priceCents,
    2_888,
  );
  // 4.1% of $15.00 is 61.5 cents, which floating point computes as 61.49999999999999.
  const noisy = {
    ...config,
    floorCents: 0,
    sharePercent: { ...config.sharePercent, boundary: 4.1 },
  };
  assertEquals(
    priceLead(noisy, { surveyType: "boundary", quotedPriceCents: 1_500 }).priceCents,
    62,
  );
  assertEquals(
    priceLead(noisy, { surveyType: "boundary", quotedPriceCents: 1_499 }).priceCents,
    61,
  );
  // Whatever the quote, the price is whole cents.
  for (let q = 0; q < 20_000; q += 137) {
    const p = priceLead(config, { surveyType: "elevation_certificate", quotedPriceCents: q });
    assertEquals(Number.isInteger(p.priceCents), true, String(q));
  }
});

test("[lead price] a subdivision (quoted by hand) costs the flat price, with its own sentence", () => {
  const flat = priceLead(config, { surveyType: "subdivision", quotedPriceCents: null });
  assertEquals(flat.priceCents, 7_500);
  assertEquals(flat.inputs, {
    method: "flat",
    surveyType: "subdivision",
    reason: "quote_required",
    flatCents: 7_500,
    priceCents: 7_500,
  });
  assertEquals(
    describeLeadPrice(flat.inputs),
    "Flat price for a Subdivision Survey lead (quoted by hand) = $75.00",
  );
  // A priced type that somehow has no quote is not priced from nothing.
  const none = priceLead(config, { surveyType: "boundary", quotedPriceCents: null });
  assertEquals(none.priceCents, 7_500);
  assertEquals(describeLeadPrice(none.inputs), "Flat price for a lead without a quote = $75.00");
});

test("[lead price] the defaults give the spec's $38.50 for a $385 boundary survey", () => {
  const p = priceLead(DEFAULT_PRICING_CONFIG.lead, {
    surveyType: "boundary",
    quotedPriceCents: 38_500,
  });
  assertEquals(p.priceCents, 3_850);
  assertEquals(leadPriceDollars(p.priceCents), 38.5);
  assertEquals(formatLeadPrice(p.priceCents), "$38.50");
  assertEquals(formatLeadPrice(3_800), "$38.00");
});

test("[lead price] a stored configuration from before leads parses with the default lead section", () => {
  const { lead: _lead, ...older } = structuredClone(DEFAULT_PRICING_CONFIG);
  const parsed = PricingConfigSchema.parse(older);
  assertEquals(parsed.lead, DEFAULT_LEAD_PRICING);
  // Defaults are copies: changing one parsed config cannot change the next one.
  parsed.lead.floorCents = 1;
  assertEquals(PricingConfigSchema.parse(older).lead.floorCents, DEFAULT_LEAD_PRICING.floorCents);
});

test("[lead price] the configuration refuses a floor above the cap, shares over 50% and 0 buyers", () => {
  const bad = (lead: Record<string, unknown>) =>
    PricingConfigSchema.safeParse({
      ...DEFAULT_PRICING_CONFIG,
      lead: { ...DEFAULT_LEAD_PRICING, ...lead },
    });
  const floor = bad({ floorCents: 20_000, capCents: 10_000 });
  assertEquals(floor.success, false);
  assertEquals(
    floor.error?.issues[0].message,
    "The lowest lead price must not be above the highest",
  );
  assertEquals(
    bad({ sharePercent: { ...DEFAULT_LEAD_PRICING.sharePercent, alta: 60 } }).error?.issues[0]
      .message,
    "Lead share (alta) must be 50% or less",
  );
  assertEquals(
    bad({ maxBuyers: 0 }).error?.issues[0].message,
    "Buyers per lead must be at least 1",
  );
  assertEquals(bad({ expiryDays: 1.5 }).success, false);
  assertEquals(bad({ claimFeeMultiple: 0.5 }).success, false);
  assertEquals(bad({ surprise: 1 }).success, false);
  assertEquals(bad({}).success, true);
});

test("[dispatch toasts] the spec's sentences, singular and plural", () => {
  assertEquals(
    notifiedToastText({ notified: 4, leadPrice: 38.5 }),
    "Notified 4 surveyors · lead price $38.50",
  );
  assertEquals(
    notifiedToastText({ notified: 1, leadPrice: 77.1 }),
    "Notified 1 surveyor · lead price $77.10",
  );
  assertEquals(
    notifiedToastText({ notified: 0, leadPrice: 150 }),
    "Notified 0 surveyors · lead price $150.00",
  );
  assertEquals(foundToastText(3), "Found 3 nearby surveyor(s).");
});
