import type { Config } from "../config.ts";
import type { PlacesProvider } from "./provider.ts";
import { createGooglePlacesProvider } from "./google.ts";
import { createOfflinePlacesProvider } from "./offline.ts";

/** Google Places when GOOGLE_MAPS_API_KEY is set, otherwise the offline provider (none). */
export function createPlacesProvider(
  config: Pick<Config, "GOOGLE_MAPS_API_KEY">,
): PlacesProvider {
  if (config.GOOGLE_MAPS_API_KEY) {
    return createGooglePlacesProvider({ apiKey: config.GOOGLE_MAPS_API_KEY });
  }
  return createOfflinePlacesProvider();
}
