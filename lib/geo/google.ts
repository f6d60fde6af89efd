/**
 * Google provider: Places API (New) Autocomplete for suggestions, Place Details for an exact
 * placeId, and the Geocoding API for free text. Every failure (network, timeout, non-2xx,
 * unexpected JSON) becomes an empty answer so callers never see an exception.
 */
import { z } from "zod";
import type { GeocodePrecision, GeocodeResult, GeoProvider, Prediction } from "./provider.ts";
import { ADDRESS_AUTOCOMPLETE } from "./constants.ts";

/** Options for `createGoogleGeoProvider`; the base URLs exist so tests can use a fake server. */
export interface GoogleGeoOptions {
  apiKey: string;
  /** Places API (New) origin; default https://places.googleapis.com. */
  placesBaseUrl?: string;
  /** Geocoding API origin; default https://maps.googleapis.com. */
  geocodeBaseUrl?: string;
  /** Per-request timeout; default 3000 ms. */
  timeoutMs?: number;
  /** Radius of the location bias around the caller's coordinates; default 50 km. */
  biasRadiusMeters?: number;
}

const AutocompleteResponse = z.object({
  suggestions: z.array(z.object({
    placePrediction: z.object({
      placeId: z.string().min(1),
      text: z.object({ text: z.string().min(1) }),
    }).optional(),
  })).optional(),
});

const PlaceDetailsResponse = z.object({
  formattedAddress: z.string().min(1),
  location: z.object({ latitude: z.number(), longitude: z.number() }),
  types: z.array(z.string()).optional(),
});

const GeocodeResponse = z.object({
  status: z.string(),
  results: z.array(z.object({
    formatted_address: z.string().min(1),
    geometry: z.object({
      location: z.object({ lat: z.number(), lng: z.number() }),
      location_type: z.string().optional(),
    }),
    types: z.array(z.string()).optional(),
  })),
});

/** Place types that name one building or lot. */
const BUILDING_TYPES = ["street_address", "premise", "subpremise", "establishment"];

/**
 * What a place's types say about where its point is: a building, a street, a ZIP area or a
 * town (anything broader, or no types at all: never claim more than Google said).
 */
function precisionOfTypes(types: readonly string[] = []): GeocodePrecision {
  if (types.some((t) => BUILDING_TYPES.includes(t))) return "rooftop";
  if (types.includes("route") || types.includes("intersection")) return "street";
  if (types.includes("postal_code")) return "zip";
  return "city";
}

/**
 * The Geocoding API's `location_type`: ROOFTOP is the building and RANGE_INTERPOLATED a point
 * along the street; GEOMETRIC_CENTER and APPROXIMATE are the middle of whatever the result
 * is, which its types name.
 */
function precisionOfGeocode(locationType: string | undefined, types?: string[]): GeocodePrecision {
  if (locationType === "ROOFTOP") return "rooftop";
  if (locationType === "RANGE_INTERPOLATED") return "street";
  const fromTypes = precisionOfTypes(types);
  // The centre of a large site is still an approximation of where on it the work is.
  return fromTypes === "rooftop" && locationType === "APPROXIMATE" ? "street" : fromTypes;
}

/** Google Places / Geocoding provider. */
export function createGoogleGeoProvider(options: GoogleGeoOptions): GeoProvider {
  const places = (options.placesBaseUrl ?? "https://places.googleapis.com").replace(/\/$/, "");
  const geocoding = (options.geocodeBaseUrl ?? "https://maps.googleapis.com").replace(/\/$/, "");
  const timeoutMs = options.timeoutMs ?? 3000;
  const radius = options.biasRadiusMeters ?? 50_000;

  /** JSON from `url`, or undefined on any failure. The key never appears in logs. */
  async function getJson(url: string, init: RequestInit): Promise<unknown> {
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      if (!res.ok) {
        await res.body?.cancel();
        return undefined;
      }
      return await res.json();
    } catch {
      return undefined;
    }
  }

  return {
    name: "google",
    async suggest(input, near) {
      const text = input.trim();
      if (text.length < ADDRESS_AUTOCOMPLETE.minChars) return [];
      const body: Record<string, unknown> = {
        input: text.slice(0, ADDRESS_AUTOCOMPLETE.maxInputLength),
        includedRegionCodes: ["us"],
      };
      if (near) {
        body.locationBias = {
          circle: { center: { latitude: near.lat, longitude: near.lng }, radius },
        };
      }
      const json = await getJson(`${places}/v1/places:autocomplete`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-goog-api-key": options.apiKey,
          "x-goog-fieldmask":
            "suggestions.placePrediction.placeId,suggestions.placePrediction.text",
        },
        body: JSON.stringify(body),
      });
      const parsed = AutocompleteResponse.safeParse(json);
      if (!parsed.success) return [];
      const out: Prediction[] = [];
      for (const s of parsed.data.suggestions ?? []) {
        if (!s.placePrediction) continue;
        out.push({ description: s.placePrediction.text.text, placeId: s.placePrediction.placeId });
        if (out.length === ADDRESS_AUTOCOMPLETE.maxPredictions) break;
      }
      return out;
    },
    async geocode(query): Promise<GeocodeResult | undefined> {
      if (query.placeId !== undefined) {
        // Google place ids are URL-safe tokens; anything else cannot be one.
        if (!/^[A-Za-z0-9_-]{1,512}$/.test(query.placeId)) return undefined;
        const json = await getJson(`${places}/v1/places/${query.placeId}`, {
          headers: {
            "x-goog-api-key": options.apiKey,
            "x-goog-fieldmask": "formattedAddress,location,types",
          },
        });
        const parsed = PlaceDetailsResponse.safeParse(json);
        if (!parsed.success) return undefined;
        return {
          formattedAddress: parsed.data.formattedAddress,
          lat: parsed.data.location.latitude,
          lng: parsed.data.location.longitude,
          precision: precisionOfTypes(parsed.data.types),
        };
      }
      const address = query.address?.trim();
      if (!address) return undefined;
      const params = new URLSearchParams({
        address: address.slice(0, ADDRESS_AUTOCOMPLETE.maxInputLength),
        components: "country:US",
        key: options.apiKey,
      });
      const json = await getJson(`${geocoding}/maps/api/geocode/json?${params}`, {});
      const parsed = GeocodeResponse.safeParse(json);
      if (!parsed.success || parsed.data.status !== "OK") return undefined;
      const first = parsed.data.results[0];
      if (!first) return undefined;
      return {
        formattedAddress: first.formatted_address,
        lat: first.geometry.location.lat,
        lng: first.geometry.location.lng,
        precision: precisionOfGeocode(first.geometry.location_type, first.types),
      };
    },
  };
}
