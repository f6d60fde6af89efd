import { assert, assertEquals } from "../_assert.ts";
import {
  acreageCharge,
  DEFAULT_PRICING_CONFIG,
  type Discount,
  FLOOR_CENTS,
  formatCents,
  PRICED_SURVEY_TYPES,
  priceSurvey,
  PRICING_SAMPLES,
  type PricingConfig,
  PricingConfigSchema,
  type Quote,
  toWholeDollars,
  TURNAROUND,
} from "../../lib/pricing.ts";
import { QUOTED_TURNAROUND, STARTING_PRICE_NOTE } from "../../lib/quote_text.ts";
import {
  ALTA_ITEM_IDS,
  PRICE_FACTORS,
  type PriceFactor,
  PROPERTY_TYPES,
  RUSH_LEVELS,
  STATE_CODES,
  SURVEY_TYPE_FACTORS,
  type SurveyDetails,
  type SurveyDetailsInput,
  SurveyDetailsSchema,
  TERRAINS,
  usesFactor,
  VEGETATIONS,
} from "../../lib/survey_details.ts";
import { SURVEY_TYPE_INFO, SURVEY_TYPES } from "../../lib/survey_types.ts";

const config = DEFAULT_PRICING_CONFIG;

/** A flat, clear, residential property in Pennsylvania (cost index 1.00). */
function details(overrides: Partial<SurveyDetailsInput> = {}): SurveyDetails {
  return SurveyDetailsSchema.parse({
    surveyType: "boundary",
    propertyType: "residential",
    acreage: 0.25,
    terrain: "flat",
    vegetation: "clear",
    structures: 0,
    state: "PA",
    ...overrides,
  });
}

function line(quote: Quote, key: string): number | undefined {
  return quote.lineItems.find((item) => item.key === key)?.amountCents;
}

function sum(quote: Quote): number {
  return quote.lineItems.reduce((total, item) => total + item.amountCents, 0);
}

function clone(): PricingConfig {
  return structuredClone(DEFAULT_PRICING_CONFIG);
}

Deno.test("[pricing] a ¼-acre flat suburban boundary survey in an average state is $385", () => {
  const quote = priceSurvey(config, details());
  assertEquals(quote.totalCents, 38_500);
  assertEquals(quote.subtotalCents, 38_500);
  assertEquals(quote.minimumApplied, false);
  assertEquals(quote.quoteRequired, false);
  assertEquals(quote.currency, "USD");
  assertEquals(quote.baseCents, 38_500);
  assertEquals(quote.turnaround, "5-10 business days");
  assertEquals(quote.lineItems.map((i) => i.key), ["base"]);
});

Deno.test("[pricing] 40 wooded, rolling acres cost several thousand dollars, itemised", () => {
  const quote = priceSurvey(
    config,
    details({ acreage: 40, terrain: "rolling", vegetation: "heavy", propertyType: "vacant" }),
  );
  // 4.5 ac × $120 + 15 ac × $75 + 20 ac × $45 = $2,565 on top of the $385 base.
  assertEquals(line(quote, "acreage"), 256_500);
  // Work $2,950: −5% is −$147.50, +15% $442.50, +35% $1,032.50; each rounds to whole dollars
  // (halves away from zero).
  assertEquals(line(quote, "property_type"), -14_800);
  assertEquals(line(quote, "terrain"), 44_300);
  assertEquals(line(quote, "vegetation"), 103_300);
  assertEquals(quote.totalCents, 295_000 - 14_800 + 44_300 + 103_300);
  assert(quote.totalCents! > 300_000 && quote.totalCents! < 900_000);
});

Deno.test("[pricing] every priced type never goes below its starting price", () => {
  for (const type of PRICED_SURVEY_TYPES) {
    // The cheapest combination: tiny vacant lot in the lowest-cost state.
    const quote = priceSurvey(
      config,
      details({ surveyType: type, acreage: 0.01, propertyType: "vacant", state: "MS" }),
    );
    assertEquals(quote.totalCents, FLOOR_CENTS[type], type);
    assertEquals(quote.minimumApplied, true, type);
    assertEquals(FLOOR_CENTS[type], SURVEY_TYPE_INFO[type].startingPrice! * 100, type);
  }
});

