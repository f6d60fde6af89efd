/**
 * Regenerates lib/geo/zip_data.tsv, the offline ZIP data in a packed form: the US rows of the
 * `zipcodes` package (five-digit ZIP, finite coordinates) in the package's own order, one
 * `zip<TAB>latitude<TAB>longitude<TAB>city<TAB>state` line each.
 *
 * The package's data module is 5 MB of JavaScript that becomes ~42,000 objects (and a copy
 * merged with Canada's) for as long as the process runs: about 45 MB of heap and 160 MB of
 * resident memory once parsed. The columns the app reads are 1.5 MB, read from this data file
 * once and parsed into the index's own structures (lib/geo/zip_rows.ts, lib/geo/offline.ts,
 * lib/demo_network.ts). A data file rather than a generated module: V8 would keep a module's
 * source (and Deno its source map) for the life of the process. Plain text rather than gzip:
 * 1.5 MB against 0.55 MB on disk, but readable in a diff and parsed without inflating first.
 * tests/lib/zip_data_test.ts fails when this file and the package disagree.
 *
 *   deno run -A scripts/zip_data.ts
 */
import zipcodes from "zipcodes";
import { ZIP_DATA_URL } from "../lib/geo/zip_rows.ts";

/** The data file's text for `codes` (the package's table): one line per row, in its order. */
export function packZipRows(
  codes: Record<
    string,
    {
      zip: string;
      latitude: number | null;
      longitude: number | null;
      city: string;
      state: string;
      country: string;
    }
  >,
): string {
  const lines: string[] = [];
  for (const z of Object.values(codes)) {
    if (z.country !== "US" || !/^\d{5}$/.test(z.zip)) continue;
    if (typeof z.latitude !== "number" || typeof z.longitude !== "number") continue;
    if (!Number.isFinite(z.latitude) || !Number.isFinite(z.longitude)) continue;
    if (/[\t\n]/.test(z.city + z.state)) throw new Error(`unexpected character in ${z.zip}`);
    lines.push(`${z.zip}\t${z.latitude}\t${z.longitude}\t${z.city}\t${z.state}`);
  }
  return lines.map((line) => line + "\n").join("");
}

if (import.meta.main) {
  const packed = packZipRows(zipcodes.codes);
  await Deno.writeTextFile(ZIP_DATA_URL, packed);
  const rows = packed.split("\n").length - 1;
  console.log(`${ZIP_DATA_URL.pathname}: ${rows} rows, ${packed.length} characters`);
}
