/**
 * The offline ZIP data (US rows of the `zipcodes` package), read from its data file,
 * lib/geo/zip_data.tsv (see scripts/zip_data.ts). Loaded on first use: a server with a Google
 * key never reads it.
 *
 * The rows are a data file read once, not a module: V8 keeps a module's source text (and Deno
 * its inline source map) for the life of the process, and the module's string with them: 8 MB
 * of heap in an idle server with an inspector attached (as for a heap snapshot), 1.7 MB without.
 * The file's text is dropped once parsed, and every string a row holds is its own copy (see
 * `ownCopy`), so nothing keeps the text alive afterwards.
 * scripts/compile.ts names the file with `--include` (the module graph does not show it).
 */

/** One US ZIP: five digits, finite coordinates, the town the data names, its state. */
export interface ZipRow {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
}

/**
 * The data file: one `zip<TAB>latitude<TAB>longitude<TAB>city<TAB>state` line per ZIP, UTF-8,
 * in the package's order.
 */
export const ZIP_DATA_URL = new URL("./zip_data.tsv", import.meta.url);

/**
 * `text` as a string of its own. V8 makes a substring of 13 characters or more a slice that keeps
 * its whole parent alive, so one long town name held by the index would keep the whole file's
 * text (1.5 MB) with it. A JSON round trip builds a new string from the characters; shorter
 * substrings are copies already.
 */
function ownCopy(text: string): string {
  return text.length < 13 ? text : JSON.parse(JSON.stringify(text));
}

/** Every row of the data file's `text`, in order (exported for the tests). */
export function parseZipRows(text: string): ZipRow[] {
  const rows: ZipRow[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const t1 = text.indexOf("\t", start);
    const t2 = text.indexOf("\t", t1 + 1);
    const t3 = text.indexOf("\t", t2 + 1);
    const t4 = text.indexOf("\t", t3 + 1);
    if (t1 < 0 || t2 < 0 || t3 < 0 || t4 < 0 || t4 > end) {
      throw new Error(`${ZIP_DATA_URL.pathname}: malformed line at character ${start}`);
    }
    rows.push({
      zip: text.slice(start, t1),
      latitude: Number(text.slice(t1 + 1, t2)),
      longitude: Number(text.slice(t2 + 1, t3)),
      city: ownCopy(text.slice(t3 + 1, t4)),
      state: ownCopy(text.slice(t4 + 1, end)),
    });
    start = end + 1;
  }
  return rows;
}

/** Every row, in the package's order (one object each; drop them once the index is built). */
export async function loadZipRows(): Promise<ZipRow[]> {
  return parseZipRows(await Deno.readTextFile(ZIP_DATA_URL));
}