Deno.test("[pricing] under the starting price the quote is the starting price, with a note", () => {
  // ¼ acre in Mississippi (index 0.85): $385 − $58 = $327 before the floor.
  const quote = priceSurvey(config, details({ state: "MS" }));
  assertEquals(quote.minimumApplied, true);
  assertEquals(quote.lineItems, [{
    key: "starting_price",
    label: "Boundary Survey starting price",
    detail: STARTING_PRICE_NOTE,
    amountCents: 38_500,
  }]);
  assertEquals(quote.subtotalCents, 38_500);
  assertEquals(quote.totalCents, 38_500);
  // No top-up line ("Minimum price … $0.96") in any floored quote, whatever the type.
  for (const type of PRICED_SURVEY_TYPES) {
    const floored = priceSurvey(config, details({ surveyType: type, state: "MS" }));
    assertEquals(floored.lineItems.map((i) => i.key), ["starting_price"], type);
    assertEquals(floored.totalCents, FLOOR_CENTS[type], type);
  }
  // Above the floor the work is itemised as usual.
  assertEquals(priceSurvey(config, details()).lineItems.map((i) => i.key), ["base"]);
});

Deno.test("[pricing] the floor holds even when an admin sets base prices below it", () => {
  const cheap = clone();
  for (const type of PRICED_SURVEY_TYPES) cheap.basePriceCents[type] = 100;
  for (const type of PRICED_SURVEY_TYPES) {
    const quote = priceSurvey(cheap, details({ surveyType: type }));
    assertEquals(quote.totalCents, FLOOR_CENTS[type], type);
  }
});

Deno.test("[pricing] subdivision needs a quote: no price, no lines, no discount", () => {
  const quote = priceSurvey(
    config,
    details({ surveyType: "subdivision", acreage: 50 }),
    { code: "SAVE10", kind: "percent", value: 10 },
  );
  assertEquals(quote.quoteRequired, true);
  assertEquals(quote.totalCents, null);
  assertEquals(quote.lineItems, []);
  assertEquals(quote.discount, null);
  assertEquals(quote.turnaround, QUOTED_TURNAROUND);
});

// Reference job for factor tests: boundary, 10 acres, flat, clear, residential, PA.
// work = $385 + 4.5 ac × $120 + 5 ac × $75 = $1,300.
const REF = { acreage: 10 } as const;
const REF_WORK = 130_000;

Deno.test("[pricing] property type factors scale the work", () => {
  const expected = { residential: 0, commercial: 32_500, agricultural: 0, vacant: -6_500 };
  for (const propertyType of PROPERTY_TYPES) {
    const quote = priceSurvey(config, details({ ...REF, propertyType }));
    assertEquals(line(quote, "property_type") ?? 0, expected[propertyType], propertyType);
    assertEquals(quote.totalCents, REF_WORK + expected[propertyType], propertyType);
  }
});

Deno.test("[pricing] terrain factors scale the work", () => {
  const expected = { flat: 0, rolling: 19_500, hilly: 39_000, steep: 65_000 };
  for (const terrain of TERRAINS) {
    const quote = priceSurvey(config, details({ ...REF, terrain }));
    assertEquals(line(quote, "terrain") ?? 0, expected[terrain], terrain);
    assertEquals(quote.totalCents, REF_WORK + expected[terrain], terrain);
  }
});

Deno.test("[pricing] vegetation factors scale the work", () => {
  const expected = { clear: 0, light: 6_500, moderate: 19_500, heavy: 45_500 };
  for (const vegetation of VEGETATIONS) {
    const quote = priceSurvey(config, details({ ...REF, vegetation }));
    assertEquals(line(quote, "vegetation") ?? 0, expected[vegetation], vegetation);
    assertEquals(quote.totalCents, REF_WORK + expected[vegetation], vegetation);
  }
});

Deno.test("[pricing] property, terrain and vegetation add up rather than compound", () => {
  const quote = priceSurvey(
    config,
    details({ ...REF, propertyType: "commercial", terrain: "steep", vegetation: "heavy" }),
  );
  assertEquals(quote.totalCents, REF_WORK + 32_500 + 65_000 + 45_500);
});

