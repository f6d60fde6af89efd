import { assert, assertEquals } from "../_assert.ts";
import { createGoogleGeoProvider } from "../../lib/geo/google.ts";
import { createGeoProvider } from "../../lib/geo/select.ts";
import { testConfig } from "../_helpers.ts";

interface Seen {
  method: string;
  path: string;
  search: URLSearchParams;
  headers: Headers;
  body: unknown;
}

/** A fake of the two Google origins on one local port; `reply` decides each answer. */
function fakeGoogle(reply: (req: Seen) => Response | Promise<Response>) {
  const seen: Seen[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (r) => {
    const url = new URL(r.url);
    const text = await r.text();
    const req = {
      method: r.method,
      path: url.pathname,
      search: url.searchParams,
      headers: r.headers,
      body: text ? JSON.parse(text) : undefined,
    };
    seen.push(req);
    return reply(req);
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const provider = createGoogleGeoProvider({
    apiKey: "test-key",
    placesBaseUrl: base,
    geocodeBaseUrl: base,
    timeoutMs: 300,
  });
  return { seen, provider, close: () => server.shutdown() };
}

Deno.test("[geo google] suggestions come from Places Autocomplete with a location bias", async () => {
  const fake = fakeGoogle(() =>
    Response.json({
      suggestions: [
        {
          placePrediction: {
            placeId: "ChIJ1",
            text: { text: "123 Main St, Austin, TX, USA" },
          },
        },
        { queryPrediction: { text: { text: "main street" } } },
        { placePrediction: { placeId: "ChIJ2", text: { text: "123 Main St, Aurora, IL, USA" } } },
      ],
    })
  );
  try {
    const predictions = await fake.provider.suggest("123 Main St Aus", { lat: 30.27, lng: -97.74 });
    assertEquals(predictions, [
      { description: "123 Main St, Austin, TX, USA", placeId: "ChIJ1" },
      { description: "123 Main St, Aurora, IL, USA", placeId: "ChIJ2" },
    ]);
    const [req] = fake.seen;
    assertEquals(req.method, "POST");
    assertEquals(req.path, "/v1/places:autocomplete");
    assertEquals(req.headers.get("x-goog-api-key"), "test-key");
    assertEquals(req.body, {
      input: "123 Main St Aus",
      includedRegionCodes: ["us"],
      locationBias: {
        circle: { center: { latitude: 30.27, longitude: -97.74 }, radius: 50_000 },
      },
    });
  } finally {
    await fake.close();
  }
});

Deno.test("[geo google] a placeId geocodes through Place Details", async () => {
  const fake = fakeGoogle((req) =>
    req.path === "/v1/places/ChIJ1"
      ? Response.json({
        formattedAddress: "123 Main St, Austin, TX 78701, USA",
        location: { latitude: 30.2672, longitude: -97.7431 },
        types: ["street_address"],
      })
      : new Response("not found", { status: 404 })
  );
  try {
    assertEquals(await fake.provider.geocode({ placeId: "ChIJ1" }), {
      formattedAddress: "123 Main St, Austin, TX 78701, USA",
      lat: 30.2672,
      lng: -97.7431,
      precision: "rooftop",
    });
    assertEquals(
      fake.seen[0].headers.get("x-goog-fieldmask"),
      "formattedAddress,location,types",
    );
    assertEquals(await fake.provider.geocode({ placeId: "unknown" }), undefined);
    // Not a Google id: never sent (it could otherwise walk the URL path).
    assertEquals(await fake.provider.geocode({ placeId: "../v1/other" }), undefined);
    assertEquals(fake.seen.length, 2);
  } finally {
    await fake.close();
  }
});

Deno.test("[geo google] an address geocodes through the Geocoding API", async () => {
  const fake = fakeGoogle((req) =>
    Response.json(
      req.search.get("address") === "1 Beacon St, Boston"
        ? {
          status: "OK",
          results: [{
            formatted_address: "1 Beacon St, Boston, MA 02108, USA",
            geometry: { location: { lat: 42.3576, lng: -71.0621 }, location_type: "ROOFTOP" },
            types: ["street_address"],
          }],
        }
        : { status: "ZERO_RESULTS", results: [] },
    )
  );
  try {
    assertEquals(await fake.provider.geocode({ address: "1 Beacon St, Boston" }), {
      formattedAddress: "1 Beacon St, Boston, MA 02108, USA",
      lat: 42.3576,
      lng: -71.0621,
      precision: "rooftop",
    });
    assertEquals(fake.seen[0].path, "/maps/api/geocode/json");
    assertEquals(fake.seen[0].search.get("key"), "test-key");
    assertEquals(fake.seen[0].search.get("components"), "country:US");
    assertEquals(await fake.provider.geocode({ address: "nowhere" }), undefined);
  } finally {
    await fake.close();
  }
});

Deno.test("[geo google] precision follows Google's location type and place types", async () => {
  const answers: Record<string, { location_type?: string; types?: string[] }> = {
    interpolated: { location_type: "RANGE_INTERPOLATED", types: ["street_address"] },
    road: { location_type: "GEOMETRIC_CENTER", types: ["route"] },
    zip: { location_type: "APPROXIMATE", types: ["postal_code"] },
    town: { location_type: "APPROXIMATE", types: ["locality", "political"] },
    bare: {},
  };
  const fake = fakeGoogle((req) => {
    const { location_type, types } = answers[req.search.get("address")!];
    return Response.json({
      status: "OK",
      results: [{
        formatted_address: "Somewhere, USA",
        geometry: { location: { lat: 1, lng: 2 }, location_type },
        types,
      }],
    });
  });
  try {
    const precision = async (address: string) =>
      (await fake.provider.geocode({ address }))?.precision;
    assertEquals(await precision("interpolated"), "street");
    assertEquals(await precision("road"), "street");
    assertEquals(await precision("zip"), "zip");
    assertEquals(await precision("town"), "city");
    assertEquals(await precision("bare"), "city", "unknown: never claim the building");
  } finally {
    await fake.close();
  }
});

Deno.test("[geo google] errors, bad JSON and timeouts become empty answers", async () => {
  let mode = "500";
  const fake = fakeGoogle(async () => {
    if (mode === "500") return new Response("boom", { status: 500 });
    if (mode === "html") {
      return new Response("<html>", { headers: { "content-type": "text/html" } });
    }
    if (mode === "shape") return Response.json({ suggestions: "nope", status: "OK" });
    await new Promise((r) => setTimeout(r, 1_000));
    return Response.json({});
  });
  try {
    for (mode of ["500", "html", "shape", "slow"]) {
      assertEquals(await fake.provider.suggest("123 Main St"), [], mode);
      assertEquals(await fake.provider.geocode({ placeId: "ChIJ1" }), undefined, mode);
      assertEquals(await fake.provider.geocode({ address: "1 Main St" }), undefined, mode);
    }
  } finally {
    await fake.close();
  }
});

Deno.test("[geo google] an unreachable server is an empty answer, not an exception", async () => {
  const provider = createGoogleGeoProvider({
    apiKey: "k",
    placesBaseUrl: "http://127.0.0.1:9",
    geocodeBaseUrl: "http://127.0.0.1:9",
  });
  assertEquals(await provider.suggest("123 Main St"), []);
  assertEquals(await provider.geocode({ address: "1 Main St" }), undefined);
  assertEquals(await provider.suggest("ab"), []);
});

Deno.test("[geo google] selected only when GOOGLE_MAPS_API_KEY is set", () => {
  assertEquals(createGeoProvider(testConfig()).name, "offline");
  const google = createGeoProvider(testConfig({ GOOGLE_MAPS_API_KEY: "abc" }));
  assertEquals(google.name, "google");
  assert(typeof google.suggest === "function");
});
