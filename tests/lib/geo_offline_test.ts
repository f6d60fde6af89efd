import { assert, assertEquals, assertMatch } from "../_assert.ts";
import {
  createOfflineGeoProvider,
  geocodeOffline,
  haversineKm,
  suggestOffline,
} from "../../lib/geo/offline.ts";

const AUSTIN = { lat: 30.2672, lng: -97.7431 };
const BOSTON = { lat: 42.3601, lng: -71.0589 };
const KANSAS_CITY = { lat: 39.0997, lng: -94.5786 };
// Where a data-centre IP geolocates; a browser may report it for any visitor.
const COUNCIL_BLUFFS = { lat: 41.2619, lng: -95.8608 };
const NEW_ENGLAND_AND_NY = new Set(["MA", "NH", "RI", "CT", "VT", "ME", "NY"]);

function stateOf(description: string): string {
  return /, ([A-Z]{2})(?: \d{5})?$/.exec(description)?.[1] ?? "";
}

Deno.test("[geo offline] '123 Main St, Aus' completes the town, with no ZIP it cannot know", async () => {
  const predictions = await suggestOffline("123 Main St, Aus");
  assert(predictions.length > 0 && predictions.length <= 5, JSON.stringify(predictions));
  assertEquals(predictions[0], {
    description: "123 Main St, Austin, TX",
    placeId: "city:TX|Austin|123 Main St",
  });
  for (const p of predictions) {
    assertMatch(p.description, /^123 Main St, Aus[a-z]*, [A-Z]{2}$/);
  }
});

Deno.test("[geo offline] a street alone is given no town: any would be invented", async () => {
  assertEquals(await suggestOffline("1200 Barton Springs Rd"), []);
  assertEquals(await suggestOffline("1200 Barton Springs Rd", AUSTIN), []);
  assertEquals(await suggestOffline("1200 Barton Springs Rd, TX"), []);
  assertEquals(await suggestOffline("1200 Barton Springs Rd,"), []);
});

Deno.test("[geo offline] a typed town is offered in each state the data knows, never with a ZIP", async () => {
  const predictions = (await suggestOffline("1200 Barton Springs Rd, Austin")).map((p) =>
    p.description
  );
  assertEquals(predictions[0], "1200 Barton Springs Rd, Austin, TX");
  assert(predictions.length > 1, JSON.stringify(predictions));
  for (const p of predictions) assertMatch(p, /^1200 Barton Springs Rd, Austin, [A-Z]{2}$/);
  // A picked town is located at the town only: the surveyor confirms the parcel.
  const geo = await geocodeOffline({ placeId: "city:TX|Austin|1200 Barton Springs Rd" });
  assertEquals(geo?.formattedAddress, "1200 Barton Springs Rd, Austin, TX");
  assertEquals(geo?.precision, "city");
  // A ZIP comes only from the user: typed, or begun and picked.
  assertEquals(
    (await suggestOffline("1200 Barton Springs Rd, Austin, TX 78704")).map((p) => p.description),
    ["1200 Barton Springs Rd, Austin, TX 78704"],
  );
  assertEquals(
    (await suggestOffline("1200 Barton Springs Rd 78704")).map((p) => p.description),
    ["1200 Barton Springs Rd, Austin, TX 78704"],
  );
});

Deno.test("[geo offline] a typed town in several states is not located until one is chosen", async () => {
  assertEquals(await geocodeOffline({ address: "1200 Barton Springs Rd, Austin" }), undefined);
  assertEquals(
    (await geocodeOffline({ address: "1200 Barton Springs Rd, Austin, TX" }))?.formattedAddress,
    "1200 Barton Springs Rd, Austin, TX",
  );
  assertEquals(
    (await geocodeOffline({ address: "1 Main St, Pflugerville" }))?.formattedAddress,
    "1 Main St, Pflugerville, TX",
  );
});

Deno.test("[geo offline] the comma is optional and spacing is normalised", async () => {
  const withComma = await suggestOffline("123 Main St, Aus");
  const without = await suggestOffline("  123   Main St   Aus ");
  assertEquals(without, withComma);
});

Deno.test("[geo offline] every suggestion geocodes to its own town or ZIP", async () => {
  for (const p of await suggestOffline("123 Main St Aus")) {
    const geo = await geocodeOffline({ placeId: p.placeId });
    assert(geo, p.placeId);
    assertEquals(geo.formattedAddress, p.description);
  }
});

Deno.test("[geo offline] a full 'City, ST' is that town, its ZIPs only once one is begun", async () => {
  assertEquals((await suggestOffline("123 Main St, Austin, TX")).map((p) => p.description), [
    "123 Main St, Austin, TX",
  ]);
  const predictions = await suggestOffline("123 Main St, Austin, TX 787");
  assertEquals(predictions.length, 5);
  for (const p of predictions) assertMatch(p.description, /^123 Main St, Austin, TX 787\d\d$/);
  assertEquals(new Set(predictions.map((p) => p.placeId)).size, 5);
});

Deno.test("[geo offline] a ZIP prefix completes to ZIPs that start with it", async () => {
  const predictions = await suggestOffline("1 Elm St 021");
  assert(predictions.length > 0);
  for (const p of predictions) assertMatch(p.description, /^1 Elm St, .+, MA 021\d\d$/);
});

Deno.test("[geo offline] multi-word and abbreviated city names match", async () => {
  assertMatch((await suggestOffline("9 Oak Ave San Anto"))[0].description, /San Antonio, TX/);
  assertMatch((await suggestOffline("9 Oak Ave, ft wor"))[0].description, /Fort Worth, TX/);
  assertMatch((await suggestOffline("9 Oak Ave St St Lou"))[0].description, /Saint Louis, MO/);
});

