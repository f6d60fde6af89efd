/**
 * The Regrid provider against a local fake Regrid (Deno.serve on port 0) that answers with
 * Regrid-shaped GeoJSON.
 */
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { createRegridProvider } from "../../lib/parcels/regrid.ts";
import { createParcelProvider, NO_PARCEL_PROVIDER_MESSAGE } from "../../lib/parcels/select.ts";
import { ParcelLookupError } from "../../lib/parcels/provider.ts";

const TOKEN = "test-token-123";

const GEOMETRY = {
  type: "MultiPolygon",
  coordinates: [[[[-82.55, 35.59], [-82.549, 35.59], [-82.549, 35.591], [-82.55, 35.59]]]],
};

/** A v2 answer with one parcel. */
function parcelAnswer(fields: Record<string, unknown> = {}) {
  return {
    parcels: {
      type: "FeatureCollection",
      features: [{
        type: "Feature",
        id: 123,
        geometry: GEOMETRY,
        properties: {
          headline: "12 Elm St",
          path: "/us/nc/buncombe/asheville/123",
          fields: {
            parcelnumb: "9648-12-3456",
            owner: "DOE JANE",
            ll_gisacre: 2.3147,
            gisacre: 2.3,
            usedesc: "SINGLE FAMILY RESIDENTIAL",
            zoning: "RS-4",
            address: "12 ELM ST",
            scity: "ASHEVILLE",
            state2: "NC",
            szip: "28801",
            county: "buncombe",
            ...fields,
          },
        },
      }],
    },
  };
}

interface FakeRegrid {
  url: string;
  requests: URL[];
  close(): Promise<void>;
}

