// Meridian's headers on every answer: the security headers of routes/_middleware.ts and the
// signed-in pages' Cache-Control, as the bench read them from Meridian's own dashboard
// (BENCH_ASTRO_HEADERS, a JSON list of [name, value]), plus a request id like Meridian's.
import { defineMiddleware } from "astro:middleware";

const headers = JSON.parse(process.env.BENCH_ASTRO_HEADERS ?? "[]");

export const onRequest = defineMiddleware(async (_context, next) => {
  const response = await next();
  for (const [name, value] of headers) response.headers.set(name, value);
  response.headers.set("X-Request-Id", crypto.randomUUID());
  return response;
});