Deno.test("[geo offline] 'Spring' puts a nearby match first when a location is given", async () => {
  const nearAustin = await suggestOffline("Spring", AUSTIN);
  const nearBoston = await suggestOffline("Spring", BOSTON);
  assertEquals(nearAustin[0].description, "Spring, TX");
  assertEquals(nearBoston[0].description, "Springfield, MA");
  assert(NEW_ENGLAND_AND_NY.has(stateOf(nearBoston[0].description)), nearBoston[0].description);
});

Deno.test("[geo offline] '55 Ocean Dr, Miami' offers Miami, FL first, wherever the visitor is", async () => {
  for (const near of [undefined, KANSAS_CITY, COUNCIL_BLUFFS, AUSTIN, BOSTON]) {
    const predictions = (await suggestOffline("55 Ocean Dr, Miami", near)).map((p) =>
      p.description
    );
    const where = JSON.stringify(near ?? "no location");
    assertEquals(predictions[0], "55 Ocean Dr, Miami, FL", where);
    assert(!predictions[0].includes("Miami, OK"), where);
  }
  // Without a location, a town of a few hundred people comes after the bigger places whose
  // names the text also starts.
  const plain = (await suggestOffline("55 Ocean Dr, Miami")).map((p) => p.description);
  assert(
    plain.indexOf("55 Ocean Dr, Miami Beach, FL") <
      plain.indexOf("55 Ocean Dr, Miami, OK"),
    JSON.stringify(plain),
  );
});

Deno.test("[geo offline] ambiguous city names rank by size, then by the visitor's region", async () => {
  const first = async (input: string, near?: { lat: number; lng: number }) =>
    (await suggestOffline(input, near))[0].description;
  assertEquals(await first("Portland"), "Portland, OR");
  assertEquals(await first("Portland", KANSAS_CITY), "Portland, OR");
  assertEquals(await first("Portland", BOSTON), "Portland, ME");
  assertEquals(await first("Columbus"), "Columbus, OH");
  assertEquals(await first("Salem"), "Salem, OR");
  assertEquals(await first("Salem", BOSTON), "Salem, MA");
  // The three big Springfields lead; the one near the visitor leads near it.
  const springfields = (await suggestOffline("Springfield")).map((p) => stateOf(p.description));
  assertEquals(new Set(springfields.slice(0, 3)), new Set(["IL", "MA", "MO"]));
  assertEquals(stateOf(await first("Springfield", BOSTON)), "MA");
  assertEquals(
    await first("123 Main St, Springfield", BOSTON),
    "123 Main St, Springfield, MA",
  );
});

Deno.test("[geo offline] without a location bigger places come first", async () => {
  const predictions = await suggestOffline("42 Pine Rd, Hous");
  assertEquals(predictions[0].description, "42 Pine Rd, Houston, TX");
});

Deno.test("[geo offline] geocodes an address by ZIP, by city and state, or by city", async () => {
  assertEquals(await geocodeOffline({ address: "500 Congress Ave, Austin, TX 78701" }), {
    formattedAddress: "500 Congress Ave, Austin, TX 78701",
    lat: 30.2713,
    lng: -97.7426,
    precision: "zip",
  });
  const byCityState = await geocodeOffline({ address: "1 Beacon St Boston MA" });
  assert(byCityState);
  assertEquals(byCityState.formattedAddress, "1 Beacon St, Boston, MA");
  assertEquals(byCityState.precision, "city");
  assert(haversineKm(BOSTON, byCityState) < 15, JSON.stringify(byCityState));
  const byCity = await geocodeOffline({ address: "Austin, Texas, USA" });
  assert(byCity);
  assertEquals(byCity.formattedAddress, "Austin, TX");
  assert(haversineKm(AUSTIN, byCity) < 15);
  const zipOnly = await geocodeOffline({ address: "02108" });
  assertEquals(zipOnly?.formattedAddress, "Boston, MA 02108");
  assertEquals(zipOnly?.precision, "zip");
  // A picked suggestion is its ZIP's centre, never a located street.
  assertEquals((await geocodeOffline({ placeId: "zip:78701|123 Main St" }))?.precision, "zip");
});

Deno.test("[geo offline] unknown places and ids geocode to undefined", async () => {
  assertEquals(await geocodeOffline({ address: "nowhere in particular" }), undefined);
  assertEquals(await geocodeOffline({ address: "" }), undefined);
  assertEquals(await geocodeOffline({ placeId: "zip:00000|1 Main St" }), undefined);
  assertEquals(await geocodeOffline({ placeId: "ChIJ-not-ours" }), undefined);
  assertEquals(await geocodeOffline({}), undefined);
});

Deno.test("[geo offline] garbage, short and very long input are safe", async () => {
  const provider = createOfflineGeoProvider();
  assertEquals(await provider.suggest("zzqx vvbn"), []);
  assertEquals(await provider.suggest("ab"), []);
  assertEquals(await provider.suggest("   "), []);
  assertEquals(await provider.suggest(",,,;;;''\"\\\u0000\u202e"), []);
  assertEquals(await provider.suggest("x".repeat(10_000)), []);
  assertEquals(
    await provider.suggest("123 Main St Aus", { lat: 0, lng: 0 }).then((p) => p.length),
    5,
  );
  assertEquals(await provider.geocode({ address: "Austin ".repeat(2_000) }), undefined);
  assertEquals(await provider.geocode({ placeId: "zip:78701|" + "x".repeat(5_000) }), undefined);
});

Deno.test("[geo offline] results never exceed five", async () => {
  for (const input of ["San", "123 Main St, S", "100", "123 Main St, Spr", "Springfield"]) {
    const predictions = await suggestOffline(input);
    assert(predictions.length <= 5, input);
    assert(predictions.length > 0, input);
  }
});
