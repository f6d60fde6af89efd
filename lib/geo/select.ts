import type { Config } from "../config.ts";
import type { GeoProvider } from "./provider.ts";
import { createGoogleGeoProvider } from "./google.ts";
import { createOfflineGeoProvider } from "./offline.ts";

/** Google Places when GOOGLE_MAPS_API_KEY is set, otherwise the offline provider. */
export function createGeoProvider(config: Config): GeoProvider {
  if (config.GOOGLE_MAPS_API_KEY) {
    return createGoogleGeoProvider({ apiKey: config.GOOGLE_MAPS_API_KEY });
  }
  return createOfflineGeoProvider();
}
