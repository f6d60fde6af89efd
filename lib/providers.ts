/**
 * The outside services the app talks to, each as its configuration chooses (the real provider
 * when its key is set, else the offline one): one place for the server (main.ts), the tests'
 * app (tests/_helpers.ts) and the in-process benches, which override what they must never reach.
 */
import type { Config } from "./config.ts";
import type { Sql } from "../db/client.ts";
import type { AppDeps } from "./deps.ts";
import { createGeoProvider } from "./geo/select.ts";
import { createParcelProvider } from "./parcels/select.ts";
import { createPlacesProvider } from "./places/select.ts";
import { createPaymentsProvider } from "./payments/select.ts";
import { createStorageProvider } from "./storage/select.ts";

/** The providers of `AppDeps`. */
export type Providers = Pick<AppDeps, "geo" | "parcels" | "places" | "payments" | "storage">;

/** Each provider as `config` chooses it; survey files on `sql` unless S3 is configured. */
export function configuredProviders(config: Config, sql: Sql): Providers {
  return {
    geo: createGeoProvider(config),
    parcels: createParcelProvider(config),
    places: createPlacesProvider(config),
    payments: createPaymentsProvider(config),
    storage: createStorageProvider(config, sql),
  };
}
