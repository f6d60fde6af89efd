/**
 * POST /api/calculate-price over realistic survey details (every type, a spread of acreages,
 * terrains, states and rush levels; some with a discount code), measured
 *  1. as the pure engine alone (`priceSurvey`),
 *  2. in-process through `app.request()` (middleware, validation, the active-config query,
 *     the discount check, JSON), signed out,
 *  3. the same with a discount code on every request (one more query and a KV rate-limit hit).
 * Embedded PGlite unless DATABASE_URL is set. Prints p50/p90/p99; asserts nothing.
 * Target: p50 < 2 ms.
 *
 *   deno run -A bench/calculate_price.ts
 *   BENCH_REQUESTS=5000 DATABASE_URL=postgres://… deno run -A bench/calculate_price.ts
 */
import { createApp } from "../main.ts";
import { measure, report } from "./_stats.ts";
import { loadConfig } from "../lib/config.ts";
import { openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { openKv } from "../db/kv.ts";
import { ensureBuild } from "../lib/assets.ts";
import { createGeoProvider } from "../lib/geo/select.ts";
import { createParcelProvider } from "../lib/parcels/select.ts";
import { createPlacesProvider } from "../lib/places/select.ts";
import { createPaymentsProvider } from "../lib/payments/select.ts";
import { createStorageProvider } from "../lib/storage/select.ts";
import { DEFAULT_PRICING_CONFIG, priceSurvey } from "../lib/pricing.ts";
import {
  RUSH_LEVELS,
  type SurveyDetailsInput,
  SurveyDetailsSchema,
  TERRAINS,
  VEGETATIONS,
} from "../lib/survey_details.ts";
import { SURVEY_TYPES } from "../lib/survey_types.ts";
import { insertDiscountCode } from "../db/discounts.ts";

const REQUESTS = Number(Deno.env.get("BENCH_REQUESTS") ?? 2_000);
const WARMUP = 200;
/** Every mode: WARMUP untimed requests, then REQUESTS timed ones. */
const RUNS = { warmup: WARMUP, iterations: REQUESTS };
/** Width of the label column. */
const LABEL_WIDTH = 34;
const ORIGIN = "http://localhost";

/** A deterministic spread of the details people actually send. */
function realisticInputs(): SurveyDetailsInput[] {
  const acreages = [0.17, 0.25, 0.33, 0.5, 1, 2.4, 5, 12, 40, 160];
  const states = ["TX", "FL", "CA", "NC", "PA", "OH", "GA", "NY", "CO", "WA", "MS", "AZ"];
  const propertyTypes = ["residential", "residential", "commercial", "agricultural", "vacant"];
  const out: SurveyDetailsInput[] = [];
  for (let i = 0; i < 500; i++) {
    const surveyType = SURVEY_TYPES[i % SURVEY_TYPES.length];
    out.push({
      surveyType,
      propertyType: propertyTypes[i % propertyTypes.length] as SurveyDetailsInput["propertyType"],
      acreage: acreages[(i * 7) % acreages.length],
      terrain: TERRAINS[(i * 3) % TERRAINS.length],
      vegetation: VEGETATIONS[(i * 5) % VEGETATIONS.length],
      structures: i % 4,
      cornersToSet: i % 9 === 0 ? 4 : 0,
      cornersKnown: i % 3 !== 0,
      rush: RUSH_LEVELS[i % 7 === 0 ? 2 : i % 5 === 0 ? 1 : 0],
      state: states[i % states.length],
      altaItems: surveyType === "alta" ? ["4", "8", "11a"] : undefined,
    });
  }
  return out;
}

const inputs = realisticInputs();
const parsed = inputs.map((input) => SurveyDetailsSchema.parse(input));
const bodies = inputs.map((input) => JSON.stringify(input));
const discounted = inputs.map((input) => JSON.stringify({ ...input, discountCode: "BENCH10" }));

const config = loadConfig({
  NODE_ENV: "production",
  LOG_REQUESTS: "0",
  // The CSRF check accepts only PUBLIC_URL's origin.
  PUBLIC_URL: ORIGIN,
  DATABASE_URL: Deno.env.get("DATABASE_URL"),
});
const db = await openDatabase(
  { DATA_DIR: ".data/bench", DATABASE_URL: config.DATABASE_URL },
  { memory: true },
);
const kv = await openKv(":memory:");
try {
  await migrate(db.sql);
  await db.sql`delete from discount_codes where code = 'BENCH10'`;
  await insertDiscountCode(db.sql, {
    code: "BENCH10",
    kind: "percent",
    value: 10,
    createdBy: null,
  });
  const assets = await ensureBuild();
  const app = createApp({
    config,
    sql: db.sql,
    kv,
    assets,
    geo: createGeoProvider(config),
    parcels: createParcelProvider(config),
    places: createPlacesProvider(config),
    payments: createPaymentsProvider(config),
    storage: createStorageProvider(config, db.sql),
  });
  console.log(
    `  ${db.kind}; ${inputs.length} distinct inputs over all six types; ${REQUESTS} sequential ` +
      "requests per mode",
  );

  report(
    "priceSurvey() (engine only)",
    await measure((i) => {
      priceSurvey(DEFAULT_PRICING_CONFIG, parsed[i % parsed.length]);
    }, RUNS),
    LABEL_WIDTH,
  );

  const post = (body: string) =>
    app.request(`${ORIGIN}/api/calculate-price`, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json" },
      body,
    });

  report(
    "app.request() signed out",
    await measure(async (i) => {
      const res = await post(bodies[i % bodies.length]);
      if (res.status !== 200) throw new Error(`status ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    }, RUNS),
    LABEL_WIDTH,
  );

  // The discount-code path counts against a per-IP limit (60 per 10 minutes); the bench is one
  // "IP", so give each request its own forwarded address by trusting the proxy header.
  const trusted = createApp({
    config: { ...config, TRUST_PROXY: true },
    sql: db.sql,
    kv,
    assets,
    geo: createGeoProvider(config),
    parcels: createParcelProvider(config),
    places: createPlacesProvider(config),
    payments: createPaymentsProvider(config),
    storage: createStorageProvider(config, db.sql),
  });
  report(
    "app.request() with a discount code",
    await measure(async (i) => {
      const res = await trusted.request(`${ORIGIN}/api/calculate-price`, {
        method: "POST",
        headers: {
          origin: ORIGIN,
          "content-type": "application/json",
          "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        },
        body: discounted[i % discounted.length],
      });
      if (res.status !== 200) throw new Error(`status ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    }, RUNS),
    LABEL_WIDTH,
  );
  console.log("  target: p50 < 2 ms");
} finally {
  kv.close();
  await db.close();
}
