/**
 * Dependency outages (Postgres restarting, the KV file locked by another writer) as one error
 * kind, so every route answers them the same way: `503 {message}` with `Retry-After`, never a
 * generic 500. Routes do not catch these; `onError` (routes/_errors.tsx) maps them.
 */

/** Seconds a client is told to wait before retrying while a dependency is down. */
export const RETRY_AFTER_SECONDS = 5;

/** The message every 503 carries. */
export const UNAVAILABLE_MESSAGE =
  "The service is temporarily unavailable. Please try again in a few seconds.";

/** Thrown when a dependency is down; `dependency` names it for the log line. */
export class ServiceUnavailableError extends Error {
  constructor(readonly dependency: "postgres" | "kv", options?: { cause?: unknown }) {
    super(`${dependency} is unavailable`, options);
    this.name = "ServiceUnavailableError";
  }
}

// postgres.js connection-level codes, Node socket errors, and server SQLSTATEs that mean
// "the database is not there right now", not "your query is wrong".
const POSTGRES_DOWN_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, shutting down)
  "53300", // too_many_connections
]);

/** True when `err` means Postgres is unreachable or restarting (class 08 included). */
export function isPostgresDown(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return false;
  return POSTGRES_DOWN_CODES.has(code) || code.startsWith("08");
}

/** The dependency `err` says is down, or null for any other error. */
export function unavailableDependency(err: unknown): "postgres" | "kv" | null {
  if (err instanceof ServiceUnavailableError) return err.dependency;
  if (isPostgresDown(err)) return "postgres";
  return null;
}
