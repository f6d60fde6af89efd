import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import type { GeoProvider } from "../../lib/geo/provider.ts";

const JSON_TYPE = /^application\/json/;

function q(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

test("[geo] suggestions complete '123 Main St Aus' into Austin candidates", async () => {
  const t = await createTestApp();
  const res = await t.request("GET", `/api/address-suggestions?${q({ input: "123 Main St Aus" })}`);
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("content-type") ?? "", JSON_TYPE);
  assertEquals(res.headers.get("cache-control"), "public, max-age=300");
  const body = await res.json();
  assertEquals(Object.keys(body), ["predictions"]);
  assert(body.predictions.length > 0 && body.predictions.length <= 5);
  assertEquals(body.predictions[0], {
    description: "123 Main St, Austin, TX",
    placeId: "city:TX|Austin|123 Main St",
  });
  for (const p of body.predictions) assertEquals(Object.keys(p).sort(), ["description", "placeId"]);
  t.close();
});

test("[geo] fewer than 3 characters gives no suggestions", async () => {
  const t = await createTestApp();
  for (const input of ["", "Au", "  Au  "]) {
    const res = await t.request("GET", `/api/address-suggestions?${q({ input })}`);
    assertEquals(res.status, 200, input);
    assertMatch(res.headers.get("content-type") ?? "", JSON_TYPE);
    assertEquals(await res.json(), { predictions: [] }, input);
  }
  t.close();
});

test("[geo] empty lat and lng (as the spec's client sends them) mean no location", async () => {
  const t = await createTestApp();
  const res = await t.request(
    "GET",
    `/api/address-suggestions?${q({ input: "123 Main St Aus", lat: "", lng: "" })}`,
  );
  assertEquals(res.status, 200);
  assertEquals((await res.json()).predictions[0].description, "123 Main St, Austin, TX");
  t.close();
});

test("[geo] lat and lng rank suggestions by distance", async () => {
  const t = await createTestApp();
  const res = await t.request(
    "GET",
    `/api/address-suggestions?${q({ input: "Spring", lat: "42.36", lng: "-71.06" })}`,
  );
  assertEquals(res.status, 200);
  const { predictions } = await res.json();
  assertMatch(predictions[0].description, /, (MA|NH|RI|CT|VT|ME|NY)$/);
  t.close();
});

test("[geo] bad coordinates are a 400 naming the field", async () => {
  const t = await createTestApp();
  const cases: [Record<string, string>, string][] = [
    [{ input: "Spring", lat: "91", lng: "0" }, "lat"],
    [{ input: "Spring", lat: "0", lng: "-180.5" }, "lng"],
    [{ input: "Spring", lat: "north", lng: "0" }, "lat"],
    [{ input: "Spring", lat: "Infinity", lng: "0" }, "lat"],
    [{ input: "Spring", lat: "30" }, "lng"],
    [{ input: "Spring", lng: "-97" }, "lat"],
  ];
  for (const [params, field] of cases) {
    const res = await t.request("GET", `/api/address-suggestions?${q(params)}`);
    assertEquals(res.status, 400, JSON.stringify(params));
    assertMatch(res.headers.get("content-type") ?? "", JSON_TYPE);
    const body = await res.json();
    assert(typeof body.message === "string" && body.message.length > 0);
    assert(field in body.errors, `${JSON.stringify(params)} → ${JSON.stringify(body)}`);
  }
  t.close();
});

test("[geo] missing, repeated or 10 KB input is a 400", async () => {
  const t = await createTestApp();
  const missing = await t.request("GET", "/api/address-suggestions");
  assertEquals(missing.status, 400);
  assertEquals((await missing.json()).message, "input is required");

  const repeated = await t.request("GET", "/api/address-suggestions?input=abc&input=def");
  assertEquals(repeated.status, 400);
  assertEquals((await repeated.json()).message, "input must be text");

  const huge = await t.request(
    "GET",
    `/api/address-suggestions?${q({ input: "1 Main St ".repeat(1_024) })}`,
  );
  assertEquals(huge.status, 400);
  assertMatch(huge.headers.get("content-type") ?? "", JSON_TYPE);
  assertEquals(await huge.json(), {
    message: "Address must be at most 200 characters",
    errors: { input: "Address must be at most 200 characters" },
  });
  t.close();
});

test("[geo] a picked suggestion geocodes by placeId", async () => {
  const t = await createTestApp();
  const res = await t.request("GET", `/api/geocode?${q({ placeId: "zip:78701|123 Main St" })}`);
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("content-type") ?? "", JSON_TYPE);
  assertEquals(await res.json(), {
    formattedAddress: "123 Main St, Austin, TX 78701",
    lat: 30.2713,
    lng: -97.7426,
    // The offline data locates the ZIP, not the street: the response says so.
    precision: "zip",
  });
  t.close();
});

test("[geo] a typed address geocodes to its ZIP or city", async () => {
  const t = await createTestApp();
  const res = await t.request("GET", `/api/geocode?${q({ address: "1 Beacon St, Boston, MA" })}`);
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("content-type") ?? "", JSON_TYPE);
  const body = await res.json();
  assertEquals(body.formattedAddress, "1 Beacon St, Boston, MA");
  assertEquals(typeof body.lat, "number");
  assertEquals(typeof body.lng, "number");
  assertEquals(body.precision, "city");
  t.close();
});

test("[geo] an unknown address or placeId is a 404 JSON message", async () => {
  const t = await createTestApp();
  const cases: Record<string, string>[] = [
    { address: "Nowhere Special" },
    { placeId: "zip:00000|1 Main St" },
    { placeId: "made-up" },
  ];
  for (const params of cases) {
    const res = await t.request("GET", `/api/geocode?${q(params)}`);
    assertEquals(res.status, 404, JSON.stringify(params));
    assertMatch(res.headers.get("content-type") ?? "", JSON_TYPE);
    assertEquals(await res.json(), { message: "No location found for that address" });
  }
  t.close();
});

test("[geo] geocode without a query, with empty or 10 KB values is a 400", async () => {
  const t = await createTestApp();
  const cases: [string, string][] = [
    ["", "Give an address or a placeId"],
    [q({ address: "" }), "Enter an address"],
    [q({ address: "x".repeat(10_240) }), "Address must be at most 200 characters"],
    [q({ placeId: "x".repeat(10_240) }), "placeId must be at most 512 characters"],
  ];
  for (const [query, message] of cases) {
    const res = await t.request("GET", `/api/geocode?${query}`);
    assertEquals(res.status, 400, query.slice(0, 40));
    assertMatch(res.headers.get("content-type") ?? "", JSON_TYPE);
    assertEquals((await res.json()).message, message);
  }
  t.close();
});

test("[geo] a provider that finds nothing gives empty suggestions and 404s", async () => {
  const calls: string[] = [];
  const silent: GeoProvider = {
    name: "silent",
    suggest: (input) => {
      calls.push(input);
      return Promise.resolve([]);
    },
    geocode: () => Promise.resolve(undefined),
  };
  const t = await createTestApp({ deps: { geo: silent } });
  const res = await t.request("GET", `/api/address-suggestions?${q({ input: "  123 Main  " })}`);
  assertEquals(res.status, 200);
  assertEquals(await res.json(), { predictions: [] });
  assertEquals(calls, ["123 Main"]);
  const geo = await t.request("GET", `/api/geocode?${q({ address: "123 Main" })}`);
  assertEquals(geo.status, 404);
  t.close();
});