Deno.test("[pricing] acreage is weighted per survey type", () => {
  const charge = 91_500; // 4.5 ac × $120 + 5 ac × $75
  const expected = {
    boundary: charge,
    elevation_certificate: undefined,
    topographic: 114_400, // × 1.25 = $1,143.75
    alta: 137_300, // × 1.5 = $1,372.50
    construction: 45_800, // × 0.5 = $457.50
  };
  for (const type of PRICED_SURVEY_TYPES) {
    const quote = priceSurvey(config, details({ ...REF, surveyType: type }));
    assertEquals(line(quote, "acreage"), expected[type], type);
  }
});

Deno.test("[pricing] the price per acre falls as parcels grow, the total still rises", () => {
  const sizes = [1, 5, 10, 20, 50, 100, 250, 500, 1000, 5000, 10_000];
  let previousPerAcre = Infinity;
  let previousTotal = 0;
  for (const acres of sizes) {
    const { cents } = acreageCharge(config, acres);
    const perAcre = (config.basePriceCents.boundary + cents) / acres;
    assert(perAcre < previousPerAcre, `per-acre price should fall at ${acres} acres`);
    assert(cents > previousTotal, `total should rise at ${acres} acres`);
    previousPerAcre = perAcre;
    previousTotal = cents;
  }
  // The marginal rate never rises either.
  const marginal = [2, 10, 50, 300, 800].map((a) =>
    acreageCharge(config, a + 1).cents - acreageCharge(config, a).cents
  );
  assertEquals(marginal, [12_000, 7_500, 4_500, 2_000, 1_000]);
  assertEquals(acreageCharge(config, 0.5).cents, 0);
  assertEquals(acreageCharge(config, 0.3).cents, 0);
  // 1000 ac: 4.5×120 + 15×75 + 80×45 + 400×20 + 500×10 dollars
  assertEquals(acreageCharge(config, 1000).cents, (540 + 1125 + 3600 + 8000 + 5000) * 100);
});

Deno.test("[pricing] structures are charged beyond those included, per type", () => {
  const expected = {
    boundary: undefined,
    elevation_certificate: 2 * 17_500,
    topographic: 3 * 4_000,
    alta: 2 * 10_000,
    construction: 2 * 25_000,
  };
  for (const type of PRICED_SURVEY_TYPES) {
    const quote = priceSurvey(config, details({ surveyType: type, structures: 3 }));
    assertEquals(line(quote, "structures"), expected[type], type);
  }
  const one = priceSurvey(config, details({ surveyType: "elevation_certificate", structures: 1 }));
  assertEquals(line(one, "structures"), undefined);
  // What the breakdown says, one structure or several.
  const detail = (quote: Quote) => quote.lineItems.find((i) => i.key === "structures")?.detail;
  assertEquals(
    detail(priceSurvey(config, details({ surveyType: "topographic", structures: 1 }))),
    "1 structure, 0 included: 1 × $40",
  );
  assertEquals(
    detail(priceSurvey(config, details({ surveyType: "topographic", structures: 3 }))),
    "3 structures, 0 included: 3 × $40",
  );
});

Deno.test("[pricing] corners to set and unknown corners are charged", () => {
  const quote = priceSurvey(config, details({ ...REF, cornersToSet: 3 }));
  assertEquals(line(quote, "corners_set"), 22_500);
  assertEquals(quote.totalCents, REF_WORK + 22_500);

  const unknown = priceSurvey(config, details({ ...REF, cornersKnown: false }));
  assertEquals(line(unknown, "corner_search"), 12_500);
  const known = priceSurvey(config, details({ ...REF, cornersKnown: true }));
  assertEquals(line(known, "corner_search"), undefined);
  const topo = priceSurvey(config, details({ surveyType: "topographic", cornersKnown: false }));
  assertEquals(line(topo, "corner_search"), undefined);
});

