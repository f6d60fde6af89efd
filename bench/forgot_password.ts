/**
 * POST /api/forgot-password for a known email against an unknown one, through `app.request()`:
 * the answer must not tell them apart, so their times should match. Requests alternate
 * (known, unknown, …) so drift affects both alike; each known email and each client address
 * is used once, so no rate limit is met. Between requests (untimed) the benchmark waits for
 * the background work the previous one started, so every request meets an idle server and
 * only the time to the answer is measured. Prints p50/p90/p99; asserts nothing.
 *
 *   deno run -A bench/forgot_password.ts
 *   DATABASE_URL=postgres://… deno run -A bench/forgot_password.ts
 *
 * With DATABASE_URL it creates a scratch database next to the given one and drops it at the
 * end, so it never touches real data.
 */
import { createApp } from "../main.ts";
import { percentile, report } from "./_stats.ts";
import { loadConfig } from "../lib/config.ts";
import { openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { openKv } from "../db/kv.ts";
import { insertUser } from "../db/users.ts";
import { ensureBuild } from "../lib/assets.ts";
import { createGeoProvider } from "../lib/geo/select.ts";
import { createParcelProvider } from "../lib/parcels/select.ts";
import { createPlacesProvider } from "../lib/places/select.ts";
import { createPaymentsProvider } from "../lib/payments/select.ts";
import { createStorageProvider } from "../lib/storage/select.ts";
import { hashPassword } from "../lib/passwords.ts";
import { backgroundWork } from "../lib/background.ts";
import type { AppDeps } from "../routes/_env.ts";
import { scratchDatabase } from "./_server.ts";

const ITERATIONS = Number(Deno.env.get("BENCH_ITERATIONS") ?? 500);
const WARMUP = 50;
const LABEL_WIDTH = 28;
const ORIGIN = "http://localhost";

const scratch = await scratchDatabase();
const config = loadConfig({
  NODE_ENV: "production",
  LOG_REQUESTS: "0",
  DATABASE_URL: scratch.url,
  // Requests come from this origin, which the CSRF check compares with PUBLIC_URL.
  PUBLIC_URL: ORIGIN,
  // Each request comes from its own forwarded address, so the per-IP limit never applies.
  TRUST_PROXY: "1",
});
const db = await openDatabase(
  { DATA_DIR: ".data/bench", DATABASE_URL: config.DATABASE_URL },
  { memory: true },
);
const kv = await openKv(":memory:");
try {
  await migrate(db.sql);
  const total = WARMUP + ITERATIONS;
  const passwordHash = await hashPassword("bench-password");
  const known: string[] = [];
  for (let i = 0; i < total; i++) {
    const user = await insertUser(db.sql, {
      email: `known${i}@bench.test`,
      fullName: `Known ${i}`,
      role: "client",
      passwordHash,
    });
    known.push(user.email);
  }
  const deps: AppDeps = {
    config,
    sql: db.sql,
    kv,
    assets: await ensureBuild(),
    geo: createGeoProvider(config),
    parcels: createParcelProvider(config),
    places: createPlacesProvider(config),
    payments: createPaymentsProvider(config),
    storage: createStorageProvider(config, db.sql),
  };
  const app = createApp(deps);
  const background = backgroundWork(deps);
  let n = 0;
  const ask = async (email: string): Promise<number> => {
    await background.settled();
    n++;
    const start = performance.now();
    const res = await app.request(`${ORIGIN}/api/forgot-password`, {
      method: "POST",
      headers: {
        origin: ORIGIN,
        "content-type": "application/json",
        "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
      },
      body: JSON.stringify({ email }),
    });
    const body = await res.text();
    const ms = performance.now() - start;
    if (res.status !== 200) throw new Error(`${email}: ${res.status} ${body}`);
    return ms;
  };

  const samples = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < total; i++) {
    const k = await ask(known[i]);
    const u = await ask(`nobody${i}@bench.test`);
    if (i >= WARMUP) {
      samples.known.push(k);
      samples.unknown.push(u);
    }
  }
  await background.settled();
  const [{ emails }] = await db.sql<{ emails: number }[]>`
    select count(*)::int as emails from email_outbox where template = 'password_reset'`;

  console.log(
    `  ${db.kind}; ${ITERATIONS} known and ${ITERATIONS} unknown emails, alternating ` +
      `(${emails} reset emails queued)`,
  );
  report("known email", samples.known, LABEL_WIDTH);
  report("unknown email", samples.unknown, LABEL_WIDTH);
  const unknownP90 = percentile([...samples.unknown].sort((a, b) => a - b), 0.9);
  const slower = samples.known.filter((ms) => ms > unknownP90).length;
  console.log(
    `  known requests slower than the unknown p90: ${slower} of ${ITERATIONS} ` +
      `(${(100 * slower / ITERATIONS).toFixed(0)}%; ~10% when the two cannot be told apart)`,
  );
} finally {
  kv.close();
  await db.close();
  await scratch.drop();
}
