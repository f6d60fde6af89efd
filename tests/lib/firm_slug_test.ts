import { assertEquals } from "../_assert.ts";
import { firmSlug, firmSlugIdPrefix } from "../../lib/firm_slug.ts";

Deno.test("[firm slug] the name as the firm spells it, accents dropped, and the id's first eight characters; the same every time", () => {
  const id = "3F1C2A9E-0000-4000-8000-000000000001";
  for (let i = 0; i < 2; i++) {
    assertEquals(firmSlug("Ortiz Land Surveying, LLC", id), "ortiz-land-surveying-llc-3f1c2a9e");
    assertEquals(firmSlug("Peña & Söhne", id), "pena-and-sohne-3f1c2a9e");
    assertEquals(firmSlug("— ★ —", id), "firm-3f1c2a9e");
  }
  // The same name for another record is another slug.
  assertEquals(firmSlug("Peña & Söhne", "0a0b0c0d-1111"), "pena-and-sohne-0a0b0c0d");
  assertEquals(firmSlugIdPrefix(firmSlug("Peña & Söhne", id)), "3f1c2a9e");
});
