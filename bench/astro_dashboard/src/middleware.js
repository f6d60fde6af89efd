// Meridian's headers on every answer: the security headers of routes/_middleware.ts and the
// signed-in pages' Cache-Control, as the bench read them from Meridian's own dashboard
// (BENCH_ASTRO_HEADERS, a JSON list of [name, value]), plus a request id like Meridian's. A
// page rendered to be kept (src/remembered.js) is read whole here and kept.
import { defineMiddleware } from "astro:middleware";
import { keepPage } from "./remembered.js";

const headers = JSON.parse(process.env.BENCH_ASTRO_HEADERS ?? "[]");

export const onRequest = defineMiddleware(async (context, next) => {
  let response = await next();
  const keep = context.locals.keep;
  if (keep && response.status === 200) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    keepPage(keep.slot, keep.shell, keep.data, bytes);
    response = new Response(bytes, { status: 200, headers: response.headers });
  }
  for (const [name, value] of headers) response.headers.set(name, value);
  response.headers.set("X-Request-Id", crypto.randomUUID());
  return response;
});
