import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";

/** The worker's source, beside the other static files (so `deno compile --include static` has it). */
const SOURCE = new URL("../static/sw.js", import.meta.url);

let source: string | undefined;

/**
 * GET /sw.js: the service worker that keeps the technician's job pages available offline
 * (static/sw.js explains what it stores and why). Served from the site's root rather than
 * /static/ because a worker's scope cannot reach above its own folder without an extra header.
 * `no-cache` makes the browser check for a new version on every registration and update check
 * (it would cap a longer max-age at a day anyway), so a fix reaches the crews on their next
 * page view with signal. Public: the same bytes for everyone.
 */
export const serviceWorker = new Hono<AppEnv>().get("/sw.js", async (c) => {
  source ??= await Deno.readTextFile(SOURCE);
  return c.body(source, 200, {
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": "no-cache",
  });
});
