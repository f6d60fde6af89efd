import { assert, assertEquals } from "../_assert.ts";
import { createGooglePlacesProvider, PLACES_QUERY } from "../../lib/places/google.ts";
import { createPlacesProvider } from "../../lib/places/select.ts";
import { createOfflinePlacesProvider } from "../../lib/places/offline.ts";

interface Seen {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

/** A fake Places API (New) on a local port; `reply` decides each answer. */
function fakeGoogle(reply: (req: Seen) => Response | Promise<Response>) {
  const seen: Seen[] = [];
  const warnings: string[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (r) => {
    const url = new URL(r.url);
    const text = await r.text();
    const req = {
      method: r.method,
      path: url.pathname,
      headers: r.headers,
      body: text ? JSON.parse(text) : undefined,
    };
    seen.push(req);
    return reply(req);
  });
  const provider = createGooglePlacesProvider({
    apiKey: "test-key",
    placesBaseUrl: `http://127.0.0.1:${server.addr.port}`,
    timeoutMs: 300,
    warn: (m) => warnings.push(m),
  });
  return { seen, warnings, provider, close: () => server.shutdown() };
}

const AUSTIN = { lat: 30.2672, lng: -97.7431 };

function googlePlace(id: string, name: string, lat: number, lng: number, extra = {}) {
  return {
    id,
    displayName: { text: name, languageCode: "en" },
    formattedAddress: `1 Main St, Round Rock, TX 78664, USA`,
    addressComponents: [
      { longText: "1", shortText: "1", types: ["street_number"] },
      { longText: "Round Rock", shortText: "Round Rock", types: ["locality", "political"] },
      {
        longText: "Texas",
        shortText: "TX",
        types: ["administrative_area_level_1", "political"],
      },
      { longText: "78664", shortText: "78664", types: ["postal_code"] },
    ],
    location: { latitude: lat, longitude: lng },
    nationalPhoneNumber: "(512) 555-0100",
    websiteUri: "https://example.com/",
    rating: 4.7,
    userRatingCount: 12,
    businessStatus: "OPERATIONAL",
    ...extra,
  };
}

Deno.test("[places google] Text Search near the point becomes places, nearest first, within the radius", async () => {
  const fake = fakeGoogle(() =>
    Response.json({
      places: [
        googlePlace("far", "Far Away Surveys", 32.7767, -96.797), // Dallas, ~180 mi
        googlePlace("near2", "Second Surveys", 30.5083, -97.6789), // Round Rock, ~17 mi
        googlePlace("near1", "First Surveys", 30.27, -97.74), // downtown
        googlePlace("closed", "Closed Surveys", 30.28, -97.74, {
          businessStatus: "CLOSED_PERMANENTLY",
        }),
        { id: "broken" }, // no location: skipped, not fatal
        googlePlace("near1", "First Surveys again", 30.27, -97.74), // duplicate id
      ],
    })
  );
  try {
    const places = await fake.provider.nearbySurveyors(AUSTIN, 50);
    assertEquals(places.map((p) => p.placeId), ["near1", "near2"]);
    assertEquals(places[1], {
      placeId: "near2",
      name: "Second Surveys",
      address: "1 Main St, Round Rock, TX 78664, USA",
      city: "Round Rock",
      state: "TX",
      zip: "78664",
      lat: 30.5083,
      lng: -97.6789,
      phone: "(512) 555-0100",
      website: "https://example.com/",
      rating: 4.7,
      reviewCount: 12,
    });
    const [req] = fake.seen;
    assertEquals(req.method, "POST");
    assertEquals(req.path, "/v1/places:searchText");
    assertEquals(req.headers.get("x-goog-api-key"), "test-key");
    assert(req.headers.get("x-goog-fieldmask")?.includes("places.addressComponents"));
    const body = req.body as Record<string, unknown>;
    assertEquals(body.textQuery, PLACES_QUERY);
    assertEquals(body.locationBias, {
      circle: { center: { latitude: AUSTIN.lat, longitude: AUSTIN.lng }, radius: 50_000 },
    });
    assertEquals(fake.warnings, []);
  } finally {
    await fake.close();
  }
});

Deno.test("[places google] a small radius biases a smaller circle", async () => {
  const fake = fakeGoogle(() => Response.json({}));
  try {
    assertEquals(await fake.provider.nearbySurveyors(AUSTIN, 10), []);
    const body = fake.seen[0].body as { locationBias: { circle: { radius: number } } };
    assertEquals(Math.round(body.locationBias.circle.radius), 16093);
  } finally {
    await fake.close();
  }
});

Deno.test("[places google] outside the US or without components, state, city and ZIP are null", async () => {
  const fake = fakeGoogle(() =>
    Response.json({
      places: [{
        id: "x1",
        displayName: { text: "  Mystery Surveys  " },
        location: { latitude: 30.27, longitude: -97.74 },
        addressComponents: [{ shortText: "ON", types: ["administrative_area_level_1"] }],
        rating: 9,
      }],
    })
  );
  try {
    const [place] = await fake.provider.nearbySurveyors(AUSTIN, 5);
    assertEquals(place.name, "Mystery Surveys");
    assertEquals([place.state, place.city, place.zip, place.address], [null, null, null, null]);
    assertEquals(place.rating, null);
  } finally {
    await fake.close();
  }
});

Deno.test("[places google] an error, a timeout or odd JSON answers [] with a warning, never the key", async () => {
  const answers = [
    () => Response.json({ error: { code: 403, message: "API key not valid" } }, { status: 403 }),
    () => new Response("not json", { headers: { "content-type": "application/json" } }),
    () => Response.json({ places: "nope" }),
    () => new Promise<Response>((r) => setTimeout(() => r(Response.json({})), 1000)),
  ];
  let i = 0;
  const fake = fakeGoogle(() => answers[i++]());
  try {
    for (let n = 0; n < answers.length; n++) {
      assertEquals(await fake.provider.nearbySurveyors(AUSTIN, 25), []);
    }
    assertEquals(fake.warnings.length, 4);
    assert(fake.warnings[0].includes("HTTP 403"), fake.warnings[0]);
    assert(fake.warnings.every((w) => !w.includes("test-key")));
  } finally {
    await fake.close();
  }
});

Deno.test("[places google] a radius that is not positive asks nothing", async () => {
  const fake = fakeGoogle(() => Response.json({ places: [googlePlace("a", "A", 30.27, -97.74)] }));
  try {
    for (const r of [0, -5, NaN, Infinity]) {
      assertEquals(await fake.provider.nearbySurveyors(AUSTIN, r), []);
    }
    assertEquals(fake.seen.length, 0);
  } finally {
    await fake.close();
  }
});

Deno.test("[places] the key selects Google; without it the offline provider finds none", async () => {
  assertEquals(createPlacesProvider({ GOOGLE_MAPS_API_KEY: "k" }).name, "google");
  const offline = createPlacesProvider({ GOOGLE_MAPS_API_KEY: undefined });
  assertEquals(offline.name, "offline");
  assertEquals(await offline.nearbySurveyors(AUSTIN, 50), []);
  assertEquals(await createOfflinePlacesProvider().nearbySurveyors(AUSTIN, 50), []);
});
