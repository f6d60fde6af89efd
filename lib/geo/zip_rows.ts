/**
 * The offline ZIP data (US rows of the `zipcodes` package) read from its packed form,
 * lib/geo/zip_data.ts (see scripts/zip_data.ts). Loaded on first use: a server with a Google
 * key never reads it.
 */

/** One US ZIP: five digits, finite coordinates, the town the data names, its state. */
export interface ZipRow {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
}

/** Every row, in the package's order (one object each; drop them once the index is built). */
export async function loadZipRows(): Promise<ZipRow[]> {
  const { ZIP_ROWS } = await import("./zip_data.ts");
  const rows: ZipRow[] = [];
  let start = 0;
  while (start < ZIP_ROWS.length) {
    let end = ZIP_ROWS.indexOf("\n", start);
    if (end < 0) end = ZIP_ROWS.length;
    const [zip, lat, lng, city, state] = ZIP_ROWS.slice(start, end).split("\t");
    rows.push({ zip, latitude: Number(lat), longitude: Number(lng), city, state });
    start = end + 1;
  }
  return rows;
}
