import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { ADDRESS_AUTOCOMPLETE } from "../lib/geo/constants.ts";
import { singleLine } from "../lib/text.ts";

const { maxInputLength, maxPlaceIdLength, minChars } = ADDRESS_AUTOCOMPLETE;

/** Optional coordinate; the spec's client sends `lat=&lng=` when it has none. */
function coordinate(name: "lat" | "lng", limit: number) {
  const message = `${name} must be a number between -${limit} and ${limit}`;
  return z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number({ error: message }).min(-limit, message).max(limit, message).optional(),
  );
}

/** Query of GET /api/address-suggestions. */
export const SuggestionsQuery = z.object({
  input: singleLine("Address", {
    max: maxInputLength,
    messages: { missing: "input is required", type: "input must be text" },
  }),
  lat: coordinate("lat", 90),
  lng: coordinate("lng", 180),
}).superRefine((q, ctx) => {
  if ((q.lat === undefined) !== (q.lng === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: [q.lat === undefined ? "lat" : "lng"],
      message: "lat and lng must be given together",
    });
  }
});

/** Query of GET /api/geocode: an address or a placeId from the suggestions. */
export const GeocodeQuery = z.object({
  address: singleLine("Address", {
    min: 1,
    max: maxInputLength,
    messages: { type: "address must be text", min: "Enter an address" },
  }).optional(),
  placeId: singleLine("placeId", {
    min: 1,
    max: maxPlaceIdLength,
    messages: { min: "placeId is empty" },
  }).optional(),
}).refine((q) => q.address !== undefined || q.placeId !== undefined, {
  message: "Give an address or a placeId",
  path: ["address"],
});

/** Suggestions depend only on the query, never on who asks, so shared caches may keep them. */
const PUBLIC_CACHE = "public, max-age=300";

/**
 * Address suggestions and geocoding behind the configured provider. Public: no user data goes
 * in or out. Provider failures are already empty answers, so these never 500 on bad luck.
 */
export const geo = new Hono<AppEnv>()
  .get(
    "/api/address-suggestions",
    zValidator("query", SuggestionsQuery, onInvalid),
    async (c) => {
      const { input, lat, lng } = c.req.valid("query");
      c.header("Cache-Control", PUBLIC_CACHE);
      if (input.length < minChars) return c.json({ predictions: [] });
      const near = lat !== undefined && lng !== undefined ? { lat, lng } : undefined;
      const predictions = await c.var.deps.geo.suggest(input, near);
      return c.json({
        predictions: predictions.map(({ description, placeId }) => ({ description, placeId })),
      });
    },
  )
  .get(
    "/api/geocode",
    zValidator("query", GeocodeQuery, onInvalid),
    async (c) => {
      const { address, placeId } = c.req.valid("query");
      const result = await c.var.deps.geo.geocode(
        placeId !== undefined ? { placeId } : { address },
      );
      if (!result) throw new HTTPException(404, { message: "No location found for that address" });
      c.header("Cache-Control", PUBLIC_CACHE);
      // precision: how exactly the point is the property (lib/geo/provider.ts), so the page
      // says "we matched the town" rather than "we found this property" for a town centre.
      const { formattedAddress, lat, lng, precision } = result;
      return c.json({ formattedAddress, lat, lng, precision });
    },
  );
