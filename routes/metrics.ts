import { Hono } from "hono";
import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppDeps, AppEnv } from "./_env.ts";
import { renderMetrics, requestMetrics, UNMATCHED_ROUTE } from "../lib/metrics.ts";
import { timingSafeEqual } from "../lib/passwords.ts";
import { countAnsweredRequest } from "../lib/memory.ts";
import { admissionStats } from "./_admission.ts";

/** Content type of the Prometheus text exposition format. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** Whether `header` is `Bearer <token>`; compared through digests, in constant time. */
async function isBearer(header: string | undefined, token: string): Promise<boolean> {
  const match = /^Bearer ([\x21-\x7e]{1,512})$/i.exec(header ?? "");
  if (!match) return false;
  return timingSafeEqual(await sha256(match[1]), await sha256(token));
}

/**
 * `GET /metrics` in the Prometheus text format, for a scraper holding `METRICS_TOKEN`
 * (`Authorization: Bearer …`; anything else is a 401). Without METRICS_TOKEN the route does
 * not exist to the outside (the usual 404). Not a page for people, so no session or role.
 */
export const metrics = new Hono<AppEnv>()
  .get("/metrics", async (c) => {
    const token = c.var.deps.config.METRICS_TOKEN;
    if (!token) return c.notFound();
    c.header("Cache-Control", "no-store");
    if (!(await isBearer(c.req.header("authorization"), token))) {
      return c.json({ message: "A valid metrics token is required" }, 401, {
        "WWW-Authenticate": 'Bearer realm="metrics"',
      });
    }
    const body = await renderMetrics(
      c.var.db,
      requestMetrics(c.var.deps),
      admissionStats(c.var.deps),
    );
    return c.body(body, 200, { "Content-Type": PROMETHEUS_CONTENT_TYPE });
  });

/**
 * The route pattern that answered `c` (`/api/surveys/:id`), or `UNMATCHED_ROUTE` when only
 * middleware matched (a 404, or a request refused before routing, such as a CSRF 403 on an
 * unknown path). Hono tries endpoints in registration order, so the first one matched is the
 * one that ran.
 */
export function routeLabel(c: Context<AppEnv>): string {
  try {
    const route = matchedRoutes(c).find((r) => r.method !== "ALL" || !r.path.endsWith("*"));
    return route?.path ?? UNMATCHED_ROUTE;
  } catch {
    // No match result at all (the request never reached the router).
    return UNMATCHED_ROUTE;
  }
}

/** Counts one request answered through the router in the app's metrics. */
export function observeRequest(
  deps: AppDeps,
  c: Context<AppEnv>,
  route: string,
  start: number,
): void {
  countAnsweredRequest();
  requestMetrics(deps).observe({
    method: c.req.method,
    route,
    status: c.res.status,
    seconds: (performance.now() - start) / 1000,
  });
}
