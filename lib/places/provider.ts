/**
 * Places provider: surveying businesses near a point, found outside the directory (Google
 * Places when GOOGLE_MAPS_API_KEY is set; none offline). Matching appends them to the
 * directory's candidates as prospects the admin may convert into records.
 */
import type { Place } from "../surveyor_schema.ts";

export type { Place };

/** Surveying businesses near a point. */
export interface PlacesProvider {
  /** "google" or "offline", for logs and the admin's view of where a result came from. */
  readonly name: string;
  /**
   * Surveying businesses within `radiusMiles` of `point`, nearest first. Never throws: when
   * the service is down, slow or answers something unexpected it logs one line and answers
   * `[]`, the same as offline, so dispatch never fails because places are unavailable. A
   * radius that is not a positive number answers `[]`.
   */
  nearbySurveyors(point: { lat: number; lng: number }, radiusMiles: number): Promise<Place[]>;
}

const EARTH_RADIUS_MILES = 3958.8;

/** Great-circle distance between two points, in miles (haversine). */
export function milesBetween(
  a: { lat: number; lng: number },
  b: { lat: number; lng: number },
): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}
