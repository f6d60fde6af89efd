/**
 * GET /api/address-suggestions with the offline provider: sequential requests over the
 * prefixes a person produces while typing realistic addresses (some with lat/lng), measured
 *  1. in-process through `app.request()` (routing, validation, provider, JSON), and
 *  2. over HTTP against the same app served on a local port (adds the network stack).
 * Also times the provider alone. Prints p50/p90/p99; asserts nothing. Target: p50 < 5 ms.
 *
 *   deno run -A bench/address_suggestions.ts
 *   BENCH_REQUESTS=5000 deno run -A bench/address_suggestions.ts
 */
import { createApp } from "../main.ts";
import { measure, report } from "./_stats.ts";
import { loadConfig } from "../lib/config.ts";
import { openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { openKv } from "../db/kv.ts";
import { ensureBuild } from "../lib/assets.ts";
import { createParcelProvider } from "../lib/parcels/select.ts";
import { createPlacesProvider } from "../lib/places/select.ts";
import { createPaymentsProvider } from "../lib/payments/select.ts";
import { createStorageProvider } from "../lib/storage/select.ts";
import { createOfflineGeoProvider, warmOfflineIndex } from "../lib/geo/offline.ts";
import { ADDRESS_AUTOCOMPLETE } from "../lib/geo/constants.ts";

const REQUESTS = Number(Deno.env.get("BENCH_REQUESTS") ?? 2_000);
const WARMUP = 200;
/** Every mode: WARMUP untimed requests, then REQUESTS timed ones. */
const RUNS = { warmup: WARMUP, iterations: REQUESTS };
/** Width of the label column. */
const LABEL_WIDTH = 28;
const ORIGIN = "http://localhost";

const ADDRESSES = [
  "123 Main St, Austin, TX",
  "500 Congress Ave Austin TX 78701",
  "1 Beacon St, Boston, MA",
  "77 Lake Shore Dr Chicago IL",
  "1600 Pennsylvania Ave NW, Washington, DC",
  "350 Fifth Ave, New York, NY",
  "42 Pine Rd, Houston",
  "9 Oak Ave San Antonio",
  "12 Elm St 02108",
  "88 Market St, San Francisco, CA",
  "1 Main St Springfield",
  "2200 Ft Worth Ave, Fort Worth",
];
const PLACES = [
  undefined,
  { lat: 30.2672, lng: -97.7431 },
  undefined,
  { lat: 42.3601, lng: -71.0589 },
  { lat: 41.8781, lng: -87.6298 },
];

/** Every prefix of every address from the minimum length, as typed one key at a time. */
function typedInputs(): { input: string; near?: { lat: number; lng: number } }[] {
  const out = [];
  let i = 0;
  for (const address of ADDRESSES) {
    for (let n = ADDRESS_AUTOCOMPLETE.minChars; n <= address.length; n++) {
      out.push({ input: address.slice(0, n), near: PLACES[i++ % PLACES.length] });
    }
  }
  return out;
}

function pathFor({ input, near }: { input: string; near?: { lat: number; lng: number } }) {
  const params = new URLSearchParams({ input });
  if (near) {
    params.set("lat", String(near.lat));
    params.set("lng", String(near.lng));
  }
  return `/api/address-suggestions?${params}`;
}

const inputs = typedInputs();
const config = loadConfig({ NODE_ENV: "production", LOG_REQUESTS: "0" });
const db = await openDatabase({ DATA_DIR: ".data/bench" }, { memory: true });
const kv = await openKv(":memory:");
try {
  await migrate(db.sql);
  const geo = createOfflineGeoProvider();
  const indexStart = performance.now();
  await warmOfflineIndex();
  console.log(
    `  offline index built in ${(performance.now() - indexStart).toFixed(0)} ms ` +
      `(${inputs.length} distinct typed inputs, ${REQUESTS} sequential requests per mode)`,
  );
  const app = createApp({
    config,
    sql: db.sql,
    kv,
    assets: await ensureBuild(),
    geo,
    parcels: createParcelProvider(config),
    places: createPlacesProvider(config),
    payments: createPaymentsProvider(config),
    storage: createStorageProvider(config, db.sql),
  });

  let empty = 0;
  report(
    "provider.suggest()",
    await measure(async (i) => {
      const { input, near } = inputs[i % inputs.length];
      if ((await geo.suggest(input, near)).length === 0) empty++;
    }, RUNS),
    LABEL_WIDTH,
  );
  console.log(`  (${((empty / (REQUESTS + WARMUP)) * 100).toFixed(1)}% of inputs had no match)`);

  report(
    "app.request() in-process",
    await measure(async (i) => {
      const res = await app.request(`${ORIGIN}${pathFor(inputs[i % inputs.length])}`);
      if (res.status !== 200) throw new Error(`status ${res.status}`);
      await res.arrayBuffer();
    }, RUNS),
    LABEL_WIDTH,
  );

  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    report(
      "HTTP (keep-alive, sequential)",
      await measure(async (i) => {
        const res = await fetch(`${base}${pathFor(inputs[i % inputs.length])}`);
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        await res.arrayBuffer();
      }, RUNS),
      LABEL_WIDTH,
    );
  } finally {
    await server.shutdown();
  }
  console.log("  target: p50 < 5 ms with the offline provider");
} finally {
  kv.close();
  await db.close();
}
