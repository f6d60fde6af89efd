import type { Config } from "../config.ts";
import { ParcelLookupError, type ParcelProvider } from "./provider.ts";
import { createRegridProvider } from "./regrid.ts";

/** What the none provider (and the lookup API) says when no parcel data is configured. */
export const NO_PARCEL_PROVIDER_MESSAGE =
  "No parcel data provider is configured (set REGRID_API_TOKEN).";

/** The provider used when no parcel data is configured: every lookup says so. */
export const noneParcelProvider: ParcelProvider = {
  name: "none",
  isConfigured: false,
  lookup: () => Promise.reject(new ParcelLookupError(NO_PARCEL_PROVIDER_MESSAGE)),
};

/** Regrid when REGRID_API_TOKEN is set, else a provider that says no data is configured. */
export function createParcelProvider(
  config: Pick<Config, "REGRID_API_TOKEN" | "REGRID_API_URL">,
): ParcelProvider {
  if (!config.REGRID_API_TOKEN) return noneParcelProvider;
  return createRegridProvider({ token: config.REGRID_API_TOKEN, baseUrl: config.REGRID_API_URL });
}