/** Serves `handler` on a random local port and records every request URL. */
function fakeRegrid(handler: (url: URL) => Response | Promise<Response>): FakeRegrid {
  const requests: URL[] = [];
  const controller = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: controller.signal, onListen: () => {} },
    (req) => {
      const url = new URL(req.url);
      requests.push(url);
      return handler(url);
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/api/v2`,
    requests,
    async close() {
      controller.abort();
      await server.finished;
    },
  };
}

test("[parcels] Regrid lookup by coordinates maps acreage, number, owner, land use, geometry", async () => {
  const fake = fakeRegrid((url) => {
    if (url.searchParams.get("token") !== TOKEN) return new Response("", { status: 401 });
    return Response.json(parcelAnswer());
  });
  const provider = createRegridProvider({ token: TOKEN, baseUrl: fake.url });
  const parcel = await provider.lookup({ lat: 35.5951, lng: -82.5515 });
  assertEquals(parcel, {
    parcelNumber: "9648-12-3456",
    acreage: 2.3147,
    owner: "DOE JANE",
    landUse: "SINGLE FAMILY RESIDENTIAL",
    address: "12 ELM ST, ASHEVILLE, NC 28801",
    state: "NC",
    county: "buncombe",
    geometry: GEOMETRY,
    source: "regrid",
  });
  const request = fake.requests[0];
  assertEquals(request.pathname, "/api/v2/parcels/point");
  assertEquals(request.searchParams.get("lat"), "35.5951");
  assertEquals(request.searchParams.get("lon"), "-82.5515");
  assertEquals(request.searchParams.get("token"), TOKEN);
  assertEquals(provider.name, "regrid");
  assertEquals(provider.isConfigured, true);
  await fake.close();
});

test("[parcels] Regrid lookup by address sends the query and falls back on missing fields", async () => {
  const fake = fakeRegrid(() =>
    Response.json(parcelAnswer({
      ll_gisacre: null,
      gisacre: "0.48",
      usedesc: "",
      owner: null,
      ownfrst: "JANE",
      ownlast: "DOE",
    }))
  );
  const provider = createRegridProvider({ token: TOKEN, baseUrl: `${fake.url}/` });
  const parcel = await provider.lookup({ address: "12 Elm St, Asheville, NC" });
  assertEquals(parcel?.acreage, 0.48);
  assertEquals(parcel?.landUse, "RS-4");
  assertEquals(parcel?.owner, "JANE DOE");
  assertEquals(fake.requests[0].pathname, "/api/v2/parcels/address");
  assertEquals(fake.requests[0].searchParams.get("query"), "12 Elm St, Asheville, NC");
  await fake.close();
});

test("[parcels] Regrid acreage comes from square feet when no acre figure is given", async () => {
  const fake = fakeRegrid(() =>
    Response.json(parcelAnswer({ ll_gisacre: undefined, gisacre: undefined, ll_gissqft: 43_560 }))
  );
  const provider = createRegridProvider({ token: TOKEN, baseUrl: fake.url });
  assertEquals((await provider.lookup({ lat: 1, lng: 1 }))?.acreage, 1);
  await fake.close();
});

test("[parcels] Regrid with no parcel at the point gives undefined", async () => {
  const fake = fakeRegrid((url) =>
    url.pathname.endsWith("/point")
      ? Response.json({ parcels: { type: "FeatureCollection", features: [] } })
      : new Response(JSON.stringify({ message: "not found" }), { status: 404 })
  );
  const provider = createRegridProvider({ token: TOKEN, baseUrl: fake.url });
  assertEquals(await provider.lookup({ lat: 0, lng: 0 }), undefined);
  assertEquals(await provider.lookup({ address: "1 Nowhere Rd" }), undefined);
  await fake.close();
});

test("[parcels] Regrid failures become clear ParcelLookupErrors without the token", async () => {
  const cases: [number, string, string][] = [
    [401, "", "Regrid rejected the API token."],
    [403, "", "Regrid refused the request: the API token's plan does not allow this lookup."],
    [429, "", "Regrid's rate limit was reached. Try again in a minute."],
    [
      400,
      JSON.stringify({ message: "lat is invalid" }),
      "Regrid could not use the query: lat is invalid",
    ],
    [503, "down", "Regrid is unavailable right now (HTTP 503)."],
    [418, "", "Regrid answered with HTTP 418."],
  ];
  for (const [status, body, message] of cases) {
    const fake = fakeRegrid(() => new Response(body, { status }));
    const provider = createRegridProvider({ token: TOKEN, baseUrl: fake.url });
    const err = await assertRejects(() => provider.lookup({ lat: 1, lng: 2 }));
    assert(err instanceof ParcelLookupError, String(status));
    assertEquals(err.message, message);
    assert(!err.message.includes(TOKEN));
    await fake.close();
  }
});

test("[parcels] Regrid answers that are not JSON or not GeoJSON are reported", async () => {
  for (
    const [body, message] of [
      ["<html>oops</html>", "Regrid sent an answer that is not JSON."],
      [JSON.stringify({ hello: "world" }), "Regrid sent an answer in an unexpected format."],
    ]
  ) {
    const fake = fakeRegrid(() => new Response(body, { status: 200 }));
    const provider = createRegridProvider({ token: TOKEN, baseUrl: fake.url });
    const err = await assertRejects(() => provider.lookup({ lat: 1, lng: 2 }));
    assertEquals(err.message, message);
    await fake.close();
  }
});

test("[parcels] a Regrid that does not answer in time times out", async () => {
  let release!: () => void;
  const hang = new Promise<void>((resolve) => (release = resolve));
  const fake = fakeRegrid(async () => {
    await hang;
    return Response.json(parcelAnswer());
  });
  const provider = createRegridProvider({ token: TOKEN, baseUrl: fake.url, timeoutMs: 50 });
  const err = await assertRejects(() => provider.lookup({ lat: 1, lng: 2 }));
  assert(err instanceof ParcelLookupError);
  assertEquals(err.message, "Regrid did not answer within 0.1 seconds.");
  release();
  await fake.close();
});

test("[parcels] an unreachable Regrid is reported without echoing the URL", async () => {
  const fake = fakeRegrid(() => new Response(""));
  const url = fake.url;
  await fake.close();
  const provider = createRegridProvider({ token: TOKEN, baseUrl: url });
  const err = await assertRejects(() => provider.lookup({ address: "12 Elm St" }));
  assertEquals(err.message, "Could not reach Regrid. Check the network and REGRID_API_URL.");
});

test("[parcels] the provider is Regrid only when a token is configured", async () => {
  const none = createParcelProvider({
    REGRID_API_TOKEN: undefined,
    REGRID_API_URL: "https://app.regrid.com/api/v2",
  });
  assertEquals(none.name, "none");
  assertEquals(none.isConfigured, false);
  const err = await assertRejects(() => none.lookup({ lat: 1, lng: 1 }));
  assert(err instanceof ParcelLookupError);
  assertEquals(err.message, NO_PARCEL_PROVIDER_MESSAGE);
  const regrid = createParcelProvider({
    REGRID_API_TOKEN: "abc",
    REGRID_API_URL: "https://app.regrid.com/api/v2",
  });
  assertEquals(regrid.name, "regrid");
  assertEquals(regrid.isConfigured, true);
});
