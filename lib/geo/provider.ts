/** One address suggestion. `placeId` lets the client geocode exactly what was picked. */
export interface Prediction {
  description: string;
  placeId: string;
}

/**
 * How exactly a geocode pins the address: the building (`rooftop`), a point interpolated
 * along the street (`street`), or only the centre of its ZIP code or town. The request flow
 * says "we found this property" only for the first two.
 */
export type GeocodePrecision = "rooftop" | "street" | "zip" | "city";

/** Every precision, most exact first. */
export const GEOCODE_PRECISIONS = [
  "rooftop",
  "street",
  "zip",
  "city",
] as const satisfies readonly GeocodePrecision[];

/**
 * Whether `precision` (a geocode's, or whatever a client sent) locates the property itself,
 * so a page may say it found it; anything else, or nothing, is only the town or ZIP.
 */
export function isPropertyPrecision(precision: unknown): boolean {
  return precision === "rooftop" || precision === "street";
}

/** `value` if it is a known precision, else undefined (an older or odd answer). */
export function asPrecision(value: unknown): GeocodePrecision | undefined {
  return (GEOCODE_PRECISIONS as readonly unknown[]).includes(value)
    ? value as GeocodePrecision
    : undefined;
}

/** A geocoded address. */
export interface GeocodeResult {
  formattedAddress: string;
  lat: number;
  lng: number;
  precision: GeocodePrecision;
}

/** Maps provider: address completion and geocoding. */
export interface GeoProvider {
  readonly name: string;
  /** Suggestions for partial input, nearest first when `near` is given. Never throws. */
  suggest(input: string, near?: { lat: number; lng: number }): Promise<Prediction[]>;
  /** Geocodes an address or a placeId from `suggest`; undefined when nothing matches. */
  geocode(query: { address?: string; placeId?: string }): Promise<GeocodeResult | undefined>;
}
