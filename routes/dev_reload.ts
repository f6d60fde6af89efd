import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";

/** Development only: an event stream the page watches; a restart drops it and the page reloads. */
export const devReload = new Hono<AppEnv>().get("/_dev/reload", () => {
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(": connected\n\n"));
    },
  });
  return new Response(body, {
    headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-store" },
  });
});