Deno.test("[pricing] expedited and rush add to the standard price after the floor", () => {
  const expected = { standard: 0, expedited: 32_500, rush: 65_000 };
  for (const rush of RUSH_LEVELS) {
    const quote = priceSurvey(config, details({ ...REF, rush }));
    assertEquals(line(quote, "rush") ?? 0, expected[rush], rush);
    assertEquals(quote.turnaround, TURNAROUND.boundary[rush], rush);
  }
  const floored = priceSurvey(config, details({ state: "MS", rush: "rush" }));
  assertEquals(floored.minimumApplied, true);
  assertEquals(floored.lineItems.map((i) => [i.key, i.amountCents]), [
    ["starting_price", 38_500],
    ["rush", 19_300], // +50% of $385 is $192.50
  ]);
  assertEquals(floored.totalCents, 57_800);
});

Deno.test("[pricing] every state and DC has a sensible cost index", () => {
  assertEquals(STATE_CODES.length, 51);
  assertEquals(Object.keys(config.stateIndex).sort(), [...STATE_CODES].sort());
  for (const state of STATE_CODES) {
    const index = config.stateIndex[state];
    assert(index >= 0.8 && index <= 1.4, `${state} index ${index}`);
  }
  assert(config.stateIndex.CA > config.stateIndex.TX);
  assert(config.stateIndex.NY > config.stateIndex.MS);
  const ca = priceSurvey(config, details({ ...REF, state: "CA" }));
  assertEquals(line(ca, "regional"), Math.round(REF_WORK * 0.3));
  const tx = priceSurvey(config, details({ ...REF, state: "TX" }));
  assertEquals(line(tx, "regional"), Math.round(REF_WORK * -0.05));
});

Deno.test("[pricing] ALTA Table A items are priced one line each, only for ALTA", () => {
  const quote = priceSurvey(
    config,
    details({ surveyType: "alta", altaItems: ["4", "11b", "4"], acreage: 1 }),
  );
  assertEquals(line(quote, "alta_4"), 2_500);
  assertEquals(line(quote, "alta_11b"), 60_000);
  assertEquals(quote.lineItems.filter((i) => i.key.startsWith("alta_")).length, 2);
  for (const id of ALTA_ITEM_IDS) assert(config.altaItemCents[id] >= 0, id);
  const boundary = priceSurvey(config, details({ altaItems: ["11b"] }));
  assertEquals(boundary.lineItems.some((i) => i.key.startsWith("alta_")), false);
});

Deno.test("[pricing] discounts: percent, fixed, never negative, after the floor", () => {
  const cases: { discount: Discount; subtotal: number; amount: number }[] = [
    { discount: { code: "P10", kind: "percent", value: 10 }, subtotal: REF_WORK, amount: 13_000 },
    {
      discount: { code: "P100", kind: "percent", value: 100 },
      subtotal: REF_WORK,
      amount: REF_WORK,
    },
    { discount: { code: "F50", kind: "fixed", value: 5_000 }, subtotal: REF_WORK, amount: 5_000 },
    {
      discount: { code: "BIG", kind: "fixed", value: 1_000_000 },
      subtotal: REF_WORK,
      amount: REF_WORK,
    },
  ];
  for (const { discount, subtotal, amount } of cases) {
    const quote = priceSurvey(config, details(REF), discount);
    assertEquals(quote.subtotalCents, subtotal, discount.code);
    assertEquals(quote.discount, { ...discount, amountCents: amount }, discount.code);
    assertEquals(quote.totalCents, subtotal - amount, discount.code);
    assert(quote.totalCents! >= 0, discount.code);
  }
  // A discount applies after the floor and may take the total below the starting price.
  const floored = priceSurvey(config, details({ state: "MS" }), {
    code: "F50",
    kind: "fixed",
    value: 5_000,
  });
  assertEquals(floored.subtotalCents, 38_500);
  assertEquals(floored.totalCents, 33_500);
  // Percent rounds once, to whole dollars: $385 + $116 (CA +30% of $385 = $115.50) = $501,
  // 15% of which is $75.15.
  const odd = priceSurvey(config, details({ state: "CA" }), {
    code: "P15",
    kind: "percent",
    value: 15,
  });
  assertEquals(odd.subtotalCents, 50_100);
  assertEquals(odd.discount!.amountCents, 7_500);
  assertEquals(odd.totalCents, 42_600);
  // A fixed amount with cents (entered as such by an admin) is given in whole dollars too.
  const fixed = priceSurvey(config, details(REF), { code: "F", kind: "fixed", value: 1_250 });
  assertEquals(fixed.discount!.amountCents, 1_300);
  assertEquals(fixed.totalCents, REF_WORK - 1_300);
});

