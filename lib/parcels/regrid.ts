/**
 * Regrid parcel API (https://app.regrid.com/api/v2): the parcel at a point
 * (`/parcels/point?lat=&lon=`) or an address (`/parcels/address?query=`), token in the query.
 * Answers are GeoJSON: `{parcels: {features: [{geometry, properties: {fields: {...}}}]}}`.
 */
import { type ParcelData, ParcelLookupError, type ParcelProvider } from "./provider.ts";

/** Options of the Regrid provider; `fetch` is injectable for tests. */
export interface RegridOptions {
  token: string;
  /** API base, e.g. https://app.regrid.com/api/v2 (no trailing slash needed). */
  baseUrl: string;
  /** Give up after this many milliseconds (default 8000). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const SQFT_PER_ACRE = 43_560;

type Fields = Record<string, unknown>;

function text(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed ? trimmed : null;
}

function positiveNumber(value: unknown): number | null {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : null;
}

function acreageOf(fields: Fields): number | null {
  // Regrid's own calculation first (ll_), then the county's figure, then square feet.
  const acres = positiveNumber(fields.ll_gisacre) ?? positiveNumber(fields.gisacre) ??
    positiveNumber(fields.deeded_acres);
  if (acres !== null) return Math.round(acres * 10_000) / 10_000;
  const sqft = positiveNumber(fields.ll_gissqft) ?? positiveNumber(fields.sqft);
  return sqft === null ? null : Math.round((sqft / SQFT_PER_ACRE) * 10_000) / 10_000;
}

function addressOf(fields: Fields, headline: unknown): string | null {
  const street = text(fields.address) ?? text(fields.mailadd);
  if (!street) return text(headline);
  const city = text(fields.scity);
  const stateZip = [text(fields.state2), text(fields.szip5) ?? text(fields.szip)]
    .filter(Boolean).join(" ");
  return [street, city, stateZip].filter(Boolean).join(", ");
}

/** Maps one Regrid GeoJSON feature to ParcelData. */
export function parcelFromFeature(feature: unknown): ParcelData | undefined {
  if (!feature || typeof feature !== "object") return undefined;
  const f = feature as { geometry?: unknown; properties?: Record<string, unknown> };
  const properties = f.properties ?? {};
  const fields =
    (properties.fields && typeof properties.fields === "object"
      ? properties.fields
      : properties) as Fields;
  const owner = text(fields.owner) ??
    ([text(fields.ownfrst), text(fields.ownlast)].filter(Boolean).join(" ") || null);
  return {
    parcelNumber: text(fields.parcelnumb) ?? text(fields.parcelnumb_no_formatting),
    acreage: acreageOf(fields),
    owner,
    landUse: text(fields.usedesc) ?? text(fields.zoning_description) ??
      text(fields.lbcs_activity_desc) ?? text(fields.zoning),
    address: addressOf(fields, properties.headline),
    state: text(fields.state2),
    county: text(fields.county),
    geometry: f.geometry ?? null,
    source: "regrid",
  };
}

function featuresOf(body: unknown): unknown[] | undefined {
  if (!body || typeof body !== "object") return undefined;
  const b = body as Record<string, unknown>;
  const collection = (b.parcels ?? b) as Record<string, unknown>;
  if (Array.isArray(collection.features)) return collection.features;
  if (Array.isArray(b.results)) return b.results; // v1 answers
  return undefined;
}

function statusError(status: number, body: string): ParcelLookupError {
  if (status === 401) return new ParcelLookupError("Regrid rejected the API token.");
  if (status === 403) {
    return new ParcelLookupError(
      "Regrid refused the request: the API token's plan does not allow this lookup.",
    );
  }
  if (status === 429) {
    return new ParcelLookupError("Regrid's rate limit was reached. Try again in a minute.");
  }
  if (status === 400 || status === 422) {
    const detail = extractMessage(body);
    return new ParcelLookupError(
      `Regrid could not use the query${detail ? `: ${detail}` : "."}`,
    );
  }
  if (status >= 500) {
    return new ParcelLookupError(`Regrid is unavailable right now (HTTP ${status}).`);
  }
  return new ParcelLookupError(`Regrid answered with HTTP ${status}.`);
}

function extractMessage(body: string): string | null {
  try {
    const parsed = JSON.parse(body);
    const message = parsed?.message ?? parsed?.error;
    return typeof message === "string" ? message.slice(0, 200) : null;
  } catch {
    return null;
  }
}

/** The Regrid provider. Lookups throw ParcelLookupError with a message fit for an admin. */
export function createRegridProvider(options: RegridOptions): ParcelProvider {
  const base = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 8_000;
  const doFetch = options.fetch ?? fetch;

  async function get(path: string, params: Record<string, string>) {
    const url = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    url.searchParams.set("token", options.token);
    let res: Response;
    try {
      res = await doFetch(url, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      if (err instanceof DOMException && err.name === "TimeoutError") {
        throw new ParcelLookupError(
          `Regrid did not answer within ${Math.round(timeoutMs / 100) / 10} seconds.`,
        );
      }
      // Never echo the URL: it carries the token.
      throw new ParcelLookupError("Could not reach Regrid. Check the network and REGRID_API_URL.");
    }
    const body = await res.text().catch(() => "");
    if (res.status === 404) return [];
    if (!res.ok) throw statusError(res.status, body);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new ParcelLookupError("Regrid sent an answer that is not JSON.");
    }
    const features = featuresOf(parsed);
    if (!features) throw new ParcelLookupError("Regrid sent an answer in an unexpected format.");
    return features;
  }

  return {
    name: "regrid",
    isConfigured: true,
    async lookup(query) {
      let features: unknown[];
      if (query.lat !== undefined && query.lng !== undefined) {
        features = await get("/parcels/point", {
          lat: String(query.lat),
          lon: String(query.lng),
          limit: "1",
        });
      } else if (query.address) {
        features = await get("/parcels/address", { query: query.address, limit: "1" });
      } else {
        throw new ParcelLookupError("Give coordinates or an address to look up.");
      }
      return parcelFromFeature(features[0]);
    },
  };
}
