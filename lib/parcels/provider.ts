/** What a parcel-data lookup returns. */
export interface ParcelData {
  parcelNumber: string | null;
  acreage: number | null;
  owner: string | null;
  landUse: string | null;
  address: string | null;
  /** Two-letter state code of the parcel, when the provider gives one. */
  state?: string | null;
  /** County (or equivalent) name, when the provider gives one. */
  county?: string | null;
  /** GeoJSON geometry of the parcel, when the provider has it. */
  geometry: unknown | null;
  /** Provider name, e.g. "regrid". */
  source: string;
}

/** Parcel-data provider (Regrid when configured). */
export interface ParcelProvider {
  readonly name: string;
  /** Whether lookups can return data (false for the none provider). */
  readonly isConfigured: boolean;
  /**
   * Looks up the parcel at a point or address; undefined when none is found.
   * Throws ParcelLookupError with a user-readable message on provider failure.
   */
  lookup(query: { lat?: number; lng?: number; address?: string }): Promise<ParcelData | undefined>;
}

/** A provider failure with a message fit to show an admin. */
export class ParcelLookupError extends Error {
  override name = "ParcelLookupError";
}