Deno.test("[pricing] every amount is whole dollars and the lines add up to the subtotal", () => {
  let checked = 0;
  for (const surveyType of PRICED_SURVEY_TYPES) {
    for (const terrain of TERRAINS) {
      for (const vegetation of VEGETATIONS) {
        for (const rush of RUSH_LEVELS) {
          for (const acreage of [0.13, 1.37, 33.3, 777.77]) {
            for (const state of ["CA", "MS", "HI", "PA"] as const) {
              const quote = priceSurvey(
                config,
                details({
                  surveyType,
                  terrain,
                  vegetation,
                  rush,
                  acreage,
                  state,
                  structures: 3,
                  cornersToSet: 2,
                  cornersKnown: false,
                  propertyType: "commercial",
                  altaItems: ["5", "7c"],
                }),
                { code: "P7", kind: "percent", value: 7 },
              );
              const amounts = [
                ...quote.lineItems.map((i) => i.amountCents),
                quote.subtotalCents,
                quote.discount!.amountCents,
                quote.totalCents!,
              ];
              for (const cents of amounts) assert(cents % 100 === 0, `not whole dollars: ${cents}`);
              assertEquals(sum(quote), quote.subtotalCents);
              assert(quote.subtotalCents >= FLOOR_CENTS[surveyType]);
              assertEquals(quote.totalCents, quote.subtotalCents - quote.discount!.amountCents);
              checked++;
            }
          }
        }
      }
    }
  }
  assertEquals(checked, 5 * 4 * 4 * 3 * 4 * 4);
});

Deno.test("[pricing] every survey type shows the spec's turnaround for a standard job", () => {
  for (const type of SURVEY_TYPES) {
    assertEquals(TURNAROUND[type].standard, SURVEY_TYPE_INFO[type].turnaround, type);
  }
});

Deno.test("[pricing] the preview samples all price and cover every priced type", () => {
  const types = new Set(PRICING_SAMPLES.map((s) => s.details.surveyType));
  for (const type of PRICED_SURVEY_TYPES) assert(types.has(type), type);
  for (const sample of PRICING_SAMPLES) {
    assertEquals(SurveyDetailsSchema.parse(sample.details), sample.details, sample.label);
    assert(priceSurvey(config, sample.details).totalCents! > 0, sample.label);
  }
});

Deno.test("[pricing] the default configuration is valid", () => {
  const result = PricingConfigSchema.safeParse(DEFAULT_PRICING_CONFIG);
  assert(result.success, JSON.stringify(result.error?.issues));
});

Deno.test("[pricing] invalid configurations are refused with a field and a reason", () => {
  const cases: { name: string; edit: (c: Record<string, unknown>) => void; path: string }[] = [
    {
      name: "negative base price",
      edit: (c) => ((c.basePriceCents as Record<string, number>).boundary = -1),
      path: "basePriceCents.boundary",
    },
    {
      name: "fractional cents",
      edit: (c) => (c.cornerSetCents = 10.5),
      path: "cornerSetCents",
    },
    {
      name: "string instead of number",
      edit: (c) => ((c.terrain as Record<string, unknown>).hilly = "1.3"),
      path: "terrain.hilly",
    },
    {
      name: "multiplier out of range",
      edit: (c) => ((c.vegetation as Record<string, number>).heavy = 9),
      path: "vegetation.heavy",
    },
    {
      name: "rush below 1",
      edit: (c) => ((c.rush as Record<string, number>).rush = 0.9),
      path: "rush.rush",
    },
    {
      name: "missing state",
      edit: (c) => delete (c.stateIndex as Record<string, number>).TX,
      path: "stateIndex.TX",
    },
    {
      name: "unknown key",
      edit: (c) => (c.surprise = 1),
      path: "_",
    },
    {
      name: "tiers out of order",
      edit: (c) => ((c.acreageTiers as { upToAcres: number }[])[1].upToAcres = 3),
      path: "acreageTiers.1.upToAcres",
    },
    {
      name: "price per acre rising",
      edit: (c) => ((c.acreageTiers as { centsPerAcre: number }[])[2].centsPerAcre = 99_000),
      path: "acreageTiers.2.centsPerAcre",
    },
    {
      name: "bounded last tier",
      edit: (c) => ((c.acreageTiers as { upToAcres: number | null }[])[4].upToAcres = 9000),
      path: "acreageTiers.4.upToAcres",
    },
    {
      name: "wrong schema version",
      edit: (c) => (c.schemaVersion = 2),
      path: "schemaVersion",
    },
  ];
  for (const { name, edit, path } of cases) {
    const bad = clone() as unknown as Record<string, unknown>;
    edit(bad);
    const result = PricingConfigSchema.safeParse(bad);
    assertEquals(result.success, false, name);
    const paths = result.error!.issues.map((i) => i.path.join(".") || "_");
    assert(paths.includes(path), `${name}: ${paths.join(", ")}`);
    assert(result.error!.issues.every((i) => i.message.length > 0), name);
  }
});

