/**
 * Google places provider: Places API (New) Text Search for "land surveyor" biased to a circle
 * around the point and ranked by distance, then kept to the radius asked for. Results become
 * `Place`s, with city, state and ZIP read from the address components.
 *
 * Every failure (network, timeout, non-2xx, unexpected JSON) is logged in one line (never with
 * the key) and answered with `[]`: places only add prospects to what the directory finds, so
 * an outage must not fail dispatch.
 */
import { z } from "zod";
import type { PlacesProvider } from "./provider.ts";
import { milesBetween } from "./provider.ts";
import type { Place } from "../surveyor_schema.ts";
import { STATE_CODES, type StateCode } from "../survey_options.ts";

/** Options for `createGooglePlacesProvider`; the base URL exists so tests can use a fake. */
export interface GooglePlacesOptions {
  apiKey: string;
  /** Places API (New) origin; default https://places.googleapis.com. */
  placesBaseUrl?: string;
  /** Per-request timeout; default 3000 ms. */
  timeoutMs?: number;
  /** Where failures are reported; default console.warn. */
  warn?: (message: string) => void;
}

/** What the provider searches Google for. */
export const PLACES_QUERY = "land surveyor";

// Text Search's location bias takes a circle of at most 50 km.
const MAX_BIAS_METERS = 50_000;
const METERS_PER_MILE = 1609.344;
// Text Search answers at most 20 places per page.
const PAGE_SIZE = 20;

const FIELD_MASK = [
  "places.id",
  "places.displayName",
  "places.formattedAddress",
  "places.addressComponents",
  "places.location",
  "places.nationalPhoneNumber",
  "places.websiteUri",
  "places.rating",
  "places.userRatingCount",
  "places.businessStatus",
].join(",");

const GooglePlace = z.object({
  id: z.string().min(1).max(300),
  displayName: z.object({ text: z.string() }).optional(),
  formattedAddress: z.string().optional(),
  addressComponents: z.array(z.object({
    longText: z.string().optional(),
    shortText: z.string().optional(),
    types: z.array(z.string()).optional(),
  })).optional(),
  location: z.object({ latitude: z.number(), longitude: z.number() }),
  nationalPhoneNumber: z.string().optional(),
  websiteUri: z.string().optional(),
  rating: z.number().optional(),
  userRatingCount: z.number().optional(),
  businessStatus: z.string().optional(),
});

const SearchTextResponse = z.object({ places: z.array(z.unknown()).optional() });

type GooglePlace = z.infer<typeof GooglePlace>;

function component(place: GooglePlace, type: string, form: "longText" | "shortText") {
  return place.addressComponents?.find((c) => c.types?.includes(type))?.[form]?.trim() || null;
}

// Text cut to what the directory stores (the PlaceSchema limits), or null when empty.
function text(value: string | null | undefined, max: number): string | null {
  const v = value?.trim();
  return v ? v.slice(0, max) : null;
}

// The `Place` for one Google result, or undefined when it cannot be one (no name, closed).
function toPlace(place: GooglePlace): Place | undefined {
  const name = text(place.displayName?.text, 200);
  if (!name || place.businessStatus === "CLOSED_PERMANENTLY") return undefined;
  const { latitude: lat, longitude: lng } = place.location;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return undefined;
  const stateText = component(place, "administrative_area_level_1", "shortText");
  const state = (STATE_CODES as readonly string[]).includes(stateText ?? "")
    ? stateText as StateCode
    : null;
  const zip = component(place, "postal_code", "longText");
  const city = component(place, "locality", "longText") ??
    component(place, "postal_town", "longText") ??
    component(place, "sublocality", "longText");
  const rating = place.rating !== undefined && place.rating >= 0 && place.rating <= 5
    ? place.rating
    : null;
  const reviews = place.userRatingCount;
  return {
    placeId: place.id,
    name,
    address: text(place.formattedAddress, 300),
    city: text(city, 120),
    state,
    zip: zip && /^\d{5}(-\d{4})?$/.test(zip) ? zip : null,
    lat,
    lng,
    phone: text(place.nationalPhoneNumber, 40),
    website: text(place.websiteUri, 300),
    rating,
    reviewCount: reviews !== undefined && Number.isInteger(reviews) && reviews >= 0
      ? reviews
      : null,
  };
}

/** Google Places (New) provider of surveying businesses near a point. */
export function createGooglePlacesProvider(options: GooglePlacesOptions): PlacesProvider {
  const base = (options.placesBaseUrl ?? "https://places.googleapis.com").replace(/\/$/, "");
  const timeoutMs = options.timeoutMs ?? 3000;
  const warn = options.warn ?? ((message: string) => console.warn(message));

  return {
    name: "google",
    async nearbySurveyors(point, radiusMiles) {
      if (!(radiusMiles > 0) || !Number.isFinite(radiusMiles)) return [];
      if (!(Math.abs(point.lat) <= 90) || !(Math.abs(point.lng) <= 180)) return [];
      let json: unknown;
      try {
        const res = await fetch(`${base}/v1/places:searchText`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-goog-api-key": options.apiKey,
            "x-goog-fieldmask": FIELD_MASK,
          },
          body: JSON.stringify({
            textQuery: PLACES_QUERY,
            regionCode: "us",
            rankPreference: "DISTANCE",
            pageSize: PAGE_SIZE,
            locationBias: {
              circle: {
                center: { latitude: point.lat, longitude: point.lng },
                radius: Math.min(MAX_BIAS_METERS, radiusMiles * METERS_PER_MILE),
              },
            },
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!res.ok) {
          await res.body?.cancel();
          warn(`places (google): search answered HTTP ${res.status}; no places this time`);
          return [];
        }
        json = await res.json();
      } catch (err) {
        const why = err instanceof Error ? err.name : "error";
        warn(`places (google): search failed (${why}); no places this time`);
        return [];
      }
      const parsed = SearchTextResponse.safeParse(json);
      if (!parsed.success) {
        warn("places (google): unexpected answer; no places this time");
        return [];
      }
      const found: { place: Place; miles: number }[] = [];
      const seen = new Set<string>();
      for (const raw of parsed.data.places ?? []) {
        const one = GooglePlace.safeParse(raw);
        if (!one.success) continue;
        const place = toPlace(one.data);
        if (!place || seen.has(place.placeId)) continue;
        const miles = milesBetween(point, place);
        if (miles > radiusMiles) continue;
        seen.add(place.placeId);
        found.push({ place, miles });
      }
      return found.sort((a, b) => a.miles - b.miles).map((f) => f.place);
    },
  };
}
