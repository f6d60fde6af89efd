import { assert, assertEquals, assertMatch } from "../_assert.ts";
import zipcodes from "zipcodes";
import { packZipRows } from "../../scripts/zip_data.ts";
import { loadZipRows, parseZipRows, ZIP_DATA_URL } from "../../lib/geo/zip_rows.ts";

Deno.test("[zip data] the data file is the zipcodes package's US rows (run scripts/zip_data.ts)", async () => {
  assert(ZIP_DATA_URL.pathname.endsWith("/lib/geo/zip_data.tsv"));
  const generated = packZipRows(zipcodes.codes);
  const committed = await Deno.readTextFile(ZIP_DATA_URL);
  assert(
    generated === committed,
    "lib/geo/zip_data.tsv is stale: run deno run -A scripts/zip_data.ts",
  );
});

Deno.test("[zip data] rows read back as the package has them", async () => {
  const rows = await loadZipRows();
  const codes = zipcodes.codes as Parameters<typeof packZipRows>[0];
  const expected = Object.values(codes).filter((z) =>
    z.country === "US" && /^\d{5}$/.test(z.zip) && Number.isFinite(z.latitude) &&
    Number.isFinite(z.longitude)
  ).map(({ zip, latitude, longitude, city, state }) => ({ zip, latitude, longitude, city, state }));
  assertEquals(rows.length, expected.length);
  assertEquals(rows, expected);
  assertEquals(rows.find((r) => r.zip === "78701")?.city, "Austin");
});

Deno.test("[zip data] the parser reads names beyond ASCII, a last line without a newline, and refuses a short line", () => {
  const text =
    "00601\t18.1801\t-66.7522\tAdjuntas\tPR\n00602\t18.3632\t-67.1802\tAñasco Municipio Long Name\tPR";
  assertEquals(parseZipRows(text), [
    { zip: "00601", latitude: 18.1801, longitude: -66.7522, city: "Adjuntas", state: "PR" },
    {
      zip: "00602",
      latitude: 18.3632,
      longitude: -67.1802,
      city: "Añasco Municipio Long Name",
      state: "PR",
    },
  ]);
  assertEquals(parseZipRows(""), []);
  let error: unknown;
  try {
    parseZipRows("00601\t18.1801\t-66.7522\n00602\t18.3632\t-67.1802\tAnasco\tPR\n");
  } catch (err) {
    error = err;
  }
  assert(error instanceof Error, "a line of three fields is refused");
  assertMatch(error.message, /malformed line at character 0/);
});