Deno.test("[pricing] survey details refuse bad input with clear messages", () => {
  // ALTA uses every factor, so each is checked.
  const base = {
    surveyType: "alta",
    propertyType: "residential",
    acreage: 1,
    terrain: "flat",
    vegetation: "clear",
    state: "PA",
  };
  const cases: [string, Record<string, unknown>, string, string][] = [
    ["unknown type", { surveyType: "mineral" }, "surveyType", "Choose a survey type"],
    ["negative acreage", { acreage: -2 }, "acreage", "Acreage must be greater than 0"],
    ["zero acreage", { acreage: 0 }, "acreage", "Acreage must be greater than 0"],
    ["absurd acreage", { acreage: 1e9 }, "acreage", "Acreage must be 10,000 acres or less"],
    ["acreage as text", { acreage: "12" }, "acreage", "Acreage must be a number"],
    [
      "fractional structures",
      { structures: 1.5 },
      "structures",
      "Number of structures must be a whole number",
    ],
    [
      "too many corners",
      { cornersToSet: 21 },
      "cornersToSet",
      "Corners to set must be 20 or fewer",
    ],
    ["bad state", { state: "ZZ" }, "state", "Choose a US state"],
    ["10 KB state", { state: "x".repeat(10_000) }, "state", "Use the two-letter state code"],
    [
      "10 KB discount code",
      { discountCode: "x".repeat(10_000) },
      "discountCode",
      "Discount code must be 40 characters or fewer",
    ],
    ["unknown ALTA item", { altaItems: ["99"] }, "altaItems.0", "Unknown ALTA Table A item"],
    ["rush as boolean", { rush: true }, "rush", "Choose standard, expedited or rush"],
  ];
  for (const [name, override, path, message] of cases) {
    const result = SurveyDetailsSchema.safeParse({ ...base, ...override });
    assertEquals(result.success, false, name);
    const issue = result.error!.issues.find((i) => i.path.join(".") === path);
    assertEquals(issue?.message, message, name);
  }
  const ok = SurveyDetailsSchema.parse({ ...base, state: " ca ", discountCode: "  ", price: 1 });
  assertEquals(ok.state, "CA");
  assertEquals(ok.discountCode, undefined);
  assertEquals("price" in ok, false);
});

/** A quote-changing value for each factor, against the neutral `details()` job. */
const FACTOR_CHANGES: Record<PriceFactor, Partial<SurveyDetailsInput>> = {
  acreage: { acreage: 40 },
  terrain: { terrain: "steep" },
  vegetation: { vegetation: "heavy" },
  structures: { structures: 6 },
  cornersToSet: { cornersToSet: 3 },
  cornersKnown: { cornersKnown: false },
  altaItems: { altaItems: ["5"] },
};

Deno.test("[pricing] each type's quote changes with exactly the factors its table lists", () => {
  for (const type of PRICED_SURVEY_TYPES) {
    // 10 acres in PA: above every floor, so each factor shows in the total.
    const plain = priceSurvey(config, details({ surveyType: type, acreage: 10 }));
    for (const factor of PRICE_FACTORS) {
      const changed = priceSurvey(
        config,
        details({ surveyType: type, acreage: 10, ...FACTOR_CHANGES[factor] }),
      );
      if (usesFactor(type, factor)) {
        assert(changed.totalCents! > plain.totalCents!, `${type} should price ${factor}`);
      } else {
        assertEquals(changed, plain, `${type} should ignore ${factor}`);
      }
    }
  }
  // The engine itself ignores what the table leaves out, even when handed it directly.
  const raw = {
    surveyType: "elevation_certificate",
    propertyType: "residential",
    acreage: 900,
    terrain: "steep",
    vegetation: "heavy",
    cornersToSet: 9,
    cornersKnown: false,
    rush: "standard",
    state: "PA",
  } as const;
  assertEquals(priceSurvey(config, raw).totalCents, 28_500);
});

