/**
 * Everything the app needs from outside (database, KV, providers, built assets, configuration).
 * Lives in lib/ so that components and background work can name it without importing routes/.
 */
import type { Config } from "./config.ts";
import type { Sql } from "../db/client.ts";
import type { GeoProvider } from "./geo/provider.ts";
import type { Assets } from "./assets.ts";
import type { ParcelProvider } from "./parcels/provider.ts";
import type { PlacesProvider } from "./places/provider.ts";
import type { PaymentsProvider } from "./payments/provider.ts";
import type { StorageProvider } from "./storage/provider.ts";

/** Everything the app needs from outside; tests build their own. */
export interface AppDeps {
  config: Config;
  sql: Sql;
  kv: Deno.Kv;
  geo: GeoProvider;
  parcels: ParcelProvider;
  places: PlacesProvider;
  /** Card top-ups: Stripe when configured, else offline (no payments). */
  payments: PaymentsProvider;
  /** Survey files' bytes: an S3-compatible bucket when S3_BUCKET is set, else Postgres. */
  storage: StorageProvider;
  assets: Assets;
}
