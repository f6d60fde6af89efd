/** One address suggestion. `placeId` lets the client geocode exactly what was picked. */
export interface Prediction {
  description: string;
  placeId: string;
}

/** A geocoded address. */
export interface GeocodeResult {
  formattedAddress: string;
  lat: number;
  lng: number;
}

/** Maps provider: address completion and geocoding. */
export interface GeoProvider {
  readonly name: string;
  /** Suggestions for partial input, nearest first when `near` is given. Never throws. */
  suggest(input: string, near?: { lat: number; lng: number }): Promise<Prediction[]>;
  /** Geocodes an address or a placeId from `suggest`; undefined when nothing matches. */
  geocode(query: { address?: string; placeId?: string }): Promise<GeocodeResult | undefined>;
}