Deno.test("[pricing] the schema keeps and requires exactly the factors a type uses", () => {
  const common = { propertyType: "residential", state: "PA" };
  const everything = {
    acreage: 2,
    terrain: "hilly",
    vegetation: "light",
    structures: 2,
    cornersToSet: 1,
    cornersKnown: true,
    altaItems: ["4"],
  };
  for (const type of SURVEY_TYPES) {
    const listed = SURVEY_TYPE_FACTORS[type];
    // Sent everything: keeps the listed factors, drops the rest.
    const parsed = SurveyDetailsSchema.parse({ surveyType: type, ...common, ...everything });
    const kept = PRICE_FACTORS.filter((f) => f in parsed);
    assertEquals(kept, PRICE_FACTORS.filter((f) => listed.includes(f)), type);
    // Sent nothing: refuses exactly the listed factors that have no default, each with a
    // message a person can act on.
    const bare = SurveyDetailsSchema.safeParse({ surveyType: type, ...common });
    const required = listed.filter((f) => ["acreage", "terrain", "vegetation"].includes(f));
    if (required.length === 0) {
      assert(bare.success, `${type}: ${JSON.stringify(bare.error?.issues)}`);
      continue;
    }
    assertEquals(bare.success, false, type);
    assertEquals(bare.error!.issues.map((i) => i.path.join(".")), required, type);
  }
  const missing = SurveyDetailsSchema.safeParse({ surveyType: "boundary", ...common });
  assertEquals(missing.error!.issues.map((i) => i.message), [
    "Enter the lot size in acres",
    "Choose the terrain",
    "Choose the vegetation",
  ]);
});

Deno.test("[pricing] a factor the type ignores is dropped even when its value is bad", () => {
  const parsed = SurveyDetailsSchema.parse({
    surveyType: "elevation_certificate",
    propertyType: "residential",
    state: "FL",
    acreage: -3,
    terrain: "lava",
    vegetation: 7,
    cornersToSet: 1.5,
    altaItems: ["99"],
  });
  assertEquals(parsed, {
    surveyType: "elevation_certificate",
    propertyType: "residential",
    state: "FL",
    rush: "standard",
  });
  // A factor the type uses is still checked.
  const bad = SurveyDetailsSchema.safeParse({
    surveyType: "elevation_certificate",
    propertyType: "residential",
    state: "FL",
    structures: -1,
  });
  assertEquals(bad.error?.issues[0].message, "Number of structures cannot be negative");
  // Other fields' errors come together with the missing factors.
  const both = SurveyDetailsSchema.safeParse({
    surveyType: "topographic",
    propertyType: "castle",
    state: "PA",
  });
  assertEquals(both.error!.issues.map((i) => i.path.join(".")), [
    "propertyType",
    "acreage",
    "terrain",
    "vegetation",
  ]);
});

Deno.test("[pricing] whole-dollar rounding: halves away from zero, never −0", () => {
  assertEquals(toWholeDollars(38_450), 38_500);
  assertEquals(toWholeDollars(38_449), 38_400);
  assertEquals(toWholeDollars(-14_750), -14_800);
  assertEquals(toWholeDollars(-14_749), -14_700);
  assertEquals(toWholeDollars(295_000 * (1.15 - 1)), 44_300); // $442.4999… in floating point
  assert(Object.is(toWholeDollars(-49), 0));
});

Deno.test("[pricing] money is formatted with cents only when there are some", () => {
  assertEquals(formatCents(38_500), "$385");
  assertEquals(formatCents(123_456), "$1,234.56");
  assertEquals(formatCents(5), "$0.05");
  assertEquals(formatCents(-6_500), "−$65");
});
