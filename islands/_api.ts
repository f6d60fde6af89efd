/**
 * How islands talk to the server (spec section 7, 'Generic behaviour', and section 9's query
 * constants): every call sends the session cookie, a JSON content type only with a body, and a
 * non-ok answer becomes an error reading `{status}: {body text or status text}`.
 */
import { useCallback, useEffect, useState } from "react";

/** A non-ok response. `message` is `${status}: ${body text or statusText}` per the spec. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly body: string, statusText: string) {
    super(`${status}: ${body || statusText}`);
    this.name = "ApiError";
  }
}

/** Throws ApiError unless `res.ok`. Reads the body only on failure. */
export async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text().catch(() => "");
  throw new ApiError(res.status, text, res.statusText);
}

/**
 * Sends one request and returns the (ok) response. Throws ApiError on a non-ok status and
 * TypeError when the network fails.
 */
export async function apiRequest(
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  const res = await fetch(path, {
    method,
    headers: body !== undefined ? { "Content-Type": "application/json" } : {},
    body: body !== undefined ? JSON.stringify(body) : undefined,
    credentials: "same-origin",
  });
  await throwIfNotOk(res);
  return res;
}

/** `apiRequest` then the JSON body, or null when the body is empty or not JSON. */
export async function apiJson<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
): Promise<T | null> {
  const res = await apiRequest(method, path, body);
  return await parseJson<T>(res);
}

async function parseJson<T>(res: Response): Promise<T | null> {
  try {
    return await res.json() as T;
  } catch {
    return null;
  }
}

/**
 * A data query: GET `path`; null on 401 (signed out) and null when the body is not JSON.
 * Other non-ok answers throw ApiError.
 */
export async function getQuery<T = unknown>(path: string): Promise<T | null> {
  const res = await fetch(path, { credentials: "same-origin" });
  if (res.status === 401) return null;
  await throwIfNotOk(res);
  return await parseJson<T>(res);
}

/**
 * The server's `{message}` inside an ApiError (or its plain-text body), else `fallback`.
 * Network failures and unexpected errors give `fallback`.
 */
export function errorMessage(err: unknown, fallback: string): string {
  if (!(err instanceof ApiError)) return fallback;
  const text = err.body.trim();
  if (!text) return fallback;
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed.message === "string" && parsed.message) return parsed.message;
    return fallback;
  } catch {
    // A plain-text body is the server's message; HTML error pages are not.
    return text.startsWith("<") || text.length > 300 ? fallback : text;
  }
}

/** Freshness of a cached query, in milliseconds (spec section 9). */
export interface QueryTiming {
  /** How long an answer counts as fresh and is served without a request. */
  staleTime: number;
  /** How long an answer is kept after it was fetched. */
  gcTime: number;
}

/**
 * Spec section 9: default freshness 30 s; no automatic retry, no refetch on window focus and
 * no polling (so this cache never does any of those).
 */
export const DEFAULT_QUERY: QueryTiming = { staleTime: 30_000, gcTime: 5 * 60_000 };
/** Spec section 9: the user query is fresh 2 minutes and kept 5 minutes. */
export const USER_QUERY: QueryTiming = { staleTime: 2 * 60_000, gcTime: 5 * 60_000 };
/** Spec section 9: the survey list is fresh 30 s and kept 5 minutes. */
export const SURVEYS_QUERY: QueryTiming = { staleTime: 30_000, gcTime: 5 * 60_000 };
/** Spec section 9: surveyor lists are fresh 5 minutes and kept 10 minutes. */
export const SURVEYORS_QUERY: QueryTiming = { staleTime: 5 * 60_000, gcTime: 10 * 60_000 };

interface Entry {
  data: unknown;
  fetchedAt: number;
  pending?: Promise<unknown>;
}

const cache = new Map<string, Entry>();
const cacheListeners = new Set<(path: string) => void>();

function notify(path: string) {
  for (const listener of cacheListeners) listener(path);
}

function dropExpired(now: number, gcTime: number) {
  for (const [path, entry] of cache) {
    if (!entry.pending && now - entry.fetchedAt > gcTime) cache.delete(path);
  }
}

/**
 * `getQuery(path)` through the shared cache: a fresh answer is returned without a request,
 * and concurrent callers share one request. Failures are not cached and not retried.
 */
export async function cachedQuery<T = unknown>(
  path: string,
  timing: QueryTiming = DEFAULT_QUERY,
): Promise<T | null> {
  const now = Date.now();
  dropExpired(now, timing.gcTime);
  const entry = cache.get(path);
  if (entry?.pending) return await entry.pending as T | null;
  if (entry && now - entry.fetchedAt < timing.staleTime) return entry.data as T | null;
  const pending = getQuery<T>(path);
  cache.set(path, { data: entry?.data ?? null, fetchedAt: entry?.fetchedAt ?? 0, pending });
  try {
    const data = await pending;
    cache.set(path, { data, fetchedAt: Date.now() });
    notify(path);
    return data;
  } catch (err) {
    if (entry) cache.set(path, entry);
    else cache.delete(path);
    throw err;
  }
}

/** Replaces the cached answer for `path` (after a mutation that returned it). */
export function setQueryData(path: string, data: unknown): void {
  cache.set(path, { data, fetchedAt: Date.now() });
  notify(path);
}

/** Forgets cached answers whose path starts with `prefix` (all when omitted). */
export function invalidateQueries(prefix = ""): void {
  for (const path of [...cache.keys()]) {
    if (path.startsWith(prefix)) {
      cache.delete(path);
      notify(path);
    }
  }
}

/** State of `useQuery`. */
export interface QueryState<T> {
  data: T | null | undefined;
  error: Error | null;
  isLoading: boolean;
  refetch(): Promise<void>;
}

/**
 * React hook over `cachedQuery`: loads on mount (in an effect, so it never runs on the
 * server) and reloads when the cached entry for `path` is replaced or invalidated.
 */
export function useQuery<T = unknown>(
  path: string | null,
  timing: QueryTiming = DEFAULT_QUERY,
): QueryState<T> {
  const [data, setData] = useState<T | null | undefined>(undefined);
  const [error, setError] = useState<Error | null>(null);
  const [isLoading, setLoading] = useState(path !== null);
  const { staleTime, gcTime } = timing;

  const load = useCallback(async () => {
    if (path === null) return;
    setLoading(true);
    try {
      setData(await cachedQuery<T>(path, { staleTime, gcTime }));
      setError(null);
    } catch (err) {
      setError(err as Error);
    } finally {
      setLoading(false);
    }
  }, [path, staleTime, gcTime]);

  useEffect(() => {
    load();
    const listener = (changed: string) => {
      if (changed !== path) return;
      const entry = cache.get(changed);
      if (entry && !entry.pending) setData(entry.data as T | null);
      else if (!entry) load();
    };
    cacheListeners.add(listener);
    return () => {
      cacheListeners.delete(listener);
    };
  }, [load, path]);

  return { data, error, isLoading, refetch: load };
}
