/**
 * Offline places provider: finds no businesses, so without a Google key the directory is the
 * only source of surveyors.
 */
import type { PlacesProvider } from "./provider.ts";

/** A provider that always answers `[]`. */
export function createOfflinePlacesProvider(): PlacesProvider {
  return {
    name: "offline",
    nearbySurveyors: () => Promise.resolve([]),
  };
}
