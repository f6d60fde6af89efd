import { assert, assertEquals } from "../_assert.ts";
import zipcodes from "zipcodes";
import { packZipRows, zipDataModule } from "../../scripts/zip_data.ts";
import { loadZipRows } from "../../lib/geo/zip_rows.ts";

Deno.test("[zip data] the packed rows are the zipcodes package's US rows (run scripts/zip_data.ts)", async () => {
  const generated = zipDataModule(packZipRows(zipcodes.codes));
  const committed = await Deno.readTextFile(new URL("../../lib/geo/zip_data.ts", import.meta.url));
  assert(
    generated === committed,
    "lib/geo/zip_data.ts is stale: run deno run -A scripts/zip_data.ts",
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
