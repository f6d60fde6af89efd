import type { Context } from "hono";
import type { AppDeps, AppEnv } from "./_env.ts";
import { AdmissionGate, admissionLimits, type AdmissionStats } from "../lib/admission.ts";

/** Seconds an overloaded server asks a client to wait before trying again. */
export const OVERLOAD_RETRY_AFTER_SECONDS = 2;

/** The message of every refusal for overload. */
export const OVERLOAD_MESSAGE = "The server is busy right now. Please try again in a few seconds.";

// Probes, metrics and files: cheap, and what tells an operator or a load balancer the process
// is alive and busy rather than dead. They never wait for a slot.
const EXEMPT_PREFIXES = ["/static/", "/healthz", "/readyz", "/metrics"];
const EXEMPT_PATHS = new Set(["/sw.js", "/favicon.ico", "/robots.txt"]);

/** Whether a request for `path` never waits for a slot (probes, metrics, static files). */
export function isExempt(path: string): boolean {
  return EXEMPT_PATHS.has(path) || EXEMPT_PREFIXES.some((prefix) => path.startsWith(prefix));
}

// Written once: an overloaded server renders nothing it does not have to. No script, and the
// inline style is allowed by the CSP (style-src 'unsafe-inline').
const BUSY_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Meridian is busy</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2933}a{color:#0b5cad}</style>
</head><body><h1>We are busy right now</h1>
<p>${OVERLOAD_MESSAGE}</p><p><a href="">Try again</a></p></body></html>`;

/** The answer to a request refused for overload. */
export function refuse(c: Context<AppEnv>): Response {
  const headers = {
    "Retry-After": String(OVERLOAD_RETRY_AFTER_SECONDS),
    "Cache-Control": "no-store",
  };
  const isPage = !c.req.path.startsWith("/api/") &&
    (c.req.header("accept") ?? "").includes("text/html");
  return isPage
    ? c.html(BUSY_PAGE, 503, headers)
    : c.json({ message: OVERLOAD_MESSAGE }, 503, headers);
}

const gates = new WeakMap<AppDeps, AdmissionGate>();

/** The admission gate of the app built on `deps` (for metrics and tests). */
export function admissionStats(deps: AppDeps): AdmissionStats | undefined {
  return gates.get(deps)?.stats();
}

/**
 * Admission control (lib/admission.ts) in front of everything that can cost a KV call or a
 * query: a request beyond the limits is answered `503 {message}` (a small HTML page for a
 * browser page) with `Retry-After` and `no-store`, at once or after a short wait, before
 * its session is read. Health and readiness probes, /metrics and static files are exempt.
 * Limits: `MAX_IN_FLIGHT_REQUESTS`, `MAX_QUEUED_REQUESTS`, `REQUEST_QUEUE_TIMEOUT_MS`. This is
 * the gate for the app built on `deps` (one per app: `admissionStats` reads it); the front door
 * (routes/_front_door.ts) asks it.
 */
export function admissionGate(deps: AppDeps): AdmissionGate {
  const gate = new AdmissionGate(admissionLimits(deps.config, deps.sql.options.max));
  gates.set(deps, gate);
  return gate;
}

/**
 * Whether `c`'s request got a slot of `gate` (then it must `leave`), at once or after a wait.
 * The signal is read only when the request has to wait. It aborts only when the client goes
 * away: deno.json opts in to Deno.serve's corrected request.signal (unstable
 * "no-legacy-abort"); the legacy one also aborted after every successful response, and warned
 * once per process that it did.
 */
export function admitted(gate: AdmissionGate, c: Context<AppEnv>): boolean | Promise<boolean> {
  return gate.enter(() => c.req.raw.signal);
}
